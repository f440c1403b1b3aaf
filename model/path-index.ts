import { byPlatform, PLATFORMS, type Platform } from '../compiler/diagnostic.js';
import type { Grant } from '../compiler/ir/types.js';

/**
 * What one platform's grants say about one path: the nearest tree grant of
 * each kind over the path, and the exact-file grants at it.
 */
export interface PathSummary {
  readonly deny: Grant | undefined;
  readonly existingDeny: Grant | undefined;
  readonly readTree: Grant | undefined;
  readonly writeTree: Grant | undefined;
  readonly metadataTree: Grant | undefined;
  /** An exec grant of a directory over the path. */
  readonly execTree: Grant | undefined;
  readonly mechanismDenied: boolean;
  /**
   * The host-trusted path whose carve-out holds here (its key): writes
   * stop, whatever tree above grants them, until a write grant at or below
   * it (one that names it) lifts them again.
   */
  readonly readOnly: string | undefined;
  /** A `list` grant on this directory itself (names only, not below). */
  readonly listHere: Grant | undefined;
  readonly readFile: Grant | undefined;
  readonly writeFile: Grant | undefined;
  readonly execFile: Grant | undefined;
}

/** A platform's slot in a node's per-platform memo and bit masks: its place in PLATFORMS. */
type Slot = number;
const slots = PLATFORMS.length;
const slot: Readonly<Record<Platform, Slot>> = byPlatform((platform) => PLATFORMS.indexOf(platform));
const platformOf: readonly Platform[] = PLATFORMS;
/** A fresh node's memo: the tree states (slots 0…n-1), then the summaries (n…2n-1). */
const emptyMemo: readonly undefined[] = new Array<undefined>(2 * slots).fill(undefined);

/**
 * A path some grant (or a platform mechanism) names, keyed by its
 * components: `/a//b/` and `/a/b` are one node, as they are one path for
 * the kernel; `.` and `..` stay components, as written.
 */
interface PathNode {
  readonly key: string;
  /** The nearest node above (null: none), once asked. */
  up: PathNode | null | undefined;
  /** Grants at exactly this path, in the config's order. */
  trees: Grant[] | undefined;
  files: Grant[] | undefined;
  /** Some grant here applies only on some platforms (an implicit TYBA grant). */
  partial: boolean;
  /** Bit per platform slot: the platform's own mechanism denies this path and below. */
  mechanism: number;
  /** Bit per platform slot: a host-trusted carve-out makes this path and below read-only. */
  carve: number;
  /** Bit per platform slot: another principal's grant lifts carve-outs here (a Windows label is the object's, for every principal). */
  lift: number;
  /**
   * Per platform slot: names just below this path carved out as if each
   * were a node of its own with its `carve` bit (carveNames): a tree's
   * absent host-trusted names, one set a tree instead of a node a name.
   */
  carvedNames: (ReadonlySet<string> | undefined)[] | undefined;
  /** The states those names give, by name (slot by slot), once asked. */
  carvedStates: Map<string, (PathSummary | undefined)[]> | undefined;
  /**
   * Per platform slot: the tree state at this node (slot: the summary of a
   * path just below it that no grant names), then the summary at the node
   * itself (slots + slot). Shared with the node above, or between the two, wherever
   * nothing here changes it, so that most nodes allocate nothing.
   */
  readonly memo: (PathSummary | undefined)[];
}

const none: PathSummary = {
  deny: undefined,
  existingDeny: undefined,
  readTree: undefined,
  writeTree: undefined,
  metadataTree: undefined,
  execTree: undefined,
  mechanismDenied: false,
  readOnly: undefined,
  listHere: undefined,
  readFile: undefined,
  writeFile: undefined,
  execFile: undefined,
};

/**
 * A principal's grants by path, for all platforms at once. One node
 * per path a grant names (not per component), in one map by path; a
 * node's summary is its own grants over the state of the nearest named
 * path above, computed once and shared down wherever nothing changes, so
 * the whole config costs O(grants) small objects. Any other path is
 * answered from its nearest named ancestor.
 */
export class PathIndex {
  private readonly nodes = new Map<string, PathNode>();
  /** Paths no grant names, asked about: the nearest node above each (null: none). */
  private readonly between = new Map<string, PathNode | null>();
  /** Nodes holding tree grants, in component order (treesBelow), once asked. */
  private sorted: PathNode[] | undefined;
  private asked = false;
  /**
   * Each platform's last question and its answer: the model asks the same
   * path again at once (a host-trusted name's plain cell, its summary, its
   * cell: 140,000 of 520,000 questions at 40,000 grants), and the index no
   * longer changes once asked, so the answer is the same object.
   */
  private readonly lastPath: (string | undefined)[] = new Array<string | undefined>(slots).fill(undefined);
  private readonly lastSummary: PathSummary[] = new Array<PathSummary>(slots).fill(none);

  /** `windowsLeftOut`: the grants the Windows plan leaves out (no Windows spelling), which apply on the other two only. */
  constructor(
    grants: readonly Grant[],
    private readonly windowsLeftOut: ReadonlyMap<Grant, unknown> = new Map(),
  ) {
    for (const g of grants) {
      if (!g.path) continue;
      const node = this.node(g.path);
      // An array of one for the usual one grant a path (a pushed-to empty array reserves room for 16).
      if (g.scope === 'tree') node.trees ? node.trees.push(g) : (node.trees = [g]);
      else node.files ? node.files.push(g) : (node.files = [g]);
      if (g.implicit || windowsLeftOut.has(g)) node.partial = true;
    }
  }

  /** Denies by the platform's own mechanism, added before any question is asked. */
  denyByMechanism(path: string, platform: Platform): void {
    if (this.asked) throw new Error('PathIndex: a mechanism deny after the first question');
    this.node(path).mechanism |= 1 << slot[platform];
  }

  /** A host-trusted path made read-only on a platform (with what is below it), added before any question is asked. */
  carveOut(path: string, platform: Platform): void {
    if (this.asked) throw new Error('PathIndex: a carve-out after the first question');
    this.node(path).carve |= 1 << slot[platform];
  }

  /**
   * Each of `names` just below `dir` made read-only on a platform (with
   * what is below it), exactly as carveOut(`dir/name`) would, without a
   * node each: the set is kept as given, shared by every question.
   */
  carveNames(dir: string, names: ReadonlySet<string>, platform: Platform): void {
    if (this.asked) throw new Error('PathIndex: a carve-out after the first question');
    const node = this.node(dir);
    const sets = (node.carvedNames ??= new Array<ReadonlySet<string> | undefined>(slots).fill(undefined));
    const had = sets[slot[platform]];
    sets[slot[platform]] = had ? new Set([...had, ...names]) : names;
  }

  /** Every path some grant, mechanism or carve-out names (a clean spelling each). */
  keys(): IterableIterator<string> {
    return this.nodes.keys();
  }

  /** Carve-outs lifted at a path (and below it) on a platform, as a write grant there lifts them. */
  liftOut(path: string, platform: Platform): void {
    if (this.asked) throw new Error('PathIndex: a lift after the first question');
    this.node(path).lift |= 1 << slot[platform];
  }

  summary(path: string, platform: Platform): PathSummary {
    this.asked = true;
    const p = slot[platform];
    if (this.lastPath[p] === path) return this.lastSummary[p]!;
    const s = this.summaryOf(path, p);
    this.lastPath[p] = path;
    this.lastSummary[p] = s;
    return s;
  }

  private summaryOf(path: string, p: Slot): PathSummary {
    // A granted path asked as it is named (the common question): every key is a
    // clean spelling, so a path that is one is its own key.
    const named = this.nodes.get(path);
    if (named) return this.summaryAt(named, p);
    const key = keyOf(path);
    const node = key === path ? undefined : this.nodes.get(key);
    if (node) return this.summaryAt(node, p);
    const above = this.nearestAbove(key);
    return above ? this.stateFor(above, key, p) : none;
  }

  /**
   * What a path just below `path` that no grant names gets: the tree
   * grants over `path` and at it, without its exact-file and list grants.
   */
  below(path: string, platform: Platform): PathSummary {
    this.asked = true;
    const key = keyOf(path);
    const node = this.nodes.get(key);
    if (node) return this.stateAt(node, slot[platform]);
    const above = this.nearestAbove(key);
    return above ? this.stateFor(above, key, slot[platform]) : none;
  }

  /** Tree grants strictly below a path, in component order (an uncovered write's partial reads). */
  treesBelow(path: string, platform: Platform): Grant[] {
    this.asked = true;
    const key = keyOf(path);
    const sorted = (this.sorted ??= [...this.nodes.values()].filter((n) => n.trees).sort((a, b) => compareKeys(a.key, b.key)));
    // The nodes below `key` follow it in component order, all together.
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareKeys(sorted[mid]!.key, key) <= 0) lo = mid + 1;
      else hi = mid;
    }
    const out: Grant[] = [];
    for (let i = lo; i < sorted.length && isBelowKey(sorted[i]!.key, key); i++)
      for (const g of sorted[i]!.trees!) if (this.appliesOn(g, platform)) out.push(g);
    return out;
  }

  filesAt(path: string, platform: Platform): readonly Grant[] {
    this.asked = true;
    const files = this.nodes.get(keyOf(path))?.files;
    return !files ? [] : files.filter((g) => this.appliesOn(g, platform));
  }

  /** Whether a grant applies on a platform in this index (an implicit grant names its platforms; Windows leaves some out). */
  appliesOn(g: Grant, platform: Platform): boolean {
    return appliesOn(g, platform) && !(platform === 'windows' && this.windowsLeftOut.has(g));
  }

  private node(path: string): PathNode {
    const key = keyOf(path);
    let node = this.nodes.get(key);
    if (!node) {
      node = {
        key,
        up: undefined,
        trees: undefined,
        files: undefined,
        partial: false,
        mechanism: 0,
        carve: 0,
        lift: 0,
        carvedNames: undefined,
        carvedStates: undefined,
        memo: emptyMemo.slice(),
      };
      this.nodes.set(key, node);
    }
    return node;
  }

  /** The nearest node strictly above a key, or null. */
  private nearestAbove(key: string): PathNode | null {
    let k = key;
    let found: PathNode | null = null;
    const passed: string[] = [];
    while (k !== '/') {
      k = parentKey(k);
      const n = this.nodes.get(k);
      if (n) {
        found = n;
        break;
      }
      const b = this.between.get(k);
      if (b !== undefined) {
        found = b;
        break;
      }
      passed.push(k);
    }
    for (const k2 of passed) this.between.set(k2, found);
    return found;
  }

  private above(node: PathNode): PathNode | null {
    if (node.up === undefined) node.up = this.nearestAbove(node.key);
    return node.up;
  }

  /** The tree state a path just below `node` inherits. */
  private stateAt(node: PathNode, p: Slot): PathSummary {
    const hit = node.memo[p];
    if (hit) return hit;
    // The nodes above without a state yet, nearest first, then each state from
    // the top down: a loop, not a frame per nested grant.
    const chain: PathNode[] = [];
    for (let n: PathNode | null = node; n && !n.memo[p]; n = this.above(n)) chain.push(n);
    for (let i = chain.length - 1; i >= 0; i--) {
      const at = chain[i]!;
      const up = this.above(at);
      const above = up ? this.stateFor(up, at.key, p) : none;
      at.memo[p] = this.sameAsOther(at, up, p, above, 0) ?? inherit(above, at, p, this);
    }
    return node.memo[p]!;
  }

  /**
   * The state `key` (below `up`, no node between) inherits from `up`: up's
   * own, or, below one of its carved names, that name's carve-out over it.
   */
  private stateFor(up: PathNode, key: string, p: Slot): PathSummary {
    const carved = up.carvedNames?.[p];
    if (carved) {
      const start = up.key === '/' ? 1 : up.key.length + 1;
      const end = key.indexOf('/', start);
      const name = end < 0 ? key.slice(start) : key.slice(start, end);
      if (carved.has(name)) return this.carvedState(up, name, p);
    }
    return this.stateAt(up, p);
  }

  /** What carveOut(`up/name`) makes its node's state: the same inherit, over a node with that carve bit alone. */
  private carvedState(up: PathNode, name: string, p: Slot): PathSummary {
    const states = (up.carvedStates ??= new Map());
    let memo = states.get(name);
    if (!memo) states.set(name, (memo = new Array<PathSummary | undefined>(slots).fill(undefined)));
    const hit = memo[p];
    if (hit) return hit;
    const key = up.key === '/' ? `/${name}` : `${up.key}/${name}`;
    const node: PathNode = {
      key,
      up,
      trees: undefined,
      files: undefined,
      partial: false,
      mechanism: 0,
      carve: 1 << p,
      lift: 0,
      carvedNames: undefined,
      carvedStates: undefined,
      memo: emptyMemo.slice(),
    };
    return (memo[p] = inherit(this.stateAt(up, p), node, p, this));
  }

  /**
   * Another platform's state (`at` 0) or summary (`at` slots) at this node,
   * where it must be the same: every grant here applies on both, the
   * mechanism bit is the same, and the state above is the same object.
   * Platforms differ only by implicit grants and mechanism denies, so most
   * nodes hold one object for all of them.
   */
  private sameAsOther(node: PathNode, up: PathNode | null, p: Slot, above: PathSummary, at: 0 | Slot): PathSummary | undefined {
    if (node.partial) return undefined;
    const bit = (node.mechanism >> p) & 1;
    const carved = (node.carve >> p) & 1;
    const lifted = (node.lift >> p) & 1;
    for (let q = 0; q < slots; q++) {
      const other = node.memo[q + at];
      if (
        q === p ||
        other === undefined ||
        ((node.mechanism >> q) & 1) !== bit ||
        ((node.carve >> q) & 1) !== carved ||
        ((node.lift >> q) & 1) !== lifted
      )
        continue;
      if ((at === 0 ? (up ? this.stateFor(up, node.key, q) : none) : node.memo[q]) === above) return other;
    }
    return undefined;
  }

  /** The summary at the node's own path: its state and its exact-file and list grants. */
  private summaryAt(node: PathNode, p: Slot): PathSummary {
    const hit = node.memo[p + slots];
    if (hit) return hit;
    const state = this.stateAt(node, p);
    const summary = this.sameAsOther(node, null, p, state, slots) ?? own(state, node, platformOf[p]!, this);
    node.memo[p + slots] = summary;
    return summary;
  }
}

function inherit(above: PathSummary, node: PathNode, p: Slot, ix: Applies): PathSummary {
  const mechanism = (node.mechanism & (1 << p)) !== 0;
  const carved = (node.carve & (1 << p)) !== 0;
  const lifted = (node.lift & (1 << p)) !== 0;
  if (!node.trees && !mechanism && !carved && !lifted) return above;
  const platform = platformOf[p]!;
  let { deny, existingDeny, readTree, writeTree, metadataTree, execTree, readOnly } = above;
  let changed = mechanism && !above.mechanismDenied;
  // The carve-out first: a write grant at this very path names it, and lifts it.
  if (carved) {
    readOnly = node.key;
    changed = true;
  }
  if (lifted && readOnly !== undefined) {
    readOnly = undefined;
    changed = true;
  }
  for (const g of node.trees ?? []) {
    if (node.partial && !ix.appliesOn(g, platform)) continue;
    switch (g.access) {
      case 'deny':
        deny = g;
        if (g.facts.existence !== 'absent') existingDeny = g;
        break;
      case 'read':
        readTree = g;
        break;
      case 'write':
        writeTree = g;
        readOnly = undefined;
        break;
      case 'read-write':
        readTree = g;
        writeTree = g;
        readOnly = undefined;
        break;
      case 'metadata':
        metadataTree = g;
        break;
      case 'exec':
        execTree = g;
        break;
      case 'list':
        continue;
    }
    changed = true;
  }
  if (!changed) return above;
  return {
    deny,
    existingDeny,
    readTree,
    writeTree,
    metadataTree,
    execTree,
    mechanismDenied: above.mechanismDenied || mechanism,
    readOnly,
    listHere: undefined,
    readFile: undefined,
    writeFile: undefined,
    execFile: undefined,
  };
}

function own(state: PathSummary, node: PathNode, platform: Platform, ix: Applies): PathSummary {
  let listHere: Grant | undefined;
  let readFile: Grant | undefined;
  let writeFile: Grant | undefined;
  let execFile: Grant | undefined;
  for (const g of node.trees ?? []) if (g.access === 'list' && (!node.partial || ix.appliesOn(g, platform))) listHere ??= g;
  for (const g of node.files ?? []) {
    if (node.partial && !ix.appliesOn(g, platform)) continue;
    if (g.access === 'read' || g.access === 'read-write') readFile ??= g;
    if (g.access === 'write' || g.access === 'read-write') writeFile ??= g;
    if (g.access === 'exec') execFile ??= g;
    if (g.access === 'list') listHere ??= g;
  }
  if (!listHere && !readFile && !writeFile && !execFile) return state;
  // One fixed object shape for every summary: V8 keeps them fast.
  return {
    deny: state.deny,
    existingDeny: state.existingDeny,
    readTree: state.readTree,
    writeTree: state.writeTree,
    metadataTree: state.metadataTree,
    execTree: state.execTree,
    mechanismDenied: state.mechanismDenied,
    readOnly: state.readOnly,
    listHere,
    readFile,
    writeFile,
    execFile,
  };
}

/** Whether a grant at a partial node applies on a platform (the index's own answer). */
interface Applies {
  appliesOn(g: Grant, platform: Platform): boolean;
}

/** Whether a grant applies on a platform by what it is (an implicit grant names its platforms). */
export function appliesOn(g: Grant, platform: Platform): boolean {
  return !g.implicit || g.implicit.platforms.includes(platform);
}

/**
 * A path by its components: `/` and the non-empty components, each after
 * a slash (`/a//b/` → `/a/b`; `%TEMP%` → `/%TEMP%`). A clean absolute
 * path is its own key.
 */
export function keyOf(path: string): string {
  const n = path.length;
  if (n > 1 && path.charCodeAt(0) === 47 && path.charCodeAt(n - 1) !== 47 && !path.includes('//')) return path;
  let key = '';
  for (const part of path.split('/')) if (part !== '') key += '/' + part;
  return key || '/';
}

function parentKey(key: string): string {
  const i = key.lastIndexOf('/');
  return i <= 0 ? '/' : key.slice(0, i);
}

/** A key strictly below another (`/` is above every other key). */
function isBelowKey(key: string, above: string): boolean {
  if (above === '/') return key !== '/';
  return key.length > above.length && key.charCodeAt(above.length) === 47 && key.startsWith(above);
}

/**
 * The order of keys by their components, each compared as JavaScript
 * compares strings (a component before any longer one it begins): what a
 * walk of a trie with each node's children sorted gives.
 */
export function compareKeys(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return x === 47 ? -1 : y === 47 ? 1 : x - y;
  }
  return a.length - b.length;
}
