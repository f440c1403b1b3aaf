/**
 * The effective-access model: what each principal gets at each path on
 * every platform, built by the enforcer of the config's dialect (the
 * registry, model/enforcers.ts: boxwright's own, sandbox-runtime's,
 * Codex's) from what is decided once for the whole config here.
 */
import { byPlatform, type Platform } from '../compiler/diagnostic.js';
import type { PolicyIR } from '../compiler/ir/types.js';
import { grantsAlone } from './boxwright.js';
import { expandTilde, secretLocations, windowsSecretSpellings } from '../compiler/paths/index.js';
import type { PrincipalAccess } from './access.js';
import { ownSandboxesOf } from './boxwright.js';
import { enforcerOf } from './enforcers.js';
import type { ClosedSecret, PlatformModels } from './platform.js';
import { type ReadableCredential, trustedLabels, type WindowsLabels, windowsLabels, windowsReadable } from './windows-labels.js';
import { withDeniesOpenToOthers } from './open-to-others.js';

export type { Elsewhere, GrantAccess, PrincipalAccess, TrustedAccess } from './access.js';
export type { ClosedSecret, LinuxExec, PlatformContext, PlatformModel, PlatformModels } from './platform.js';
export type { ReadableCredential, WindowsLabels } from './windows-labels.js';

export interface AccessModel {
  readonly ir: PolicyIR;
  readonly principals: readonly PrincipalAccess[];
  /** Windows: the host-trusted labels of the whole config (a label is the file's, for every principal). */
  readonly windowsLabels: WindowsLabels;
  /**
   * TYBA's secret list as each platform closes it whatever the config says
   * (seed 001), applied once: the cells deny what is here, and the emitters
   * (the profile's denies, the plan's deny-read labels) write out this list,
   * never their own reading of secrets.json.
   */
  readonly secrets: Readonly<Record<Platform, readonly ClosedSecret[]>>;
  /**
   * Windows, where reads are open: the known credential files that exist
   * (or may: their existence unknown) and that principals can read, each
   * with who reads it. The plan's `readable` and diff's reminders read it.
   */
  readonly windowsReadable: readonly ReadableCredential[];
}

/**
 * Seed 001: Windows labels the twelve secrets deny-read whatever the config,
 * and where Windows tools keep the same secrets (%APPDATA%\gnupg, _netrc…);
 * TYBA's Seatbelt denies them too, and read_allow cannot re-open them.
 * Linux has no mechanism of its own for them.
 */
function closedSecrets(ir: PolicyIR, models: PlatformModels): AccessModel['secrets'] {
  const listed: ClosedSecret[] = secretLocations.map((s) => ({ path: expandTilde(s, ir.home), listed: s }));
  const spelled: ClosedSecret[] = windowsSecretSpellings.map((w) => ({ path: expandTilde(w.posix, ir.home), spelling: w }));
  return byPlatform((platform) => models[platform].closedSecrets(listed, spelled, ir.holds ?? grantsAlone));
}

/**
 * The one effective-access model: what the rules judge, explain prints and
 * the emitters lower. `models`: every platform's model part, from the
 * registry (targets/units.ts, `platformModels`).
 */
export function effectiveAccess(ir: PolicyIR, models: PlatformModels): AccessModel {
  const labels = windowsLabels(ir);
  const trusted = trustedLabels(ir, models);
  const secrets = closedSecrets(ir, models);
  const enforcer = enforcerOf(ir.dialect);
  const input = { ir, models, labels, windowsLabels: trusted, secrets };
  const built = ir.principals.map((p) => enforcer.principalAccess(input, p));
  return {
    ir,
    principals: built.length > 1 ? withDeniesOpenToOthers(built, ownSandboxesOf(models)) : built,
    windowsLabels: trusted,
    secrets,
    windowsReadable: windowsReadable(ir, built),
  };
}
