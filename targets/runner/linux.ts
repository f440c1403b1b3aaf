/**
 * Runs one command under bubblewrap with a compiled view and seccomp
 * program, fail-closed: the command runs inside the sandbox or not at all.
 *
 *   bwrap --args A --json-status-fd S -- CMD ARGS…
 *     fd A    the principal's argv, rewritten for this run (below)
 *     fd K…   one O_PATH descriptor per bind (--bind-fd / --ro-bind-fd)
 *     fd E…   /dev/null, one per denied file (--ro-bind-data: an empty file)
 *     fd B    seccomp.<arch>.bpf (--seccomp B)
 *     fd S    bubblewrap's JSON status: `child-pid` once it has cloned the
 *             sandbox, `exit-code` only when the command itself ran and ended.
 *   Numbers start above stderr and above every `--pass-fd`; the argv, the
 *   program and the status are unlinked temporary files (O_EXCL, mode
 *   0600), not pipes: nothing to stream, no pipe-buffer limit, and the
 *   status can be read at any time (a signal to forward needs the pid).
 *
 * The artifact's argv (`.bwrap.args`) names bind sources by path, so that a
 * reviewer can read it and run it by hand; this runner mounts from
 * descriptors it opened and verified instead (descriptors.ts), and closes
 * every descriptor its caller left inheritable, so the command starts with
 * stdin, stdout, stderr and the `--pass-fd` ones only.
 *
 * No `exit-code` means bubblewrap stopped before or at exec (a namespace,
 * mount or seccomp set-up failure, or exec failing): the command never ran.
 * A spawn error means no usable bwrap. See README.md.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { splitOptions } from '../linux/bwrap-options.js';
import { closeInheritedDescriptors, openForBind } from './descriptors.js';

export interface LinuxRun {
  /** The bwrap executable: a path, or a name looked up on `env.PATH`. */
  readonly bwrap: string;
  /** The principal's argv as compiled (`.bwrap.args` split): binds by path, `--seccomp N`, `--ro-bind-data N`. */
  readonly argv: readonly string[];
  /** The seccomp program for this host. */
  readonly bpf: Uint8Array;
  readonly command: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Descriptors of ours the command gets under the same number (`--pass-fd N`). */
  readonly passFds?: readonly number[];
  /** Extra bwrap options before `--` (e.g. for tests); not part of the artifact. */
  readonly extra?: readonly string[];
  /** Told which inherited descriptors were closed (`run -v`). */
  readonly onClosed?: (fds: readonly number[]) => void;
}

export type LinuxRunOutcome =
  /** The command ran; its exit status (a signal death as 128 + signo, as bubblewrap and shells report it). */
  | { readonly kind: 'exited'; readonly status: number }
  /** bwrap could not be started at all (missing, not executable). */
  | { readonly kind: 'no-bwrap'; readonly code: string; readonly message: string }
  /** bwrap started but ended without running the command. */
  | { readonly kind: 'setup-failed'; readonly status: number | null }
  /** A bind source is not what was checked: nothing was started. */
  | { readonly kind: 'changed'; readonly message: string }
  /** bwrap itself died of a signal (the command may have started): 128 + signo. */
  | { readonly kind: 'killed'; readonly signal: NodeJS.Signals; readonly status: number };

const FORWARDED: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** The host pid of the command: the first child of the sandbox's init (bubblewrap's pid 1). */
function commandPid(initPid: number): number | undefined {
  try {
    const children = readFileSync(`/proc/${initPid}/task/${initPid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    const pid = Number(children[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A file holding `bytes`, opened for reading and already unlinked: bwrap
 * reads it from its fd like a pipe, without the stream machinery (and the
 * 64 KiB pipe buffer) a pipe brings. O_EXCL, mode 0600, in the temp dir.
 */
function anonymousFile(bytes: Uint8Array | undefined): { read: number; write?: number } {
  for (let attempt = 0; ; attempt++) {
    const path = join(tmpdir(), `boxwright-run-${process.pid}-${randomBytes(6).toString('hex')}`);
    let w: number;
    try {
      w = openSync(path, 'wx', 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST' && attempt < 5) continue;
      throw e;
    }
    try {
      if (bytes) writeSync(w, bytes);
      const read = openSync(path, 'r');
      if (bytes) {
        closeSync(w);
        return { read };
      }
      return { read, write: w };
    } finally {
      unlinkSync(path);
    }
  }
}

/** The child's descriptor table: index = the child's fd number. */
class Slots {
  readonly stdio: ('inherit' | 'ignore' | number)[] = ['inherit', 'inherit', 'inherit'];
  /** Our own descriptors to close once the child holds its copies. */
  readonly ours: number[] = [];
  private next: number;
  constructor(passFds: readonly number[]) {
    for (const fd of passFds) this.place(fd, fd);
    this.next = Math.max(2, ...passFds) + 1;
  }
  private place(child: number, fd: number): void {
    while (this.stdio.length <= child) this.stdio.push('ignore');
    this.stdio[child] = fd;
  }
  /** Gives `fd` (ours, close-on-exec) to the child under the next free number. */
  give(fd: number, owned = true): number {
    const n = this.next++;
    this.place(n, fd);
    if (owned) this.ours.push(fd);
    return n;
  }
  closeOurs(): void {
    for (const fd of this.ours.splice(0)) {
      try {
        closeSync(fd);
      } catch {
        // closed already
      }
    }
  }
}

/**
 * The compiled argv, rewritten for this run: binds from verified
 * descriptors, data and seccomp descriptors renumbered. Every other option
 * is kept as compiled. Opens what it needs through `slots`; throws
 * ChangedSinceCheckedError when a bind source is not what was checked.
 */
function runtimeArgv(argv: readonly string[], slots: Slots, devNull: () => number, bpf: number): string[] {
  const out: string[] = [];
  for (const { option, operands } of splitOptions(argv)) {
    const [a = '', b = ''] = operands;
    switch (option) {
      case '--bind':
      case '--ro-bind':
        out.push(option === '--bind' ? '--bind-fd' : '--ro-bind-fd', String(slots.give(openForBind(a))), b);
        break;
      case '--ro-bind-data':
        out.push(option, String(slots.give(devNull(), false)), b);
        break;
      case '--seccomp':
        out.push(option, String(slots.give(bpf, false)));
        break;
      case '--args':
      case '--json-status-fd':
      case '--bind-fd':
      case '--ro-bind-fd':
      case '--bind-data':
      case '--file':
      case '--add-seccomp-fd':
        throw new Error(`a compiled view does not use ${option}`);
      default:
        out.push(option, ...operands);
    }
  }
  return out;
}

export function runUnderBwrap(run: LinuxRun): Promise<LinuxRunOutcome> {
  const passFds = [...new Set(run.passFds ?? [])].sort((a, b) => a - b);
  const closed = closeInheritedDescriptors(new Set(passFds));
  if (closed.length) run.onClosed?.(closed);
  const slots = new Slots(passFds);
  let argsFd: number;
  let statusFd: number;
  let statusFile: { read: number; write?: number };
  try {
    let devNullFd = -1;
    const devNull = (): number => {
      if (devNullFd < 0) slots.ours.push((devNullFd = openSync('/dev/null', 'r')));
      return devNullFd;
    };
    const bpf = anonymousFile(run.bpf).read;
    slots.ours.push(bpf);
    const argv = runtimeArgv(run.argv, slots, devNull, bpf);
    for (const a of argv) if (a.includes('\u0000')) throw new Error(`an argument holds a NUL character: ${JSON.stringify(a)}`);
    argsFd = slots.give(anonymousFile(Buffer.from(argv.map((a) => a + '\u0000').join(''), 'utf8')).read);
    // bubblewrap's JSON status goes to a file: read once it exits, or when a
    // signal must be forwarded (for the sandbox's pid).
    statusFile = anonymousFile(undefined);
    statusFd = slots.give(statusFile.write!);
  } catch (e) {
    slots.closeOurs();
    if (e instanceof Error && e.name === 'ChangedSinceCheckedError') return Promise.resolve({ kind: 'changed', message: e.message });
    throw e;
  }
  const bwrapArgv = ['--args', String(argsFd), '--json-status-fd', String(statusFd), ...(run.extra ?? []), '--', ...run.command];
  const readStatus = (): string => {
    try {
      return readFileSync(statusFile.read, 'utf8');
    } catch {
      return '';
    }
  };
  let status = '';

  return new Promise((resolve) => {
    let settled = false;
    const finish = (o: LinuxRunOutcome): void => {
      if (settled) return;
      settled = true;
      for (const s of FORWARDED) process.removeListener(s, forward);
      slots.closeOurs();
      try {
        closeSync(statusFile.read);
      } catch {
        // closed already
      }
      resolve(o);
    };
    const child = spawn(run.bwrap, bwrapArgv, {
      stdio: slots.stdio,
      env: run.env,
      // Its own process group: a terminal's ^C reaches boxwright, which
      // forwards it to the command; bwrap itself is not interrupted mid-set-up.
      detached: true,
    });
    // The child holds its copies now; ours (except the status reader) can go.
    slots.closeOurs();
    const forward = (signal: NodeJS.Signals): void => {
      status += readStatus();
      const m = /"child-pid"\s*:\s*(\d+)/.exec(status);
      const target = (m ? commandPid(Number(m[1])) : undefined) ?? child.pid;
      try {
        if (target !== undefined) process.kill(target, signal);
      } catch {
        // already gone
      }
    };
    child.on('error', (e: NodeJS.ErrnoException) => finish({ kind: 'no-bwrap', code: e.code ?? 'ERROR', message: e.message }));
    if (child.pid === undefined) return; // the 'error' event follows
    for (const s of FORWARDED) process.on(s, forward);
    child.on('close', (code, signal) => {
      status += readStatus();
      const exit = /"exit-code"\s*:\s*(\d+)/.exec(status);
      if (exit) finish({ kind: 'exited', status: Number(exit[1]) });
      else if (signal) finish({ kind: 'killed', signal, status: 128 + (constants.signals[signal] ?? 0) });
      else finish({ kind: 'setup-failed', status: code });
    });
  });
}
