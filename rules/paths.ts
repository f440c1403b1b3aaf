import type { Entry, Principal } from '../compiler/ir/types.js';

/** Every path entry a person wrote: grants, denies and the workspace. */
export function authoredEntries(p: Principal): Entry[] {
  const out: Entry[] = p.grants.filter((g) => !g.implicit);
  if (p.workspace) out.push(p.workspace);
  return out;
}
