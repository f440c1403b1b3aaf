import type { Grant, Principal } from '../compiler/ir/types.js';
import { isUnder, trustedByName } from '../compiler/paths/index.js';
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
 *
 * A write tree asks for its host-trusted paths read-only, as every
 * platform gives them (compiler/paths/host-trusted.json): those its
 * spelling names (`trustedByName`) and the command's own inputs. A write
 * grant at or inside one lifts it, so lifting one is asked for, and a
 * widening, whatever the machine (a machine without `~/project/.git`
 * refuses `write = ["~/project/.git"]`, and a refused revision grants
 * nothing there).
 */
export interface RequestedAccess {
  /** What is asked for at the path itself: one of its grants' paths or of `RequestContext.asked`. */
  at(path: string): Cell;
  /** What is asked for at a path just below it that no grant names. */
  below(path: string): Cell;
  /** The paths the grants name, each once, sorted. */
  readonly paths: readonly string[];
}

/** What else the request is asked at, and the command's own host-trusted inputs: both revisions of a diff ask the same. */
export interface RequestContext {
  readonly home: string;
  /** Paths the request is asked at beside its own grants' (the other revision's). */
  readonly asked?: readonly string[];
  /** boxwright's own inputs and outputs of the command (the config, a manifest): host-trusted, not by their spelling. */
  readonly inputs?: readonly string[];
  /**
   * Whether a write tree asks for the host-trusted paths its spelling names
   * read-only (default true): boxwright's own lowerings carve them out;
   * sandbox-runtime does not (its mandatory denies are grants of the IR).
   */
  readonly carvesHostTrusted?: boolean;
  /** A `deny-write` grant keeps its tree read-only in the request (Codex's protected names: read-only wherever a root is). */
  readonly denyWriteCarves?: boolean;
}

function cellOf(s: PathSummary, here: boolean): Cell {
  // A deny covers its tree whatever else is granted there, on every platform.
  if (s.deny) return denied;
  return access({
    read: !!(s.readTree ?? (here ? s.readFile : undefined)),
    // A host-trusted carve-out stops a tree's writes; a write_file at the path names it.
    write: (!!s.writeTree && !s.readOnly) || (here && !!s.writeFile),
    exec: !!(s.execTree ?? (here ? s.execFile : undefined)),
    names: here && !!s.listHere,
    meta: !!s.metadataTree,
  });
}

export function requestedAccess(p: Principal, context: RequestContext): RequestedAccess {
  const grants = p.grants
    .filter((g): g is Grant & { path: string } => !!g.path)
    .map((g) => {
      const { implicit: _implicit, ...plain } = g;
      return g.access === 'exec' ? { ...plain, scope: 'tree' as const } : plain;
    });
  // One platform's slot of the index: with no implicit grant and no mechanism, every slot says the same.
  const ix = new PathIndex(grants);
  const asked = new Set([...grants.map((g) => g.path), ...(context.asked ?? [])]);
  const carved = new Set<string>();
  for (const path of asked) {
    if (context.carvesHostTrusted !== false) for (const t of trustedByName(path, context.home)) carved.add(t);
    for (const i of context.inputs ?? []) if (isUnder(path, i)) carved.add(i);
  }
  if (context.denyWriteCarves) for (const g of grants) if (g.access === 'deny-write') carved.add(g.path);
  for (const t of carved) ix.carveOut(t, 'linux');
  return {
    at: (path) => {
      // The carve-outs are placed before the first question: a path not asked for up front would miss its own.
      if (!asked.has(path)) throw new Error(`requestedAccess: ${path} was not among the paths asked`);
      return cellOf(ix.summary(path, 'linux'), true);
    },
    below: (path) => cellOf(ix.below(path, 'linux'), false),
    paths: [...new Set(grants.map((g) => g.path))].sort(),
  };
}
