import type { Grant, Principal } from '../compiler/ir/types.js';
import type { RelatedLocation } from '../compiler/diagnostic.js';

export { who } from '../compiler/ir/names.js';

/** The grants a person wrote (implicit TYBA grants are boxwright's own, exempt from path rules). */
export function authored(p: Principal): readonly Grant[] {
  let out = authoredOf.get(p);
  if (!out) authoredOf.set(p, (out = p.grants.filter((g) => !g.implicit)));
  return out;
}

/** Per principal, once: most rules walk the authored grants, and a config may hold tens of thousands. */
const authoredOf = new WeakMap<Principal, readonly Grant[]>();

export function relatedGrant(g: Grant, message: string): RelatedLocation {
  return { message, span: g.span };
}

/** The path a message names: the resolved one when known, else as written. */
export function shown(g: Pick<Grant, 'path' | 'written'>): string {
  return g.path ?? g.written;
}

/** Related locations are for people: at most this many, the rest counted in the message. */
export const maxRelated = 10;

export function relatedGrants(grants: readonly Grant[], message: string): RelatedLocation[] {
  return grants.slice(0, maxRelated).map((g) => relatedGrant(g, message));
}

/** `a, b, c and 12 more` for long path lists in messages. */
export function listPaths(paths: readonly string[], max = 5): string {
  const shown = paths.slice(0, max).join(', ');
  return paths.length > max ? `${shown} and ${paths.length - max} more` : shown;
}

/**
 * A count with its thousands separated by commas (1,000,000), without Intl:
 * toLocaleString loads ICU's locale data on its first call, about 15 ms of
 * every cold start when a rule's docs or messages use it at import.
 */
export function thousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
