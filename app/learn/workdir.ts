/**
 * learn's working directory: where the throw-away root's scratch mount
 * point is and where its helper leaves strace's files and the changes
 * (session.ts). Never a shared temp directory: a workload that may write
 * $TMPDIR (another run's, or this user's other processes) could drop files
 * named like trace files there (grants injected into the learned config),
 * a FIFO (learn hangs), or keep writing into it (the clean-up fails). It is
 * a directory of this user's alone, as `boxwright run`'s private
 * directories are (../platforms/cache-dir.ts, privateDir):
 * below the cache root, else below $XDG_RUNTIME_DIR; each directory of the
 * chain owned by this user and written by no one else.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { cacheRoot, privateDir } from '../../targets/run/cache-dir.js';

/** The private directory for one learn run's working files, or why there is none (learn then refuses: 125). */
export function learnWorkDir(env: NodeJS.ProcessEnv = process.env): { readonly dir: string } | { readonly why: string } {
  const reasons: string[] = [];
  const root = cacheRoot(env);
  const runtime = env['XDG_RUNTIME_DIR'];
  const places: [string, string][] = [[root, join(root, 'learn')]];
  if (runtime && isAbsolute(runtime)) places.push([runtime, join(runtime, 'boxwright', 'learn')]);
  for (const [top, parent] of places) {
    const why = privateDir(top, parent);
    if (why) {
      reasons.push(why);
      continue;
    }
    try {
      return { dir: mkdtempSync(join(parent, 'run-')) };
    } catch (e) {
      reasons.push(`cannot make a directory in ${parent}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  }
  return {
    why:
      `no private directory for learn's working files (${reasons.join('; ')}). ` +
      `Make ${root} yours and private (chmod 700), or set XDG_CACHE_HOME or XDG_RUNTIME_DIR to a directory only you can write`,
  };
}

/**
 * Removes the working directory; never throws. Only learn's helper wrote
 * into it, but a removal can still fail (a file system error, a directory
 * made read-only by hand): the path left behind is returned, for learn to
 * name it.
 */
export function removeWorkDir(dir: string): string | undefined {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 2, retryDelay: 20 });
      return undefined;
    } catch {
      // again, then give up and say where it is
    }
  }
  return dir;
}
