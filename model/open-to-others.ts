import type { Platform } from '../compiler/diagnostic.js';
import type { Grant } from '../compiler/ir/types.js';
import { isUnder } from '../compiler/paths/index.js';
import { isDeny, reads, writes } from './grant-kinds.js';
import type { DenyOpenTo, Mechanism } from './facts.js';
import type { GrantAccess, PrincipalAccess } from './access.js';

/**
 * A deny shuts a path for its own principal only, on the platforms where
 * each principal's sandbox is its own (Linux's mount view, macOS's
 * profile): the others that can read or write the denied path, each with
 * the grant that gives it, are disclosed at the deny. Windows' deny is a
 * label on the object, which every principal meets.
 */
export function withDeniesOpenToOthers(principals: readonly PrincipalAccess[], ownSandboxes: readonly Platform[]): PrincipalAccess[] {
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
export function coverOf(pa: PrincipalAccess, path: string, platform: Platform): Grant | undefined {
  let best: Grant | undefined;
  for (const ga of pa.grants) {
    const g = ga.grant;
    if (!g.path || !ga.applies[platform] || isDeny(g) || !(reads(g) || writes(g) || g.access === 'exec')) continue;
    if (!(g.path === path || (g.scope === 'tree' && isUnder(path, g.path)))) continue;
    if (!best || g.path.length > best.path!.length) best = g;
  }
  return best;
}
