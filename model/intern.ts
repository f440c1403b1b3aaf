import type { Platform } from '../compiler/diagnostic.js';
import { PLATFORMS } from '../compiler/diagnostic.js';
import type { Cell } from './cell.js';
import type { Mechanism } from './facts.js';
import type { GrantAccess } from './access.js';

/**
 * The parts of a grant's access that are values, one object for each
 * combination: cells and mechanisms are shared constants (cell.ts and the
 * fixed mechanisms below), so thousands of grants with the same rights
 * share one `effective` and one `notes` instead of an object each.
 */
export const effectives: Trie = new Map();

export function effectiveOf(cells: Record<Platform, Cell>): GrantAccess['effective'] {
  // A write refused for its read cover names the grants around it: its own object.
  if (cells.linux.kind === 'refused' && cells.linux.because.kind === 'write-without-read-cover') return cells;
  return intern(effectives, cells, () => Object.freeze({ ...cells }));
}

export const notesInterned: Trie = new Map();

export function notesOf(n: Partial<Record<Platform, Mechanism>>): GrantAccess['notes'] {
  // Each platform's mechanism is a fixed one (mechanismOf), so the combinations are few;
  // the Windows plan's omission names its path: its own object.
  if (n.windows?.kind === 'no-windows-spelling' || n.windows?.kind === 'label-of-another-principal') return n;
  return intern(notesInterned, n, () => Object.freeze(n));
}

/** Maps keyed by each platform's value in PLATFORMS order, the last one holding the interned object. */
export type Trie = Map<unknown, unknown>;

export function intern<T, V>(top: Trie, per: Readonly<Partial<Record<Platform, T>>>, make: () => V): V {
  let m = top;
  const last = PLATFORMS.length - 1;
  for (let i = 0; i < last; i++) {
    const key = per[PLATFORMS[i]!];
    let next = m.get(key) as Trie | undefined;
    if (!next) m.set(key, (next = new Map()));
    m = next;
  }
  const key = per[PLATFORMS[last]!];
  let v = m.get(key) as V | undefined;
  if (v === undefined) m.set(key, (v = make()));
  return v;
}
