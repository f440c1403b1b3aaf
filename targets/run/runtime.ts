/**
 * What a platform's run-time side is (its unit's `run` part, targets/units.ts):
 * its runner, what `boxwright run` hands the command to, and its doctor
 * checks, what `boxwright doctor` asks of this machine.
 */
import type { Finding } from '../../app/format/doctor.js';
import type { RunArgs } from '../../app/cli/run-common.js';
import type { RunRequest } from './request.js';

export interface Runner {
  /**
   * Before the config is read: the check's reader for this run (what the
   * host trusts after it besides the config: boxwright itself, on Linux also
   * bubblewrap). A bad --fs or --home throws UsageError here, exit 2.
   * Returns what checks, compiles and runs the config's bytes, to the
   * command's exit status or NOT_RUN.
   */
  prepare(args: RunArgs, asked: RunRequest): (bytes: Uint8Array) => Promise<number>;
}

export interface DoctorOptions {
  /** `--bwrap PATH`: the bubblewrap to qualify (Linux). */
  readonly bwrap?: string | undefined;
}

/** What qualifies this machine for `boxwright run`, by trying it. */
export type DoctorChecks = (options: DoctorOptions) => Promise<Finding[]>;

export interface PlatformRuntime {
  /** The operating system (Node's `process.platform`) the platform's sandbox runs on. */
  readonly system: NodeJS.Platform;
  /** Its runner, loaded when a run asks (a lint, a compile loads none). */
  readonly runner: () => Promise<Runner>;
  /** Its doctor checks, loaded when doctor asks. */
  readonly doctor: () => Promise<DoctorChecks>;
}
