/**
 * What an enforcer is (issue 38: the peers' enforcers are a registry of
 * the same shape as the platforms'): the sandbox that holds a config's
 * grants, boxwright's own (model/boxwright.ts) or a peer's, what another
 * tool's sandbox does with its own settings (sandbox-runtime and Claude
 * Code: model/srt.ts; Codex: model/codex.ts). Each says which dialects it
 * enforces and builds a principal's access, its cells and facts on every
 * platform; the registry (model/enforcers.ts) holds one entry each, and the
 * model (model/model.ts) asks it by the IR's dialect. Types only.
 */
import type { Platform } from '../compiler/diagnostic.js';
import type { PolicyIR, Principal } from '../compiler/ir/types.js';
import type { Dialect } from '../compiler/schema/validate.js';
import type { PrincipalAccess } from './access.js';
import type { OtherLabel } from './facts.js';
import type { ClosedSecret, PlatformModels } from './platform.js';
import type { WindowsLabels } from './windows-labels.js';

export type EnforcerKind = 'boxwright' | 'sandbox-runtime' | 'codex';

/** What the model decides once for a whole config, before any principal, and hands every enforcer. */
export interface EnforcerInput {
  readonly ir: PolicyIR;
  /** Every platform's model part (the registry's, targets/units.ts). */
  readonly models: PlatformModels;
  /** Every principal's deny labels on Windows (a label is the file's). */
  readonly labels: readonly OtherLabel[];
  /** Windows: the host-trusted labels of the whole config. */
  readonly windowsLabels: WindowsLabels;
  /** The secrets each platform closes whatever the config says. */
  readonly secrets: Readonly<Record<Platform, readonly ClosedSecret[]>>;
}

export interface Enforcer {
  /** The dialects whose configs it enforces: exactly one enforcer claims each dialect the model is asked about. */
  readonly dialects: readonly Dialect[];
  /** A principal's access on every platform: its cells, facts, and what it gives where no grant names a path. */
  principalAccess(input: EnforcerInput, p: Principal): PrincipalAccess;
}
