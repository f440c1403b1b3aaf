/**
 * What sandbox-runtime 0.0.83 gives the sandboxed command at each path, per
 * platform, for a sandbox-runtime or Claude Code settings file (the IR's
 * `runtime`): reads open except `denyRead` (re-opened by `allowRead`),
 * writes closed except `allowWrite` (narrowed by `denyWrite` and the
 * mandatory denies). docs/dialects/sandbox-runtime.md gives each statement
 * with its source; the Linux column is checked against sandbox-runtime
 * itself (test/linux/srt-differential.test.ts).
 *
 * Linux is sandbox-runtime's bubblewrap argv (linux-sandbox-utils.js,
 * generateFilesystemArgs), replayed as a list of mounts in the order it
 * emits them: `--ro-bind / /`; a `--bind` per existing write root; per
 * existing `denyRead` target, shallowest first, a tmpfs (a directory: an
 * empty writable scratch) or `/dev/null` (a file, on a nodev mount: it
 * cannot be opened), then the `allowRead` and write roots at or under it
 * bound back from the host; then a read-only bind per `denyWrite` and
 * mandatory deny that meets a write root (an absent one: a `/dev/null`
 * placeholder, or an empty directory at its first missing component). The
 * last mount at or above a path says what is there.
 */
import { byPlatform, PLATFORMS, type Platform } from '../compiler/diagnostic.js';
import type { Grant, PolicyIR, Principal } from '../compiler/ir/types.js';
import { isUnder, windowsUnmapped } from '../compiler/paths/index.js';
import { access, absent, denied, empty, scratch, type Cell } from './cell.js';
import type { Mechanism, Ungranted } from './facts.js';
import type { Elsewhere, GrantAccess, PrincipalAccess } from './access.js';
import { withCombined } from './combined.js';
import type { Enforcer } from './enforcer.js';
import { peerPrincipalAccess } from './peer-access.js';

type Mount =
  | { readonly kind: 'host'; readonly path: string; readonly write: boolean; readonly deny?: true }
  | { readonly kind: 'tmpfs'; readonly path: string }
  | { readonly kind: 'mask'; readonly path: string }
  | { readonly kind: 'placeholder-file'; readonly path: string }
  | { readonly kind: 'placeholder-dir'; readonly path: string };

const exists = (g: Grant): boolean => g.facts.existence !== 'absent';
const depth = (p: string): number => (p === '/' ? 0 : p.split('/').length - 1);

/** A write deny whose placeholder bubblewrap cannot make: sandbox-runtime's Linux sandbox does not start. */
export interface StartFailure {
  readonly grant: Grant;
  /** Where the placeholder would go. */
  readonly at: string;
  /** The read-only mount it would go in. */
  readonly holder: string;
}

/** The mounts sandbox-runtime's Linux wrap makes, in its order (see the module comment). */
export function linuxMounts(grants: readonly Grant[], failures: StartFailure[] = []): Mount[] {
  const withPath = grants.filter((g): g is Grant & { path: string } => !!g.path);
  // Write roots: /dev/* is left to --dev, and an absent one is skipped (linux-sandbox-utils.js: "Skipping non-existent write path").
  const writes = withPath.filter((g) => g.access === 'read-write' && exists(g) && !g.path.startsWith('/dev/'));
  const writeRoots = writes.map((g) => g.path);
  const reads = withPath.filter((g) => g.access === 'read');
  const mounts: Mount[] = [{ kind: 'host', path: '/', write: false }];
  for (const w of writes) mounts.push({ kind: 'host', path: w.path, write: true });
  // An existing denyRead target, shallowest first; a file an allowRead names itself is lifted.
  const denies = withPath.filter((g) => g.access === 'deny-read' && exists(g)).sort((a, b) => depth(a.path) - depth(b.path));
  const seen = new Set<string>();
  /** Each read deny's cover and what it binds back: a write deny's bind above them puts them back on top. */
  const units: { cover: Mount; back: Mount[] }[] = [];
  for (const d of denies) {
    if (seen.has(d.path)) continue;
    seen.add(d.path);
    // A target already hidden by a shallower deny (and not bound back) gets no mount of its own (measured: sandbox-runtime 0.0.83).
    if (!hostShown(mounts, d.path)) continue;
    const isDir = d.facts.kind === 'dir' || d.facts.kind === undefined;
    if (!isDir) {
      if (reads.some((r) => r.path === d.path)) continue;
      const mask: Mount = { kind: 'mask', path: d.path };
      mounts.push(mask);
      units.push({ cover: mask, back: [] });
      continue;
    }
    const tmpfs: Mount = { kind: 'tmpfs', path: d.path };
    mounts.push(tmpfs);
    const byDepth = (a: string, b: string): number => depth(a) - depth(b);
    // The write roots come back first, writable; then each allowRead, read-only, unless a write root bound back
    // at or above it holds it already (and one above a write root buries it: measured, 0.0.83).
    const writesBack = [...new Set(writeRoots)].filter((r) => isUnder(r, d.path)).sort(byDepth);
    const readsBack = [...new Set(reads.filter(exists).map((r) => r.path))]
      .filter((r) => isUnder(r, d.path) && !writesBack.some((w) => isUnder(r, w)))
      .sort(byDepth);
    const back: Mount[] = [
      ...writesBack.map((r): Mount => ({ kind: 'host', path: r, write: true })),
      ...readsBack.map((r): Mount => ({ kind: 'host', path: r, write: false })),
    ];
    mounts.push(...back);
    units.push({ cover: tmpfs, back });
  }
  // denyWrite and the mandatory denies, where they meet a write root (inside one, or one inside them).
  for (const g of withPath) {
    if (g.access !== 'deny-write') continue;
    const meets = writeRoots.some((w) => isUnder(g.path, w) || isUnder(w, g.path));
    if (!meets) continue;
    // Where a read deny hides the path, its read-only bind is not made (it would bring the host's content back),
    // but what is bound back below it becomes read-only (measured, 0.0.83).
    if (!hostShown(mounts, g.path)) {
      const below = mounts.filter(
        (m): m is Extract<Mount, { kind: 'host' }> => m.kind === 'host' && m.write && isUnder(m.path, g.path) && m.path !== '/',
      );
      for (const m of below) if (hostShown(mounts, m.path)) mounts.push({ kind: 'host', path: m.path, write: false });
      continue;
    }
    if (exists(g)) {
      mounts.push({ kind: 'host', path: g.path, write: false, deny: true });
      // The read denies below it stay: sandbox-runtime applies them again over the write deny's bind, read-only now (measured, 0.0.83).
      for (const u of units) {
        if (u.cover.path === g.path || !isUnder(u.cover.path, g.path)) continue;
        mounts.push(u.cover, ...u.back.map((b): Mount => ({ kind: 'host', path: b.path, write: false })));
      }
    } else if (writeRoots.some((w) => isUnder(g.path, w))) {
      // The first missing component gets the placeholder: a file where the parent exists, else an empty directory.
      const first = g.firstAbsent ?? g.path;
      // bubblewrap makes the mount point in the directory as the mounts so far show it: in a read-only bind
      // (a write deny's, an allowRead's) it cannot, and the sandbox does not start (measured, 0.0.83).
      const holder = shownBy(mounts, parentOf(first));
      if (holder?.kind === 'host' && !holder.write) {
        // Inside a directory a write deny binds read-only the path is uncreatable already: no placeholder
        // (linux-sandbox-utils.js, readOnlyDenyDirSpellings), unless a write entry at or under the path vetoes that.
        const vetoed = grants.some((w) => w.access === 'read-write' && w.path && isUnder(w.path, g.path));
        if (holder.deny && !vetoed) continue;
        failures.push({ grant: g, at: first, holder: holder.path });
        continue;
      }
      mounts.push(first === g.path ? { kind: 'placeholder-file', path: first } : { kind: 'placeholder-dir', path: first });
    }
  }
  return mounts;
}

/** The last mount at or above a path: what shows it. */
function shownBy(mounts: readonly Mount[], path: string): Mount | undefined {
  for (let i = mounts.length - 1; i >= 0; i--) if (isUnder(path, mounts[i]!.path)) return mounts[i]!;
  return undefined;
}

const parentOf = (p: string): string => {
  const i = p.lastIndexOf('/');
  return i <= 0 ? '/' : p.slice(0, i);
};

/** Whether the host's own content is what the mounts so far show at a path (no tmpfs, mask or placeholder over it). */
function hostShown(mounts: readonly Mount[], path: string): boolean {
  for (let i = mounts.length - 1; i >= 0; i--) if (isUnder(path, mounts[i]!.path)) return mounts[i]!.kind === 'host';
  return false;
}

/** The Linux cell at a path: the last mount at or above it. */
function linuxCell(mounts: readonly Mount[], path: string): Cell {
  for (let i = mounts.length - 1; i >= 0; i--) {
    const m = mounts[i]!;
    if (!isUnder(path, m.path)) continue;
    switch (m.kind) {
      case 'host':
        return access({ read: true, write: m.write, exec: true });
      case 'mask':
      case 'placeholder-file':
        return path === m.path ? denied : absent;
      case 'placeholder-dir':
        return path === m.path ? empty : absent;
      case 'tmpfs': {
        if (path === m.path) return scratch;
        // bubblewrap makes, in the tmpfs, the directories that lead to a later mount below it.
        const leads = mounts.slice(i + 1).some((n) => n.path !== path && isUnder(n.path, path));
        return leads ? scratch : absent;
      }
    }
  }
  return absent;
}

/**
 * The deepest entry of these kinds at or above a path, an allow winning a
 * tie with a read deny: how Seatbelt's late denies and Windows' ACE order
 * rank `denyRead` against `allowRead` (and, on Windows, a write grant).
 */
function deepestRead(grants: readonly Grant[], path: string, kinds: readonly Grant['access'][]): Grant | undefined {
  let by: Grant | undefined;
  for (const g of grants) {
    if (!g.path || !kinds.includes(g.access) || !isUnder(path, g.path)) continue;
    if (!by || depth(g.path) > depth(by.path!) || (depth(g.path) === depth(by.path!) && g.access !== 'deny-read')) by = g;
  }
  return by;
}

/**
 * macOS: the Seatbelt profile (macos-sandbox-utils.js, generateReadRules
 * and generateWriteRules): `(allow file-read*)`, then deny for `denyRead`,
 * allow for `allowRead`, and late denies for a `denyRead` more specific
 * than the `allowRead` it lies in: the deepest entry decides, an allow at
 * the same path wins. Writes: allow `allowWrite`, then deny `denyWrite` and
 * the mandatory denies, which win at any depth.
 */
function macosCell(grants: readonly Grant[], path: string): Cell {
  const read = deepestRead(grants, path, ['deny-read', 'read'])?.access !== 'deny-read';
  const write =
    grants.some((g) => g.path && g.access === 'read-write' && isUnder(path, g.path)) &&
    !grants.some((g) => g.path && g.access === 'deny-write' && isUnder(path, g.path));
  return access({ read, write, exec: read, meta: true });
}

/**
 * Windows (sandbox-manager.js, computeWindowsFsAccessSet; windows-sandbox-utils.js,
 * rankWindowsFsAccess): the command runs as the `srt-sandbox` account;
 * `allowWrite` is a MODIFY ACE for it, `allowRead` READ|EXECUTE, `denyRead`
 * and `denyWrite` DENY ACEs. An ACE set on an object comes before the ones
 * it inherits, so an allow at or beneath a read deny is the one that
 * counts (allowRead over denyRead); a write grant at or beneath a write
 * deny is a read grant (denyWrite over allowWrite). Nothing else of your
 * profile is the account's to read, except the tool directories of the
 * install's profile grant.
 */
function windowsCell(grants: readonly Grant[], path: string): Cell {
  const readBy = deepestRead(grants, path, ['deny-read', 'read', 'read-write']);
  if (readBy?.access === 'deny-read') return denied;
  const write =
    grants.some((g) => g.path && g.access === 'read-write' && isUnder(path, g.path)) &&
    !grants.some((g) => g.path && g.access === 'deny-write' && isUnder(path, g.path));
  const read = !!readBy;
  return access({ read, write, exec: read });
}

const fixed = <K extends Mechanism['kind']>(kind: K): Mechanism => Object.freeze({ kind }) as Mechanism;
const scratchMechanism = fixed('srt-read-deny-scratch');
const restoredMechanism = fixed('srt-write-restores-read');
const skippedMechanism = fixed('srt-absent-skipped');
const writeOnlyMechanism = fixed('srt-write-only');
const placeholderMechanism = fixed('srt-deny-placeholder');
const unavailableMechanism = fixed('srt-sandbox-unavailable');
const offMechanism = fixed('srt-sandbox-off');
const patternMechanism = fixed('srt-pattern');
const implicitOtherPlatform = fixed('implicit-other-platform');
/** What sandbox-runtime gives where no grant names the path, one fact per regime. */
const srtUngranted = <R extends Extract<Ungranted, { kind: 'srt-ungranted' }>['regime']>(regime: R): Ungranted =>
  Object.freeze({ kind: 'srt-ungranted', regime });
const ungranted = {
  off: srtUngranted('off'),
  seatbelt: srtUngranted('seatbelt'),
  bubblewrap: srtUngranted('bubblewrap'),
  unavailable: srtUngranted('unavailable'),
  unsupported: srtUngranted('unsupported'),
  'sandbox-account': srtUngranted('sandbox-account'),
} as const;

const everywhere: Readonly<Record<Platform, boolean>> = Object.freeze(byPlatform(() => true));
const nowhere: Readonly<Record<Platform, boolean>> = Object.freeze(byPlatform(() => false));
const requestedOf: Readonly<Record<string, Cell>> = {
  read: access({ read: true }),
  'read-write': access({ read: true, write: true }),
  'deny-read': denied,
  'deny-write': access({ read: true }),
};

/** What sandbox-runtime does on one platform it has a sandbox for: its cell at a path, and where no grant names it. */
interface SrtPlatform {
  readonly at: (path: string) => Cell;
  readonly elsewhere: Elsewhere;
  /** A grant it refuses whatever its cell (Linux: a placeholder bubblewrap cannot make, and the sandbox does not start). */
  readonly refused?: (g: Grant) => Cell | undefined;
  /** The mechanism behind a grant's cell there, where the sandbox is on. */
  readonly note: (g: Grant, cell: Cell) => Mechanism | undefined;
  /** No sandbox runs there at all (Claude Code on native Windows): every grant, srt's own additions too, is moot alike. */
  readonly unsandboxed?: true;
}

/**
 * A platform sandbox-runtime 0.0.83 has no sandbox for (it knows macOS and Linux, and Claude Code's Windows):
 * it does not start, so nothing runs under it, and nothing is granted.
 */
const unsupported: SrtPlatform = { at: () => absent, elsewhere: { cell: absent, fact: ungranted.unsupported }, note: () => undefined };

const full = access({ read: true, write: true, exec: true });
const readable = access({ read: true, exec: true, meta: true });
const offElsewhere: Elsewhere = { cell: full, fact: ungranted.off, mechanism: offMechanism };

/** Linux: what the mounts make of a grant's cell that differs from the request. */
function linuxNote(g: Grant, cell: Cell): Mechanism | undefined {
  if (cell.kind === 'scratch') return scratchMechanism;
  if (g.access === 'deny-read' && cell.kind === 'access' && cell.read)
    return g.facts.existence === 'absent' ? skippedMechanism : restoredMechanism;
  if (g.access === 'read-write' && g.facts.existence === 'absent') return skippedMechanism;
  if (g.access === 'deny-write' && g.facts.existence === 'absent' && cell.kind !== 'absent') return placeholderMechanism;
  return undefined;
}

/**
 * sandbox-runtime's entries, one a platform it has a sandbox for; a
 * platform without one is `unsupported` (ARCHITECTURE.md, "How to add a
 * peer's enforcer": never another platform's cells). `off`: the settings
 * turn the sandbox off there.
 */
function srtPlatforms(
  ir: PolicyIR,
  grants: readonly Grant[],
  off: (platform: Platform) => boolean,
): Partial<Record<Platform, SrtPlatform>> {
  const failures: StartFailure[] = [];
  const mounts = linuxMounts(grants, failures);
  // Claude Code runs no sandbox on native Windows (the sandboxing page): with failIfUnavailable off, commands run unsandboxed.
  const claudeOnWindows = ir.dialect === 'claude';
  return {
    macos: {
      at: (path) => macosCell(grants, path),
      elsewhere: off('macos') ? offElsewhere : { cell: readable, fact: ungranted.seatbelt },
      note: (g, cell) => (g.access === 'deny-read' && cell.kind === 'access' && cell.write ? writeOnlyMechanism : undefined),
    },
    linux: {
      at: (path) => linuxCell(mounts, path),
      elsewhere: off('linux') ? offElsewhere : { cell: access({ read: true, exec: true }), fact: ungranted.bubblewrap },
      refused: (g) => {
        const failure = failures.find((f) => f.grant === g);
        return failure && { kind: 'refused', because: { kind: 'srt-placeholder-unmakeable', at: failure.at, holder: failure.holder } };
      },
      note: linuxNote,
    },
    windows: claudeOnWindows
      ? {
          at: () => full,
          elsewhere: { cell: full, fact: ungranted.unavailable, mechanism: unavailableMechanism },
          note: () => unavailableMechanism,
          unsandboxed: true,
        }
      : {
          at: (path) => windowsCell(grants, path),
          elsewhere: off('windows') ? offElsewhere : { cell: absent, fact: ungranted['sandbox-account'] },
          note: () => undefined,
        },
  };
}

export function runtimePrincipalAccess(ir: PolicyIR, p: Principal): PrincipalAccess {
  const grants = p.grants;
  // The settings turn the sandbox off on these platforms (an implicit read-write grant of `/`).
  const offGrant = grants.find((g) => g.implicit && g.path === '/' && g.access === 'read-write');
  const offOn = (platform: Platform): boolean => !!offGrant && offGrant.implicit!.platforms.includes(platform);
  const table = srtPlatforms(ir, grants, offOn);
  const entry = byPlatform((platform) => table[platform] ?? unsupported);
  const unsandboxedWindows = !!entry.windows.unsandboxed;
  const at = (path: string, platform: Platform): Cell => entry[platform].at(path);
  const rows = grants.map((g): GrantAccess => {
    const requested = requestedOf[g.access] ?? access({ read: true });
    const notes: Partial<Record<Platform, Mechanism>> = {};
    const effective: Record<Platform, Cell> = byPlatform(() => absent);
    if (!g.path) {
      // A pattern names no one path: no cell anywhere (explain says n/a, and why; glob-pattern says what each platform does).
      for (const platform of PLATFORMS) notes[platform] = patternMechanism;
      return { grant: g, requested, effective, notes, disclosures: {}, applies: nowhere };
    }
    for (const platform of PLATFORMS) {
      const cell: Cell = entry[platform].refused?.(g) ?? at(g.path, platform);
      effective[platform] = cell;
      const note = offOn(platform) ? offMechanism : entry[platform].note(g, cell);
      if (note) notes[platform] = note;
    }
    const windowsWhy = g.implicit ? undefined : windowsUnmapped(g.path, ir.home);
    // An implicit grant applies where its platforms say (srt's own additions are its macOS and Linux sandboxes').
    const on = (platform: Platform): boolean => !g.implicit || g.implicit.platforms.includes(platform) || !!entry[platform].unsandboxed;
    const applies = windowsWhy && !unsandboxedWindows ? { ...everywhere, windows: false } : g.implicit ? byPlatform(on) : everywhere;
    // srt's own additions on the platforms whose sandbox does not make them: no grant there (whatever else holds there).
    if (g.implicit) for (const platform of PLATFORMS) if (!applies[platform]) notes[platform] = implicitOtherPlatform;
    if (windowsWhy && !unsandboxedWindows)
      notes.windows = {
        kind: 'no-windows-spelling',
        path: g.path,
        why: windowsWhy.kind === 'outside-home' ? { kind: 'outside-home' } : { kind: 'name', problem: windowsWhy.problem },
      };
    return { grant: g, requested, effective, notes, disclosures: {}, applies };
  });
  // sandbox-runtime binds the whole root read-only unless denyRead says otherwise; its own mandatory denies are grants of
  // the IR (compiler/ir/settings.ts).
  return peerPrincipalAccess(
    p,
    rows,
    at,
    byPlatform((platform) => entry[platform].elsewhere),
  );
}

/** sandbox-runtime's enforcer: what its sandbox does with sandbox-runtime's settings and Claude Code's. */
export const srtEnforcer: Enforcer = {
  dialects: ['srt', 'claude'],
  principalAccess: ({ ir }, p) => {
    const pa = runtimePrincipalAccess(ir, p);
    return { ...pa, grants: withCombined(pa.grants) };
  },
};
