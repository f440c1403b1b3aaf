/**
 * boxwright's cache directory: `$XDG_CACHE_HOME/boxwright`, else
 * `~/.cache/boxwright`. It holds the sandboxes `boxwright run` compiled
 * (run/) and per-boot machine facts. Private to the user: made 0700, and
 * refused when another user owns it or can write it (as ssh refuses a
 * key file others can read) or when it lies in a shared directory such as
 * /tmp, since whoever writes it decides what the
 * next `run` executes. A protected path (compiler/paths/protected.ts):
 * no grant may name it, and a grant of an ancestor warns.
 */
import { lstatSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';

export function cacheRoot(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  const xdg = env['XDG_CACHE_HOME'];
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, '.cache'), 'boxwright');
}

/** Why `dir` cannot be trusted as a private directory, or undefined. */
export function untrusted(dir: string): string | undefined {
  let st;
  try {
    st = lstatSync(dir);
  } catch (e) {
    return `cannot read ${dir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
  }
  if (!st.isDirectory()) return `${dir} is not a directory${st.isSymbolicLink() ? ' (a symbolic link)' : ''}`;
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) return `${dir} belongs to uid ${st.uid}, not to you (uid ${uid})`;
  if ((st.mode & 0o022) !== 0) return `${dir} can be written by others (mode ${(st.mode & 0o777).toString(8)})`;
  return undefined;
}

/**
 * Every directory from `root` down to `dir` (`dir` is `root` or below it)
 * private to this user: each one that exists is checked before anything is
 * made inside it, each missing one is made 0700. Returns why not, or
 * undefined.
 */
export function privateDir(root: string, dir: string): string | undefined {
  const shared = sharedParent(root);
  if (shared) return shared;
  const below = relative(root, dir);
  const chain = [root, ...(below === '' ? [] : below.split(sep).map((_, i, parts) => join(root, ...parts.slice(0, i + 1))))];
  try {
    mkdirSync(dirname(root), { recursive: true, mode: 0o700 });
  } catch (e) {
    return `cannot make ${dirname(root)}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
  }
  for (const d of chain) {
    try {
      mkdirSync(d, { mode: 0o700 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST')
        return `cannot make ${d}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
    }
    const why = untrusted(d);
    if (why) return why;
  }
  return undefined;
}

/**
 * Why `dir`'s parent is a shared directory (writable by others, or sticky:
 * /tmp, /var/tmp), or undefined. A private directory there is not private
 * for long: a workload of another run that may write the shared directory
 * runs as this user, so it can rename the directory away and put its own
 * in its place (an `XDG_CACHE_HOME=/tmp` or `XDG_RUNTIME_DIR=/tmp`; issue 34).
 */
export function sharedParent(dir: string): string | undefined {
  const parent = dirname(dir);
  let st;
  try {
    st = lstatSync(parent);
  } catch {
    return undefined; // made 0700 by privateDir
  }
  if ((st.mode & 0o1000) !== 0 || (st.mode & 0o002) !== 0)
    return `${dir} is in ${parent}, a directory others may write (mode ${(st.mode & 0o7777).toString(8)})`;
  return undefined;
}
