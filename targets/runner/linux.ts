/**
 * Runs one command under bubblewrap with a compiled view and seccomp
 * program, fail-closed: the command runs inside the sandbox or not at all.
 *
 *   bwrap --args 3 --json-status-fd N -- CMD ARGS…
 *     fd 3    the principal's .bwrap.args (NUL-separated; it holds --seccomp 4)
 *     fd 4    seccomp.<arch>.bpf
 *     fd 5…   /dev/null, one per denied file (--ro-bind-data FD: an empty file)
 *     fd N    bubblewrap's JSON status: `child-pid` once it has cloned the
 *             sandbox, `exit-code` only when the command itself ran and ended.
 *   fds 3, 4 and N are unlinked temporary files (O_EXCL, mode 0600), not
 *   pipes: nothing to stream, no pipe-buffer limit, and the status can be
 *   read at any time (a signal to forward needs the sandbox's pid).
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

export interface LinuxRun {
  /** The bwrap executable: a path, or a name looked up on `env.PATH`. */
  readonly bwrap: string;
  /** The principal's `.bwrap.args` bytes (read by bwrap on fd 3). */
  readonly args: Uint8Array;
  /** The seccomp program for this host (fd 4). */
  readonly bpf: Uint8Array;
  /** The fds the args read as empty files (`--ro-bind-data FD`), 5, 6, … */
  readonly emptyFds: readonly number[];
  readonly command: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Extra bwrap options before `--` (e.g. for tests); not part of the artifact. */
  readonly extra?: readonly string[];
}

export type LinuxRunOutcome =
  /** The command ran; its exit status (a signal death as 128 + signo, as bubblewrap and shells report it). */
  | { readonly kind: 'exited'; readonly status: number }
  /** bwrap could not be started at all (missing, not executable). */
  | { readonly kind: 'no-bwrap'; readonly code: string; readonly message: string }
  /** bwrap started but ended without running the command. */
  | { readonly kind: 'setup-failed'; readonly status: number | null }
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

export function runUnderBwrap(run: LinuxRun): Promise<LinuxRunOutcome> {
  const ARGS_FD = 3;
  const expected = run.emptyFds.map((_, i) => 5 + i);
  if (run.emptyFds.some((fd, i) => fd !== expected[i])) throw new Error(`empty-data fds must be 5, 6, …: got ${run.emptyFds.join(', ')}`);
  const statusFd = 5 + run.emptyFds.length;
  const opened: number[] = [];
  const argsFile = anonymousFile(run.args);
  opened.push(argsFile.read);
  const bpfFile = anonymousFile(run.bpf);
  opened.push(bpfFile.read);
  const devNull = run.emptyFds.length ? openSync('/dev/null', 'r') : -1;
  if (devNull >= 0) opened.push(devNull);
  // bubblewrap's JSON status goes to a file: read once it exits, or when a
  // signal must be forwarded (for the sandbox's pid).
  const statusFile = anonymousFile(undefined);
  opened.push(statusFile.read, statusFile.write!);
  const stdio: ('inherit' | number)[] = ['inherit', 'inherit', 'inherit', argsFile.read, bpfFile.read, ...run.emptyFds.map(() => devNull), statusFile.write!];
  const argv = ['--args', String(ARGS_FD), '--json-status-fd', String(statusFd), ...(run.extra ?? []), '--', ...run.command];
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
      for (const fd of opened) {
        try {
          closeSync(fd);
        } catch {
          // closed already
        }
      }
      resolve(o);
    };
    const child = spawn(run.bwrap, argv, {
      stdio,
      env: run.env,
      // Its own process group: a terminal's ^C reaches boxwright, which
      // forwards it to the command; bwrap itself is not interrupted mid-set-up.
      detached: true,
    });
    // The child holds its copies now; ours (except the status reader) can go.
    for (const fd of [argsFile.read, bpfFile.read, devNull, statusFile.write!]) {
      if (fd < 0) continue;
      closeSync(fd);
      opened.splice(opened.indexOf(fd), 1);
    }
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
