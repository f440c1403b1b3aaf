/**
 * One traced run in the throw-away root: `boxwright-sandbox
 * --throwaway-root` (targets/linux/launcher/throwaway.c) makes the host's
 * tree out of overlays in a namespace of its own, strace follows every
 * process from outside (ptrace: nothing of the tracer is inside the
 * sandbox, and a process cannot hide a call from it), and the program it
 * traces is either bubblewrap with learn's sandbox (learn) or a compiled
 * sandbox's launcher (`learn --check`). Nothing the run writes reaches the
 * host: the upper layers vanish with the namespace. What comes back is the
 * strace file of every process, what the upper layers held (the changes),
 * and how the run ended.
 *
 * The working directory is private (workdir.ts), and of what the helper
 * left there learn reads only the files it names (trace.PID, changes,
 * bound), each opened without following a link and without blocking on a
 * FIFO, and only when it is a regular file; the traces are read a chunk at
 * a time, up to --max-events calls (bounds.ts). The command's standard
 * streams are the helper's to hand over (pipes for regular files and
 * directories, as `run` does it: targets/linux/launcher/stdio.c).
 */
import { spawn } from 'node:child_process';
import { closeSync, constants as fsc, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import type { Bound, LearnBounds } from './bounds.js';
import { parseTrace, type Call } from './strace.js';
import { learnWorkDir, removeWorkDir } from './workdir.js';

/** Where the throw-away root shows the run's own directory (BASE/keep): strace writes its files there. */
export const KEEP_INSIDE = '/.boxwright/learn';

/**
 * The calls strace records: every call that names a path (%file), makes or
 * ends a process (%process), reads a directory, changes a file through a
 * descriptor, or reaches a socket. Nothing else is stopped for
 * (--seccomp-bpf), so the run is not much slower than untraced.
 */
const TRACED = [
  '%file',
  '%process',
  'getdents64',
  'getdents',
  'fchdir',
  'fchmod',
  'fchown',
  'ftruncate',
  'fallocate',
  'fsetxattr',
  'fremovexattr',
  'connect',
  'bind',
  'sendto',
];

export function straceArgv(strace: string, prefix: string): string[] {
  return [
    strace,
    '-ff',
    '-o',
    prefix,
    '-qq',
    '-xx',
    '-y',
    '--decode-pids=pidns',
    '-s',
    '4096',
    '--seccomp-bpf',
    '-e',
    'signal=none',
    '-e',
    `trace=${TRACED.join(',')}`,
    '--',
  ];
}

export interface TracedRun {
  /** The throw-away root's helper (boxwright-sandbox). */
  readonly helper: string;
  readonly strace: string;
  /** What strace runs: bubblewrap with its arguments, or a launcher. */
  readonly program: readonly string[];
  readonly cwd: string;
  readonly env: Record<string, string>;
  /** Directories the run may write, each an overlay of its own without root (throwaway.c). */
  readonly writable: readonly string[];
  /** Descriptors 3, 4, … of the traced program: data written to it and closed (a seccomp program), or read back (a status). */
  readonly fds?: readonly ({ readonly write: Uint8Array } | { readonly read: true })[];
  readonly timeoutSeconds?: number;
  /** The descriptor whose first line says the command started (the in-sandbox step's ready line): the timeout counts from it, not from the set-up. */
  readonly startedOn?: number;
  /** Who a forwarded SIGINT, SIGTERM or SIGHUP goes to: the command (from bubblewrap's status) or the traced program itself. */
  readonly forwardTo: 'command' | 'program';
  readonly bounds: LearnBounds;
}

export interface TracedOutcome {
  /** The helper's status: the traced program's (strace's, which is its tracee's), 125 when the root could not be made. */
  readonly status: number;
  readonly timedOut: boolean;
  /** Each traced process's calls. */
  readonly processes: ReadonlyMap<number, { readonly calls: readonly Call[]; readonly unread: number }>;
  /** What the upper layers held when the run ended: `kind path` (throwaway.c). */
  readonly changes: readonly { readonly kind: string; readonly path: string }[];
  /** What was read back from each `{ read: true }` descriptor, by number. */
  readonly read: ReadonlyMap<number, string>;
  /** The bound that ended the run (the helper's `trace` or `writes`), or ended the reading of the trace (`events`). */
  readonly bound?: Bound;
  /** Why nothing ran (no private working directory): learn refuses, 125. */
  readonly refused?: string;
  /** What learn could not use or remove of its working files: each a line to say. */
  readonly notes: readonly string[];
}

const FORWARDED: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** The pids below `pid`, every generation (from /proc/PID/task/TID/children). */
function descendants(pid: number): number[] {
  const out: number[] = [];
  const queue = [pid];
  for (let p = queue.shift(); p !== undefined; p = queue.shift()) {
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${p}/task`);
    } catch {
      continue;
    }
    for (const t of tasks) {
      let text = '';
      try {
        text = readFileSync(`/proc/${p}/task/${t}/children`, 'utf8');
      } catch {
        continue;
      }
      for (const c of text.split(' ').filter(Boolean).map(Number)) {
        out.push(c);
        queue.push(c);
      }
    }
  }
  return out;
}

/** bubblewrap's `child-pid` (the sandbox's init) from its JSON status, and its first child: the command. */
function commandPid(status: string): number | undefined {
  const init = /"child-pid"\s*:\s*(\d+)/.exec(status)?.[1];
  if (!init) return undefined;
  try {
    const first = readFileSync(`/proc/${init}/task/${init}/children`, 'utf8').trim().split(' ')[0];
    return first ? Number(first) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A file the helper left in the working directory, opened by descriptor:
 * never through a link, never blocking on a FIFO, a regular file only.
 * The descriptor, or undefined (absent); anything else is a note.
 */
function openLeft(path: string, notes: string[]): number | undefined {
  let fd: number;
  try {
    fd = openSync(path, fsc.O_RDONLY | fsc.O_NOFOLLOW | fsc.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') notes.push(`${path} was not read: ${code === 'ELOOP' ? 'a symbolic link' : (code ?? (e as Error).message)}`);
    return undefined;
  }
  if (fstatSync(fd).isFile()) return fd;
  closeSync(fd);
  notes.push(`${path} was not read: it is not a regular file`);
  return undefined;
}

const CHUNK = 1 << 20;

/**
 * One trace file, a chunk of whole lines at a time (each process's file
 * holds its calls one a line: strace -ff never splits one), at most
 * `budget` calls; `over` when there were more.
 */
function readTrace(fd: number, budget: number): { calls: Call[]; unread: number; over: boolean } {
  const calls: Call[] = [];
  let unread = 0;
  let rest = Buffer.alloc(0);
  const buf = Buffer.alloc(CHUNK);
  for (;;) {
    const n = readSync(fd, buf, 0, CHUNK, null);
    if (n <= 0) return { calls, unread, over: false };
    // Whole lines only: strace ends every line, so an unended one at the end was cut short (the trace bound: ENOSPC), not a call to read.
    const data = Buffer.concat([rest, buf.subarray(0, n)]);
    const end = data.lastIndexOf(0x0a) + 1;
    const parsed = parseTrace(data.subarray(0, end).toString('utf8'));
    rest = Buffer.from(data.subarray(end));
    unread += parsed.unread;
    for (const c of parsed.calls) {
      if (calls.length === budget) return { calls, unread, over: true };
      calls.push(c);
    }
  }
}

/** Every process's calls from the working directory's trace files, in pid order, at most `events` in all. */
export function readTraces(keep: string, events: number, notes: string[]) {
  const processes = new Map<number, { calls: Call[]; unread: number }>();
  const pids = readdirSync(keep)
    .map((name) => /^trace\.(\d+)$/.exec(name)?.[1])
    .filter((p): p is string => p !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  let left = events;
  for (const pid of pids) {
    const fd = openLeft(join(keep, `trace.${pid}`), notes);
    if (fd === undefined) continue;
    try {
      const t = readTrace(fd, left);
      processes.set(pid, { calls: t.calls, unread: t.unread });
      left -= t.calls.length;
      if (t.over) return { processes, over: true };
    } finally {
      closeSync(fd);
    }
  }
  return { processes, over: false };
}

/** A small file the helper left (changes, bound), whole; empty when absent or refused. */
function readLeft(path: string, notes: string[]): Buffer {
  const fd = openLeft(path, notes);
  if (fd === undefined) return Buffer.alloc(0);
  try {
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function runTraced(run: TracedRun): Promise<TracedOutcome> {
  const work = learnWorkDir();
  if ('why' in work)
    return Promise.resolve({
      status: 125,
      timedOut: false,
      processes: new Map(),
      changes: [],
      read: new Map(),
      refused: work.why,
      notes: [],
    });
  const base = work.dir;
  mkdirSync(join(base, 'scratch'), { mode: 0o700 });
  mkdirSync(join(base, 'keep'), { mode: 0o700 });
  const argv = [
    '--throwaway-root',
    base,
    ...run.writable.flatMap((d) => ['--writable', d]),
    '--trace-size',
    String(run.bounds.traceBytes),
    '--writes-size',
    String(run.bounds.writeBytes),
    '--',
    ...straceArgv(run.strace, `${KEEP_INSIDE}/trace`),
    ...run.program,
  ];
  const fds = run.fds ?? [];
  const stdio: ('inherit' | 'pipe')[] = ['inherit', 'inherit', 'inherit', ...fds.map(() => 'pipe' as const)];
  return new Promise((resolve) => {
    const read = new Map<number, string>();
    let child: ReturnType<typeof spawn> | undefined;
    let timedOut = false;
    const pending: NodeJS.Signals[] = [];
    const forward = (signal: NodeJS.Signals): void => {
      if (!child?.pid) return void pending.push(signal);
      const target =
        run.forwardTo === 'command'
          ? commandPid(read.get(fds.findIndex((f) => 'read' in f) + 3) ?? '')
          : // the traced program: the helper's child is strace, whose child it is
            descendants(child.pid)[1];
      if (target) {
        try {
          process.kill(target, signal);
        } catch {
          // gone already
        }
      }
    };
    for (const s of FORWARDED) process.on(s, forward);
    child = spawn(run.helper, argv, { cwd: run.cwd, env: run.env, stdio, detached: true });
    fds.forEach((f, i) => {
      const stream = child!.stdio[i + 3];
      if (!stream) return;
      stream.on('error', () => undefined);
      if ('write' in f) (stream as Writable).end(Buffer.from(f.write));
      else {
        read.set(i + 3, '');
        stream.on('data', (d: Buffer) => read.set(i + 3, read.get(i + 3)! + d.toString('utf8')));
      }
    });
    for (const s of pending.splice(0)) forward(s);
    // The timeout kills what runs under strace, not strace: it then writes its last lines, and the helper the changes.
    let timer: NodeJS.Timeout | undefined;
    const startTimer = (): void => {
      if (run.timeoutSeconds === undefined || timer) return;
      timer = setTimeout(() => {
        timedOut = true;
        if (!child?.pid) return;
        for (const p of descendants(child.pid).slice(1)) {
          try {
            process.kill(p, 'SIGKILL');
          } catch {
            // gone already
          }
        }
      }, run.timeoutSeconds * 1000);
    };
    if (run.startedOn !== undefined) child.stdio[run.startedOn]?.once('data', startTimer);
    else startTimer();
    const finish = (status: number): void => {
      if (timer) clearTimeout(timer);
      for (const s of FORWARDED) process.removeListener(s, forward);
      const notes: string[] = [];
      let processes = new Map<number, { calls: Call[]; unread: number }>();
      let changes: { kind: string; path: string }[] = [];
      let bound: Bound | undefined;
      try {
        const keep = join(base, 'keep');
        const traces = readTraces(keep, run.bounds.events, notes);
        processes = traces.processes;
        changes = parseChanges(readLeft(join(keep, 'changes'), notes));
        const hit = readLeft(join(keep, 'bound'), notes).toString('utf8');
        bound = hit === 'trace' || hit === 'writes' ? hit : traces.over ? 'events' : undefined;
      } catch (e) {
        notes.push(`the trace could not be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
      const leftover = removeWorkDir(base);
      if (leftover) notes.push(`could not remove ${leftover}: remove it yourself`);
      resolve({ status, timedOut, processes, changes, read, notes, ...(bound ? { bound } : {}) });
    };
    child.on('error', () => finish(125));
    child.on('close', (code, signal) => finish(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0)));
  });
}

/** `KIND\0PATH\0` records (throwaway.c's changes file). */
export function parseChanges(bytes: Uint8Array): { kind: string; path: string }[] {
  const parts = Buffer.from(bytes).toString('utf8').split('\0');
  const out: { kind: string; path: string }[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) out.push({ kind: parts[i]!, path: parts[i + 1]! });
  return out;
}
