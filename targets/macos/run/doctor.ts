/** `boxwright doctor` on macOS: the sandbox-exec that `boxwright run` starts the compiled profile with. */
import { existsSync } from 'node:fs';
import type { DoctorChecks } from '../../run/runtime.js';

export const doctor: DoctorChecks = async () => {
  const ok = existsSync('/usr/bin/sandbox-exec');
  return [
    {
      id: 'sandbox-exec',
      status: ok ? 'ok' : 'fail',
      title: 'sandbox-exec',
      detail: ok
        ? '/usr/bin/sandbox-exec is present (boxwright run uses it with the compiled Seatbelt profile)'
        : '/usr/bin/sandbox-exec is missing',
      ...(ok ? {} : { fix: 'boxwright run needs macOS with /usr/bin/sandbox-exec' }),
    },
  ];
};
