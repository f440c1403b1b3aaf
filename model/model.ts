import type { Platform } from '../compiler/diagnostic.js';
import { PLATFORMS } from '../compiler/diagnostic.js';
import type { Grant, PolicyIR, Principal } from '../compiler/ir/types.js';
import { expandTilde, isUnder, secretLocations, toWindows } from '../compiler/paths/index.js';
import loaderData from '../compiler/paths/loaders.json' with { type: 'json' };
import { access, absent, denied, empty, type Cell } from './cell.js';
import type { AbstractSockets, Mechanism, Refusal } from './facts.js';


export interface GrantAccess {
  readonly grant: Grant;
  /** What the grant asks for, as written. */
  readonly requested: Cell;
  /** What each platform gives at the grant's path, all grants combined. */
  readonly effective: Readonly<Record<Platform, Cell>>;
  /** The mechanism behind each platform's cell, where it differs from the request (or may). */
  readonly notes: Readonly<Partial<Record<Platform, Mechanism>>>;
  /** What a platform does beside the cell, to be said whether or not the cell differs from the request. */
  readonly disclosures: Readonly<Partial<Record<Platform, readonly Mechanism[]>>>;
  /** Whether the grant applies on each platform (implicit grants have their own spelling per platform). */
  readonly applies: Readonly<Record<Platform, boolean>>;
  /** For a write grant: the read grant that covers its whole scope (Linux's requirement). */
  readonly readCover?: Grant;
  /**
   * For a deny the platform enforces: the ancestors of the denied path that
   * the workload could otherwise rename (their parent is writable), nearest
   * the root first. Renaming one would carry the denied path out from under
   * its deny; the lowering pins each (Linux: a mount point of its own;
   * macOS: file-write-unlink denied on it). Windows needs none: its deny is a
   * label on each object, which a rename carries along.
   */
  readonly pinnedAncestors?: Readonly<Partial<Record<Platform, readonly string[]>>>;
  /**
   * For a content tree: the bound unix sockets under it that the principal
   * can connect to, per platform. Linux: those its mounts show (a read-only
   * mount does not stop connect(2)); macOS: with a direct network exception
   * (network-outbound decides a unix connect, not the file rules).
   */
  readonly sockets?: Readonly<Partial<Record<Platform, readonly string[]>>>;
}

export interface PrincipalAccess {
  readonly principal: Principal;
  readonly grants: readonly GrantAccess[];
  /** Everything no grant names. */
  readonly elsewhere: Readonly<Record<Platform, { readonly cell: Cell; readonly text: string; readonly mechanism?: Mechanism }>>;
  /** How Linux confines this principal's execution: Landlock, or the mounts alone (README, the section on exec confinement). */
  readonly linuxExec: 'landlock' | 'mounts';
  /** What a direct network exception means per platform, where it means more than "the gateway is bypassed". */
  readonly network: Readonly<Partial<Record<Platform, Mechanism>>>;
  effectiveAt(path: string, platform: Platform): Cell;
}

export interface AccessModel {
  readonly ir: PolicyIR;
  readonly principals: readonly PrincipalAccess[];
}

/**
 * What one platform's grants say about one path, from a single walk down
 * the trie: the nearest tree grant of each kind over the path, and the
 * exact-file grants at it.
 */
interface PathSummary {
  readonly deny: Grant | undefined;
  readonly existingDeny: Grant | undefined;
  readonly readTree: Grant | undefined;
  readonly writeTree: Grant | undefined;
  readonly metadataTree: Grant | undefined;
  /** An exec grant of a directory over the path. */
  readonly execTree: Grant | undefined;
  /** A `list` grant on this directory itself (names only, not below). */
  readonly listHere: Grant | undefined;
  readonly readFile: Grant | undefined;
  readonly writeFile: Grant | undefined;
  readonly execFile: Grant | undefined;
  readonly mechanismDenied: boolean;
}

/** One node of a platform's path trie: the grants at exactly this path. */
interface IndexNode {
  readonly children: Map<string, IndexNode>;
  readonly trees: Grant[];
  readonly files: Grant[];
  /** A platform mechanism (TYBA's secret list) denies this path and below. */
  mechanism: boolean;
  /** The full path, for nodes that hold grants (the keys of the summary table). */
  path?: string;
}

/**
 * The platform's grants of one principal in a path trie. Every granted
 * path's summary is computed in one depth-first walk that carries the
 * nearest grant of each kind down (O(nodes), not O(grants × depth));
 * any other path is answered by one walk from the root (O(depth)).
 */
class PlatformIndex {
  private readonly root: IndexNode = { children: new Map(), trees: [], files: [], mechanism: false };
  private summaries: Map<string, PathSummary> | undefined;
  private readonly extra = new Map<string, PathSummary>();

  constructor(readonly platform: Platform, grants: readonly Grant[]) {
    for (const g of grants) {
      if (!g.path || !appliesOn(g, platform)) continue;
      const node = this.node(g.path, true)!;
      node.path = g.path;
      (g.scope === 'tree' ? node.trees : node.files).push(g);
    }
  }

  /** Denies by the platform's own mechanism, added before any question is asked. */
  denyByMechanism(path: string): void {
    this.node(path, true)!.mechanism = true;
    this.summaries = undefined;
  }

  /** Tree grants strictly below a path (an uncovered write's partial reads). */
  treesBelow(path: string): Grant[] {
    const start = this.node(path, false);
    const out: Grant[] = [];
    const visit = (n: IndexNode): void => {
      for (const key of [...n.children.keys()].sort()) {
        const c = n.children.get(key)!;
        out.push(...c.trees);
        visit(c);
      }
    };
    if (start) visit(start);
    return out;
  }

  filesAt(path: string): readonly Grant[] {
    return this.node(path, false)?.files ?? [];
  }

  summary(path: string): PathSummary {
    this.summaries ??= this.summarize();
    return this.summaries.get(path) ?? this.extra.get(path) ?? this.walk(path);
  }

  private node(path: string, create: boolean): IndexNode | undefined {
    let node: IndexNode | undefined = this.root;
    eachComponent(path, (part) => {
      let next: IndexNode | undefined = node!.children.get(part);
      if (!next && create) {
        next = { children: new Map(), trees: [], files: [], mechanism: false };
        node!.children.set(part, next);
      }
      node = next;
      return node !== undefined;
    });
    return node;
  }

  private summarize(): Map<string, PathSummary> {
    const out = new Map<string, PathSummary>();
    const visit = (node: IndexNode, above: Inherited): void => {
      const here = inherit(above, node);
      if (node.path !== undefined) out.set(node.path, summarizeNode(node, here));
      for (const child of node.children.values()) visit(child, here);
    };
    visit(this.root, noneInherited);
    return out;
  }

  /** A path no grant names: one walk from the root. */
  private walk(path: string): PathSummary {
    let here = inherit(noneInherited, this.root);
    let node: IndexNode | undefined = this.root;
    eachComponent(path, (part) => {
      node = node!.children.get(part);
      if (node) here = inherit(here, node);
      return node !== undefined;
    });
    const summary = summarizeNode(node ?? emptyNode, here);
    this.extra.set(path, summary);
    return summary;
  }
}

/** Calls `visit` with each non-empty component of a path, until it returns false. */
function eachComponent(path: string, visit: (part: string) => boolean): void {
  const n = path.length;
  let start = 0;
  while (start < n) {
    while (start < n && path.charCodeAt(start) === 47) start++;
    if (start >= n) return;
    let end = path.indexOf('/', start);
    if (end < 0) end = n;
    if (!visit(path.slice(start, end))) return;
    start = end + 1;
  }
}

const emptyNode: IndexNode = { children: new Map(), trees: [], files: [], mechanism: false };
const noneInherited: Inherited = { deny: undefined, existingDeny: undefined, readTree: undefined, writeTree: undefined, metadataTree: undefined, execTree: undefined, mechanismDenied: false };

/** The nearest tree grants of each kind above a node, carried down the trie. */
interface Inherited {
  readonly deny: Grant | undefined;
  readonly existingDeny: Grant | undefined;
  readonly readTree: Grant | undefined;
  readonly writeTree: Grant | undefined;
  readonly metadataTree: Grant | undefined;
  /** An exec grant of a directory over the path. */
  readonly execTree: Grant | undefined;
  readonly mechanismDenied: boolean;
}

function inherit(above: Inherited, node: IndexNode): Inherited {
  if (!node.trees.length && !node.mechanism) return above;
  let { deny, existingDeny, readTree, writeTree, metadataTree, execTree } = above;
  for (const g of node.trees) {
    if (g.access === 'deny') {
      deny = g;
      if (g.facts.existence !== 'absent') existingDeny = g;
    }
    if (reads(g)) readTree = g;
    if (writes(g)) writeTree = g;
    if (g.access === 'metadata') metadataTree = g;
    if (g.access === 'exec') execTree = g;
  }
  return { deny, existingDeny, readTree, writeTree, metadataTree, execTree, mechanismDenied: above.mechanismDenied || node.mechanism };
}

function summarizeNode(node: IndexNode, here: Inherited): PathSummary {
  let listHere: Grant | undefined;
  for (const g of node.trees) if (g.access === 'list') listHere ??= g;
  let readFile: Grant | undefined;
  let writeFile: Grant | undefined;
  let execFile: Grant | undefined;
  for (const g of node.files) {
    if (reads(g)) readFile ??= g;
    if (writes(g)) writeFile ??= g;
    if (g.access === 'exec') execFile ??= g;
    if (g.access === 'list') listHere ??= g;
  }
  // One fixed object shape for every summary: V8 keeps them fast.
  return {
    deny: here.deny,
    existingDeny: here.existingDeny,
    readTree: here.readTree,
    writeTree: here.writeTree,
    metadataTree: here.metadataTree,
    execTree: here.execTree,
    mechanismDenied: here.mechanismDenied,
    listHere,
    readFile,
    writeFile,
    execFile,
  };
}

function appliesOn(g: Grant, platform: Platform): boolean {
  return !g.implicit || g.implicit.platforms.includes(platform);
}

const reads = (g: Grant): boolean => g.access === 'read' || g.access === 'read-write';
const writes = (g: Grant): boolean => g.access === 'write' || g.access === 'read-write';
const isDeny = (g: Grant): boolean => g.access === 'deny';

/**
 * Linux's explicit read requirement: a read tree over the path, or, for an
 * exact-file write, a read_file of the same file. An exec grant never
 * satisfies it, and a read_file never covers a directory named in `write`.
 */
function linuxReadCover(ix: PlatformIndex, path: string, scope: 'tree' | 'file'): Grant | undefined {
  const s = ix.summary(path);
  return s.readTree ?? (scope === 'file' ? s.readFile : undefined);
}

/**
 * The scope Linux's read requirement is judged on: a `write` tree that names
 * an existing file is one file, which a read_file of the same file covers;
 * a read_file never covers a directory named in `write`.
 */
function coverScope(g: Grant): 'tree' | 'file' {
  return g.scope === 'file' || g.facts.kind === 'file' ? 'file' : 'tree';
}

function requestedCell(g: Grant): Cell {
  switch (g.access) {
    case 'read':
      return access({ read: true });
    case 'write':
      return access({ write: true });
    case 'read-write':
      return access({ read: true, write: true });
    case 'list':
      return access({ names: true });
    case 'metadata':
      return access({ meta: true });
    case 'exec':
      return access({ exec: true });
    case 'deny':
      return denied;
  }
}

function macosAt(p: Principal, ix: PlatformIndex, path: string, tyba: boolean): Cell {
  const s = ix.summary(path);
  if (s.deny || s.mechanismDenied) return tyba ? access({ meta: true }) : denied;
  const read = !!(s.readTree ?? s.readFile);
  const write = !!(s.writeTree ?? s.writeFile);
  const meta = tyba || !!s.metadataTree;
  // Tools run helpers and load built code from their content grants.
  const exec = !!(s.execFile ?? s.execTree) || (p.kind === 'tool' && (read || write));
  return access({ read, write, exec, names: !!s.listHere, meta });
}

/** The platform table's loader directories: an agent read of one makes its programs executable. */
const loaderDirectories: ReadonlySet<string> = new Set(loaderData.loaderDirectories);

/**
 * How the Linux lowering confines execution for one principal: Landlock
 * (a Box agent or server: execute only on exec grants, granted loader
 * directories and the dynamic loaders; a tool runs what its content grants
 * hold, as the platform table says) or the mounts alone (whatever is
 * readable is executable).
 */
interface LinuxExec {
  readonly confined: boolean;
  readonly loaders: ReadonlySet<string>;
}

function linuxAt(ix: PlatformIndex, path: string, x: LinuxExec): Cell {
  const s = ix.summary(path);
  // A denied path inside a mounted tree is covered by an empty placeholder;
  // outside every mount it simply does not exist.
  if (s.existingDeny) return s.readTree || s.writeTree ? empty : absent;
  const execGrant = s.execFile ?? s.execTree;
  const read = !!(s.readTree ?? s.readFile ?? execGrant);
  const write = !!((s.writeTree && linuxReadCover(ix, s.writeTree.path!, coverScope(s.writeTree))) || (s.writeFile && linuxReadCover(ix, path, 'file')));
  const mounted = read || write;
  // The sandbox's own /proc is mounted noexec. bubblewrap cannot mount a
  // tree non-executable: without Landlock, whatever is readable runs.
  const exec =
    mounted &&
    !isUnder(path, '/proc') &&
    (!x.confined || !!execGrant || x.loaders.has(path) || (!!s.readTree && loaderDirectories.has(s.readTree.path!)));
  return access({ read: mounted, write, exec });
}

function windowsAt(ix: PlatformIndex, path: string): Cell {
  const s = ix.summary(path);
  if (s.existingDeny || s.mechanismDenied) return denied;
  const write = !!(s.writeTree ?? s.writeFile);
  // Reads are open, and a restricted token does not restrict execution.
  return access({ read: true, write, exec: true });
}

/**
 * An authored entry the Windows plan leaves out: its path has no Windows
 * spelling (compiler/paths/windows.ts, the plan's own mapping). It applies
 * nowhere on Windows, so the model says so, not the views.
 */
function windowsUnspelled(g: Grant, home: string): Mechanism | undefined {
  if (g.implicit || !g.path) return undefined;
  const m = toWindows(g.path, home);
  return m.ok ? undefined : { kind: 'no-windows-spelling', path: g.path, why: m.why.kind === 'outside-home' ? { kind: 'outside-home' } : { kind: 'name', problem: m.why.problem } };
}

function grantAccess(
  p: Principal,
  g: Grant,
  ix: Record<Platform, PlatformIndex>,
  at: PrincipalAccess['effectiveAt'],
  tyba: boolean,
  sockets: readonly string[],
  confined: boolean,
  home: string,
): GrantAccess {
  const effective: Partial<Record<Platform, Cell>> = {};
  const notes: Partial<Record<Platform, Mechanism>> = {};
  const unspelled = windowsUnspelled(g, home);
  const applies = { macos: appliesOn(g, 'macos'), linux: appliesOn(g, 'linux'), windows: appliesOn(g, 'windows') && !unspelled };
  if (unspelled) notes.windows = unspelled;
  let readCover: Grant | undefined;
  let pinnedAncestors: Partial<Record<Platform, readonly string[]>> | undefined;
  for (const platform of PLATFORMS) {
    if (!g.path || !applies[platform]) {
      effective[platform] = absent;
      continue;
    }
    const refuse = (because: Refusal): void => {
      effective[platform] = { kind: 'refused', because };
    };
    if (g.access === 'metadata' && p.kind !== 'agent') {
      refuse({ kind: 'metadata-field-in-tool' });
      continue;
    }
    if (platform === 'linux') {
      if (writes(g) && !g.implicit) {
        readCover = linuxReadCover(ix.linux, g.path, coverScope(g));
        if (!readCover) {
          const partialReads = ix.linux.treesBelow(g.path).filter(reads).concat(ix.linux.filesAt(g.path).filter(reads));
          refuse({ kind: 'write-without-read-cover', partialReads });
          continue;
        }
      }
      if (g.access === 'list') {
        refuse({ kind: 'names-without-content' });
        continue;
      }
      if (isDeny(g) && g.facts.existence === 'absent' && !g.implicit) {
        refuse({ kind: 'deny-target-absent' });
        continue;
      }
    }
    effective[platform] = at(g.path, platform);
    const mechanism = mechanismOf(p, g, platform, effective[platform]!, tyba, confined);
    if (mechanism) notes[platform] = mechanism;
    // A deny the platform enforces pins the ancestors the workload could
    // rename (Linux: the ones a mount shows it; macOS: every deny rule holds).
    const enforced = platform === 'linux' ? effective.linux!.kind === 'empty' : platform === 'macos';
    if (isDeny(g) && enforced) {
      const pinned = renameableAncestors(g.path, (a) => at(a, platform));
      if (pinned.length) pinnedAncestors = { ...pinnedAncestors, [platform]: pinned };
    }
  }
  const reach = socketsUnder(p, g, at, sockets);
  const disclosures: Partial<Record<Platform, Mechanism[]>> = {};
  const disclose = (platform: Platform, m: Mechanism): void => void (disclosures[platform] ??= []).push(m);
  for (const platform of PLATFORMS) {
    const ancestors = pinnedAncestors?.[platform];
    if (ancestors?.length) disclose(platform, { kind: 'ancestors-pinned', ancestors });
    const s = reach.sockets?.[platform];
    if (s?.length) disclose(platform, { kind: 'sockets-reachable', sockets: s });
  }
  // Landlock's execute right is checked on execve and the interpreter, not on mmap:
  // the dynamic loader can still run a program from a read tree.
  const linux = effective.linux;
  // A write tree too: a program written there starts the same way.
  if (confined && (reads(g) || writes(g)) && g.scope === 'tree' && linux?.kind === 'access' && linux.read && !linux.exec) disclose('linux', { kind: 'loader-maps' });
  return {
    grant: g,
    requested: requestedCell(g),
    effective: effective as Record<Platform, Cell>,
    notes,
    disclosures,
    applies,
    ...(readCover ? { readCover } : {}),
    ...(pinnedAncestors ? { pinnedAncestors } : {}),
    ...reach,
  };
}

function socketsUnder(p: Principal, g: Grant, at: PrincipalAccess['effectiveAt'], sockets: readonly string[]): Pick<GrantAccess, 'sockets'> {
  if (g.implicit || !g.path || g.access === 'deny' || g.scope !== 'tree' || !sockets.length) return {};
  const under = sockets.filter((s) => isUnder(s, g.path!));
  if (!under.length) return {};
  const linux = appliesOn(g, 'linux') ? under.filter((s) => {
    const c = at(s, 'linux');
    return c.kind === 'access' && c.read;
  }) : [];
  const macos = p.directNetwork && appliesOn(g, 'macos') ? under.filter((s) => at(s, 'macos').kind === 'access') : [];
  const out: Partial<Record<Platform, readonly string[]>> = { ...(linux.length ? { linux } : {}), ...(macos.length ? { macos } : {}) };
  return Object.keys(out).length ? { sockets: out } : {};
}

/**
 * The ancestors of `path` that a workload could rename: those whose parent
 * directory it may write. Nearest the root first.
 */
function renameableAncestors(path: string, at: (p: string) => Cell): string[] {
  const out: string[] = [];
  for (let a = parentOf(path); a !== '/'; a = parentOf(a)) {
    const up = at(parentOf(a));
    if (up.kind === 'access' && up.write) out.unshift(a);
  }
  return out;
}

const parentOf = (p: string): string => {
  const i = p.lastIndexOf('/');
  return i <= 0 ? '/' : p.slice(0, i);
};

/** The platform mechanism behind a cell that differs from the request. */
function mechanismOf(p: Principal, g: Grant, platform: Platform, cell: Cell, tyba: boolean, confined: boolean): Mechanism | undefined {
  if (platform === 'linux') {
    if (g.implicit?.privateTmpfs) return { kind: 'private-tmpfs' };
    if (g.path && isUnder(g.path, '/proc')) return { kind: 'own-proc' };
    if (g.access === 'metadata') return { kind: 'no-metadata-tree' };
    if (g.access === 'deny' && cell.kind === 'empty') return { kind: 'empty-cover', of: g.facts.kind === 'file' ? 'file' : 'dir' };
    if (g.access === 'exec' && cell.kind === 'access') return { kind: 'exec-grant-readable' };
    if (cell.kind === 'access' && cell.exec)
      // Under Landlock an agent's read is executable only as a loader directory; an exec grant over it says so itself.
      return p.kind === 'tool' ? { kind: 'tool-mounts-executable' } : !confined ? { kind: 'mounts-executable' } : g.path && loaderDirectories.has(g.path) ? { kind: 'loader-directory' } : undefined;
  }
  if (platform === 'windows') {
    if (g.list === 'read_allow') return { kind: 'read-allow-discarded' };
    if (cell.kind === 'denied' && g.access !== 'deny') return { kind: 'secret-label' };
    if (g.access === 'deny' && g.facts.existence === 'absent') return { kind: 'nothing-to-label' };
    if (g.access !== 'deny') return { kind: 'reads-open' };
  }
  if (platform === 'macos') {
    if (tyba && g.access === 'read' && (cell.kind !== 'access' || !cell.read)) return { kind: 'denials-beat-permissions' };
    if (cell.kind === 'access' && cell.exec && p.kind === 'tool' && g.access !== 'exec') return { kind: 'tool-helper-exec' };
  }
  return undefined;
}

function principalAccess(ir: PolicyIR, p: Principal): PrincipalAccess {
  const tyba = ir.dialect === 'tyba';
  const ix: Record<Platform, PlatformIndex> = {
    macos: new PlatformIndex('macos', p.grants),
    linux: new PlatformIndex('linux', p.grants),
    // An entry the Windows plan leaves out grants, and denies, nothing there.
    windows: new PlatformIndex('windows', p.grants.filter((g) => !windowsUnspelled(g, ir.home))),
  };
  // Seed 001: Windows labels the twelve secrets deny-read whatever the config;
  // TYBA's Seatbelt denies them too, and read_allow cannot re-open them.
  for (const s of secretLocations) {
    ix.windows.denyByMechanism(expandTilde(s, ir.home));
    if (tyba) ix.macos.denyByMechanism(expandTilde(s, ir.home));
  }
  // A tool runs helpers from its content grants: Landlock grants it execute there, as mounts alone do.
  const linuxExec: LinuxExec = { confined: ir.linux.exec === 'landlock' && p.kind !== 'tool', loaders: new Set(ir.linux.loaders) };
  const at = (path: string, platform: Platform): Cell =>
    platform === 'macos' ? macosAt(p, ix.macos, path, tyba) : platform === 'linux' ? linuxAt(ix.linux, path, linuxExec) : windowsAt(ix.windows, path);
  const sockets = ir.sockets === 'unknown' ? [] : ir.sockets;
  const grants = p.grants.map((g) => grantAccess(p, g, ix, at, tyba, sockets, linuxExec.confined, ir.home));
  return {
    principal: p,
    grants,
    linuxExec: ir.linux.exec === 'landlock' ? 'landlock' : 'mounts',
    effectiveAt: at,
    // bubblewrap's --share-net: the surrounding namespace, with its loopback and abstract sockets.
    network: p.directNetwork ? { linux: { kind: 'host-network-namespace', abstractSockets: abstractSockets(ir) } } : {},
    elsewhere: {
      macos: tyba
        ? { cell: access({ meta: true }), text: 'content denied, metadata (existence, size, dates) visible; the baseline (system binaries and libraries) readable' }
        : { cell: denied, text: 'denied by Seatbelt, except the baseline every program needs: system binaries and libraries read-only, the standard devices' },
      linux: {
        cell: absent,
        text: "does not exist in the mount view (only granted paths, a fresh /proc and /dev are there); run as root, the workload is uid 0 without capabilities: the host's /proc/sys and other host-global /proc files are read-only, and it cannot set setuid or setgid bits",
      },
      windows: { cell: access({ read: true, exec: true }), text: 'readable, except the listed secrets', mechanism: { kind: 'reads-open' } },
    },
  };
}

/**
 * Landlock's abstract-unix-socket scope (ABI 6) keeps a sandbox from
 * connecting to the host's abstract sockets; the helper applies it where
 * the kernel has it.
 */
function abstractSockets(ir: PolicyIR): AbstractSockets {
  if (ir.linux.exec !== 'landlock') return 'reachable';
  const abi = ir.linux.landlockAbi;
  return abi === 'unknown' ? 'scoped-from-abi-6' : abi >= 6 ? 'scoped' : 'reachable';
}

/** The one effective-access model: what the rules judge, explain prints and the emitters lower. */
export function effectiveAccess(ir: PolicyIR): AccessModel {
  return { ir, principals: ir.principals.map((p) => principalAccess(ir, p)) };
}
