/**
 * What the kernel runs for a program besides the program: its `#!`
 * interpreter, or the dynamic loader an ELF file names (PT_INTERP). The
 * kernel opens both without a system call a tracer sees, and Landlock
 * checks execute on the interpreter as well as on the program, so learn
 * reads them from the program's first bytes on the host.
 */
import { closeSync, openSync, readSync } from 'node:fs';

const HEAD = 4096;

/** The first bytes of a file, or undefined when it cannot be read. */
function head(path: string, bytes = HEAD, offset = 0): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(bytes);
    const n = readSync(fd, buf, 0, bytes, offset);
    return buf.subarray(0, n);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export type Interpreter =
  | { readonly kind: 'script'; readonly path: string; readonly line: string }
  | { readonly kind: 'loader'; readonly path: string };

/** The interpreter the kernel starts for `program` (a host path), if it names one. */
export function interpreterOf(program: string): Interpreter | undefined {
  const b = head(program);
  if (!b) return undefined;
  if (b[0] === 0x23 && b[1] === 0x21) {
    // `#!` then the interpreter's path up to white space; the kernel reads at most the first line.
    const end = b.indexOf(0x0a);
    const line = b
      .subarray(2, end < 0 ? b.length : end)
      .toString('utf8')
      .trim();
    const path = line.split(/[ \t]/)[0] ?? '';
    return path.startsWith('/') ? { kind: 'script', path, line: `#!${line}` } : undefined;
  }
  return loaderOf(b, program);
}

/** PT_INTERP of a 64-bit little-endian ELF file (x86_64, aarch64): where the kernel finds its loader. */
function loaderOf(b: Buffer, program: string): Interpreter | undefined {
  if (b.length < 64 || b.readUInt32BE(0) !== 0x7f454c46 || b[4] !== 2 || b[5] !== 1) return undefined;
  const phoff = Number(b.readBigUInt64LE(32));
  const phentsize = b.readUInt16LE(54);
  const phnum = b.readUInt16LE(56);
  const table = phoff + phnum * phentsize <= b.length ? b : head(program, phnum * phentsize, phoff);
  const base = table === b ? phoff : 0;
  if (!table) return undefined;
  for (let i = 0; i < phnum; i++) {
    const at = base + i * phentsize;
    if (at + 56 > table.length || table.readUInt32LE(at) !== 3) continue;
    const offset = Number(table.readBigUInt64LE(at + 8));
    const size = Number(table.readBigUInt64LE(at + 32));
    if (size < 2 || size > 4096) return undefined;
    const name = head(program, size, offset);
    const path = name?.subarray(0, name.indexOf(0) < 0 ? name.length : name.indexOf(0)).toString('utf8');
    return path?.startsWith('/') ? { kind: 'loader', path } : undefined;
  }
  return undefined;
}
