/**
 * Where a run without a cache entry keeps its files (its launcher, its
 * compiled sandbox, a config read from standard input; on macOS its
 * profile): a fresh 0700 directory in a place no one else's workload can
 * write. The protected cache root's `run/` (private to the user, a path no
 * grant may name), else `$XDG_RUNTIME_DIR/boxwright` (the user's runtime
 * directory, 0700 by the XDG spec and checked here), else nowhere: the run
 * refuses (exit 125) with the remedy.
 *
 * Never the host's shared temp (`/tmp`, `/var/tmp`, `$TMPDIR`) nor any
 * directory others can write: the vet asks only whether this config's
 * principals reach a place, and another run's workload that may write
 * `/tmp` replaced a victim's `agent.run` there before it ran; the victim
 * then ran that file on the host with full capabilities (issue 34,
 * attack 5). A candidate whose parent is world-writable or sticky (an
 * `XDG_CACHE_HOME=/tmp` or `XDG_RUNTIME_DIR=/tmp`) is refused like one
 * that is not private.
 */
import { mkdtempSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { isUnder } from '../../compiler/paths/index.js';
import { cacheRoot, privateDir, untrusted } from './cache-dir.js';

/** The places a run's own directory may be made in, in order of preference (each a path to make private). */
export function runDirCandidates(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string[] {
  const runtime = env['XDG_RUNTIME_DIR'];
  return [join(cacheRoot(env, home), 'run'), ...(runtime && isAbsolute(runtime) ? [join(runtime, 'boxwright')] : [])];
}

/**
 * The first candidate that is (or was just made) private to this user and
 * whose parent is no shared directory, and that `reached` (why a principal
 * of this config could change it, if one could) does not refuse; else why
 * none is, with the remedy.
 */
export function runDirParent(
  reached: (candidate: string) => string | undefined = () => undefined,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): { readonly dir: string } | { readonly why: string } {
  const reasons: string[] = [];
  const root = cacheRoot(env, home);
  for (const candidate of runDirCandidates(env, home)) {
    const reach = reached(candidate);
    if (reach) {
      reasons.push(reach);
      continue;
    }
    // The runtime directory itself must already be the user's alone (the XDG
    // spec's 0700); the cache root's parent no shared directory (privateDir).
    const inCache = isUnder(candidate, root);
    const made = (inCache ? undefined : untrusted(dirname(candidate))) ?? privateDir(inCache ? root : candidate, candidate);
    if (!made) return { dir: candidate };
    reasons.push(made);
  }
  const runtime = env['XDG_RUNTIME_DIR'];
  if (!runtime) reasons.push('XDG_RUNTIME_DIR is not set');
  else if (!isAbsolute(runtime)) reasons.push(`XDG_RUNTIME_DIR (${runtime}) is not an absolute path`);
  return {
    why:
      `no private directory for this run's sandbox (${reasons.join('; ')}); it is never made in a ` +
      `shared temp directory, where another run's workload could replace the launcher. Make ${root} yours ` +
      `and private (chmod 700), set XDG_CACHE_HOME to a directory only you can write, or set ` +
      `XDG_RUNTIME_DIR to your runtime directory (/run/user/${process.getuid?.() ?? 'UID'})`,
  };
}

/** A fresh directory for one run (0700, mkdtemp), in a place runDirParent chose. */
export function makeRunDir(parent: string): string {
  return mkdtempSync(join(parent, `.run-${process.pid}-`));
}
