/**
 * Each host-trusted path near a principal's write grants, as each platform gives it to the principal (TrustedAccess):
 * read-only where the platform can carve it, creatable where it cannot (and why), lifted where a grant names it.
 */
import type { Platform } from '../compiler/diagnostic.js';
import { byPlatform, PLATFORMS } from '../compiler/diagnostic.js';
import type { Grant, Principal } from '../compiler/ir/types.js';
import {
  isStrictlyUnder,
  isUnder,
  type HostTrustedPath,
  projectNameSet,
  type RootNames,
  type TrustedSearch,
} from '../compiler/paths/index.js';
import { dirname } from 'node:path';
import { atOrAbove, namesHolding, NearPaths, pushAt } from '../compiler/paths/host-trusted-index.js';
import { absent, type Cell } from './cell.js';
import { fixed, writes } from './grant-kinds.js';
import type { PathIndex } from './path-index.js';
import type { Mechanism } from './facts.js';
import type { PrincipalAccess, TrustedAccess, TrustedNamesAccess } from './access.js';
import type { PlatformModel, PlatformModels } from './platform.js';
import { effectiveOf } from './intern.js';
import { everywhere, notOnWindows, windowsUnmapped } from './windows-spelling.js';

export interface TrustedNear {
  readonly singles: readonly HostTrustedPath[];
  readonly names: readonly RootNames[];
}

/** The host-trusted paths at, inside or around one of the principal's write grants. */
export function trustedNear(p: Principal, search: TrustedSearch): TrustedNear {
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
export function carvable(t: HostTrustedPath, model: PlatformModel, home: string): boolean {
  if (t.facts.symlink) return false;
  return model.carvable(t, home);
}

/** Why a platform cannot make a host-trusted path read-only (it is `creatable` there). */
export function blockedOn(t: HostTrustedPath, platform: Platform, home: string): 'absent' | 'unknown' | 'link' | 'no-windows-spelling' {
  if (t.facts.symlink) return 'link';
  if (platform === 'windows' && t.facts.existence !== 'absent' && windowsUnmapped(t.path, home)) return 'no-windows-spelling';
  return t.facts.existence === 'unknown' ? 'unknown' : 'absent';
}

export const writable = (c: Cell): boolean => c.kind === 'access' && c.write;

export interface TrustedDecisions {
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
export function trustedAccess(
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

export const byTrustedPath = (a: HostTrustedPath, b: HostTrustedPath): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

export const hostTrustedUnreached = fixed('host-trusted-unreached');

export const parentOf = (p: string): string => {
  const i = p.lastIndexOf('/');
  return i <= 0 ? '/' : p.slice(0, i);
};
