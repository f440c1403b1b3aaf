/**
 * Questions about a lowered view, answered from its mount operations and the
 * host disk behind its binds: "does /usr/bin/python3 exist in the sandbox,
 * and what is it on the host?". The runner asks them before it starts
 * anything, so that a command missing from the view is a clear error rather
 * than bubblewrap's `execvp: No such file or directory`.
 */
import { accessSync, constants, lstatSync, readlinkSync, statSync } from 'node:fs';
import { posix } from 'node:path';
import type { MountOp } from './lower.js';

export type Lookup =
  | { readonly found: true; readonly hostPath: string; readonly sandboxPath: string }
  | { readonly found: false; readonly reason: string };

const isUnder = (p: string, dir: string): boolean => dir === '/' || p.startsWith(dir + '/');
const underOrAt = (p: string, dir: string): boolean => p === dir || isUnder(p, dir);

type Node =
  | { readonly kind: 'dir' }
  | { readonly kind: 'file'; readonly hostPath: string }
  | { readonly kind: 'link'; readonly target: string }
  | { readonly kind: 'absent'; readonly why: string }
  | { readonly kind: 'blocked'; readonly why: string };

/** What is at one sandbox path, without following a final link. */
function nodeAt(ops: readonly MountOp[], path: string): Node {
  let governing: MountOp | undefined;
  for (const op of ops) if (underOrAt(path, op.path)) governing = op; // sorted: the last is the deepest, or the later at one path
  if (!governing) return ops.some((o) => isUnder(o.path, path)) ? { kind: 'dir' } : { kind: 'absent', why: 'not in the view' };
  const exact = governing.path === path;
  switch (governing.kind) {
    case 'bind': {
      const host = governing.path + path.slice(governing.path.length);
      try {
        const st = lstatSync(host);
        if (st.isSymbolicLink()) return { kind: 'link', target: readlinkSync(host) };
        if (st.isDirectory()) return { kind: 'dir' };
        return { kind: 'file', hostPath: host };
      } catch {
        return ops.some((o) => isUnder(o.path, path)) ? { kind: 'dir' } : { kind: 'absent', why: `${host} does not exist on this machine` };
      }
    }
    case 'symlink':
      return exact ? { kind: 'link', target: governing.target } : { kind: 'absent', why: 'not in the view' };
    case 'empty-file':
      return { kind: 'blocked', why: `${governing.path} is denied: an empty read-only file covers it` };
    case 'empty-dir':
      return exact ? { kind: 'dir' } : { kind: 'blocked', why: `${governing.path} is denied: an empty directory covers it` };
    case 'dir':
      return exact || ops.some((o) => isUnder(o.path, path)) ? { kind: 'dir' } : { kind: 'absent', why: `${governing.path} is an empty directory in the view` };
    case 'proc':
    case 'dev':
      return { kind: 'blocked', why: `${governing.path} is the sandbox's own ${governing.path}` };
  }
}

/** Resolves a sandbox path through the view's links (and the host's, inside binds) to a host file. */
export function lookupFile(ops: readonly MountOp[], path: string): Lookup {
  let pending = path.split('/').filter((p) => p !== '');
  let current = '';
  let hops = 0;
  while (pending.length) {
    const part = pending.shift()!;
    if (part === '.') continue;
    if (part === '..') {
      current = posix.dirname(current || '/');
      if (current === '/') current = '';
      continue;
    }
    const next = `${current}/${part}`;
    const node = nodeAt(ops, next);
    if (node.kind === 'absent' || node.kind === 'blocked') return { found: false, reason: `${path}: ${node.why}` };
    if (node.kind === 'link') {
      if (++hops > 40) return { found: false, reason: `${path}: too many levels of symbolic links` };
      pending = [...node.target.split('/').filter((p) => p !== ''), ...pending];
      if (node.target.startsWith('/')) current = '';
      continue;
    }
    if (node.kind === 'file') {
      if (pending.length) return { found: false, reason: `${path}: ${next} is not a directory` };
      return { found: true, hostPath: node.hostPath, sandboxPath: next };
    }
    current = next;
  }
  return { found: false, reason: `${path} is a directory` };
}

/** An executable regular file on the host. */
function executable(hostPath: string): boolean {
  try {
    if (!statSync(hostPath).isFile()) return false;
    accessSync(hostPath, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds a command as execvp inside the sandbox would: a name with a `/` is a
 * path (relative to `cwd`), any other name is looked up along PATH.
 */
export function findCommand(ops: readonly MountOp[], command: string, env: { PATH?: string | undefined }, cwd: string): Lookup {
  if (command === '') return { found: false, reason: 'the command name is empty' };
  if (command.includes('/')) {
    const abs = posix.resolve(cwd, command);
    const r = lookupFile(ops, abs);
    if (r.found && !executable(r.hostPath)) return { found: false, reason: `${command} is not an executable file` };
    return r;
  }
  const dirs = (env.PATH ?? '/bin:/usr/bin').split(':');
  const reasons: string[] = [];
  for (const dir of dirs) {
    const abs = posix.resolve(cwd, dir || '.', command);
    const r = lookupFile(ops, abs);
    if (r.found && executable(r.hostPath)) return r;
    if (r.found) reasons.push(`${abs}: not executable`);
  }
  return { found: false, reason: `${command} is not on PATH inside the sandbox (${dirs.filter(Boolean).join(':')})${reasons.length ? `; ${reasons.join('; ')}` : ''}` };
}

/** What an argv (a `.bwrap.args` read back) does to the view: its mount operations, `--chdir` and the empty-data fds. */
export interface ParsedView {
  readonly ops: MountOp[];
  readonly chdir?: string;
  /** The fds `--ro-bind-data` and `--bind-data` read: each must read as empty. */
  readonly dataFds: number[];
  readonly seccompFd?: number;
}

/**
 * Reads bubblewrap options back into mount operations, in argv order (which
 * is bubblewrap's order). Options that take no part in the view are skipped
 * with their operands; an option this parser does not know is an error, so a
 * view is never guessed.
 */
export function viewFromArgv(argv: readonly string[]): ParsedView {
  const ops: MountOp[] = [];
  const dataFds: number[] = [];
  let chdir: string | undefined;
  let seccompFd: number | undefined;
  const operands: Record<string, number> = {
    '--unshare-all': 0, '--share-net': 0, '--die-with-parent': 0, '--new-session': 0, '--unshare-user': 0, '--unshare-ipc': 0, '--unshare-pid': 0,
    '--unshare-net': 0, '--unshare-uts': 0, '--unshare-cgroup': 0, '--unshare-cgroup-try': 0, '--unshare-user-try': 0, '--clearenv': 0, '--as-pid-1': 0,
    '--cap-drop': 1, '--cap-add': 1, '--perms': 1, '--size': 1, '--hostname': 1, '--unsetenv': 1, '--setenv': 2, '--remount-ro': 1, '--chmod': 2,
    '--info-fd': 1, '--json-status-fd': 1, '--sync-fd': 1, '--block-fd': 1, '--lock-file': 1, '--uid': 1, '--gid': 1,
  };
  const origin = 'baseline' as const;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const arg = (k: number): string => {
      const v = argv[i + k];
      if (v === undefined) throw new Error(`${a} needs ${k} operand${k > 1 ? 's' : ''}`);
      return v;
    };
    switch (a) {
      case '--bind':
      case '--ro-bind':
      case '--dev-bind':
        if (arg(1) !== arg(2)) throw new Error(`${a} ${arg(1)} ${arg(2)}: boxwright's views bind each path onto itself`);
        ops.push({ kind: 'bind', path: arg(2), write: a !== '--ro-bind', origin });
        i += 2;
        break;
      case '--ro-bind-data':
      case '--bind-data':
      case '--file':
        dataFds.push(Number(arg(1)));
        ops.push({ kind: 'empty-file', path: arg(2), fd: Number(arg(1)), origin });
        i += 2;
        break;
      case '--tmpfs':
        ops.push({ kind: 'empty-dir', path: arg(1), origin });
        i += 1;
        break;
      case '--dir':
        ops.push({ kind: 'dir', path: arg(1), origin });
        i += 1;
        break;
      case '--symlink':
        ops.push({ kind: 'symlink', path: arg(2), target: arg(1), origin });
        i += 2;
        break;
      case '--proc':
        ops.push({ kind: 'proc', path: arg(1), origin });
        i += 1;
        break;
      case '--dev':
        ops.push({ kind: 'dev', path: arg(1), origin });
        i += 1;
        break;
      case '--chdir':
        chdir = arg(1);
        i += 1;
        break;
      case '--seccomp':
        seccompFd = Number(arg(1));
        i += 1;
        break;
      default: {
        const n = operands[a];
        if (n === undefined) throw new Error(`unknown bubblewrap option in a view: ${JSON.stringify(a)}`);
        i += n;
      }
    }
  }
  return { ops, ...(chdir !== undefined ? { chdir } : {}), dataFds, ...(seccompFd !== undefined ? { seccompFd } : {}) };
}
