/**
 * The workload's file accesses, from the per-process strace files of a run
 * (strace.ts reads each). The run is bubblewrap's, so its files hold
 * bubblewrap's own set-up and the in-sandbox step too: the workload starts
 * at the first program the in-sandbox step (/.boxwright/exec) executes, and
 * is that process from there on and every process it, or one of them,
 * starts. Each access says what the call did to which path, as the process
 * named it (made absolute against its directory descriptor or working
 * directory), and what it returned.
 */
import { SANDBOX_EXEC_PATH } from '../../targets/linux/launcher/index.js';
import type { Arg, Call } from './strace.js';

/**
 * What a call did at a path:
 * - `read` opened a file to read; `write` opened it to write or truncate;
 * - `create` made a name (a file, directory, link, node, socket) and `remove` took one away, in the path's directory;
 * - `modify` changed a file's properties (mode, owner, times, size, attributes);
 * - `list` read a directory's names; `stat` looked at a path (properties, a link, existence, a directory opened to walk);
 * - `exec` ran it; `connect` reached a socket, a unix one at the path or an address (`address`).
 */
export type Op = 'read' | 'write' | 'create' | 'remove' | 'modify' | 'list' | 'stat' | 'exec' | 'connect';

export interface Access {
  readonly pid: number;
  /** The program the process was running (its last execve), as named. */
  readonly program: string;
  readonly syscall: string;
  readonly op: Op;
  /** Absolute, as the process named it (links and `..` left as they are). */
  readonly path: string;
  /** The path the kernel resolved it to, when the call returned a descriptor. */
  readonly resolved?: string;
  /** For `create` with O_CREAT: the call may have opened an existing file rather than made one. */
  readonly mayExist?: true;
  /** For `create` with O_TMPFILE: the path is the directory the unnamed file was made in, not the file's name. */
  readonly unnamed?: true;
  /** A rename's other end (`remove` at the source, `create` at the destination): both directories must be in one mount. */
  readonly renamedWith?: string;
  /** `connect` to a network address (`1.2.3.4:443`, `[::1]:53`) or an abstract unix socket (`@name`): no path. */
  readonly address?: string;
  readonly ok: boolean;
  readonly errno?: string;
}

export interface WorkloadTrace {
  readonly accesses: readonly Access[];
  /** Whether the workload started: the in-sandbox step executed the command. */
  readonly started: boolean;
  /** Call lines that could not be read (a path that is not UTF-8, or strace's output cut short). */
  readonly unread: number;
  readonly processes: number;
}

const CLONES = new Set(['clone', 'clone3', 'fork', 'vfork']);

/** Where a path argument is, and the directory descriptor it is relative to (`null`: the working directory). */
interface PathAt {
  readonly path: number;
  readonly dirfd: number | null;
}

const at = (path: number, dirfd: number | null = null): PathAt => ({ path, dirfd });

const STAT: Record<string, PathAt> = {
  stat: at(0),
  lstat: at(0),
  stat64: at(0),
  lstat64: at(0),
  access: at(0),
  readlink: at(0),
  statfs: at(0),
  statfs64: at(0),
  getxattr: at(0),
  lgetxattr: at(0),
  listxattr: at(0),
  llistxattr: at(0),
  faccessat: at(1, 0),
  faccessat2: at(1, 0),
  newfstatat: at(1, 0),
  fstatat64: at(1, 0),
  statx: at(1, 0),
  readlinkat: at(1, 0),
  inotify_add_watch: at(1),
};
const CREATE: Record<string, PathAt> = {
  mkdir: at(0),
  mknod: at(0),
  mkdirat: at(1, 0),
  mknodat: at(1, 0),
  symlink: at(1),
  symlinkat: at(2, 1),
  link: at(1),
  linkat: at(3, 2),
};
const REMOVE: Record<string, PathAt> = { unlink: at(0), rmdir: at(0), unlinkat: at(1, 0) };
const MODIFY: Record<string, PathAt> = {
  chmod: at(0),
  chown: at(0),
  lchown: at(0),
  truncate: at(0),
  truncate64: at(0),
  utime: at(0),
  utimes: at(0),
  setxattr: at(0),
  lsetxattr: at(0),
  removexattr: at(0),
  lremovexattr: at(0),
  fchmodat: at(1, 0),
  fchmodat2: at(1, 0),
  fchownat: at(1, 0),
  futimesat: at(1, 0),
  utimensat: at(1, 0),
};
const MODIFY_FD = new Set(['fchmod', 'fchown', 'ftruncate', 'ftruncate64', 'fallocate', 'fsetxattr', 'fremovexattr']);
const RENAME: Record<string, readonly [PathAt, PathAt]> = {
  rename: [at(0), at(1)],
  renameat: [at(1, 0), at(3, 2)],
  renameat2: [at(1, 0), at(3, 2)],
};

const str = (a: Arg | undefined): string | undefined => (a?.kind === 'string' && !a.truncated ? a.value : undefined);
const fdPath = (a: Arg | undefined): string | undefined => (a?.kind === 'fd' ? a.path : undefined);
const text = (a: Arg | undefined): string => (a?.kind === 'other' ? a.text : a?.kind === 'fd' ? a.text : '');

/** `base/p` for a relative p; `..` and `.` are the kernel's to resolve (the host walk does). */
function absolute(p: string, base: string | undefined): string | undefined {
  if (p.startsWith('/')) return p;
  if (base === undefined) return undefined;
  if (p === '' || p === '.') return base;
  return base === '/' ? `/${p}` : `${base}/${p}`;
}

/** The open flags of open/openat/creat/openat2, as strace names them. */
function openFlags(call: Call): readonly string[] {
  if (call.name === 'creat') return ['O_WRONLY', 'O_CREAT', 'O_TRUNC'];
  const arg = call.args[call.name === 'open' ? 1 : 2];
  let t = text(arg);
  if (call.name === 'openat2') t = /flags=([A-Z0-9_|]+)/.exec(t)?.[1] ?? '';
  return t.split('|').map((f) => f.trim());
}

/** What an open did: read, write, make a name, or only look (O_PATH, a directory opened to walk). */
function openOp(flags: readonly string[]): { op: Op; mayExist?: true; unnamed?: true } {
  if (flags.includes('O_TMPFILE')) return { op: 'create', unnamed: true };
  if (flags.includes('O_PATH')) return { op: 'stat' };
  const writes = flags.includes('O_WRONLY') || flags.includes('O_RDWR') || flags.includes('O_TRUNC');
  if (flags.includes('O_CREAT')) return { op: 'create', mayExist: true };
  if (writes) return { op: 'write' };
  if (flags.includes('O_DIRECTORY')) return { op: 'stat' };
  return { op: 'read' };
}

/** A socket address as strace prints it: a unix path, `@abstract`, or `host:port`. */
function socketAddress(t: string): { path?: string; address?: string } | undefined {
  const unix = /sa_family=AF_UNIX, sun_path=(@?)"((?:\\x[0-9a-f]{2})*)"/.exec(t);
  if (unix) {
    const value = decodeHex(unix[2]!);
    if (value === undefined) return undefined;
    return unix[1] ? { address: `@${value}` } : { path: value };
  }
  const v4 = /sa_family=AF_INET, sin_port=htons\((\d+)\), sin_addr=inet_addr\("((?:\\x[0-9a-f]{2})*)"\)/.exec(t);
  if (v4) return { address: `${decodeHex(v4[2]!) ?? '?'}:${v4[1]}` };
  const v6 = /sa_family=AF_INET6, sin6_port=htons\((\d+)\).*?inet_pton\(AF_INET6, "((?:\\x[0-9a-f]{2})*)"/.exec(t);
  if (v6) return { address: `[${decodeHex(v6[2]!) ?? '?'}]:${v6[1]}` };
  return undefined;
}

function decodeHex(h: string): string | undefined {
  const bytes = h.match(/\\x[0-9a-f]{2}/g)?.map((x) => parseInt(x.slice(2), 16)) ?? [];
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
  } catch {
    return undefined;
  }
}

interface Process {
  readonly pid: number;
  /** From this call on, the process is the workload's. */
  readonly from: number;
  program: string;
  cwd: string | undefined;
}

/**
 * The workload's accesses. `files` maps each traced pid to its calls;
 * `cwd` is the directory the command started in.
 */
export function workloadAccesses(
  files: ReadonlyMap<number, { readonly calls: readonly Call[]; readonly unread: number }>,
  cwd: string,
): WorkloadTrace {
  // The workload's first process: the one in which the in-sandbox step, once
  // executed, executed the command: the step itself, or (under Landlock, with
  // the exec watch) the child it forked, while the step stays behind as the
  // watcher, whose execveat(AT_EXECVE_CHECK) calls execute nothing.
  let first: Process | undefined;
  for (const [pid, { calls }] of files) {
    const step = calls.findIndex((c) => c.name === 'execve' && c.result.kind === 'ok' && str(c.args[0]) === SANDBOX_EXEC_PATH);
    if (step < 0) continue;
    first = commandProcess(files, pid, step + 1, cwd);
    break;
  }
  if (!first) return { accesses: [], started: false, unread: 0, processes: 0 };
  const accesses: Access[] = [];
  const queue: Process[] = [first];
  let unread = 0;
  let processes = 0;
  for (let next = queue.shift(); next; next = queue.shift()) {
    const proc = next;
    const file = files.get(proc.pid);
    if (!file) continue;
    processes++;
    unread += file.unread;
    const calls = file.calls;
    for (let i = proc.from; i < calls.length; i++) {
      const call = calls[i]!;
      if (CLONES.has(call.name)) {
        // The child's pid as strace's files name it (its own namespace's, not the sandbox's).
        if (call.result.kind === 'ok' && call.result.value > 0)
          queue.push({ pid: call.result.hostPid ?? call.result.value, from: 0, program: proc.program, cwd: proc.cwd });
        continue;
      }
      // The working directory as the kernel names it; one removed while the process was in it names nothing any more.
      for (const a of call.args) if (a.kind === 'fd' && a.text === 'AT_FDCWD' && (a.path || a.deleted)) proc.cwd = a.path;
      const made = accessesOf(call, proc);
      accesses.push(...made);
      if ((call.name === 'execve' || call.name === 'execveat') && call.result.kind === 'ok' && made[0]) proc.program = made[0].path;
    }
  }
  return { accesses, started: true, unread, processes };
}

/** An exec that executed a program: not an execveat(AT_EXECVE_CHECK), which only asks the kernel whether it would (strace 6.1 prints the flag as a number). */
function executes(c: Call): boolean {
  if ((c.name !== 'execve' && c.name !== 'execveat') || c.result.kind !== 'ok') return false;
  const flags = c.name === 'execveat' ? c.args[4] : undefined;
  return !(flags?.kind === 'other' && /AT_EXECVE_CHECK|0x10000/.test(flags.text));
}

/** Where the command was executed: in `pid` from call `from` on, or else in the first of its children that executed a program. */
function commandProcess(
  files: ReadonlyMap<number, { readonly calls: readonly Call[] }>,
  pid: number,
  from: number,
  cwd: string,
): Process | undefined {
  const calls = files.get(pid)?.calls ?? [];
  const own = calls.findIndex((c, i) => i >= from && executes(c));
  const children = calls
    .slice(from, own < 0 ? calls.length : own)
    .filter((c) => CLONES.has(c.name) && c.result.kind === 'ok' && c.result.value > 0);
  if (own >= 0) return { pid, from: own, program: str(calls[own]!.args[0]) ?? '?', cwd };
  for (const c of children) {
    const child = c.result.kind === 'ok' ? (c.result.hostPid ?? c.result.value) : -1;
    const found = commandProcess(files, child, 0, cwd);
    if (found) return found;
  }
  return undefined;
}

/** The accesses one call makes (most make one; rename two; most calls none). */
function accessesOf(call: Call, proc: Process): Access[] {
  const ok = call.result.kind === 'ok';
  const errno = call.result.kind === 'error' ? call.result.errno : undefined;
  const base = { pid: proc.pid, program: proc.program, syscall: call.name, ok, ...(errno ? { errno } : {}) };
  const pathAt = (p: PathAt): string | undefined => {
    const arg = call.args[p.path];
    // utimensat(fd, NULL, …) and AT_EMPTY_PATH calls name the descriptor itself.
    const name = arg?.kind === 'other' && arg.text === 'NULL' ? '' : str(arg);
    if (name === undefined) return undefined;
    const dirArg = p.dirfd === null ? undefined : call.args[p.dirfd];
    // A directory descriptor strace could not name (no `<path>`) leaves a relative name unknown, never guessed.
    const dir =
      p.dirfd === null
        ? proc.cwd
        : dirArg?.kind === 'fd'
          ? dirArg.text === 'AT_FDCWD'
            ? dirArg.deleted
              ? undefined
              : (dirArg.path ?? proc.cwd)
            : dirArg.path
          : dirArg?.kind === 'other' && dirArg.text === 'AT_FDCWD'
            ? proc.cwd
            : undefined;
    return absolute(name, name === '' && p.dirfd !== null ? fdPath(call.args[p.dirfd]) : dir);
  };
  const one = (op: Op, p: PathAt, extra: Partial<Access> = {}): Access[] => {
    const path = pathAt(p);
    return path ? [{ ...base, op, path, ...extra }] : [];
  };
  const name = call.name;
  if (name === 'open' || name === 'openat' || name === 'openat2' || name === 'creat') {
    const { op, mayExist, unnamed } = openOp(openFlags(call));
    const resolved = call.result.kind === 'ok' ? call.result.path : undefined;
    return one(op, name === 'open' || name === 'creat' ? at(0) : at(1, 0), {
      ...(resolved ? { resolved } : {}),
      ...(mayExist ? { mayExist } : {}),
      ...(unnamed ? { unnamed } : {}),
    });
  }
  if (name === 'execve') return one('exec', at(0));
  if (name === 'execveat') return one('exec', at(1, 0));
  if (name === 'chdir' || name === 'fchdir') {
    const path = name === 'chdir' ? pathAt(at(0)) : fdPath(call.args[0]);
    if (ok && path) proc.cwd = path;
    else if (ok && name === 'fchdir') proc.cwd = undefined; // into a directory strace could not name (removed): relative names are unknown
    return path ? [{ ...base, op: 'stat', path }] : [];
  }
  if (name === 'getdents64' || name === 'getdents') {
    const path = fdPath(call.args[0]);
    return path ? [{ ...base, op: 'list', path }] : [];
  }
  if (MODIFY_FD.has(name)) {
    const path = fdPath(call.args[0]);
    return path ? [{ ...base, op: 'modify', path }] : [];
  }
  if (name === 'connect' || name === 'sendto' || name === 'bind') {
    const addr = socketAddress(text(call.args[name === 'sendto' ? 4 : 1]));
    if (!addr) return [];
    if (addr.address) return [{ ...base, op: 'connect', path: '', address: addr.address }];
    const path = absolute(addr.path!, proc.cwd);
    // bind makes the socket's name in its directory; connect reaches it.
    return path ? [{ ...base, op: name === 'bind' ? 'create' : 'connect', path }] : [];
  }
  const renamed = RENAME[name];
  if (renamed) {
    const from = pathAt(renamed[0]);
    const to = pathAt(renamed[1]);
    if (!from || !to) return [];
    return [
      { ...base, op: 'remove', path: from, renamedWith: to },
      { ...base, op: 'create', path: to, renamedWith: from },
    ];
  }
  const table: [Record<string, PathAt>, Op][] = [
    [STAT, 'stat'],
    [CREATE, 'create'],
    [REMOVE, 'remove'],
    [MODIFY, 'modify'],
  ];
  for (const [t, op] of table) {
    const p = t[name];
    if (!p) continue;
    // fstat through AT_EMPTY_PATH looks at a descriptor the process already has (its stdout, say): no path is named.
    if (op === 'stat' && str(call.args[p.path]) === '') return [];
    return one(op, p);
  }
  return [];
}
