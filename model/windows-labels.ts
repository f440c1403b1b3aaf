/**
 * Windows' labels, for the whole config: a label is the file's, so every principal meets the host-trusted carve-outs
 * and the denies of the others; and the credential files its open reads leave readable.
 */
import type { CredentialFact, Grant, PolicyIR } from '../compiler/ir/types.js';
import { isUnder, type HostTrustedPath, type RootNames } from '../compiler/paths/index.js';
import { NearPaths } from '../compiler/paths/host-trusted-index.js';
import { isDeny, labelsNothing, writes } from './grant-kinds.js';
import { appliesOn, type PathIndex } from './path-index.js';
import type { Mechanism, OtherLabel } from './facts.js';
import type { PrincipalAccess } from './access.js';
import type { PlatformModels } from './platform.js';
import { byTrustedPath, carvable, trustedNear } from './trusted-access.js';
import { windowsUnmapped, windowsUnspelled } from './windows-spelling.js';

/**
 * The Windows labels of the host-trusted carve-outs, for the whole config:
 * a path near any principal's write grant is labelled read-only (a Medium
 * no-write-up label), and a write grant of any principal at or inside one
 * relabels its own scope Low (targets/windows/plan.ts). A label is a
 * property of the file, so every principal's Windows cells see all of them.
 */
export interface WindowsLabels {
  /**
   * The host-trusted paths labelled read-only (a Medium no-write-up label, file by file), by path:
   * `carvedSingles` and every name of `carvedNames`, made on the first read.
   */
  readonly carved: readonly HostTrustedPath[];
  /** The write grants' paths at or inside one: each relabels its own scope Low after it. */
  readonly lifted: readonly string[];
  /** Those found one by one, by path. */
  readonly carvedSingles: readonly HostTrustedPath[];
  /** The trees whose every shared name is labelled (names that may exist: --fs none), one set each. */
  readonly carvedNames: readonly RootNames[];
}

export function trustedLabels(ir: PolicyIR, models: PlatformModels): WindowsLabels {
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
export function windowsLabels(ir: PolicyIR): OtherLabel[] {
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
export interface OthersLabels {
  readonly at: (path: string) => OtherLabel | undefined;
  readonly inside: (path: string) => readonly OtherLabel[];
}

export function othersLabels(labels: readonly OtherLabel[], ix: PathIndex, secrets: readonly string[]): OthersLabels {
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

export function windowsReadable(ir: PolicyIR, principals: readonly PrincipalAccess[]): ReadableCredential[] {
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

export interface ReadableCredential {
  readonly credential: CredentialFact;
  /** The principals that read it, by id, in the config's order. */
  readonly readableBy: readonly string[];
  /** The `credential-readable` fact (windows-open-reads words it). */
  readonly fact: Mechanism;
}
