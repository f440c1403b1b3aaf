import { PLATFORMS, type Platform } from '../compiler/diagnostic.js';
import type { Grant } from '../compiler/ir/types.js';
import { atOrAbove } from '../compiler/paths/host-trusted-index.js';
import type { Mechanism } from './facts.js';
import type { GrantAccess } from './model.js';

/** The content rights a grant asks for itself (`r`, `w`, `x`): what it adds to a cell. */
interface Rights {
  readonly read: boolean;
  readonly write: boolean;
  readonly exec: boolean;
}

const noRights: Rights = { read: false, write: false, exec: false };

function rightsOf(g: Grant): Rights {
  switch (g.access) {
    case 'read':
      return { read: true, write: false, exec: false };
    case 'write':
      return { read: false, write: true, exec: false };
    case 'read-write':
      return { read: true, write: true, exec: false };
    case 'exec':
      return { read: false, write: false, exec: true };
    default:
      return noRights;
  }
}

const meets = (a: Rights, b: Rights): boolean => (a.read && b.read) || (a.write && b.write) || (a.exec && b.exec);

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
    let last: { readonly key: string; readonly fact: Mechanism } | undefined;
    for (const platform of PLATFORMS) {
      const cell = ga.effective[platform];
      if (!ga.applies[platform] || cell.kind !== 'access') continue;
      const extra: Rights = { read: cell.read && !own.read, write: cell.write && !own.write, exec: cell.exec && !own.exec };
      if (!extra.read && !extra.write && !extra.exec) continue;
      candidates ??= candidatesOf(g.path, ga, atPath, order);
      const from = candidates.filter((o) => o.applies[platform] && meets(rightsOf(o.grant), extra));
      if (!from.length) continue;
      // The same grants on several platforms: one fact.
      const key = from.map((o) => order.get(o)).join(',');
      if (last?.key !== key) last = { key, fact: Object.freeze({ kind: 'combined', grants: Object.freeze(from.map((o) => o.grant)) }) };
      (combined ??= {})[platform] = last.fact;
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
