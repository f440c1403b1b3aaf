/**
 * Runs a launcher (`DIR/<stem>.run`, targets/linux/launcher) and returns
 * its exit status: the command's own, or 125/126/127 for what the launcher
 * refused or could not execute (it says why on stderr).
 *
 * The launcher gets this process's environment as it is (it applies the
 * launch file's allowlist and `--pass-env` itself), stdin, stdout, stderr,
 * and each `--pass-fd` under its own number; it closes every other
 * descriptor it inherits. It runs in a process group of its own, so a
 * terminal's ^C reaches this process only, which forwards it once (the
 * command is in a session of its own: bwrap's --new-session); and it ends
 * with this process (--die-with-parent), which no signal leaves behind.
 */
import { spawn } from 'node:child_process';
import { closeSync, fstatSync, openSync, readdirSync, readlinkSync } from 'node:fs';
import { constants } from 'node:os';
import { afterStatus } from './outcome.js';
import type { Stamp } from './run-cache.js';

const FORWARDED: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export interface LauncherRun {
  readonly launcher: string;
  readonly command: readonly string[];
  readonly passEnv: readonly string[];
  readonly passFds: readonly number[];
  readonly verbose: boolean;
  /** The launcher as it was written: the file opened must be that one, else it is not run. */
  readonly expect?: Stamp | undefined;
  /** A launcher that cannot be started: undefined (the caller has another way) instead of 125 and a message. */
  readonly fallback?: boolean;
  /** boxwright's own command line (`run CONFIG … -- CMD …`): what a remedy it prints changes, to be copied as is. */
  readonly argv?: readonly string[];
}

export function runLauncher(run: LauncherRun & { fallback: true }): Promise<number | undefined>;
export function runLauncher(run: LauncherRun): Promise<number>;
export function runLauncher(run: LauncherRun): Promise<number | undefined> {
  // `--name`: the launcher and the in-sandbox step speak as `boxwright run`, one prefix for the whole run.
  // --die-with-parent: killed (SIGKILL) or crashed, this process forwards
  // nothing; the launcher, its own process group, would run the command on
  // with no one to stop it or read its status. It ends with this process instead.
  const args = [
    '--name',
    'boxwright run',
    ...run.passEnv.flatMap((n) => ['--pass-env', n]),
    ...run.passFds.flatMap((fd) => ['--pass-fd', String(fd)]),
    '--die-with-parent',
    String(process.pid),
    ...(run.verbose ? ['-v'] : []),
    '--',
    ...run.command,
  ];
  // Only a descriptor the caller handed to boxwright passes: one that is not
  // open is refused (spawn would throw EBADF), and so is one of Node's own
  // (its event loop's epoll, eventfd and pipes sit at 3 and up when the
  // caller left those numbers free), which would hand the workload this
  // process's internals.
  for (const fd of run.passFds) {
    const why = notPassable(fd);
    if (why) {
      process.stderr.write(`boxwright run: --pass-fd ${fd}: ${why}; the command did not run\n`);
      return Promise.resolve(125);
    }
  }
  const stdio: ('inherit' | 'ignore' | number)[] = ['inherit', 'inherit', 'inherit'];
  for (const fd of run.passFds) {
    while (stdio.length <= fd) stdio.push('ignore');
    stdio[fd] = fd;
  }
  const opened = openLauncher(run);
  if (typeof opened === 'string') {
    if (run.fallback) return Promise.resolve(undefined);
    process.stderr.write(`boxwright run: cannot start the launcher ${run.launcher}: ${opened}; the command did not run\n`);
    return Promise.resolve(125);
  }
  // The child's descriptor N is the launcher's file; the launcher closes it with the others it inherits.
  const n = stdio.length;
  stdio.push(opened);
  return new Promise((resolve) => {
    // Listening before the spawn: a signal that arrives between the two
    // would otherwise end this process (Node's default) and lose the status.
    let child: ReturnType<typeof spawn> | undefined;
    const pending: NodeJS.Signals[] = [];
    const forward = (signal: NodeJS.Signals): void => {
      if (!child) return void pending.push(signal);
      try {
        child.kill(signal);
      } catch {
        // gone already
      }
    };
    for (const s of FORWARDED) process.on(s, forward);
    const done = (status: number | undefined): void => {
      for (const s of FORWARDED) process.removeListener(s, forward);
      resolve(status);
    };
    try {
      child = spawn(`/proc/self/fd/${n}`, args, { stdio, detached: true, argv0: run.launcher });
    } finally {
      closeSync(opened);
    }
    for (const s of pending.splice(0)) forward(s);
    child.on('error', (e: NodeJS.ErrnoException) => {
      if (run.fallback) return done(undefined);
      process.stderr.write(`boxwright run: cannot start the launcher ${run.launcher}: ${e.message}; the command did not run\n`);
      done(125);
    });
    if (child.pid === undefined) return;
    child.on('close', (code, signal) => {
      const status = code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0);
      const after = afterStatus(status, run.command, run.argv);
      if (after) process.stderr.write(`boxwright run: ${after}\n`);
      done(status);
    });
  });
}

/** The launcher's file, opened, and proved to be the one written; or why not. */
function openLauncher(run: LauncherRun): number | string {
  let fd: number;
  try {
    fd = openSync(run.launcher, 'r');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code ?? (e as Error).message;
  }
  const st = fstatSync(fd);
  const want = run.expect;
  if (want && (st.ino !== want.ino || st.size !== want.size || st.mtimeMs !== want.mtimeMs || st.ctimeMs !== want.ctimeMs)) {
    closeSync(fd);
    return 'it is not the file that was written (replaced or changed since)';
  }
  return fd;
}

/**
 * Why `fd` is not the caller's to pass, or undefined. When the caller left
 * a number free, Node's own descriptor may sit there (the event loop's
 * epoll and eventfd, the two ends of its internal pipes, from 3 up), and
 * close-on-exec cannot tell them apart: Node sets it on inherited ones
 * too. So: an anonymous inode (epoll, eventfd, signalfd…) is Node's, and
 * so is a pipe both of whose ends this process holds.
 */
function notPassable(fd: number): string | undefined {
  let target: string;
  try {
    target = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return 'the descriptor is not open';
  }
  const own = "the descriptor is not open in boxwright's caller (that number is boxwright's own)";
  if (target.startsWith('anon_inode:')) return own;
  if (target.startsWith('pipe:')) {
    const ends = readdirSync('/proc/self/fd').filter((n) => Number(n) > 2 && readlinkOr(`/proc/self/fd/${n}`) === target);
    if (ends.length > 1) return own;
  }
  return undefined;
}

function readlinkOr(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}
