/**
 * The enforcers, registered here once, one entry each (ARCHITECTURE.md,
 * "How to add a peer's enforcer"): the model asks this registry which
 * enforcer holds a config, by the IR's dialect, instead of switching on it.
 * The type checker names an EnforcerKind without an entry.
 */
import type { Dialect } from '../compiler/schema/validate.js';
import { boxwrightEnforcer } from './boxwright.js';
import { codexEnforcer } from './codex.js';
import type { Enforcer, EnforcerKind } from './enforcer.js';
import { srtEnforcer } from './srt.js';

export type { Enforcer, EnforcerInput, EnforcerKind } from './enforcer.js';

export const enforcers: Readonly<Record<EnforcerKind, Enforcer>> = {
  boxwright: boxwrightEnforcer,
  'sandbox-runtime': srtEnforcer,
  codex: codexEnforcer,
};

/**
 * The one enforcer of a dialect. A dialect none claims (Cursor's and VS
 * Code's settings are linted only, app/check-peers.ts) or two claim is a
 * fault of the registry, refused loudly rather than decided by order.
 */
export function enforcerOf(dialect: Dialect): Enforcer {
  const found = Object.values(enforcers).filter((e) => e.dialects.includes(dialect));
  if (found.length !== 1) throw new Error(`internal: ${found.length} enforcers claim the dialect ${dialect}, not one (model/enforcers.ts)`);
  return found[0]!;
}
