/**
 * A write tree's absent host-trusted names (compiler/paths/host-trusted.ts,
 * RootNames) in the model: decided once per tree, not once per name and
 * platform. The names of one tree share everything the model reads of a
 * path but the path itself: their facts (one object), their parent (the
 * tree's root), and the index's answer (PathIndex.carveNames carves them as
 * one set). So one decision holds for each, except where the principal's
 * index names something at or inside one of them (a grant, a mechanism, a
 * carve-out found one by one): that name is decided on its own.
 */
import type { RootNames } from '../compiler/paths/index.js';
import type { TrustedAccess } from './model.js';

/** A tree's absent names for one principal: the decision they share, and the names decided on their own. */
export interface TrustedNamesAccess {
  readonly names: RootNames;
  /** The names decided as one (in `names.names` order). */
  readonly shared: readonly string[];
  /** The decision of `shared[0]`, which is each shared name's with its own path; undefined where the model keeps none of them. */
  readonly decided: TrustedAccess | undefined;
}
