import { lstatSync, readlinkSync } from 'node:fs';
import type { FsView, Lookup } from './view.js';

/** The real disk, read-only, through lstat and readlink. */
export function hostView(home: string): FsView {
  const cache = new Map<string, Lookup>();
  return {
    description: 'host',
    knowsFacts: true,
    home,
    lookup(path: string): Lookup {
      const hit = cache.get(path);
      if (hit) return hit;
      const found = lookupHost(path);
      cache.set(path, found);
      return found;
    },
  };
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
