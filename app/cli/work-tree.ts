import { closeSync, lstatSync, openSync, readSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Whether `dir` holds a git repository as git itself decides
 * (setup.c, is_git_directory): a `.git` directory with a `HEAD` file and
 * `objects` and `refs` directories, or a `.git` file naming one
 * (`gitdir: …`, a linked work tree or a submodule). An empty `.git`
 * directory is not one: Codex makes one in every writable root for the
 * length of a run (its read-only mount point), and a workload can make
 * one anywhere it may write. Taken for a repository, `/tmp/.git` made
 * `/tmp` the work tree of every config below it, and compile --out read
 * every sandbox config under `/tmp` before it would write.
 */
function holdsRepository(dir: string): boolean {
  const git = join(dir, '.git');
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(git);
  } catch {
    return false;
  }
  if (st.isFile()) return startsWith(git, 'gitdir: ');
  if (!st.isDirectory()) return false;
  try {
    return (
      lstatSync(join(git, 'HEAD')).isFile() && lstatSync(join(git, 'objects')).isDirectory() && lstatSync(join(git, 'refs')).isDirectory()
    );
  } catch {
    return false;
  }
}

/** Whether the regular file at `path` starts with `prefix` (read: at most its length). */
function startsWith(path: string, prefix: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(prefix.length);
    return readSync(fd, buffer, 0, prefix.length, 0) === prefix.length && buffer.toString('latin1') === prefix;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The top of the git work tree `dir` is in (the nearest ancestor holding a
 * repository, holdsRepository), or undefined outside one: what SARIF's
 * URIs are relative to, as code scanning expects, and the repository whose
 * configs compile --out asks. Found without running git, which a lint
 * would otherwise pay for at start-up.
 */
export function workTreeRoot(dir: string): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    if (holdsRepository(d)) return d;
    if (dirname(d) === d) return undefined;
  }
}
