/**
 * Each platform's run-time side (issue 24: a platform is one unit): its
 * runner and its doctor checks, each in the platform's folder here and
 * loaded when asked. A table keyed by Platform, so that the type checker
 * names a new platform here (ARCHITECTURE.md, "How to add a platform").
 */
import { PLATFORMS, type Platform } from '../../compiler/diagnostic.js';
import type { PlatformRuntime } from './runtime.js';

export type { DoctorChecks, DoctorOptions, PlatformRuntime, Runner } from './runtime.js';

/** Each platform's runner and doctor checks; undefined: boxwright runs no command there. */
export const platformRuntimes: Readonly<Record<Platform, PlatformRuntime | undefined>> = {
  macos: {
    system: 'darwin',
    runner: async () => (await import('./macos/runner.js')).macosRunner,
    doctor: async () => (await import('./macos/doctor.js')).macosDoctor,
  },
  linux: {
    system: 'linux',
    runner: async () => (await import('./linux/runner.js')).linuxRunner,
    doctor: async () => (await import('./linux/doctor.js')).linuxDoctor,
  },
  windows: {
    system: 'win32',
    runner: async () => (await import('./windows/runner.js')).windowsRunner,
    doctor: async () => (await import('./windows/doctor.js')).windowsDoctor,
  },
};

/** The platform whose sandbox runs on this machine, and its run-time side; undefined: none does. */
export function hostRuntime(system: NodeJS.Platform = process.platform): { platform: Platform; runtime: PlatformRuntime } | undefined {
  for (const platform of PLATFORMS) {
    const runtime = platformRuntimes[platform];
    if (runtime?.system === system) return { platform, runtime };
  }
  return undefined;
}
