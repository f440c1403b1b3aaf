import type { Grant, Principal } from '../compiler/ir/types.js';

/** Every path entry a person wrote: grants, denies and the workspace. */
export function authoredEntries(p: Principal): Pick<Grant, 'written' | 'path' | 'expandProblem' | 'facts' | 'span'>[] {
  const out: Pick<Grant, 'written' | 'path' | 'expandProblem' | 'facts' | 'span'>[] = p.grants.filter((g) => !g.implicit);
  if (p.workspace) out.push(p.workspace);
  return out;
}
