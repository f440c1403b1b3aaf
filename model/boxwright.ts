/**
 * boxwright's own enforcer (model/enforcer.ts): what the sandboxes it
 * compiles for a Box or TYBA config give each principal. It walks every
 * grant once for every platform and asks the platforms' model parts
 * (model/platform.ts, each unit's `targets/<os>/model/`) for the cells and
 * the mechanisms behind them; beside it what it composes: grant-kinds.ts,
 * trusted-access.ts, windows-labels.ts and windows-spelling.ts, sockets.ts,
 * intern.ts.
 */
import type { Platform } from '../compiler/diagnostic.js';
import { byPlatform, PLATFORMS } from '../compiler/diagnostic.js';
import type { Grant, Principal, SandboxHolds } from '../compiler/ir/types.js';
import { isUnder } from '../compiler/paths/index.js';
import { absent, type Cell } from './cell.js';
import { fixed, isDeny, namesDirectory, reads, requestedCell, writes } from './grant-kinds.js';
import { missingNeeds, startsWith, type LinuxSandbox } from './exec-start.js';
import { appliesOn, PathIndex } from './path-index.js';
import type { Mechanism } from './facts.js';
import { withCombined } from './combined.js';
import type { GrantAccess, PrincipalAccess } from './access.js';
import type { Enforcer, EnforcerInput } from './enforcer.js';
import type { LinuxExec, PlatformContext, PlatformModel, PlatformModels } from './platform.js';
import { abstractSockets, type SocketTable, socketTable, socketsUnder } from './sockets.js';
import { carvable, parentOf, trustedAccess, trustedNear } from './trusted-access.js';
import { effectiveOf, notesOf } from './intern.js';
import { type OthersLabels, othersLabels } from './windows-labels.js';
import { everywhere, notOnWindows, windowsUnspelled } from './windows-spelling.js';

const nothing: Readonly<Record<string, never>> = Object.freeze({});
/** A sandbox that holds nothing beyond its grants (Box's: PolicyIR.holds absent). */
export const grantsAlone: SandboxHolds = Object.freeze({});
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

function grantAccess(
  p: Principal,
  g: Grant,
  ix: PathIndex,
  at: PrincipalAccess['effectiveAt'],
  holds: SandboxHolds,
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
        : models[platform].mechanism(p, g, cell, holds, confined);
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

const loaderMapsOnly: GrantAccess['disclosures'] = Object.freeze({ linux: Object.freeze([loaderMaps]) });

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

const runTempDir = {
  macos: Object.freeze({ kind: 'run-temp-dir', platform: 'macos' }),
  windows: Object.freeze({ kind: 'run-temp-dir', platform: 'windows' }),
} as const satisfies Record<'macos' | 'windows', Mechanism>;
const ipPeersOnly = fixed('ip-peers-only');
const futurePathRefused = fixed('future-path-refused');
/** An implicit grant spelled for other platforms (GrantAccess.notes where it does not apply; srt.ts says it of its own). */
const implicitOtherPlatform = fixed('implicit-other-platform');
/** Each platform's rewrite-in-place fact, one object a platform (facts are shared constants). */
const rewritesInPlace = new Map<Platform, Mechanism>();
function rewriteInPlace(platform: Platform, model: PlatformModel): Mechanism {
  let m = rewritesInPlace.get(platform);
  if (!m || (m.kind === 'rewrite-in-place' && m.how !== model.rewriteInPlace))
    rewritesInPlace.set(platform, (m = Object.freeze({ kind: 'rewrite-in-place', platform, how: model.rewriteInPlace })));
  return m;
}

function principalAccess(input: EnforcerInput, p: Principal): PrincipalAccess {
  const { ir, labels, windowsLabels: trustedOnWindows, secrets: closed, models } = input;
  const holds = ir.holds ?? grantsAlone;
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
  const cx: PlatformContext = { p, ix, holds, linuxExec };
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
      p.grants.map((g) => grantAccess(p, g, ix, at, holds, sockets, linuxExec.confined, unspelled.get(g), sandbox, shutBy, models)),
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
    elsewhere: byPlatform((platform) => models[platform].elsewhere(holds)),
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

/** The platforms where each principal's sandbox is its own (PlatformModel.ownSandbox). */
export function ownSandboxesOf(models: PlatformModels): Platform[] {
  return PLATFORMS.filter((platform) => models[platform].ownSandbox);
}

/** boxwright's own sandboxes, Box's and TYBA's: the ones it compiles. */
export const boxwrightEnforcer: Enforcer = { dialects: ['box', 'tyba'], principalAccess };
