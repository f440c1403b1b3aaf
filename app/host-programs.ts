/**
 * The host programs boxwright executes by name are looked up nowhere a
 * principal may have written: in the PATH directories that are absolute
 * and outside every home (this user's, and `--home`), where write grants
 * are given; a system directory is root's. `~/.local/bin` first on PATH
 * (where any `pip install --user` config lets the workload write) is passed
 * over, and said (`skipped`). bubblewrap (targets/linux/run/sandbox/bwrap.ts), doctor's trial
 * commands, git (`diff --git`) and learn's strace are found this way.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
// The module, not the index (which loads the schema's validators): the fast path locates bubblewrap too.
import { isUnder } from '../compiler/paths/spelling.js';

/** The homes the lookup on PATH stays out of: this user's, and `--home`. */
export const lookupHomes = (home: string | undefined): string[] => [homedir(), ...(home ? [home] : [])];

/** A regular file this process may execute. */
export function executable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** A program by name in the PATH directories that are absolute and outside every home; `skipped`: the executables of that name passed over. */
export function lookOnPath(
  name: string,
  env: NodeJS.ProcessEnv,
  homes: readonly string[],
): { readonly path?: string; readonly skipped: readonly string[] } {
  const skipped: string[] = [];
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, name);
    if (!isAbsolute(dir) || homes.some((h) => isUnder(resolve(dir), h))) {
      if (executable(file)) skipped.push(file);
      continue;
    }
    if (executable(file)) return { path: file, skipped };
  }
  return { skipped };
}
