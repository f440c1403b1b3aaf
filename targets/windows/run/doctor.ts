/** `boxwright doctor` on Windows: run applies nothing there (runner.ts), so there is nothing to qualify. */
import type { DoctorChecks } from '../../run/runtime.js';

export const doctor: DoctorChecks = async () => [
  {
    id: 'windows',
    status: 'info',
    title: 'Windows',
    detail: 'boxwright run prints the ACL plan it would apply and stops; nothing to qualify',
  },
];
