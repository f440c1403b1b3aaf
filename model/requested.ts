import type { Grant, Principal } from '../compiler/ir/types.js';
import { access, denied, type Cell } from './cell.js';
import { PathIndex, type PathSummary } from './path-index.js';

/**
 * What a principal's grants ask for, on no machine in particular: the
 * request `diff` compares beside what a machine grants, so that a widened
 * grant is a widening whatever the machine's facts (a path it lacks makes
 * both revisions refused there, and a refused revision grants nothing).
 *
 * Every grant counts on every platform (an implicit TYBA grant, a path
 * the Windows plan leaves out: each is asked for), and an `exec` grant
 * counts as a tree, since a machine where its path is a directory runs
 * everything below it: the most any machine makes of the request.
 */
export interface RequestedAccess {
  /** What is asked for at the path itself. */
  at(path: string): Cell;
  /** What is asked for at a path just below it that no grant names. */
  below(path: string): Cell;
  /** The paths the grants name, each once, sorted. */
  readonly paths: readonly string[];
}

function cellOf(s: PathSummary, here: boolean): Cell {
  // A deny covers its tree whatever else is granted there, on every platform.
  if (s.deny) return denied;
  return access({
    read: !!(s.readTree ?? (here ? s.readFile : undefined)),
    write: !!(s.writeTree ?? (here ? s.writeFile : undefined)),
    exec: !!(s.execTree ?? (here ? s.execFile : undefined)),
    names: here && !!s.listHere,
    meta: !!s.metadataTree,
  });
}

export function requestedAccess(p: Principal): RequestedAccess {
  const grants = p.grants.filter((g): g is Grant & { path: string } => !!g.path).map((g) => {
    const { implicit: _implicit, ...plain } = g;
    return g.access === 'exec' ? { ...plain, scope: 'tree' as const } : plain;
  });
  // One platform's slot of the index: with no implicit grant and no mechanism, every slot says the same.
  const ix = new PathIndex(grants);
  return {
    at: (path) => cellOf(ix.summary(path, 'linux'), true),
    below: (path) => cellOf(ix.below(path, 'linux'), false),
    paths: [...new Set(grants.map((g) => g.path))].sort(),
  };
}
