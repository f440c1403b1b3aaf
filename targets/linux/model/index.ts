/**
 * Linux's model part (issue 38): what the mount view, Landlock and
 * seccomp give each principal at each path, as the generic model
 * (model/model.ts) asks it; the plan (./plan.ts) builds the sandbox from
 * these cells, and the emitters (targets/linux/lower.ts) spell the plan.
 */
import { absent } from '../../../model/cell.js';
import { linuxAt, linuxMechanism } from '../../../model/model.js';
import type { PlatformModel } from '../../../model/platform.js';

export const linuxModel: PlatformModel = {
  at: (cx, path, plain) => linuxAt(cx.ix, path, cx.linuxExec, plain),
  mechanism: linuxMechanism,
  fileEntryGivesTree: () => true,
  // The ones a mount shows it: each ancestor a mount point of its own.
  pinsDeny: (cell) => cell.kind === 'empty',
  pinsTrusted: true,
  // A read-only mount, which needs an existing target (a mount point made on the host inside a write tree would be a file the workload left behind).
  carvable: (t) => !t.parentOf && t.facts.existence === 'exists',
  ownSandbox: true,
  elsewhere: () => ({ cell: absent, fact: { kind: 'ungranted', regime: 'mount-view' } }),
  // No mechanism of its own for them: only what the mount view leaves out.
  closedSecrets: () => [],
  // The file bind-mounted alone: a mount point, which cannot be renamed or deleted.
  rewriteInPlace: 'file-bind',
  // Bound read-only over itself; one the workload creates the launcher finds in its listing after the run and moves aside.
  hostTrusted: { readOnly: 'read-only-bind', created: 'quarantined-after-run' },
};
