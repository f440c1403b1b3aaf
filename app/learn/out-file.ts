/**
 * `learn --out FILE`: the config learn reads to merge into and writes. A
 * workload that could write the directory of FILE may have planted a
 * symbolic link there (`.boxwright.toml -> ~/agents/agent.toml`, its own
 * config): followed, learn would merge the learned grants into the link's
 * target. So FILE is opened with O_NOFOLLOW, read only when it is a regular
 * file (a FIFO, opened without O_NONBLOCK, would block learn; a device
 * would feed it), and written atomically: a fresh file beside it (O_EXCL,
 * in the same directory, FILE's mode, else 0644 less the umask), flushed to disk, renamed
 * over FILE — a rename replaces the directory entry, never what a link
 * there points to.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants as fsc,
  fchmodSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { MAX_INPUT_BYTES } from '../input/read-input.js';

/** What is at FILE: nothing, a regular file (its bytes and mode), or why learn may not use it. */
export type OutFile =
  | { readonly kind: 'absent' }
  | { readonly kind: 'file'; readonly bytes: Uint8Array; readonly mode: number }
  | { readonly kind: 'refused'; readonly why: string };

function kindOf(mode: number): string {
  const t = mode & fsc.S_IFMT;
  return t === fsc.S_IFDIR
    ? 'a directory'
    : t === fsc.S_IFIFO
      ? 'a FIFO'
      : t === fsc.S_IFCHR || t === fsc.S_IFBLK
        ? 'a device'
        : t === fsc.S_IFSOCK
          ? 'a socket'
          : 'not a regular file';
}

export function readOut(path: string): OutFile {
  let fd: number;
  try {
    fd = openSync(path, fsc.O_RDONLY | fsc.O_NOFOLLOW | fsc.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'absent' };
    if (code === 'ELOOP')
      return { kind: 'refused', why: `${path} is a symbolic link: learn writes only a regular file, never through a link` };
    if (code === 'EISDIR') return { kind: 'refused', why: `${path} is a directory` };
    return { kind: 'refused', why: `cannot open ${path}: ${code ?? (e as Error).message}` };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { kind: 'refused', why: `${path} is ${kindOf(st.mode)}: learn writes only a regular file` };
    if (st.size > MAX_INPUT_BYTES) return { kind: 'refused', why: `${path} is larger than ${MAX_INPUT_BYTES} bytes: not a config` };
    return { kind: 'file', bytes: readFileSync(fd), mode: st.mode & 0o7777 };
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `text` to `path` atomically; undefined, or why not (nothing then
 * changed at `path`). `mode`: the existing file's to keep. A non-regular
 * file found at `path` just before the rename is refused too.
 */
export function writeOut(path: string, text: string, mode?: number): string | undefined {
  const dir = dirname(path);
  const fresh = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  let fd: number;
  try {
    fd = openSync(fresh, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL | fsc.O_NOFOLLOW, 0o644);
  } catch (e) {
    return `cannot write beside ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
  }
  try {
    try {
      // The existing file's mode kept exactly; a new one is 0644 less the umask, as any file made.
      if (mode !== undefined) fchmodSync(fd, mode);
      const bytes = Buffer.from(text, 'utf8');
      for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    let there: ReturnType<typeof lstatSync> | undefined;
    try {
      there = lstatSync(path);
    } catch {
      there = undefined;
    }
    if (there && !there.isFile()) {
      unlinkSync(fresh);
      return there.isSymbolicLink()
        ? `${path} is a symbolic link: learn writes only a regular file, never through a link`
        : `${path} is ${kindOf(Number(there.mode))}: learn writes only a regular file`;
    }
    renameSync(fresh, path);
  } catch (e) {
    try {
      unlinkSync(fresh);
    } catch {
      // already gone
    }
    return `cannot write ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
  }
  try {
    // The rename itself on disk: the directory flushed too.
    const d = openSync(dir, fsc.O_RDONLY | fsc.O_DIRECTORY);
    fsyncSync(d);
    closeSync(d);
  } catch {
    // a directory that cannot be opened for the flush: the rename is made, only not yet durable
  }
  return undefined;
}
