/**
 * Windows' model part (issue 38): what the ACL plan (a Low-integrity
 * token, labels, deny ACEs) gives each principal at each path, as the
 * generic model (model/model.ts) asks it; targets/windows/plan.ts spells it.
 */
import type { Grant, Principal } from '../../../compiler/ir/types.js';
import { access, type Cell, denied } from '../../../model/cell.js';
import type { Mechanism } from '../../../model/facts.js';
import { fixed, labelsNothing, writes } from '../../../model/grant-kinds.js';
import { windowsUnmapped } from '../../../model/windows-spelling.js';
import type { PathIndex } from '../../../model/path-index.js';
import type { PlatformModel } from '../../../model/platform.js';

function windowsAt(ix: PathIndex, path: string, plain = false): Cell {
  const s = ix.summary(path, 'windows');
  if (s.existingDeny || s.mechanismDenied) return denied;
  // A host-trusted carve-out keeps its Medium no-write-up label; a write_file at the path names it.
  const write = (!!s.writeTree && (plain || !s.readOnly)) || !!s.writeFile;
  // Reads are open, and a restricted token does not restrict execution.
  return access({ read: true, write, exec: true });
}

const readAllowDiscarded = fixed('read-allow-discarded');

const secretLabel = fixed('secret-label');

const nothingToLabel = fixed('nothing-to-label');

const readsOpen = fixed('reads-open');

function windowsMechanism(_p: Principal, g: Grant, cell: Cell): Mechanism | undefined {
  if (g.list === 'read_allow') return readAllowDiscarded;
  if (cell.kind === 'denied' && g.access !== 'deny') return secretLabel;
  if (labelsNothing(g)) return nothingToLabel;
  if (g.access !== 'deny') return readsOpen;
  return undefined;
}

export const windowsModel: PlatformModel = {
  at: (cx, path, plain) => windowsAt(cx.ix, path, plain),
  mechanism: windowsMechanism,
  fileEntryGivesTree: writes,
  // Its deny is a label on each object, which a rename carries along.
  pinsDeny: () => false,
  pinsTrusted: false,
  // A label, on what exists (or may: apply.ps1 skips what is not there) and has a Windows spelling.
  carvable: (t, home) => !t.parentOf && t.facts.existence !== 'absent' && !windowsUnmapped(t.path, home),
  // A label is the file's: every principal meets it.
  carvesMissingParents: false,
  deniesFuturePaths: false,
  privateTmpOwn: false,
  ownSandbox: false,
  elsewhere: () => ({
    cell: access({ read: true, exec: true }),
    fact: { kind: 'ungranted', regime: 'open-reads' },
    mechanism: { kind: 'reads-open' },
    disclosures: [{ kind: 'beyond-files' }],
  }),
  // Labelled deny-read whatever the config, at their POSIX locations and their Windows spellings.
  closedSecrets: (listed, spelled) => [...listed, ...spelled],
  // Read and write without DELETE (0x12019f): the file cannot be renamed, deleted or replaced.
  rewriteInPlace: 'no-delete-mask',
  // A Medium no-write-up label; one it cannot label (absent) nothing checks after the run: the user applies the plan.
  hostTrusted: { readOnly: 'no-write-up-label', created: 'unchecked' },
};
