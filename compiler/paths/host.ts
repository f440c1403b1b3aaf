import { accessSync, constants, lstatSync, readdirSync, readFileSync, readlinkSync, statSync, type Dirent } from 'node:fs';
import type { Executable, FsView, Lookup } from './view.js';

/**
 * The real disk, read-only. A single lookup is an lstat(2); once a
 * directory is asked about a second time, it is listed once and its
 * entries answer the rest, so a config with thousands of grants in the
 * same directories costs a few readdir calls instead of thousands of lstats.
 */
export function hostView(home: string): FsView {
  const cache = new Map<string, Lookup>();
  const listings = new Map<string, Map<string, Dirent> | null>();
  const asks = new Map<string, number>();

  function fromListing(dir: string, name: string): Lookup | undefined {
    let listing = listings.get(dir);
    if (listing === undefined) {
      const n = (asks.get(dir) ?? 0) + 1;
      asks.set(dir, n);
      if (n < 2) return undefined;
      try {
        listing = new Map(readdirSync(dir, { withFileTypes: true }).map((d) => [d.name, d]));
      } catch {
        listing = null;
      }
      listings.set(dir, listing);
    }
    if (listing === null) return undefined;
    const entry = listing.get(name);
    if (!entry) return { kind: 'absent' };
    if (entry.isDirectory()) return { kind: 'dir' };
    if (entry.isFile()) return { kind: 'file' };
    if (entry.isSymbolicLink()) return undefined; // needs readlink
    if (entry.isBlockDevice() || entry.isCharacterDevice() || entry.isFIFO() || entry.isSocket()) return { kind: 'other' };
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
      const found = (slash > 0 || path.length > 1 ? fromListing(slash > 0 ? path.slice(0, slash) : '/', path.slice(slash + 1)) : undefined) ?? lookupHost(path);
      cache.set(path, found);
      return found;
    },
    executable: executableOnHost,
    sockets: once(socketsOnHost),
    landlock: once(landlockOnHost),
  };
}

/** The kernel's active security modules (securityfs): Landlock among them, or not; unknown where the list is not readable. */
function landlockOnHost(): 'available' | 'absent' | 'unknown' {
  try {
    return readFileSync('/sys/kernel/security/lsm', 'utf8').split(',').map((s) => s.trim()).includes('landlock') ? 'available' : 'absent';
  } catch {
    return 'unknown';
  }
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
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (!st) return { kind: 'absent' };
    if (st.isSymbolicLink()) return { kind: 'symlink', target: readlinkSync(path) };
    if (st.isDirectory()) return { kind: 'dir' };
    if (st.isFile()) return { kind: 'file' };
    return { kind: 'other' };
  } catch (e) {
    // ENOTDIR: a parent is a file, so this path cannot exist.
    if ((e as NodeJS.ErrnoException).code === 'ENOTDIR') return { kind: 'absent' };
    return { kind: 'unknown' };
  }
}
