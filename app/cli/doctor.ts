import type { Finding } from '../format/doctor.js';
import { formatNames, formats, renderer } from '../format/registry.js';
import { hostRuntime } from '../../targets/run/load.js';
import type { CliIo } from './io.js';
import { UsageError } from './options.js';

/**
 * `boxwright doctor`: qualifies this machine for `boxwright run` by trying
 * it, not by reading settings. The checks are the platform's own
 * (targets/<os>/run/doctor.ts, listed in targets/units.ts; on
 * Linux: bubblewrap, then three real sandboxes); this is the command: its
 * format, and a machine no platform runs on. Exit 0 when every finding
 * passes, 1 otherwise.
 */

export type { Finding, Status } from '../format/doctor.js';

export interface DoctorArgs {
  format?: string;
  bwrap?: string;
}

/** A machine whose system no platform's sandbox runs on. */
const noPlatform = (): Finding[] => [
  {
    id: 'platform',
    status: 'fail',
    title: 'platform',
    detail: `boxwright has no sandbox for ${process.platform}`,
    fix: 'run on Linux or macOS',
  },
];

export async function doctorCommand(args: DoctorArgs, io: CliIo): Promise<number> {
  const format = args.format ?? 'text';
  if (!Object.hasOwn(formats.doctor, format)) throw new UsageError(`--format must be ${orList(formatNames('doctor'))}`);
  const host = hostRuntime();
  const findings = host ? await (await host.runtime.doctor())({ bwrap: args.bwrap }) : noPlatform();
  const ok = findings.every((f) => f.status !== 'fail');
  const render = await renderer(formats.doctor, format);
  io.stdout.write(render({ platform: process.platform, ok, findings }));
  return ok ? 0 : 1;
}

/** `a`, `a or b`, `a, b or c`. */
function orList(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}
