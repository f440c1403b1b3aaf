import type { Platform } from '../compiler/diagnostic.js';
import { byPlatform, PLATFORMS } from '../compiler/diagnostic.js';
import type { CredentialFact, Grant, PolicyIR, Principal } from '../compiler/ir/types.js';
import {
  expandTilde,
  isStrictlyUnder,
  isUnder,
  secretLocations,
  windowsSecretSpellings,
  windowsUnmapped as windowsUnmappedOf,
  type HostTrustedPath,
  projectNameSet,
  type RootNames,
  type TrustedSearch,
} from '../compiler/paths/index.js';
import { dirname } from 'node:path';
import { atOrAbove, namesHolding, NearPaths, pushAt } from '../compiler/paths/host-trusted-index.js';
import { absent, type Cell } from './cell.js';
import { fixed, isDeny, labelsNothing, namesDirectory, reads, requestedCell, writes } from './grant-kinds.js';
import { missingNeeds, startsWith, type LinuxSandbox } from './exec-start.js';
import { appliesOn, PathIndex } from './path-index.js';
import type { AbstractSockets, DenyOpenTo, Mechanism, OtherLabel } from './facts.js';
import { codexPrincipalAccess } from './codex.js';
import { runtimePrincipalAccess } from './srt.js';
import { withCombined } from './combined.js';
import type { GrantAccess, PrincipalAccess, TrustedAccess, TrustedNamesAccess } from './access.js';
import type { ClosedSecret, LinuxExec, PlatformContext, PlatformModel } from './platform.js';

export type { Elsewhere, GrantAccess, PrincipalAccess, TrustedAccess } from './access.js';
export type { ClosedSecret, LinuxExec, PlatformContext, PlatformModel } from './platform.js';

/** Every platform's model part (each unit's `targets/<os>/model/`), as the registry hands them to effectiveAccess. */
export type PlatformModels = Readonly<Record<Platform, PlatformModel>>;
import type { WindowsUnmapped } from '../compiler/paths/index.js';

/**
 * windowsUnmapped, each answer kept (a bounded cache): the Windows labels,
 * the plan's left-out entries and each host-trusted path ask it of the same
 * grant paths, 120,000 times for a 40,000-grant config.
 */
export function windowsUnmapped(path: string, home: string): WindowsUnmapped | undefined {
  if (unmappedHome !== home || unmappedMemo.size > 500_000) {
    unmappedMemo.clear();
    unmappedHome = home;
  }
  const hit = unmappedMemo.get(path);
  if (hit !== undefined) return hit === null ? undefined : hit;
  const found = windowsUnmappedOf(path, home);
  unmappedMemo.set(path, found ?? null);
  return found;
}
const unmappedMemo = new Map<string, WindowsUnmapped | null>();
let unmappedHome: string | undefined;

export interface AccessModel {
  readonly ir: PolicyIR;
  readonly principals: readonly PrincipalAccess[];
  /** Windows: the host-trusted labels of the whole config (a label is the file's, for every principal). */
  readonly windowsLabels: WindowsLabels;
  /**
   * TYBA's secret list as each platform closes it whatever the config says
   * (seed 001), applied once: the cells deny what is here, and the emitters
   * (the profile's denies, the plan's deny-read labels) write out this list,
   * never their own reading of secrets.json.
   */
  readonly secrets: Readonly<Record<Platform, readonly ClosedSecret[]>>;
  /**
   * Windows, where reads are open: the known credential files that exist
   * (or may: their existence unknown) and that principals can read, each
   * with who reads it. The plan's `readable` and diff's reminders read it.
   */
  readonly windowsReadable: readonly ReadableCredential[];
}

export interface ReadableCredential {
  readonly credential: CredentialFact;
  /** The principals that read it, by id, in the config's order. */
  readonly readableBy: readonly string[];
  /** The `credential-readable` fact (windows-open-reads words it). */
  readonly fact: Mechanism;
}

/** Every platform: a grant written by the user (implicit ones name their own). */
const everywhere: GrantAccess['applies'] = Object.freeze(byPlatform(() => true));
/** A grant written by the user whose path the Windows plan leaves out. */
const notOnWindows: GrantAccess['applies'] = Object.freeze({ ...everywhere, windows: false });
const nothing: Readonly<Record<string, never>> = Object.freeze({});
const metadataInTool: Cell = Object.freeze({ kind: 'refused', because: Object.freeze({ kind: 'metadata-field-in-tool' }) });
const fileEntryOnDirectory: Cell = Object.freeze({ kind: 'refused', because: Object.freeze({ kind: 'directory-as-one-file' }) });

/**
 * A read_file or write_file naming a directory, on a platform that would
 * give more than the directory alone (facts.ts, `directory-as-one-file`).
 * macOS gives the directory's own entry (its names, for read_file): no
 * more than the model says, and a rule says what it means there.
 */
function fileEntryGivesTree(g: Grant, model: PlatformModel): boolean {
  if (g.implicit || !namesDirectory(g)) return false;
  return model.fileEntryGivesTree(g);
}
const loaderMaps: Mechanism = Object.freeze({ kind: 'loader-maps' });

/**
 * An authored entry the Windows plan leaves out: its path has no Windows
 * spelling (compiler/paths/windows.ts, the plan's own mapping). It applies
 * nowhere on Windows, so the model says so, not the views.
 */
function windowsUnspelled(g: Grant, home: string): Mechanism | undefined {
  if (g.implicit || !g.path) return undefined;
  const why = windowsUnmapped(g.path, home);
  return !why
    ? undefined
    : {
        kind: 'no-windows-spelling',
        path: g.path,
        why: why.kind === 'outside-home' ? { kind: 'outside-home' } : { kind: 'name', problem: why.problem },
      };
}

function grantAccess(
  p: Principal,
  g: Grant,
  ix: PathIndex,
  at: PrincipalAccess['effectiveAt'],
  tyba: boolean,
  sockets: SocketTable,
  confined: boolean,
  unspelled: Mechanism | undefined,
  sandbox: LinuxSandbox,
  shutBy: OthersLabels,
  models: PlatformModels,
): GrantAccess {
  const applies = g.implicit ? byPlatform((platform) => appliesOn(g, platform)) : unspelled ? notOnWindows : everywhere;
  const privateTmpRoot = isDeny(g) ? p.grants.find((x) => x.implicit?.privateTmpfs)?.path : undefined;
  const cells: Record<Platform, Cell> = byPlatform(() => absent);
  // The Windows plan's omission first (the notes' key order is the order they were found in).
  let notes: Partial<Record<Platform, Mechanism>> | undefined = unspelled ? { windows: unspelled } : undefined;
  let readCover: Grant | undefined;
  let pinnedAncestors: Partial<Record<Platform, readonly string[]>> | undefined;
  for (const platform of PLATFORMS) {
    // Another platform's spelling of an implicit grant (/tmp, $TMPDIR, %TEMP%): no grant here, and the model says so.
    if (g.implicit && !applies[platform]) (notes ??= {})[platform] = implicitOtherPlatform;
    if (!g.path || !applies[platform]) continue;
    let cell: Cell;
    // What the platform decides of the grant before its cell (PlatformModel.before): a refusal, or its write's read cover.
    let before: ReturnType<NonNullable<PlatformModel['before']>>;
    if (g.access === 'metadata' && p.kind !== 'agent') cell = metadataInTool;
    else if (fileEntryGivesTree(g, models[platform])) cell = fileEntryOnDirectory;
    else if ((before = models[platform].before?.(g, ix))?.refused) cell = before.refused;
    else {
      cell = at(g.path, platform);
      const label = platform === 'windows' && cell.kind === 'denied' && !isDeny(g) ? shutBy.at(g.path) : undefined;
      const mechanism: Mechanism | undefined = label
        ? { kind: 'label-of-another-principal', label }
        : models[platform].mechanism(p, g, cell, tyba, confined);
      if (mechanism) (notes ??= {})[platform] = mechanism;
      // A deny the platform enforces pins the ancestors the workload could
      // rename (Linux: the ones a mount shows it; macOS: every deny rule holds).
      if (isDeny(g) && models[platform].pinsDeny(cell)) {
        const pinned = renameableAncestors(g.path, platform, at, privateTmpRoot, models[platform]);
        if (pinned.length) pinnedAncestors = { ...pinnedAncestors, [platform]: pinned };
      }
    }
    if (before?.readCover) readCover = before.readCover;
    cells[platform] = cell;
  }
  const { linux, windows } = cells;
  const reach = socketsUnder(g, at, sockets);
  // Other principals' deny labels inside this tree shut those paths to this principal too.
  const labelsInside =
    g.path && applies.windows && !isDeny(g) && g.scope === 'tree' && windows.kind === 'access' ? shutBy.inside(g.path) : [];
  // An exec grant of a program: what running it needs that this sandbox lacks.
  const needs = g.needs && linux.kind === 'access' && linux.exec ? execNeedsMissing(g, sandbox) : undefined;
  let disclosures: Partial<Record<Platform, Mechanism[]>> | undefined;
  if (labelsInside.length) disclosures = { windows: [{ kind: 'labels-of-other-principals', labels: labelsInside }] };
  if (pinnedAncestors || reach || needs) {
    for (const platform of PLATFORMS) {
      const ancestors = pinnedAncestors?.[platform];
      if (ancestors?.length) ((disclosures ??= {})[platform] ??= []).push({ kind: 'ancestors-pinned', ancestors });
      const s = reach?.[platform];
      if (s?.length) ((disclosures ??= {})[platform] ??= []).push({ kind: 'sockets-reachable', sockets: s });
    }
    if (needs) ((disclosures ??= {}).linux ??= []).push(needs);
  }
  // Landlock's execute right is checked on execve and the interpreter, not on mmap:
  // the dynamic loader can still run a program from a read tree.
  // A write tree too: a program written there starts the same way.
  const loads = confined && (reads(g) || writes(g)) && g.scope === 'tree' && linux.kind === 'access' && linux.read && !linux.exec;
  if (loads && disclosures) (disclosures.linux ??= []).push(loaderMaps);
  // A temp directory of the run's own (TYBA's on macOS, a Box `private_tmp` on both): said beside its cell.
  const runTemp = g.implicit?.parameter ? 'macos' : g.implicit?.privateTmp && applies.windows ? 'windows' : undefined;
  if (runTemp) ((disclosures ??= loads ? { linux: [loaderMaps] } : {})[runTemp] ??= []).push(runTempDir[runTemp]);
  const out: Mutable<GrantAccess> = {
    grant: g,
    requested: requestedCell(g),
    effective: effectiveOf(cells),
    notes: notes ? notesOf(notes) : nothing,
    disclosures: disclosures ?? (loads ? loaderMapsOnly : nothing),
    applies,
  };
  if (readCover) out.readCover = readCover;
  if (pinnedAncestors) out.pinnedAncestors = pinnedAncestors;
  if (reach) out.sockets = reach;
  return out;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The exec-needs-missing fact of an exec grant whose program's needs the sandbox does not all hold, or undefined. */
function execNeedsMissing(g: Grant, sandbox: LinuxSandbox): Mechanism | undefined {
  const missing = missingNeeds(g.needs!, sandbox);
  return missing.length ? { kind: 'exec-needs-missing', program: g.path!, starts: missing.some(startsWith), missing } : undefined;
}

/**
 * The parts of a grant's access that are values, one object for each
 * combination: cells and mechanisms are shared constants (cell.ts and the
 * fixed mechanisms below), so thousands of grants with the same rights
 * share one `effective` and one `notes` instead of an object each.
 */
const effectives: Trie = new Map();
function effectiveOf(cells: Record<Platform, Cell>): GrantAccess['effective'] {
  // A write refused for its read cover names the grants around it: its own object.
  if (cells.linux.kind === 'refused' && cells.linux.because.kind === 'write-without-read-cover') return cells;
  return intern(effectives, cells, () => Object.freeze({ ...cells }));
}

const notesInterned: Trie = new Map();
function notesOf(n: Partial<Record<Platform, Mechanism>>): GrantAccess['notes'] {
  // Each platform's mechanism is a fixed one (mechanismOf), so the combinations are few;
  // the Windows plan's omission names its path: its own object.
  if (n.windows?.kind === 'no-windows-spelling' || n.windows?.kind === 'label-of-another-principal') return n;
  return intern(notesInterned, n, () => Object.freeze(n));
}

/** Maps keyed by each platform's value in PLATFORMS order, the last one holding the interned object. */
type Trie = Map<unknown, unknown>;
function intern<T, V>(top: Trie, per: Readonly<Partial<Record<Platform, T>>>, make: () => V): V {
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

const loaderMapsOnly: GrantAccess['disclosures'] = Object.freeze({ linux: Object.freeze([loaderMaps]) });

/**
 * The machine's bound unix sockets, and whether they are in JavaScript's
 * string order (both views give them so): then the sockets under a path
 * are found in the run of those that begin with it, not by a scan of all.
 */
interface SocketTable {
  readonly paths: readonly string[];
  readonly sorted: boolean;
}

function socketTable(paths: readonly string[]): SocketTable {
  let sorted = true;
  for (let i = 1; i < paths.length && sorted; i++) sorted = paths[i - 1]! <= paths[i]!;
  return { paths, sorted };
}

/** The sockets under `path`, in the table's order. */
function socketsBelow(t: SocketTable, path: string): string[] {
  if (!t.sorted) return t.paths.filter((s) => isUnder(s, path));
  const { paths } = t;
  let lo = 0;
  let hi = paths.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (paths[mid]! < path) lo = mid + 1;
    else hi = mid;
  }
  const out: string[] = [];
  for (let i = lo; i < paths.length && paths[i]!.startsWith(path); i++) if (isUnder(paths[i]!, path)) out.push(paths[i]!);
  return out;
}

function socketsUnder(
  g: Grant,
  at: PrincipalAccess['effectiveAt'],
  sockets: SocketTable,
): Partial<Record<Platform, readonly string[]>> | undefined {
  if (g.implicit || !g.path || g.access === 'deny' || g.scope !== 'tree' || !sockets.paths.length) return undefined;
  const under = socketsBelow(sockets, g.path);
  if (!under.length) return undefined;
  const linux = appliesOn(g, 'linux')
    ? under.filter((s) => {
        const c = at(s, 'linux');
        return c.kind === 'access' && c.read;
      })
    : [];
  // macOS decides a unix-socket connect with network-outbound, which no principal gets for unix sockets
  // (a direct network exception reaches IP peers only): the file rules do not open them.
  return linux.length ? { linux } : undefined;
}

/**
 * The ancestors of `path` that a workload could rename: those whose parent
 * directory it may write. Nearest the root first.
 */
function renameableAncestors(
  path: string,
  platform: Platform,
  at: PrincipalAccess['effectiveAt'],
  privateTmpRoot: string | undefined,
  model: PlatformModel,
): string[] {
  // TYBA's private tmpfs is writable, but nothing in it is the host's: renaming
  // a directory there moves no host path (and pinning one would bind the
  // host's directory into the view).
  const writableOnHost = (a: string): Cell => (model.privateTmpOwn && a === privateTmpRoot ? absent : at(a, platform));
  const out: string[] = [];
  for (let a = parentOf(path); a !== '/'; a = parentOf(a)) {
    const up = writableOnHost(parentOf(a));
    if (up.kind === 'access' && up.write) out.unshift(a);
  }
  return out;
}

const parentOf = (p: string): string => {
  const i = p.lastIndexOf('/');
  return i <= 0 ? '/' : p.slice(0, i);
};

const runTempDir = {
  macos: Object.freeze({ kind: 'run-temp-dir', platform: 'macos' }),
  windows: Object.freeze({ kind: 'run-temp-dir', platform: 'windows' }),
} as const satisfies Record<'macos' | 'windows', Mechanism>;
const ipPeersOnly = fixed('ip-peers-only');
const futurePathRefused = fixed('future-path-refused');
/** An implicit grant spelled for other platforms (GrantAccess.notes where it does not apply; srt.ts says it of its own). */
const implicitOtherPlatform = fixed('implicit-other-platform');
const hostTrustedUnreached = fixed('host-trusted-unreached');
/** Each platform's rewrite-in-place fact, one object a platform (facts are shared constants). */
const rewritesInPlace = new Map<Platform, Mechanism>();
function rewriteInPlace(platform: Platform, model: PlatformModel): Mechanism {
  let m = rewritesInPlace.get(platform);
  if (!m || (m.kind === 'rewrite-in-place' && m.how !== model.rewriteInPlace))
    rewritesInPlace.set(platform, (m = Object.freeze({ kind: 'rewrite-in-place', platform, how: model.rewriteInPlace })));
  return m;
}

/**
 * The Windows labels of the host-trusted carve-outs, for the whole config:
 * a path near any principal's write grant is labelled read-only (a Medium
 * no-write-up label), and a write grant of any principal at or inside one
 * relabels its own scope Low (targets/windows/plan.ts). A label is a
 * property of the file, so every principal's Windows cells see all of them.
 */
export interface WindowsLabels {
  /** The host-trusted paths labelled read-only (a Medium no-write-up label, file by file), by path: `carvedSingles` and every name of `carvedNames`, made on the first read. */
  readonly carved: readonly HostTrustedPath[];
  /** The write grants' paths at or inside one: each relabels its own scope Low after it. */
  readonly lifted: readonly string[];
  /** Those found one by one, by path. */
  readonly carvedSingles: readonly HostTrustedPath[];
  /** The trees whose every shared name is labelled (names that may exist: --fs none), one set each. */
  readonly carvedNames: readonly RootNames[];
}

function trustedLabels(ir: PolicyIR, models: PlatformModels): WindowsLabels {
  const onWindows = (g: Grant): boolean =>
    !!g.path && writes(g) && appliesOn(g, 'windows') && (!!g.implicit || !windowsUnmapped(g.path, ir.home));
  const carved = new Map<string, HostTrustedPath>();
  // A tree's names, labelled or not as one (carvable and the trees above them are the same for each: plain Windows names,
  // one parent), by root; absent ones have nothing to label. No write grant lies at or inside one: none lifts one.
  const carvedRoots = new Map<string, RootNames>();
  for (const p of ir.principals) {
    // Only where a write tree above it would let the principal write it: a label elsewhere changes nothing.
    const trees = p.grants.filter((g) => g.scope === 'tree' && onWindows(g)).map((g) => g.path!);
    const near = trustedNear(p, ir.hostTrusted);
    const inTree = new NearPaths(trees);
    const labelled = (t: HostTrustedPath): boolean =>
      carvable(t, models.windows, ir.home) && inTree.nearestStrictlyAbove(t.path) !== undefined;
    for (const t of near.singles) if (labelled(t)) carved.set(t.path, t);
    for (const r of near.names) if (r.facts.existence !== 'absent' && labelled(r.pathFor(r.names[0]!))) carvedRoots.set(r.root, r);
  }
  const carvedAt = (a: string): boolean => {
    if (carved.has(a)) return true;
    const slash = a.lastIndexOf('/');
    return slash >= 0 && !!carvedRoots.get(slash === 0 ? '/' : a.slice(0, slash))?.nameSet.has(a.slice(slash + 1));
  };
  const lifted = new Set<string>();
  const atOrUnderCarved = (path: string): boolean => {
    if (carvedAt(path)) return true;
    for (let a = path; a !== '/'; ) {
      const slash = a.lastIndexOf('/');
      if (slash < 0) return false;
      a = slash === 0 ? '/' : a.slice(0, slash);
      if (carvedAt(a)) return true;
    }
    return false;
  };
  for (const p of ir.principals) for (const g of p.grants) if (onWindows(g) && atOrUnderCarved(g.path!)) lifted.add(g.path!);
  // Inside another labelled path, with no write grant between that relabels it Low, a label changes nothing (`.git/hooks` in `.git`).
  // Walked up from each path (a set lookup per ancestor), not every pair against every lifted path: a config of
  // many nested write grants has thousands of each, and the pairs cost minutes.
  const isNeeded = (path: string): boolean => {
    let liftedBetween = lifted.has(path);
    for (let a = path; a !== '/'; ) {
      const slash = a.lastIndexOf('/');
      if (slash < 0) return true;
      a = slash === 0 ? '/' : a.slice(0, slash);
      if (lifted.has(a)) liftedBetween = true;
      if (carvedAt(a) && !liftedBetween) return false;
    }
    return true;
  };
  const needed = [...carved.values()].filter((t) => isNeeded(t.path)).sort(byTrustedPath);
  // A name's ancestors are its root's: one answer for the tree.
  const neededRoots = [...carvedRoots.values()].filter((r) => isNeeded(r.pathOf(r.names[0]!)));
  let all: HostTrustedPath[] | undefined;
  return {
    get carved() {
      all ??= neededRoots.length ? needed.concat(neededRoots.flatMap((r) => r.paths())).sort(byTrustedPath) : needed;
      return all;
    },
    lifted: [...lifted].sort(),
    carvedSingles: needed,
    carvedNames: neededRoots,
  };
}

/**
 * The denies the Windows plan labels (existing paths with a Windows
 * spelling), of every principal: a label is a property of the files, so
 * each shuts every principal out, not only its own.
 */
function windowsLabels(ir: PolicyIR): OtherLabel[] {
  return ir.principals.flatMap((p) =>
    p.grants
      .filter((g) => isDeny(g) && !!g.path && appliesOn(g, 'windows') && !labelsNothing(g) && !windowsUnspelled(g, ir.home))
      .map((grant) => ({ principal: p.id, grant })),
  );
}

/**
 * What another principal's labels mean for one principal on Windows: the
 * label that shuts a path (none where its own deny or a listed secret
 * already does), and the labels inside a tree.
 */
interface OthersLabels {
  readonly at: (path: string) => OtherLabel | undefined;
  readonly inside: (path: string) => readonly OtherLabel[];
}

function othersLabels(labels: readonly OtherLabel[], ix: PathIndex, secrets: readonly string[]): OthersLabels {
  return {
    at: (path) => {
      if (!labels.length || ix.summary(path, 'windows').existingDeny || secrets.some((s) => isUnder(path, s))) return undefined;
      // The nearest label above: the one apply.ps1 set on the object last looked at.
      let found: OtherLabel | undefined;
      for (const l of labels) if (isUnder(path, l.grant.path!) && (!found || l.grant.path!.length > found.grant.path!.length)) found = l;
      return found;
    },
    inside: (path) => labels.filter((l) => l.grant.path !== path && isUnder(l.grant.path!, path)),
  };
}

/**
 * Seed 001: Windows labels the twelve secrets deny-read whatever the config,
 * and where Windows tools keep the same secrets (%APPDATA%\gnupg, _netrc…);
 * TYBA's Seatbelt denies them too, and read_allow cannot re-open them.
 * Linux has no mechanism of its own for them.
 */
function closedSecrets(ir: PolicyIR, models: PlatformModels): AccessModel['secrets'] {
  const listed: ClosedSecret[] = secretLocations.map((s) => ({ path: expandTilde(s, ir.home), listed: s }));
  const spelled: ClosedSecret[] = windowsSecretSpellings.map((w) => ({ path: expandTilde(w.posix, ir.home), spelling: w }));
  return byPlatform((platform) => models[platform].closedSecrets(listed, spelled, ir.dialect === 'tyba'));
}

function principalAccess(
  ir: PolicyIR,
  p: Principal,
  labels: readonly OtherLabel[],
  trustedOnWindows: WindowsLabels,
  closed: AccessModel['secrets'],
  models: PlatformModels,
): PrincipalAccess {
  // sandbox-runtime and Claude Code settings: what sandbox-runtime does (model/srt.ts).
  if (ir.runtime) {
    // A Codex config.toml: what Codex's own sandbox does (model/codex.ts).
    const pa = ir.runtime.codex ? codexPrincipalAccess(ir, p) : runtimePrincipalAccess(ir, p);
    return { ...pa, grants: withCombined(pa.grants) };
  }
  const tyba = ir.dialect === 'tyba';
  // An entry the Windows plan leaves out grants, and denies, nothing there.
  const unspelled = new Map<Grant, Mechanism>();
  for (const g of p.grants) {
    const m = windowsUnspelled(g, ir.home);
    if (m) unspelled.set(g, m);
  }
  const ix = new PathIndex(p.grants, unspelled);
  // The secrets each platform closes whatever the config says (closedSecrets): the emitters write out the same list.
  for (const platform of PLATFORMS) for (const c of closed[platform]) ix.denyByMechanism(c.path, platform);
  const secrets = closed.windows.map((c) => c.path);
  // Another principal's deny is a label on the files: it shuts this principal out too.
  const others = labels.filter((l) => l.principal !== p.id);
  for (const l of others) ix.denyByMechanism(l.grant.path!, 'windows');
  // %TEMP% is a name the plan expands at run time; at its default place under the
  // home (Windows sets TEMP to %USERPROFILE%\AppData\Local\Temp), a label above it covers it.
  const defaultTemp = `${ir.home === '/' ? '' : ir.home}/AppData/Local/Temp`;
  // So does it a private temp directory apply.ps1 makes in it (private_tmp) before the steps label what holds it.
  if (secrets.concat(labels.map((l) => l.grant.path!)).some((d) => isUnder(defaultTemp, d)))
    for (const t of ['%TEMP%', ...p.grants.filter((g) => g.path?.startsWith('%TEMP%\\')).map((g) => g.path!)])
      ix.denyByMechanism(t, 'windows');
  // macOS: the run's own temp directory ($TMPDIR, a profile parameter) is made under the cache root
  // (targets/macos/run/sandbox-exec.ts: ~/.cache/boxwright/macos-runs by default); a deny above it closes it too.
  const macosRuns = `${ir.home === '/' ? '' : ir.home}/.cache/boxwright/macos-runs`;
  if (p.grants.some((g) => g.implicit?.parameter) && p.grants.some((g) => isDeny(g) && !!g.path && isUnder(macosRuns, g.path)))
    ix.denyByMechanism('$TMPDIR', 'macos');
  const shutBy = othersLabels(others, ix, secrets);
  // Host-trusted paths near this principal's write grants, made read-only
  // where the platform can; on Windows the labels every principal's carve-outs
  // and lifts leave on the objects (a label is the file's, not a principal's).
  const near = trustedNear(p, ir.hostTrusted);
  const ownSandboxes = ownSandboxesOf(models);
  for (const t of near.singles)
    for (const platform of ownSandboxes) if (carvable(t, models[platform], ir.home)) ix.carveOut(t.path, platform);
  // A tree's absent names, one set each: what one of them is on a platform, each is (their names are plain Windows names, and share all else).
  for (const r of near.names)
    for (const platform of ownSandboxes)
      if (carvable(r.pathFor(r.names[0]!), models[platform], ir.home)) ix.carveNames(r.root, r.nameSet, platform);
  for (const t of trustedOnWindows.carvedSingles) ix.carveOut(t.path, 'windows');
  for (const r of trustedOnWindows.carvedNames) ix.carveNames(r.root, r.nameSet, 'windows');
  for (const path of trustedOnWindows.lifted) ix.liftOut(path, 'windows');
  // A tool runs helpers from its content grants: Landlock grants it execute there, as mounts alone do.
  const privateTmp = p.grants.find((g) => g.implicit?.privateTmpfs);
  const linuxExec: LinuxExec = {
    confined: ir.linux.exec === 'landlock' && p.kind !== 'tool',
    loaders: new Set(ir.linux.loaders),
    ...(privateTmp ? { privateTmp } : {}),
  };
  const cx: PlatformContext = { p, ix, tyba, linuxExec };
  const at = (path: string, platform: Platform): Cell => models[platform].at(cx, path, false);
  const plainAt = (path: string, platform: Platform): Cell => models[platform].at(cx, path, true);
  const sockets = socketTable(ir.sockets === 'unknown' ? [] : ir.sockets);
  // The Linux sandbox for the execution closure: a readable loader runs under Landlock, anything readable without it.
  const sandbox: LinuxSandbox = {
    at: (path) => at(path, 'linux'),
    executableOnceRead: (path) => !linuxExec.confined || linuxExec.loaders.has(path),
  };
  // Each cell is the union of the grants that reach its path: which of them add up to it.
  const grants = withCombined(
    withPlatformDisclosures(
      p.grants.map((g) => grantAccess(p, g, ix, at, tyba, sockets, linuxExec.confined, unspelled.get(g), sandbox, shutBy, models)),
      models,
    ),
  );
  const trusted = trustedAccess(p, near, ix, at, plainAt, ir.home, models);
  return {
    principal: p,
    grants,
    get hostTrusted() {
      return trusted.all();
    },
    trustedSingles: trusted.singles,
    trustedNames: trusted.names,
    linuxExec: ir.linux.exec === 'landlock' ? 'landlock' : 'mounts',
    effectiveAt: at,
    linuxMissing: (needs) => missingNeeds(needs, sandbox),
    // bubblewrap's --share-net: the surrounding namespace, with its loopback and abstract sockets.
    network: p.directNetwork ? { linux: { kind: 'host-network-namespace', abstractSockets: abstractSockets(ir) }, macos: ipPeersOnly } : {},
    elsewhere: byPlatform((platform) => models[platform].elsewhere(tyba)),
  };
}

/**
 * What the platforms do beside the cell at two kinds of grant, said by
 * explain and by the artifacts' comments alike: macOS refuses an absent
 * deny target if it is created later (`future-path-refused`); a write_file
 * of a file that no write tree of the principal covers is a rewrite in
 * place (`rewrite-in-place`, each platform its own way).
 */
function withPlatformDisclosures(grants: GrantAccess[], models: PlatformModels): GrantAccess[] {
  const writeTrees = grants.filter((o) => o.grant.scope === 'tree' && !!o.grant.path && writes(o.grant));
  return grants.map((ga) => {
    const g = ga.grant;
    if (!g.path) return ga;
    let added: Partial<Record<Platform, Mechanism[]>> | undefined;
    const add = (platform: Platform, m: Mechanism): void => void ((added ??= {})[platform] = [...(ga.disclosures[platform] ?? []), m]);
    if (isDeny(g) && g.facts.existence === 'absent')
      for (const platform of PLATFORMS)
        if (models[platform].deniesFuturePaths && ga.applies[platform] && ga.effective[platform].kind !== 'refused')
          add(platform, futurePathRefused);
    if (g.list === 'write_file' && !g.implicit && g.facts.kind !== 'dir') {
      for (const platform of PLATFORMS) {
        const c = ga.effective[platform];
        // Only where the file is writable by this grant alone: under a write tree it is the tree's to rename.
        const inWriteTree = writeTrees.some((o) => o !== ga && o.applies[platform] && isUnder(g.path!, o.grant.path!));
        if (ga.applies[platform] && c.kind === 'access' && c.write && !inWriteTree)
          add(platform, rewriteInPlace(platform, models[platform]));
      }
    }
    return added ? { ...ga, disclosures: { ...ga.disclosures, ...added } } : ga;
  });
}

interface TrustedNear {
  readonly singles: readonly HostTrustedPath[];
  readonly names: readonly RootNames[];
}

/** The host-trusted paths at, inside or around one of the principal's write grants. */
function trustedNear(p: Principal, search: TrustedSearch): TrustedNear {
  const roots = p.grants.filter((g) => g.path && writes(g)).map((g) => g.path!);
  if (!roots.length) return { singles: [], names: [] };
  const near = new NearPaths(roots);
  // No write root lies at or inside a tree's name (the search decides those one by one): a name is near where its tree's root is under a root.
  return {
    singles: search.singles.filter((t) => near.near(t.path)),
    names: search.rootNames.filter((r) => near.near(r.pathOf(r.names[0]!))),
  };
}

/**
 * Whether a platform can keep a host-trusted path from being written (and
 * created): macOS by a profile rule on the path, existing or not; Linux by
 * a read-only mount, which needs an existing target (a mount point made
 * on the host inside a write tree would be a file the workload left
 * behind, and Landlock only allows); Windows by a label, on what exists (or
 * may: apply.ps1 skips what is not there) and has a Windows spelling. A
 * symbolic link cannot be made read-only over itself anywhere: a mount
 * and a path rule follow it. A missing parent is refused on macOS only.
 */
function carvable(t: HostTrustedPath, model: PlatformModel, home: string): boolean {
  if (t.facts.symlink) return false;
  return model.carvable(t, home);
}

/** Why a platform cannot make a host-trusted path read-only (it is `creatable` there). */
function blockedOn(t: HostTrustedPath, platform: Platform, home: string): 'absent' | 'unknown' | 'link' | 'no-windows-spelling' {
  if (t.facts.symlink) return 'link';
  if (platform === 'windows' && t.facts.existence !== 'absent' && windowsUnmapped(t.path, home)) return 'no-windows-spelling';
  return t.facts.existence === 'unknown' ? 'unknown' : 'absent';
}

const writable = (c: Cell): boolean => c.kind === 'access' && c.write;

interface TrustedDecisions {
  readonly singles: readonly TrustedAccess[];
  readonly names: readonly TrustedNamesAccess[];
  /** Every one, by path: the singles and each tree name's own decision, made on the first call. */
  all(): readonly TrustedAccess[];
}

/**
 * Each host-trusted path as each platform gives it to the principal
 * (TrustedAccess): the singles one by one, a tree's absent names once per
 * tree (and each on its own only when all are asked for: explain, compile).
 */
function trustedAccess(
  p: Principal,
  near: TrustedNear,
  ix: PathIndex,
  at: PrincipalAccess['effectiveAt'],
  plainAt: PrincipalAccess['effectiveAt'],
  home: string,
  models: PlatformModels,
): TrustedDecisions {
  const trusted = near.singles;
  const privateTmpRoot = p.grants.find((g) => g.implicit?.privateTmpfs)?.path;
  // By path, not by scanning every grant and every path for each one (quadratic in write trees):
  // the write grants at or inside each path, in grant order, and each path's missing parents, in order.
  // (No write grant lies at or inside a tree's name: the search decides those one by one.)
  const liftsAt = new Map<string, Grant[]>();
  const parentsOf = new Map<string, HostTrustedPath[]>();
  for (const t of trusted) if (t.parentOf) pushAt(parentsOf, t.parentOf, t);
  const paths = new Set(trusted.filter((t) => !t.parentOf).map((t) => t.path));
  for (const g of p.grants) if (g.path && writes(g)) for (const a of atOrAbove(g.path)) if (paths.has(a)) pushAt(liftsAt, a, g);
  // renameableAncestors, with each directory's answer kept: 20,000 trees in a few directories ask the same ancestors again.
  const renameableMemo = byPlatform(() => new Map<string, readonly string[]>());
  const renameable = (path: string, platform: Platform): string[] => {
    const memo = renameableMemo[platform];
    const chain: string[] = [];
    let a = parentOf(path);
    for (; a !== '/' && !memo.has(a); a = parentOf(a)) chain.push(a);
    let out = a === '/' ? [] : memo.get(a)!;
    for (let i = chain.length - 1; i >= 0; i--) {
      const dir = chain[i]!;
      // As renameableAncestors: TYBA's private tmpfs is writable, but renaming in it moves no host path.
      const parent = parentOf(dir);
      const up = models[platform].privateTmpOwn && parent === privateTmpRoot ? absent : at(parent, platform);
      out = up.kind === 'access' && up.write ? [...out, dir] : out;
      memo.set(dir, out);
    }
    return out.slice();
  };
  const decide = (t: HostTrustedPath): TrustedAccess | undefined => {
    const lifts = liftsAt.get(t.path) ?? [];
    const state: Partial<Record<Platform, 'read-only' | 'creatable' | 'lifted'>> = {};
    const notes: Partial<Record<Platform, Mechanism>> = {};
    const disclosures: Partial<Record<Platform, Mechanism[]>> = {};
    const pinned: Partial<Record<Platform, readonly string[]>> = {};
    let under: Grant | undefined;
    let parents: string[] | undefined;
    for (const platform of PLATFORMS) {
      // No write grant of the principal reaches it here: nothing to carve out, and the model says so.
      if (!writable(plainAt(t.path, platform))) {
        notes[platform] = hostTrustedUnreached;
        continue;
      }
      const s = ix.summary(t.path, platform);
      if (s.writeTree && isStrictlyUnder(t.path, s.writeTree.path!) && !under) under = s.writeTree;
      if (writable(at(t.path, platform))) {
        // Writable: a grant at or inside it names it, or the platform cannot refuse it.
        const lifted = (s.writeTree && isUnder(s.writeTree.path!, t.path)) || s.writeFile;
        if (lifted) state[platform] = 'lifted';
        else {
          state[platform] = 'creatable';
          notes[platform] = {
            kind: 'host-trusted',
            platform,
            held: models[platform].hostTrusted,
            state: 'creatable',
            existence: t.facts.existence,
            blocked: blockedOn(t, platform, home),
          };
        }
        continue;
      }
      // Read-only by its own carve-out (with its missing parents', where the platform carves them) only where the
      // directory above them is writable: inside another read-only host-trusted path, that one says it.
      const model = models[platform];
      const own = model.carvesMissingParents
        ? (parentsOf.get(t.path) ?? []).filter((x) => carvable(x, model, home)).map((x) => x.path)
        : [];
      if (!writable(at(dirname(own[0] ?? t.path), platform))) continue;
      state[platform] = 'read-only';
      if (model.carvesMissingParents) parents = own;
      const ancestors = renameable(t.path, platform);
      if (ancestors.length && models[platform].pinsTrusted) {
        pinned[platform] = ancestors;
        disclosures[platform] = [{ kind: 'ancestors-pinned', ancestors, of: 'host-trusted' }];
      }
      notes[platform] = {
        kind: 'host-trusted',
        platform,
        held: models[platform].hostTrusted,
        state: 'read-only',
        existence: t.facts.existence,
        ...(model.carvesMissingParents && parents?.length ? { parents } : {}),
      };
    }
    if (!Object.keys(state).length && !lifts.length) return undefined;
    const unmapped = windowsUnmapped(t.path, home);
    if (unmapped)
      notes.windows = {
        kind: 'no-windows-spelling',
        path: t.path,
        why: unmapped.kind === 'outside-home' ? { kind: 'outside-home' } : { kind: 'name', problem: unmapped.problem },
      };
    return {
      trusted: t,
      applies: unmapped ? notOnWindows : everywhere,
      effective: effectiveOf(byPlatform((platform) => at(t.path, platform))),
      state,
      notes,
      disclosures,
      ...(under ? { under } : {}),
      lifts,
      ...(Object.keys(pinned).length ? { pinnedAncestors: pinned } : {}),
      ...(parents?.length ? { missingParents: parents } : {}),
    };
  };
  // A tree's names with something of the index at or inside them are decided on their own, with the singles.
  const holding = near.names.length ? namesHolding(ix.keys(), projectNameSet) : undefined;
  const alone: HostTrustedPath[] = [];
  const names: TrustedNamesAccess[] = [];
  for (const r of near.names) {
    const held = holding?.get(r.root);
    const shared = held ? r.names.filter((n) => !held.has(n)) : r.names;
    if (held) for (const n of r.names) if (held.has(n)) alone.push(r.pathFor(n));
    names.push({ names: r, shared, decided: shared.length ? decide(r.pathFor(shared[0]!)) : undefined });
  }
  const singles: TrustedAccess[] = [];
  // A missing parent is refused with the path it leads to, and said there.
  for (const t of alone.length ? [...trusted, ...alone].sort(byTrustedPath) : trusted) {
    const ta = t.parentOf ? undefined : decide(t);
    if (ta) singles.push(ta);
  }
  let all: readonly TrustedAccess[] | undefined;
  return {
    singles,
    names,
    all() {
      if (all) return all;
      if (!names.length) return (all = singles);
      // Each shared name decided with its own path (the first one's decision kept): the same answer, made where every name is asked for.
      const each: TrustedAccess[] = [];
      for (const n of names) {
        if (!n.decided) continue;
        each.push(n.decided);
        for (const name of n.shared.slice(1)) {
          const ta = decide(n.names.pathFor(name));
          if (ta) each.push(ta);
        }
      }
      return (all = singles.concat(each).sort((a, b) => byTrustedPath(a.trusted, b.trusted)));
    },
  };
}

const byTrustedPath = (a: HostTrustedPath, b: HostTrustedPath): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

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

/** The platforms where each principal's sandbox is its own (PlatformModel.ownSandbox). */
function ownSandboxesOf(models: PlatformModels): Platform[] {
  return PLATFORMS.filter((platform) => models[platform].ownSandbox);
}

/**
 * The one effective-access model: what the rules judge, explain prints and
 * the emitters lower. `models`: every platform's model part, from the
 * registry (targets/units.ts, `platformModels`).
 */
export function effectiveAccess(ir: PolicyIR, models: PlatformModels): AccessModel {
  const labels = windowsLabels(ir);
  const trusted = trustedLabels(ir, models);
  const secrets = closedSecrets(ir, models);
  const built = ir.principals.map((p) => principalAccess(ir, p, labels, trusted, secrets, models));
  return {
    ir,
    principals: built.length > 1 ? withDeniesOpenToOthers(built, ownSandboxesOf(models)) : built,
    windowsLabels: trusted,
    secrets,
    windowsReadable: windowsReadable(ir, built),
  };
}

function windowsReadable(ir: PolicyIR, principals: readonly PrincipalAccess[]): ReadableCredential[] {
  const out: ReadableCredential[] = [];
  for (const c of ir.knownCredentials) {
    if (c.existence === 'absent') continue;
    const by = principals.filter((pa) => {
      const cell = pa.effectiveAt(c.path, 'windows');
      return cell.kind === 'access' && cell.read;
    });
    if (by.length)
      out.push({ credential: c, readableBy: by.map((pa) => pa.principal.id), fact: { kind: 'credential-readable', location: c.written } });
  }
  return out;
}

/**
 * A deny shuts a path for its own principal only, on the platforms where
 * each principal's sandbox is its own (Linux's mount view, macOS's
 * profile): the others that can read or write the denied path, each with
 * the grant that gives it, are disclosed at the deny. Windows' deny is a
 * label on the object, which every principal meets.
 */
function withDeniesOpenToOthers(principals: readonly PrincipalAccess[], ownSandboxes: readonly Platform[]): PrincipalAccess[] {
  return principals.map((pa) => {
    let grants: GrantAccess[] | undefined;
    pa.grants.forEach((ga, i) => {
      const g = ga.grant;
      if (!isDeny(g) || g.implicit || !g.path) return;
      let disclosures: Partial<Record<Platform, Mechanism[]>> | undefined;
      for (const platform of ownSandboxes) {
        if (!ga.applies[platform]) continue;
        const others: DenyOpenTo[] = [];
        for (const other of principals) {
          if (other === pa) continue;
          const c = other.effectiveAt(g.path, platform);
          if (c.kind !== 'access' || (!c.read && !c.write)) continue;
          const via = coverOf(other, g.path, platform);
          if (via) others.push({ principal: other.principal, read: c.read, write: c.write, via });
        }
        if (others.length)
          (disclosures ??= {})[platform] = [...(ga.disclosures[platform] ?? []), { kind: 'others-reach-denied-path', others }];
      }
      if (!disclosures) return;
      (grants ??= [...pa.grants])[i] = { ...ga, disclosures: { ...ga.disclosures, ...disclosures } };
    });
    // A copy that keeps hostTrusted a getter (a spread would make every tree name's entry here).
    return grants
      ? Object.defineProperty(Object.create(Object.getPrototypeOf(pa), Object.getOwnPropertyDescriptors(pa)), 'grants', { value: grants })
      : pa;
  });
}

/** The grant of a principal nearest above (or at) a path that gives it content there on a platform: what a message names. */
function coverOf(pa: PrincipalAccess, path: string, platform: Platform): Grant | undefined {
  let best: Grant | undefined;
  for (const ga of pa.grants) {
    const g = ga.grant;
    if (!g.path || !ga.applies[platform] || isDeny(g) || !(reads(g) || writes(g) || g.access === 'exec')) continue;
    if (!(g.path === path || (g.scope === 'tree' && isUnder(path, g.path)))) continue;
    if (!best || g.path.length > best.path!.length) best = g;
  }
  return best;
}
