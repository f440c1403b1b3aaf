/**
 * Whether a grant names one file or a tree, as the model's read cover asks
 * it (model.ts, `coverScope`: a write is covered by a read of the same
 * shape): a file entry, or a path the view found to be a file. Exported so
 * that a rule's fix asks the same question the model answered (write-only
 * suggests `read_file` exactly where the model looked for a file's cover),
 * instead of deciding it again. model.ts keeps its copy until issue 38's
 * model split (branch i38-unit) imports this one.
 */
import type { Grant } from '../compiler/ir/types.js';

export function coverScope(g: Grant): 'tree' | 'file' {
  return g.scope === 'file' || g.facts.kind === 'file' ? 'file' : 'tree';
}
