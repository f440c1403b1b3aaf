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

/** Where an entry's soname and path start in the cache's bytes. */
interface EntryAt {
  readonly key: number;
  readonly value: number;
}

/**
 * The entries for libraries of `flags` (CACHE_FLAGS), in the cache's
 * order, leaving out entries for a glibc-hwcaps subdirectory (a nonzero
 * hwcap): the baseline library every CPU loads. Each entry's two strings
 * are checked (inside the bytes, NUL-terminated within 4096 bytes) but
 * not decoded. Undefined when the bytes are no cache.
 */
function cacheEntries(bytes: Uint8Array, flags: number): EntryAt[] | undefined {
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
  const out: EntryAt[] = [];
  for (let i = 0; i < nlibs; i++) {
    const at = NEW_HEADER + i * NEW_ENTRY;
    if (view.getInt32(at, little) !== flags || view.getUint32(at + 16, little) !== 0 || view.getUint32(at + 20, little) !== 0) continue;
    const key = start + view.getUint32(at + 4, little);
    const value = start + view.getUint32(at + 8, little);
    if (!isCString(bytes, key) || !isCString(bytes, value)) return undefined;
    out.push({ key, value });
  }
  return out;
}

/**
 * The cache's entries for libraries of `flags` (CACHE_FLAGS), first entry
 * per soname whose path is absolute (ldconfig sorts them as the loader
 * prefers them), leaving out entries for a glibc-hwcaps subdirectory (a
 * nonzero hwcap). Undefined when the bytes are no cache.
 */
export function readLibraryCache(bytes: Uint8Array, flags: number): LibraryCache | undefined {
  const entries = cacheEntries(bytes, flags);
  if (!entries) return undefined;
  const out = new Map<string, string>();
  for (const e of entries) {
    const key = cString(bytes, e.key);
    const value = cString(bytes, e.value);
    if (!out.has(key) && value.startsWith('/')) out.set(key, value);
  }
  return out;
}

/**
 * The same answers as readLibraryCache's map, for a lint that asks a few
 * sonames of a cache of a thousand: the entries are checked at once (a
 * cache readLibraryCache refuses is undefined here too), and only the
 * strings of the sonames asked are compared and decoded.
 */
export function libraryCacheLookup(bytes: Uint8Array, flags: number): ((soname: string) => string | undefined) | undefined {
  const entries = cacheEntries(bytes, flags);
  if (!entries) return undefined;
  const answers = new Map<string, string | undefined>();
  return (soname) => {
    if (answers.has(soname)) return answers.get(soname);
    // The map's keys are decoded as latin1 and hold no NUL: no such key for another string.
    if (/[^\x01-\xff]/.test(soname)) return undefined;
    const name = Buffer.from(soname, 'latin1');
    let found: string | undefined;
    for (const e of entries) {
      if (bytes[e.key + name.length] !== 0 || bytes[e.value] !== 0x2f || !name.equals(bytes.subarray(e.key, e.key + name.length))) continue;
      found = cString(bytes, e.value);
      break;
    }
    answers.set(soname, found);
    return found;
  };
}

function ascii(b: Uint8Array, at: number, n: number): string {
  return at + n > b.length ? '' : Buffer.from(b.subarray(at, at + n)).toString('latin1');
}

/** Whether a NUL-terminated string of at most 4096 bytes starts at `at`. */
function isCString(b: Uint8Array, at: number): boolean {
  if (at >= b.length) return false;
  const end = b.indexOf(0, at);
  return end >= 0 && end - at <= 4096;
}

/** The NUL-terminated string at `at` (one isCString accepted). */
function cString(b: Uint8Array, at: number): string {
  return Buffer.from(b.subarray(at, b.indexOf(0, at))).toString('latin1');
}
