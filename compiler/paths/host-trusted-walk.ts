/**
 * The search of write trees for project names (`.git`, `.vscode`, …):
 * every directory listed once, breadth first, up to a limit, and what it
 * could not finish. host-trusted.ts decides what the names found are.
 */
import { projectEntries, type TrustedEntry } from './host-trusted-entries.js';
import { atOrAbove } from './host-trusted-index.js';
import type { FsView } from './view.js';

export interface UnsearchedTree {
  readonly tree: string;
  readonly why: 'limit' | 'unreadable';
  /** The first directories not listed (at most UNSEARCHED_SHOWN), and how many there were in all. */
  readonly dirs: readonly string[];
  readonly count: number;
}

const UNSEARCHED_SHOWN = 5;

/** The trees that are inside no other of them (sorted, each once): walking those lists every directory of all. */
export function outermost(trees: readonly string[]): string[] {
  const all = new Set(trees);
  // A tree is walked with the one it lies inside (by spelling, as isUnder compares): ancestors by prefix, linear in the trees.
  return [...all].filter((t) => !atOrAbove(t).some((a) => a !== t && all.has(a))).sort();
}

/**
 * Every directory of each tree, at every depth, listed once (breadth
 * first, so what a limit leaves unlisted is the deepest), reporting each
 * entry with a project name; not into one (a host-trusted directory is one
 * whole), nor through a link (a listing says what an entry is without
 * following it). Returns the trees it could not finish.
 */
export function walkTrees(
  view: FsView,
  trees: readonly string[],
  limit: number,
  roots: ReadonlySet<string>,
  listedRoots: Map<string, Set<string>>,
  found: (path: string, entry: TrustedEntry) => void,
): UnsearchedTree[] {
  const out: UnsearchedTree[] = [];
  let listed = 0;
  for (const tree of trees) {
    const queue: string[] = [tree];
    const unreadable: string[] = [];
    let next = 0;
    for (; next < queue.length && listed < limit; next++) {
      const dir = queue[next]!;
      listed++;
      const children = view.children(dir);
      if (children === 'unknown') {
        // A view that knows no listings (--fs none, a manifest without the tree) is not a search that stopped.
        if (view.description === 'host') unreadable.push(dir);
        continue;
      }
      // A write root's listing decides the names it lacks, once for all of them (RootNames).
      const held = roots.has(dir) ? new Set<string>() : undefined;
      if (held) listedRoots.set(dir, held);
      for (const c of children) {
        const entry = projectEntries.get(c.name);
        const path = `${dir === '/' ? '' : dir}/${c.name}`;
        if (entry) {
          found(path, entry);
          held?.add(c.name);
        } else if (c.dir) queue.push(path);
      }
    }
    const left = queue.length - next;
    if (left > 0) out.push({ tree, why: 'limit', dirs: queue.slice(next, next + UNSEARCHED_SHOWN), count: left });
    else if (unreadable.length)
      out.push({ tree, why: 'unreadable', dirs: unreadable.slice(0, UNSEARCHED_SHOWN), count: unreadable.length });
  }
  return out;
}
