import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { resolve } from 'node:path';

export type Input =
  | { readonly path: string; readonly bytes: Uint8Array }
  | { readonly path: string; readonly error: string; readonly reason: string };

/**
 * The largest config boxwright reads, in bytes (16 MiB: a config of a
 * hundred thousand grants is a few MiB). A larger file, or a standard
 * input that runs on past it (`lint - < /dev/zero`), is refused at once
 * rather than read until memory runs out.
 */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

const MiB = (n: number): string => `${n / (1024 * 1024)} MiB`;

/** What a file that is not a regular file is, in words. */
function kindOf(st: Stats): string {
  return st.isFIFO()
    ? 'a FIFO'
    : st.isCharacterDevice()
      ? 'a character device'
      : st.isBlockDevice()
        ? 'a block device'
        : st.isSocket()
          ? 'a socket'
          : 'not a regular file';
}

/** Reads a descriptor to its end, or undefined past `max` bytes. */
function readBounded(fd: number, max: number): Uint8Array | undefined {
  const chunks: Buffer[] = [];
  let total = 0;
  const buf = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, buf, 0, buf.length, null);
    } catch (e) {
      // A non-blocking pipe with nothing in it yet: wait a little for the writer.
      if ((e as NodeJS.ErrnoException).code === 'EAGAIN') {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
        continue;
      }
      throw e;
    }
    if (n === 0) return Buffer.concat(chunks, total);
    total += n;
    if (total > max) return undefined;
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
}

function failed(path: string, reason: string): Input {
  return { path, reason, error: `cannot read ${path === '-' ? 'standard input' : path}: ${reason}` };
}

/**
 * Where `readInput` reads from, for a command run in process (app/cli/io.ts):
 * a relative path from `cwd`, not the process's directory, and standard
 * input from bytes already read. Names in messages stay as given.
 */
export interface InputSource {
  readonly cwd?: string;
  readonly stdin?: Uint8Array;
}

/**
 * A file's bytes (or stdin's for `-`), or why it cannot be read (`reason`;
 * `error` says it with the file's name). A named file must be a regular
 * file of at most MAX_INPUT_BYTES: a FIFO, a device (`/dev/zero`) or a
 * socket is refused before a byte is read (opened non-blocking, so a FIFO
 * with no writer does not hang the open either). Standard input may be a
 * pipe, and is read up to the same limit.
 */
export function readInput(path: string, max = MAX_INPUT_BYTES, from: InputSource = {}): Input {
  if (path === '-' && from.stdin !== undefined) {
    if (from.stdin.length > max) return failed(path, `runs on past ${MiB(max)}, the most boxwright reads`);
    return { path, bytes: from.stdin };
  }
  let fd: number | undefined;
  try {
    fd =
      path === '-'
        ? 0
        : openSync(from.cwd ? resolve(from.cwd, path) : path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
    const st = fstatSync(fd);
    if (st.isDirectory()) return failed(path, 'is a directory');
    if (path !== '-' && !st.isFile()) return failed(path, `is ${kindOf(st)}, not a regular file`);
    if (st.isFile() && st.size > max) return failed(path, `is larger than ${MiB(max)} (${st.size} bytes), the most boxwright reads`);
    const bytes = readBounded(fd, max);
    if (!bytes) return failed(path, `runs on past ${MiB(max)}, the most boxwright reads`);
    return { path, bytes };
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const reason =
      err.code === 'ENOENT'
        ? 'no such file'
        : err.code === 'EISDIR'
          ? 'is a directory'
          : err.code === 'EACCES'
            ? 'permission denied'
            : err.message;
    return failed(path, reason);
  } finally {
    if (fd !== undefined && fd !== 0) closeSync(fd);
  }
}
