import { execFileSync } from 'node:child_process';
import { lookOnPath } from '../host-programs.js';
import { homeOf, type CliIo } from './io.js';
import { UsageError } from './options.js';

/** git, looked up as every host program boxwright executes: in the PATH directories outside the home (host-programs.ts), the command's. */
const found = new Map<string, string>();
function gitProgram(io: Pick<CliIo, 'env'>): string {
  const key = `${homeOf(io)}\0${io.env['PATH'] ?? ''}`;
  const known = found.get(key);
  if (known) return known;
  const hit = lookOnPath('git', io.env, [homeOf(io)]);
  if (!hit.path)
    throw new UsageError(
      `\`diff --git\` needs git, which is not installed in the PATH directories outside your home` +
        `${hit.skipped.length ? ` (passed over, where a principal may write: ${hit.skipped.join(', ')})` : ''}`,
    );
  found.set(key, hit.path);
  return hit.path;
}

/**
 * git, for `diff --git REV`: run with its output captured (never printed
 * through), each failure turned into a usage error in words: no git, no
 * repository, an unknown revision.
 */
export function git(io: Pick<CliIo, 'env'>, cwd: string, args: readonly string[]): Buffer {
  try {
    return execFileSync(gitProgram(io), args, { cwd, env: io.env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 << 20 });
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const err = e as NodeJS.ErrnoException & { stderr?: Buffer };
    if (err.code === 'ENOENT') throw new UsageError('`diff --git` needs git, which is not installed or not on PATH');
    const said = err.stderr?.toString().trim().split('\n')[0];
    throw new UsageError(`git ${args[0]} failed${said ? `: ${said}` : ''}`);
  }
}

/** The top of the work tree the current directory is in, or a usage error outside one. */
export function repositoryRoot(io: Pick<CliIo, 'env'>, cwd: string): string {
  try {
    return git(io, cwd, ['rev-parse', '--show-toplevel']).toString('utf8').trim();
  } catch (e) {
    if (e instanceof UsageError && /needs git/.test(e.message)) throw e;
    throw new UsageError(
      `\`diff --git\` compares with a revision of the git repository the current directory is in, and ${cwd} is not inside one`,
    );
  }
}

/** The commit a revision names, or a usage error naming the revision. */
export function resolveRevision(io: Pick<CliIo, 'env'>, root: string, rev: string): string {
  if (rev === '' || rev.startsWith('-')) throw new UsageError(`\`${rev}\` is not a revision: name a branch, a tag or a commit`);
  try {
    return git(io, root, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`])
      .toString('utf8')
      .trim();
  } catch {
    throw new UsageError(`\`${rev}\` is not a revision of this repository (a branch, a tag or a commit: \`git log\` lists them)`);
  }
}

/** A file's bytes at a commit, or undefined when the commit has no such file. `path` is relative to the root, with `/`. */
export function showAt(io: Pick<CliIo, 'env'>, root: string, commit: string, path: string): Uint8Array | undefined {
  const listed = git(io, root, ['ls-tree', '-z', commit, '--', path]).toString('utf8');
  const entry = listed.split('\0').find((l) => l.endsWith(`\t${path}`));
  if (!entry || !/^\d+ blob /.test(entry)) return undefined;
  return git(io, root, ['cat-file', 'blob', `${commit}:${path}`]);
}

/** The names a sandbox config can have: TOML (Box, TYBA) and JSON (sandbox-runtime and Claude Code settings). */
const configPatterns = ['*.toml', '*.TOML', '*.json', '*.JSON'];

/**
 * The `.toml` and `.json` files that differ between a commit and the
 * working tree (added, deleted, changed: a rename counts as both), and the
 * untracked ones (a new config not yet added), relative to the root.
 */
export function changedTomlFiles(io: Pick<CliIo, 'env'>, root: string, commit: string): string[] {
  const fields = git(io, root, ['diff', '--name-only', '-z', '--no-renames', commit, '--', ...configPatterns])
    .toString('utf8')
    .split('\0');
  const untracked = git(io, root, ['ls-files', '-z', '--others', '--exclude-standard', '--', ...configPatterns])
    .toString('utf8')
    .split('\0');
  return [...new Set([...fields, ...untracked].filter(Boolean))].sort();
}
