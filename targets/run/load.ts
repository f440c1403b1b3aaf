/**
 * Each platform's run-time side, loaded when run or doctor asks: its unit's
 * `run/runner.ts` exports `runner`, `run/doctor.ts` `doctor` (targets/unit.ts),
 * found by the folder's name; the unit's `system` says where it runs.
 */
import { PLATFORMS, type Platform } from '../../compiler/diagnostic.js';
import { platformUnits } from '../units.js';
import type { DoctorChecks, PlatformRuntime, Runner } from './runtime.js';

export type { DoctorChecks, DoctorOptions, PlatformRuntime, Runner } from './runtime.js';

function runtimeOf(platform: Platform, system: NodeJS.Platform): PlatformRuntime {
  return {
    system,
    runner: async () => {
      const part = (await import(`../${platform}/run/runner.js`)) as { readonly runner?: Runner };
      if (!part.runner) throw new Error(`targets/${platform}/run/runner.ts exports no \`runner\` (targets/unit.ts)`);
      return part.runner;
    },
    doctor: async () => {
      const part = (await import(`../${platform}/run/doctor.js`)) as { readonly doctor?: DoctorChecks };
      if (!part.doctor) throw new Error(`targets/${platform}/run/doctor.ts exports no \`doctor\` (targets/unit.ts)`);
      return part.doctor;
    },
  };
}

/**
 * The platform whose sandbox runs on this machine (its unit's `system` is
 * Node's `process.platform`), and its run-time side; undefined: none does.
 * Two units that both claim the system are a registry error, said loudly:
 * which one a run uses is not for the order of the entries to decide
 * (test/platform-stub.test.ts holds the registry to one a system).
 */
export function hostRuntime(system: NodeJS.Platform = process.platform): { platform: Platform; runtime: PlatformRuntime } | undefined {
  const here = PLATFORMS.filter((platform) => platformUnits[platform].system === system);
  if (here.length > 1) throw new Error(`targets/units.ts: ${here.join(' and ')} both run on ${system}; one platform a system`);
  const platform = here[0];
  return platform === undefined ? undefined : { platform, runtime: runtimeOf(platform, system) };
}
