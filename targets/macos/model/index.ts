/**
 * macOS's model part (issue 38): what Seatbelt gives each principal at
 * each path, as the generic model (model/model.ts) asks it. The profile
 * (targets/macos/profile.ts) spells these cells; it decides nothing of its own.
 */
import { access, denied } from '../../../model/cell.js';
import { macosAt, macosMechanism } from '../../../model/model.js';
import type { PlatformModel } from '../../../model/platform.js';

export const macosModel: PlatformModel = {
  at: (cx, path, plain) => macosAt(cx.p, cx.ix, path, cx.tyba, plain),
  mechanism: macosMechanism,
  // Its own entry (its names, for read_file): no more than the model says, and a rule says what it means there.
  fileEntryGivesTree: () => false,
  // Every deny rule holds, and file-write-unlink is denied on each ancestor.
  pinsDeny: () => true,
  pinsTrusted: true,
  // A profile rule on the path, existing or not.
  carvable: () => true,
  ownSandbox: true,
  elsewhere: (tyba) =>
    tyba
      ? { cell: access({ meta: true }), fact: { kind: 'ungranted', regime: 'seatbelt-metadata' } }
      : { cell: denied, fact: { kind: 'ungranted', regime: 'seatbelt' } },
  // TYBA's Seatbelt denies the listed secrets; Box's grants decide.
  closedSecrets: (listed, _spelled, tyba) => (tyba ? listed : []),
  // `file-write*` on the literal: the file can be deleted and made again, nothing beside it.
  rewriteInPlace: 'literal-rule',
  // Every host-trusted path is carvable here (a rule needs no file): none is left for the workload to create.
  hostTrusted: { readOnly: 'profile-rule', created: 'unchecked' },
};
