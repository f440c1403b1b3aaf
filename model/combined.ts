import { PLATFORMS, type Platform } from '../compiler/diagnostic.js';
import type { Grant } from '../compiler/ir/types.js';
import { atOrAbove } from '../compiler/paths/host-trusted-index.js';
import type { Mechanism } from './facts.js';
import type { GrantAccess } from './access.js';

/** The content rights a grant asks for itself (`r`, `w`, `x`): what it adds to a cell. */
interface Rights {
  readonly read: boolean;
  readonly write: boolean;
  readonly exec: boolean;
}

const noRights: Rights = { read: false, write: false, exec: false };

// One object each, not one per question (asked for every candidate of every grant on every platform).
const readRights: Rights = { read: true, write: false, exec: false };
const writeRights: Rights = { read: false, write: true, exec: false };
const readWriteRights: Rights = { read: true, write: true, exec: false };
const execRights: Rights = { read: false, write: false, exec: true };

function rightsOf(g: Grant): Rights {
  switch (g.access) {
    case 'read':
      return readRights;
    case 'write':
      return writeRights;
    case 'read-write':
      return readWriteRights;
    case 'exec':
      return execRights;
    default:
      return noRights;
  }
}

const meets = (a: Rights, read: boolean, write: boolean, exec: boolean): boolean =>
  (a.read && read) || (a.write && write) || (a.exec && exec);

/** The same grants in the same order (what the fact's list would hold). */
function sameGrants(a: readonly GrantAccess[], b: readonly GrantAccess[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Each grant's `combined` facts: where a platform's cell holds content
 * rights the grant does not ask for, the other grants of the principal on
 * its path (the same path, or a tree above it) that ask for one of them.
 * A cell is the union of the grants that reach its path (model.ts,
 * `linuxAt`, `macosAt`, `windowsAt`), so these are the grants that add up
 * to it. Found by path, not by comparing every grant with every other (a
 * 40,000-grant config): a grant's candidates are the grants at each path
 * at or above its own.
 */
export function withCombined(grants: readonly GrantAccess[]): GrantAccess[] {
  const order = new Map<GrantAccess, number>();
  const atPath = new Map<string, GrantAccess[]>();
  grants.forEach((ga, i) => {
    const g = ga.grant;
    if (!g.path || rightsOf(g) === noRights) return;
    order.set(ga, i);
    const list = atPath.get(g.path);
    if (list) list.push(ga);
    else atPath.set(g.path, [ga]);
  });
  if (!atPath.size) return [...grants];
  return grants.map((ga) => {
    const g = ga.grant;
    if (!g.path) return ga;
    const own = rightsOf(g);
    let candidates: GrantAccess[] | undefined;
    let combined: Partial<Record<Platform, Mechanism>> | undefined;
    let lastFrom: GrantAccess[] | undefined;
    let lastFact: Mechanism | undefined;
    for (const platform of PLATFORMS) {
      const cell = ga.effective[platform];
      if (!ga.applies[platform] || cell.kind !== 'access') continue;
      // The rights the cell holds and the grant does not ask for.
      const read = cell.read && !own.read;
      const write = cell.write && !own.write;
      const exec = cell.exec && !own.exec;
      if (!read && !write && !exec) continue;
      candidates ??= candidatesOf(g.path, ga, atPath, order);
      // A loop, not a filter with a closure per grant and platform.
      const from: GrantAccess[] = [];
      for (let i = 0; i < candidates.length; i++) {
        const o = candidates[i]!;
        if (o.applies[platform] && meets(rightsOf(o.grant), read, write, exec)) from.push(o);
      }
      if (!from.length) continue;
      // The same grants on several platforms: one fact.
      if (!lastFrom || !sameGrants(lastFrom, from)) {
        lastFrom = from;
        lastFact = Object.freeze({ kind: 'combined', grants: Object.freeze(from.map((o) => o.grant)) });
      }
      (combined ??= {})[platform] = lastFact!;
    }
    return combined ? { ...ga, combined: Object.freeze(combined) } : ga;
  });
}

/** The other grants at `path` (any scope) and the trees above it, in the config's order. */
function candidatesOf(
  path: string,
  self: GrantAccess,
  atPath: ReadonlyMap<string, readonly GrantAccess[]>,
  order: ReadonlyMap<GrantAccess, number>,
): GrantAccess[] {
  const out: GrantAccess[] = [];
  for (const at of atOrAbove(path)) {
    for (const o of atPath.get(at) ?? []) {
      if (o.grant === self.grant || (at !== path && o.grant.scope !== 'tree')) continue;
      out.push(o);
    }
  }
  return out.sort((a, b) => order.get(a)! - order.get(b)!);
}
