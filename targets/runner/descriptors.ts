/**
 * The descriptors a sandboxed command starts with, and the ones bubblewrap
 * mounts from.
 *
 * Inherited descriptors: bubblewrap closes nothing it did not open, so a
 * descriptor that boxwright's caller left open without close-on-exec (a
 * shell's `exec 9<~`, a harness's pipe) would reach the command, and
 * `/proc/self/fd/9/…` would read and write the host outside every grant.
 * Node opens all of its own descriptors close-on-exec (stdio included, as
 * /proc/self/fdinfo shows), so the inheritable ones above stderr are exactly
 * what the caller handed down: the runner closes them before it spawns
 * anything, except those `--pass-fd N` names.
 *
 * Verified binds: the config's path facts were checked before the run, and
 * bubblewrap would mount by path afterwards; another principal able to
 * write a parent of a grant could swap the grant for a symbolic link in
 * between. So each bind's source is opened here without following a final
 * link (O_PATH | O_NOFOLLOW), the opened object's own path
 * (/proc/self/fd/N) must be the canonical path that was checked (a link
 * anywhere on the way, or a rename, changes it), and bubblewrap binds the
 * descriptor (--bind-fd / --ro-bind-fd), comparing the mount with it
 * (fstat against lstat) after mounting.
 */
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';

const O_CLOEXEC = 0o2000000;
const O_PATH = 0o10000000;
const O_NOFOLLOW = 0o400000;

/** Whether a descriptor of this process survives exec (no FD_CLOEXEC), from /proc/self/fdinfo. */
function inheritable(fd: number): boolean {
  try {
    const m = /^flags:\s+([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'));
    return m !== null && (parseInt(m[1]!, 8) & O_CLOEXEC) === 0;
  } catch {
    return false; // gone already (the directory listing's own descriptor)
  }
}

/** The open descriptors above stderr that a child would inherit. */
export function inheritableDescriptors(): number[] {
  return readdirSync('/proc/self/fd')
    .map(Number)
    .filter((fd) => Number.isInteger(fd) && fd > 2 && inheritable(fd))
    .sort((a, b) => a - b);
}

/** Closes every inheritable descriptor above stderr except `keep`; returns those it closed. */
export function closeInheritedDescriptors(keep: ReadonlySet<number>): number[] {
  const closed: number[] = [];
  for (const fd of inheritableDescriptors()) {
    if (keep.has(fd)) continue;
    try {
      closeSync(fd);
      closed.push(fd);
    } catch {
      // closed meanwhile
    }
  }
  return closed;
}

export class ChangedSinceCheckedError extends Error {
  constructor(readonly path: string, detail: string) {
    super(`${path} changed after it was checked (${detail}); nothing was mounted from it`);
    this.name = 'ChangedSinceCheckedError';
  }
}

/**
 * Opens `path` for a bind mount, proving that the object opened is the one
 * at that canonical path: not a symbolic link, reached through none, and a
 * directory, a regular file or a socket. The descriptor is close-on-exec
 * (the spawn maps it onto the child's number).
 */
export function openForBind(path: string): number {
  let fd: number;
  try {
    fd = openSync(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
  } catch (e) {
    throw new ChangedSinceCheckedError(path, `cannot open it: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  try {
    const real = readlinkSync(`/proc/self/fd/${fd}`);
    if (real !== path) throw new ChangedSinceCheckedError(path, `it is now ${JSON.stringify(real)}`);
    const st = fstatSync(fd);
    if (!(st.isDirectory() || st.isFile() || st.isSocket())) throw new ChangedSinceCheckedError(path, st.isSymbolicLink() ? 'it is now a symbolic link' : 'it is not a directory, a file or a socket');
    return fd;
  } catch (e) {
    closeSync(fd);
    throw e;
  }
}
