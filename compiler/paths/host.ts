import {
  accessSync,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  readSync,
  statSync,
  type Dirent,
} from 'node:fs';
import { readProgram, type ProgramFacts } from './elf.js';
import { CACHE_FLAGS, libraryCacheLookup } from './ldcache.js';
import { TEXT_LIMIT, type Child, type Executable, type FsView, type Lookup } from './view.js';

/**
 * The real disk, read-only. A single lookup is an lstat(2); once a
 * directory is asked about a second time, it is listed once and its
 * entries answer the rest, so a config with thousands of grants in the
 * same directories costs a few readdir calls instead of thousands of lstats.
 */
export function hostView(home: string, probes: HostProbes = {}): FsView {
  const cache = new Map<string, Lookup>();
  const listings = new Map<string, Map<string, Dirent> | null>();
  const asks = new Map<string, number>();
  const programs = new Map<string, ProgramFacts>();
  let libraryCache: LibraryLookup | undefined | 'unknown' | null = null;

  function fromListing(dir: string, name: string): Lookup | undefined {
    let listing = listings.get(dir);
    if (listing === undefined) {
      const n = (asks.get(dir) ?? 0) + 1;
      asks.set(dir, n);
      if (n < LIST_AFTER) return undefined;
      try {
        listing = new Map(readdirSync(dir, { withFileTypes: true }).map((d) => [d.name, d]));
      } catch {
        listing = null;
      }
      listings.set(dir, listing);
    }
    if (listing === null) return undefined;
    const entry = listing.get(name);
    if (!entry) return absentLookup;
    if (entry.isDirectory()) return dirLookup;
    if (entry.isFile()) return fileLookup;
    if (entry.isSymbolicLink()) return undefined; // needs readlink
    if (entry.isBlockDevice() || entry.isCharacterDevice() || entry.isFIFO() || entry.isSocket()) return otherLookup;
    return undefined; // the filesystem did not say (DT_UNKNOWN): ask lstat
  }

  return {
    description: 'host',
    knowsFacts: true,
    home,
    lookup(path: string): Lookup {
      const hit = cache.get(path);
      if (hit) return hit;
      const slash = path.lastIndexOf('/');
      const found =
        (slash > 0 || path.length > 1 ? fromListing(slash > 0 ? path.slice(0, slash) : '/', path.slice(slash + 1)) : undefined) ??
        lookupHost(path);
      cache.set(path, found);
      return found;
    },
    executable: executableOnHost,
    sockets: once(socketsOnHost),
    landlockAbi: once(() => landlockOnHost(probes.landlockAbi)),
    children: childrenOnHost,
    text: textOnHost,
    // Read once per path: the execution closure asks of a library once per place the loader could find it.
    program: (path) => {
      let facts = programs.get(path);
      if (!facts) programs.set(path, (facts = programOnHost(path)));
      return facts;
    },
    cachedLibrary: (soname) => {
      if (libraryCache === null) libraryCache = loadLibraryCache();
      const cache = libraryCache;
      return cache === 'unknown' ? 'unknown' : cache === undefined ? 'none' : (cache(soname) ?? 'none');
    },
    commandPath: once(() => (probes.path ?? process.env['PATH'] ?? '').split(':').filter((d) => d.startsWith('/'))),
  };
}

/** Whether `dir` is another user's and not writable by this one (trust-walk.c's others_closed, the launcher's same test). */
function othersClosed(dir: string): boolean {
  const st = lstatSync(dir, lstatOptions);
  if (!st?.isDirectory() || st.uid === process.geteuid?.()) return false;
  try {
    accessSync(dir, constants.W_OK);
    return false;
  } catch {
    return true;
  }
}

/** A directory's entries, sorted, each a directory or not (lstat where the file system gives no type). */
function childrenOnHost(dir: string): readonly Child[] | 'unknown' {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    // Another user's directory this user can neither list nor write (a service's private directory in /tmp): a
    // workload running as this user cannot put a name there or make it listable, so nothing in it is the search's.
    return code === 'EACCES' && othersClosed(dir) ? [] : 'unknown';
  }
  const out = entries.map((d): Child => {
    if (d.isDirectory()) return { name: d.name, dir: true };
    if (d.isFile() || d.isSymbolicLink() || d.isBlockDevice() || d.isCharacterDevice() || d.isFIFO() || d.isSocket())
      return { name: d.name, dir: false };
    const st = lstatSync(`${dir === '/' ? '' : dir}/${d.name}`, lstatOptions);
    return { name: d.name, dir: !!st?.isDirectory() };
  });
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * A small regular file's content: opened without following a final link
 * and without blocking (a FIFO planted where a `.git` file was would hang
 * an open), checked to be a regular file by the descriptor, read whole.
 */
function textOnHost(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > TEXT_LIMIT) return null;
    const buf = Buffer.alloc(TEXT_LIMIT + 1);
    // One byte past the limit: a file that grew since fstat is read on, and refused.
    let n = 0;
    while (n < buf.length) {
      const got = readSync(fd, buf, n, buf.length - n, n);
      if (got === 0) break;
      n += got;
    }
    if (n > TEXT_LIMIT) return null;
    const text = buf.subarray(0, n).toString('utf8');
    // Bytes that are not UTF-8 name a different file than git would open: no answer rather than a wrong one.
    return Buffer.from(text, 'utf8').equals(buf.subarray(0, n)) ? text : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** The most boxwright reads of one program file, in all (the headers, the interpreter's name, the dynamic section, its strings). */
const PROGRAM_READ_BUDGET = 4 << 20;
/** The largest loader cache boxwright reads (a machine with every library Debian ships has one of about 1 MB). */
const LIBRARY_CACHE_MAX = 16 << 20;

/**
 * A regular file opened without following a link and without blocking (a
 * FIFO put there after the lookup opens at once and is refused by its
 * type), read at positions, never more than the budget in all.
 */
function withRegularFile<T>(
  path: string,
  use: (fd: number, size: number, budget: { left: number }) => T,
  notOpened?: (code: string | undefined) => void,
): T | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (e) {
    notOpened?.((e as NodeJS.ErrnoException).code);
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return undefined;
    return use(fd, st.size, { left: PROGRAM_READ_BUDGET });
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function readAt(fd: number, size: number, budget: { left: number }, offset: number, length: number): Uint8Array {
  const n = Math.max(0, Math.min(length, size - offset, budget.left));
  budget.left -= n;
  const buf = Buffer.alloc(n);
  let got = 0;
  while (got < n) {
    const r = readSync(fd, buf, got, n - got, offset + got);
    if (r <= 0) break;
    got += r;
  }
  return buf.subarray(0, got);
}

const unknownProgram: ProgramFacts = Object.freeze({ kind: 'unknown' });

function programOnHost(path: string): ProgramFacts {
  return (
    withRegularFile(path, (fd, size, budget) =>
      readProgram({ size, read: (offset, length) => readAt(fd, size, budget, offset, length) }),
    ) ?? unknownProgram
  );
}

type LibraryLookup = (soname: string) => string | undefined;

/**
 * This machine's loader cache, read once and looked up by soname (only
 * the sonames asked are decoded): undefined when there is none (the loader
 * then searches its system directories).
 */
function loadLibraryCache(): LibraryLookup | undefined | 'unknown' {
  const flags = process.arch === 'x64' ? CACHE_FLAGS.x86_64 : process.arch === 'arm64' ? CACHE_FLAGS.aarch64 : undefined;
  if (flags === undefined) return 'unknown';
  let absent = false;
  const bytes = withRegularFile(
    '/etc/ld.so.cache',
    (fd, size) => (size > LIBRARY_CACHE_MAX ? undefined : readAt(fd, size, { left: LIBRARY_CACHE_MAX }, 0, size)),
    // No cache (ENOENT), as an lstat would have said; anything else (a link, a FIFO, EACCES) is a cache not read.
    (code) => (absent = code === 'ENOENT'),
  );
  if (absent) return undefined;
  if (!bytes) return 'unknown';
  return libraryCacheLookup(bytes, flags) ?? 'unknown';
}

/**
 * What the host view cannot learn by reading files. The Landlock ABI is the
 * answer of a system call (landlock_create_ruleset with its VERSION flag)
 * that Node cannot make: the application passes a probe that asks the
 * in-sandbox helper (`--abi`), where it is built.
 */
export interface HostProbes {
  readonly landlockAbi?: () => number | 'unknown';
  /** PATH, where command names are looked up: the command's environment's (the CLI's io); this process's by default. */
  readonly path?: string;
}

/**
 * The kernel's Landlock ABI. Not among the active security modules
 * (securityfs), it is 0 whatever a probe says; among them, the probe's
 * answer, unknown without one (or where the list is not readable).
 */
function landlockOnHost(probe: HostProbes['landlockAbi']): number | 'unknown' {
  let active: boolean;
  try {
    active = readFileSync('/sys/kernel/security/lsm', 'utf8')
      .split(',')
      .map((s) => s.trim())
      .includes('landlock');
  } catch {
    return probe ? probe() : 'unknown';
  }
  return !active ? 0 : probe ? probe() : 'unknown';
}

function once<T>(f: () => T): () => T {
  let v: { value: T } | undefined;
  return () => (v ??= { value: f() }).value;
}

/**
 * The paths of the unix sockets bound on this machine, from the kernel's
 * table (/proc/net/unix: the last column is the path; abstract names start
 * with `@`, unnamed sockets have none). It lists the sockets of this
 * network namespace, which is where the host's daemons (docker, databases,
 * agents) listen; `unknown` where there is no such table (not Linux).
 */
function socketsOnHost(): readonly string[] | 'unknown' {
  let text: string;
  try {
    text = readFileSync('/proc/net/unix', 'utf8');
  } catch {
    return 'unknown';
  }
  const out = new Set<string>();
  for (const line of text.split('\n').slice(1)) {
    // Num RefCount Protocol Flags Type St Inode Path
    const fields = line.trim().split(/\s+/);
    const path = fields.slice(7).join(' ');
    if (path.startsWith('/')) out.add(path);
  }
  return [...out].sort();
}

/** A regular file with an execute bit this process may use (access(2) with X_OK, as execve checks it). */
function executableOnHost(path: string): Executable {
  try {
    if (!statSync(path).isFile()) return 'no';
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP' ? 'no' : 'unknown';
  }
  try {
    accessSync(path, constants.X_OK);
    return 'yes';
  } catch {
    return 'no';
  }
}

function lookupHost(path: string): Lookup {
  try {
    const st = lstatSync(path, lstatOptions);
    if (!st) return absentLookup;
    if (st.isSymbolicLink()) return { kind: 'symlink', target: readlinkSync(path) };
    if (st.isDirectory()) return dirLookup;
    if (st.isFile()) return fileLookup;
    return otherLookup;
  } catch (e) {
    // ENOTDIR: a parent is a file, so this path cannot exist.
    if ((e as NodeJS.ErrnoException).code === 'ENOTDIR') return absentLookup;
    return unknownLookup;
  }
}

const lstatOptions = { throwIfNoEntry: false } as const;

/**
 * A directory is listed once this many different names in it were asked
 * (each an lstat until then). A lint of a small config asks a few names in
 * /usr/lib/x86_64-linux-gnu (its libraries), which holds a thousand entries:
 * listing it costs more than those lstats. A config with thousands of grants
 * in the same directories still gets them listed after a few lstats each.
 */
const LIST_AFTER = 16;

// The answers that carry no data, one object each: a large config asks thousands of paths.
const absentLookup: Lookup = Object.freeze({ kind: 'absent' });
const dirLookup: Lookup = Object.freeze({ kind: 'dir' });
const fileLookup: Lookup = Object.freeze({ kind: 'file' });
const otherLookup: Lookup = Object.freeze({ kind: 'other' });
const unknownLookup: Lookup = Object.freeze({ kind: 'unknown' });
