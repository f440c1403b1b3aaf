/**
 * bubblewrap's command line for learning: the throw-away root (the whole
 * host, every write landing in a layer that vanishes) in the namespaces
 * `boxwright run` makes — no network unless asked, a fresh /proc with the
 * host-global entries read-only, a fresh /dev, no capabilities, a session
 * of its own, the same seccomp filter — so that what the command does here
 * is what it will do in the learned sandbox, apart from what the config
 * will not grant. The in-sandbox step (/.boxwright/exec, without Landlock)
 * closes every descriptor but stdio and executes the command: its exec is
 * where the trace of the workload starts (trace.ts).
 */
import { PROC_READONLY, SANDBOX_EXEC_PATH } from '../../targets/linux/index.js';
import { KEEP_INSIDE } from './session.js';

/** The throw-away root's directory for /dev/shm, on its scratch tmpfs (throwaway.c). */
const SHM_INSIDE = '/.boxwright/shm';

export const SECCOMP_FD = 3;
export const STATUS_FD = 4;
export const READY_FD = 5;

export interface LearnSandbox {
  readonly bwrap: string;
  /** The built boxwright-sandbox, bound read-only at /.boxwright/exec. */
  readonly step: string;
  readonly cwd: string;
  readonly command: readonly string[];
  /** `--network`: share the host's network namespace (what the command reaches is recorded, never granted). */
  readonly network: boolean;
  /**
   * A private tmpfs at /tmp (TMPDIR=/tmp), as the Linux lowering makes TYBA's
   * temp directory and a Box principal's `private_tmp = true`: what the
   * command writes there is learned as that, never as a grant of the host's /tmp.
   */
  readonly privateTmp: boolean;
  /** The directories that stay in view when they lie under /tmp (the worktree, the agent's; a Box run's home), writable in the throw-away root. */
  readonly keep: readonly string[];
  /**
   * Without root the throw-away root's namespace maps the caller to uid 0
   * (throwaway.c): the command gets the caller's ids back, as `boxwright run`
   * gives them.
   */
  readonly ids?: { readonly uid: number; readonly gid: number };
}

export function learnArgv(s: LearnSandbox): string[] {
  return [
    s.bwrap,
    '--unshare-all',
    ...(s.network ? ['--share-net'] : []),
    '--cap-drop',
    'ALL',
    '--die-with-parent',
    '--new-session',
    ...(s.ids ? ['--uid', String(s.ids.uid), '--gid', String(s.ids.gid)] : []),
    '--bind',
    '/',
    '/',
    '--proc',
    '/proc',
    ...PROC_READONLY.flatMap((p) => ['--ro-bind-try', p, p]),
    '--dev',
    '/dev',
    // bubblewrap's /dev is a tmpfs without size=: read-only, and its shm a directory of the throw-away root's bounded scratch tmpfs (throwaway.c).
    '--remount-ro',
    '/dev',
    '--bind',
    SHM_INSIDE,
    '/dev/shm',
    '--ro-bind',
    '/sys',
    '/sys',
    // The kept directories (the worktree, the agent's, a Box run's home) stay in view when they are below the private /tmp.
    ...(s.privateTmp
      ? ['--tmpfs', '/tmp', '--setenv', 'TMPDIR', '/tmp', ...s.keep.filter((d) => d.startsWith('/tmp/')).flatMap((d) => ['--bind', d, d])]
      : []),
    // The run's own directory (strace's files) is not the workload's to read or write, nor a tmpfs for it to fill.
    '--tmpfs',
    KEEP_INSIDE,
    '--remount-ro',
    KEEP_INSIDE,
    '--ro-bind',
    s.step,
    SANDBOX_EXEC_PATH,
    '--chdir',
    s.cwd,
    '--seccomp',
    String(SECCOMP_FD),
    '--json-status-fd',
    String(STATUS_FD),
    '--',
    SANDBOX_EXEC_PATH,
    '--no-landlock',
    '--ready-fd',
    String(READY_FD),
    '--',
    ...s.command,
  ];
}
