/**
 * Host-trusted paths (host-trusted.json): what the host executes or trusts
 * after a run. This module finds the ones that matter for a config — those
 * at, inside or around its write grants — through the filesystem view, with
 * their facts; the model decides what each platform does with them.
 *
 * Lint stays machine-independent: the entries are data; which of them
 * exist is a fact of the view (`--fs host` finds them on the disk, a
 * manifest lists them, `--fs none` knows nothing).
 */
import { posix } from 'node:path';
import { commonDirs, pointedGitdirs } from './git.js';
import { gitConfigTargets } from './git-config.js';
import { namesHolding, NearPaths, pushAt } from './host-trusted-index.js';
import { absentFacts, inspectPath, longestPath, type PathFacts } from './inspect.js';
import { expandTilde, isStrictlyUnder, isUnder } from './spelling.js';
import type { Child, FsView } from './view.js';
import { outermost, type UnsearchedTree, walkTrees } from './host-trusted-walk.js';
import {
  asEntry,
  gitConfigEntry,
  gitdirEntry,
  gitdirNames,
  homeEntries,
  inputEntry,
  linkEntry,
  pointerEntry,
  projectEntries,
  projectEntryList,
  projectNameSet,
  projectNames,
  type HostTrustedInput,
  type HostTrustedPath,
  type TrustedEntry,
} from './host-trusted-entries.js';

export type { TrustedWhere, TrustedEntry, BoxwrightInput, HostTrustedInput, HostTrustedPath } from './host-trusted-entries.js';
export { trustedEntries, projectNames, projectNameSet, homePaths } from './host-trusted-entries.js';
export type { UnsearchedTree } from './host-trusted-walk.js';

/**
 * The host-trusted paths a path lies at or inside by its spelling alone, on
 * no machine in particular, outermost first: a home path (`~/.bashrc`,
 * `~/.local/bin`), a component with a project name (`.git`, `.vscode`, at
 * any depth, as a machine's search finds them), and below a `.git`
 * component, one with a name of what git runs from a git directory
 * (`config`, `hooks`, …, at any depth: a submodule's or a
 * linked worktree's git directory inside it has its own). What a `.git`
 * file names is a fact of a machine, and boxwright's inputs are a
 * command's: neither is known here. `diff` compares requests with these
 * carved out, so that a grant that lifts one asks for more.
 */
export function trustedByName(path: string, home: string): string[] {
  const out = new Set<string>();
  for (const h of homeEntries) {
    const at = expandTilde(h.written, home);
    if (isUnder(path, at)) out.add(at);
  }
  const parts = path.split('/');
  let inGitdir = false;
  for (let i = 1; i < parts.length; i++) {
    const name = parts[i]!;
    if (projectEntries.has(name) || (inGitdir && gitdirNames.has(name))) out.add(parts.slice(0, i + 1).join('/'));
    inGitdir ||= name === '.git';
  }
  return [...out].sort((a, b) => a.length - b.length);
}

/**
 * What the search reads of a directory listing: its subdirectories (where
 * it descends) and the entries with a project name (what it finds). A run's
 * cache records and compares this part only, so a file the workload writes
 * in a write tree does not make the next run check again, while a new
 * directory or a new `.git` does.
 */
export function searchedPart(children: readonly Child[]): Child[] {
  return children.filter((c) => c.dir || projectEntries.has(c.name));
}

/**
 * At most this many directories are listed for one config. The search has
 * no depth and no budget a workload can spend quietly: a search that cannot
 * list every directory of every write tree is incomplete, and an incomplete
 * search is an error (`host-trusted-path`), so `compile` and `run` refuse
 * rather than protect less. A workload that makes this many directories in
 * a write tree makes the next run refuse, never run with its `.git` writable.
 */
export const SEARCH_LIMIT = 1_000_000;

export interface TrustedSearch {
  /** Sorted by path: `singles` and every name of `rootNames`, made on the first read (lint reads the two parts). */
  readonly paths: readonly HostTrustedPath[];
  /** The paths found one by one, sorted by path: all but the names of `rootNames`. */
  readonly singles: readonly HostTrustedPath[];
  /**
   * The project names a write tree's root does not hold (or a view cannot
   * say), one record a tree: 20,000 trees each have some 30 of them, and a
   * path object, a lookup and a model decision each cost seconds. Sorted by
   * root; no name of one is among `singles`, nor at or above a write root.
   */
  readonly rootNames: readonly RootNames[];
  /**
   * The write trees whose search did not finish (the limit was reached, or a
   * directory could not be listed), each with the first directories left
   * unlisted: their host-trusted names are not known. Empty when the search
   * covered every directory.
   */
  readonly unsearched: readonly UnsearchedTree[];
}

/**
 * The project names absent at a write tree's root, decided from the one
 * listing of the root the search makes (or unknown, on a view that knows
 * no facts): each is what inspectPath and findHostTrusted would have said
 * of it alone, a path object each only when asked (`paths`).
 */
export interface RootNames {
  readonly root: string;
  /** Shared by every name: absent, or unknown; never a link. */
  readonly facts: PathFacts;
  /** In the data file's order. */
  readonly names: readonly string[];
  /** The same names, as a set. */
  readonly nameSet: ReadonlySet<string>;
  /** The path of a name (`root/name`). */
  pathOf(name: string): string;
  /** A name as a found path, made once (the object `paths` holds). */
  pathFor(name: string): HostTrustedPath;
  /** Each name as a found path, sorted by path. */
  paths(): readonly HostTrustedPath[];
}

class RootNamesOf implements RootNames {
  /** The first name asked for (the model decides a tree by its first name), then the others: no map per tree for one name. */
  private firstName: string | undefined;
  private first: HostTrustedPath | undefined;
  private made: Map<string, HostTrustedPath> | undefined;
  constructor(
    readonly root: string,
    readonly facts: PathFacts,
    readonly names: readonly string[],
    readonly nameSet: ReadonlySet<string>,
  ) {}
  pathOf(name: string): string {
    return `${this.root === '/' ? '' : this.root}/${name}`;
  }
  pathFor(name: string): HostTrustedPath {
    if (name === this.firstName) return this.first!;
    let t = this.made?.get(name);
    if (!t) {
      const entry = projectEntries.get(name)!;
      // The fields in the order findHostTrusted's `add` makes them: one shape for every found path.
      t = { path: this.pathOf(name), facts: this.facts, entry, why: entry.reason, label: entry.label };
      if (this.firstName === undefined) {
        this.firstName = name;
        this.first = t;
      } else (this.made ??= new Map()).set(name, t);
    }
    return t;
  }
  paths(): readonly HostTrustedPath[] {
    return this.names.map((n) => this.pathFor(n)).sort(byPath);
  }
}

const byPath = (a: { readonly path: string }, b: { readonly path: string }): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** A write grant's path, and whether it names a directory (a tree whose root holds project names). */
export interface WriteRoot {
  readonly path: string;
  readonly tree: boolean;
}

/**
 * The host-trusted paths of a config: those at, inside or around (a write
 * grant inside one: `write = ["~/project/.git/hooks"]`) its write roots,
 * and the application's inputs. Home paths and the roots' own project
 * names are candidates whether or not they exist (a platform may refuse
 * their creation); deeper project names only where they exist.
 */
export function findHostTrusted(
  view: FsView,
  roots: readonly WriteRoot[],
  inputs: readonly HostTrustedInput[],
  limit = SEARCH_LIMIT,
): TrustedSearch {
  const found = new Map<string, HostTrustedPath>();
  const rootNames: RootNames[] = [];
  /** Each grouped root's names, to keep a later find of one from adding it again (add returns what is found). */
  const grouped = new Map<string, ReadonlySet<string>>();
  const isGrouped = (path: string): boolean => {
    const slash = path.lastIndexOf('/');
    return slash >= 0 && !!grouped.get(slash === 0 ? '/' : path.slice(0, slash))?.has(path.slice(slash + 1));
  };
  const add = (path: string, entry: TrustedEntry, why = entry.reason, label = entry.label, parentOf?: string): void => {
    if (!path.startsWith('/') || found.has(path) || isGrouped(path)) return;
    found.set(path, { path, facts: inspectPath(view, path), entry, why, label, ...(parentOf ? { parentOf } : {}) });
  };
  const rootPaths = new NearPaths(roots.map((r) => r.path));
  const near = (p: string): boolean => rootPaths.near(p);

  for (const h of homeEntries) {
    const path = expandTilde(h.written, view.home);
    if (near(path)) add(path, h.entry);
  }
  // An input matters where a write grant holds it (or it holds one): only those are asked about.
  for (const i of inputs)
    if (near(i.path)) add(i.path, asEntry(inputEntry), inputEntry.inputs![i.input].reason, inputEntry.inputs![i.input].label);

  // Project names: a component of a root (a write grant inside `.git`), the root's own, and below it where they exist.
  const walked: string[] = [];
  const ownNames: string[] = [];
  for (const root of roots) {
    // Each component after a `/` and the path up to it, as split('/') would give them, without an array a root.
    let inside = false;
    for (let slash = root.path.indexOf('/'); slash >= 0; ) {
      const next = root.path.indexOf('/', slash + 1);
      const end = next < 0 ? root.path.length : next;
      const entry = projectEntries.get(root.path.slice(slash + 1, end));
      if (entry) add(root.path.slice(0, end), entry);
      inside ||= !!entry;
      slash = next;
    }
    // A tree inside a host-trusted directory (a lifted `.git/objects`) is not a project: no names of its own.
    if (!root.tree || inside) continue;
    ownNames.push(root.path);
    walked.push(root.path);
  }
  // The walk first, its finds kept in its order: the roots' own names are found before them, as they always were.
  const finds: [string, TrustedEntry][] = [];
  const listedRoots = new Map<string, Set<string>>();
  const unsearched = walkTrees(view, outermost(walked), limit, new Set(walked), listedRoots, (path, entry) => finds.push([path, entry]));
  // By directory, the project names a path found so far or a write root lies at or inside: those are decided one by one.
  const taken = namesHolding([...found.keys(), ...rootPaths.paths()], projectNameSet);
  const sameNames = new Map<string, { readonly names: readonly string[]; readonly set: ReadonlySet<string> }>();
  for (const root of ownNames) {
    // The names it does not hold, decided once from its listing; those it holds, and the taken ones, one by one.
    const facts = grouped.has(root) ? undefined : namesFacts(view, root, listedRoots);
    const held = listedRoots.get(root);
    const own = taken.get(root);
    const names: string[] = [];
    const base = root === '/' ? '' : root;
    // Indexed, without destructuring: an iterator and its results for each name of each tree were 10 MB at 20,000 trees.
    for (let i = 0; i < projectEntryList.length; i++) {
      const pair = projectEntryList[i]!;
      const name = pair[0];
      if (!facts || held?.has(name) || own?.has(name)) add(`${base}/${name}`, pair[1]);
      else names.push(name);
    }
    if (facts && names.length) {
      // Most trees lack the same names (all of them, in an empty tree): one list and one set for each such group, read-only.
      const key = names.length === projectEntryList.length ? '' : names.join('/');
      let same = sameNames.get(key);
      if (!same) sameNames.set(key, (same = { names, set: new Set(names) }));
      const r = new RootNamesOf(root, facts, same.names, same.set);
      rootNames.push(r);
      grouped.set(root, r.nameSet);
    }
  }
  for (const [path, entry] of finds) add(path, entry);

  // Inside each git directory found (a `.git` directory, the one a `.git` file names, and its common directory), with the work trees it serves.
  const gitdirs = new Map<string, string[]>();
  const serves = (gitdir: string, worktree: string): void => pushAt(gitdirs, gitdir, worktree);
  for (const t of [...found.values()]) {
    if (posix.basename(t.path) !== '.git' || t.facts.existence !== 'exists' || t.facts.symlink) continue;
    const worktree = posix.dirname(t.path);
    if (t.facts.kind === 'dir') serves(t.path, worktree);
    else if (t.facts.kind === 'file') {
      for (const g of pointedGitdirs(view, t.path)) {
        add(g, pointerEntry, `${pointerEntry.reason} (${t.path} names it)`);
        serves(g, worktree);
        for (const c of commonDirs(view, g)) {
          add(c, pointerEntry, `${pointerEntry.reason} (${g}/commondir names it)`);
          serves(c, worktree);
        }
      }
    }
  }
  for (const g of gitdirs.keys()) for (const name of gitdirEntry.names ?? []) add(`${g}/${name}`, asEntry(gitdirEntry));

  // What git's configs make it run or read elsewhere (core.hooksPath, include and includeIf targets), where a write grant reaches it.
  if (view.knowsFacts)
    for (const t of gitConfigTargets(view, gitdirs)) if (near(t.path)) add(t.path, gitConfigEntry, `${gitConfigEntry.reason} (${t.why})`);

  // A host-trusted path that is a link: the host reads its target through it, so the target is host-trusted where a write grant reaches it.
  // (A grouped name is absent or unknown, never a link.)
  if (view.knowsFacts) {
    const links = [...found.values(), ...homeEntries.map((h) => ({ path: expandTilde(h.written, view.home), entry: h.entry }))];
    for (const l of links) {
      const facts = inspectPath(view, l.path).symlink;
      if (!facts || facts.loop || !facts.resolved.startsWith('/') || !near(facts.resolved)) continue;
      add(facts.resolved, linkEntry, `${linkEntry.reason} (${l.path} leads there; ${l.entry.label})`);
    }
  }

  // The missing ancestors of a missing path, up to the write root that holds it (a grouped name's parent is its root: none).
  for (const t of [...found.values()]) {
    if (t.facts.existence !== 'absent' || t.parentOf) continue;
    const root = rootPaths.nearestStrictlyAbove(t.path);
    if (!root) continue;
    for (let a = posix.dirname(t.path); isStrictlyUnder(a, root); a = posix.dirname(a)) {
      if (inspectPath(view, a).existence !== 'absent') break;
      add(a, t.entry, t.why, t.label, t.path);
    }
  }
  const singles = [...found.values()].sort(byPath);
  rootNames.sort((a, b) => (a.root < b.root ? -1 : a.root > b.root ? 1 : 0));
  let paths: HostTrustedPath[] | undefined;
  return {
    get paths() {
      paths ??= rootNames.length ? singles.concat(rootNames.flatMap((r) => r.paths())).sort(byPath) : singles;
      return paths;
    },
    singles,
    rootNames,
    unsearched,
  };
}

/**
 * What every project name a root's listing lacks is, where one answer holds
 * for all (the one inspectPath gives each): absent under a clean, link-free
 * root the search listed (a missing root lists as empty), unknown on a view
 * that knows no facts. Undefined where each must be asked on its own.
 */
function namesFacts(view: FsView, root: string, listed: ReadonlyMap<string, unknown>): PathFacts | undefined {
  // A path longer than any platform takes is unknown to inspectPath: the longest name must fit.
  if (root.length + 1 + longestName > longestPath || !isCleanRoot(root)) return undefined;
  if (!view.knowsFacts) return inspectPath(view, `${root}/${projectNames[0]}`);
  if (!listed.has(root)) return undefined;
  const facts = inspectPath(view, root);
  if (facts.symlink || facts.existence === 'unknown' || (facts.existence === 'exists' && facts.kind !== 'dir')) return undefined;
  return absentFacts;
}

const longestName = Math.max(...projectNames.map((n) => n.length));

/** An absolute path inspectPath resolves as its listing does: no `.` or `..` (resolved by spelling there, by the disk here), no `//`, not `/`. */
function isCleanRoot(path: string): boolean {
  return path.length > 1 && path.startsWith('/') && !path.endsWith('/') && !path.includes('//') && !/\/\.\.?(\/|$)/.test(path);
}
