/**
 * The dynamic loader's cache, /etc/ld.so.cache, as glibc's ldconfig writes
 * it (glibc's sysdeps/generic/dl-cache.h): the header
 * `glibc-ld.so.cache1.1`, the number of entries and the size of the string
 * table, then one 24-byte entry per library (flags, the soname's and the
 * path's offsets from the start of the cache, the OS version, the hwcap
 * bits), then the strings. ldconfig before glibc 2.32 could write an old
 * `ld.so-1.7.0` table first; the new one follows it, aligned to 8 bytes.
 *
 * Hostile input like any file: bounded, every offset checked; a cache this
 * reader cannot make out is `undefined` (the loader then searches its
 * system directories, and so does the closure).
 */

/** soname → the path the loader opens for it, for one architecture. */
export type LibraryCache = ReadonlyMap<string, string>;

const NEW_MAGIC = 'glibc-ld.so.cache1.1';
const OLD_MAGIC = 'ld.so-1.7.0';
const NEW_HEADER = 48;
const NEW_ENTRY = 24;
const OLD_ENTRY = 12;
/** More libraries than any machine has; a bound on what is read. */
const MAX_ENTRIES = 1 << 16;

/** The flags of an entry for a 64-bit glibc library of each architecture (glibc's ldconfig.h: FLAG_ELF_LIBC6 | FLAG_X8664_LIB64, FLAG_AARCH64_LIB64). */
export const CACHE_FLAGS: Readonly<Record<'x86_64' | 'aarch64', number>> = { x86_64: 0x0303, aarch64: 0x0a03 };

/**
 * The cache's entries for libraries of `flags` (CACHE_FLAGS), first entry
 * per soname (ldconfig sorts them as the loader prefers them), leaving out
 * entries for a glibc-hwcaps subdirectory (a nonzero hwcap): the baseline
 * library every CPU loads. Undefined when the bytes are no cache.
 */
export function readLibraryCache(bytes: Uint8Array, flags: number): LibraryCache | undefined {
  let start = 0;
  if (ascii(bytes, 0, OLD_MAGIC.length) === OLD_MAGIC) {
    if (bytes.length < 16) return undefined;
    const n = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(OLD_MAGIC.length + 1, true);
    if (n > MAX_ENTRIES) return undefined;
    start = Math.ceil((OLD_MAGIC.length + 1 + 4 + n * OLD_ENTRY) / 8) * 8;
  }
  if (bytes.length < start + NEW_HEADER || ascii(bytes, start, NEW_MAGIC.length) !== NEW_MAGIC) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset + start, bytes.byteLength - start);
  // The endianness is in the flags byte's low bits: 2 little, 3 big; 0 (unset) is the writer's own, taken as little.
  const endian = view.getUint8(28) & 3;
  if (endian === 1) return undefined;
  const little = endian !== 3;
  const nlibs = view.getUint32(20, little);
  if (nlibs > MAX_ENTRIES || NEW_HEADER + nlibs * NEW_ENTRY > view.byteLength) return undefined;
  const out = new Map<string, string>();
  for (let i = 0; i < nlibs; i++) {
    const at = NEW_HEADER + i * NEW_ENTRY;
    const entryFlags = view.getInt32(at, little);
    const hwcap = view.getBigUint64(at + 16, little);
    if (entryFlags !== flags || hwcap !== 0n) continue;
    const key = cString(bytes, start + view.getUint32(at + 4, little));
    const value = cString(bytes, start + view.getUint32(at + 8, little));
    if (key === undefined || value === undefined) return undefined;
    if (!out.has(key) && value.startsWith('/')) out.set(key, value);
  }
  return out;
}

function ascii(b: Uint8Array, at: number, n: number): string {
  return at + n > b.length ? '' : Buffer.from(b.subarray(at, at + n)).toString('latin1');
}

/** A NUL-terminated string at `at` of at most 4096 bytes, or undefined. */
function cString(b: Uint8Array, at: number): string | undefined {
  if (at >= b.length) return undefined;
  const end = b.indexOf(0, at);
  if (end < 0 || end - at > 4096) return undefined;
  return Buffer.from(b.subarray(at, end)).toString('latin1');
}
