/**
 * macOS's model part (issue 38): what Seatbelt gives each principal at
 * each path, as the generic model (model/model.ts) asks it. The profile
 * (targets/macos/profile.ts) spells these cells; it decides nothing of its own.
 */
import type { Grant, Principal, SandboxHolds } from '../../../compiler/ir/types.js';
import { access, type Cell, denied } from '../../../model/cell.js';
import type { Mechanism } from '../../../model/facts.js';
import { fixed, isDeny, lacksRequested, listsNothing, namesDirectory, requestedCell } from '../../../model/grant-kinds.js';
import type { PathIndex } from '../../../model/path-index.js';
import type { PlatformModel } from '../../../model/platform.js';

function macosAt(p: Principal, ix: PathIndex, path: string, holds: SandboxHolds, plain = false): Cell {
  const s = ix.summary(path, 'macos');
  // Where every path's metadata is visible, a deny closes the content only.
  if (s.deny || s.mechanismDenied) return holds.metadataEverywhere ? access({ meta: true }) : denied;
  // A one-file entry is a literal: on a directory, the entry alone (its names, for a read), nothing below it.
  const read = !!s.readTree || (!!s.readFile && !namesDirectory(s.readFile));
  const granted = !!s.writeTree || (!!s.writeFile && !namesDirectory(s.writeFile));
  // A host-trusted carve-out stops the tree's writes (the profile's deny); a write_file at the path names it.
  const write = (!!s.writeTree && (plain || !s.readOnly)) || (!!s.writeFile && !namesDirectory(s.writeFile));
  // `list` gives a directory's entry names (file-read-data, on a directory only) and its properties (any kind).
  const names = (!!s.listHere && !listsNothing(s.listHere)) || (!!s.readFile && namesDirectory(s.readFile));
  const meta = !!holds.metadataEverywhere || !!s.metadataTree || !!s.listHere;
  // Tools run helpers and load built code from their content grants (a carve-out denies writes, not that).
  const exec = !!(s.execFile ?? s.execTree) || (p.kind === 'tool' && (read || granted));
  return access({ read, write, exec, names, meta });
}

const denialsBeatPermissions = fixed('denials-beat-permissions');

const toolHelperExec = fixed('tool-helper-exec');

const namesOfAFile = fixed('names-of-a-file');

const contentNotMetadata = fixed('content-not-metadata');

const denyCoversGrant = fixed('deny-covers-grant');

const directoryEntryOnly = {
  read: Object.freeze({ kind: 'directory-entry-only', access: 'read' }),
  write: Object.freeze({ kind: 'directory-entry-only', access: 'write' }),
} as const satisfies Record<'read' | 'write', Mechanism>;

function macosMechanism(p: Principal, g: Grant, cell: Cell, holds: SandboxHolds): Mechanism | undefined {
  if (holds.denialsBeatPermissions && g.access === 'read' && (cell.kind !== 'access' || !cell.read)) return denialsBeatPermissions;
  if (g.access === 'list' && listsNothing(g) && cell.kind === 'access' && !cell.names) return namesOfAFile;
  if (!g.implicit && namesDirectory(g) && (g.access === 'read' || g.access === 'write')) return directoryEntryOnly[g.access];
  if (cell.kind === 'access' && cell.exec && p.kind === 'tool' && g.access !== 'exec') return toolHelperExec;
  // An exec grant and a write grant over one path: what the workload writes there it can run.
  if (cell.kind === 'access' && cell.exec && cell.write && p.kind !== 'tool') return execWritable;
  if (holds.metadataEverywhere && isDeny(g) && cell.kind === 'access' && !cell.read && !cell.write && !cell.exec && !cell.names)
    return contentNotMetadata;
  // What none of the above explains and the cell still lacks: a deny's rule (or a listed secret's) closes it.
  if (!isDeny(g) && lacksRequested(requestedCell(g), cell)) return denyCoversGrant;
  return undefined;
}

const execWritable = fixed('exec-writable');

export const macosModel: PlatformModel = {
  at: (cx, path, plain) => macosAt(cx.p, cx.ix, path, cx.holds, plain),
  mechanism: macosMechanism,
  // Its own entry (its names, for read_file): no more than the model says, and a rule says what it means there.
  fileEntryGivesTree: () => false,
  // Every deny rule holds, and file-write-unlink is denied on each ancestor.
  pinsDeny: () => true,
  pinsTrusted: true,
  // A profile rule on the path, existing or not.
  carvable: () => true,
  carvesMissingParents: true,
  deniesFuturePaths: true,
  privateTmpOwn: false,
  ownSandbox: true,
  elsewhere: (holds) =>
    holds.metadataEverywhere
      ? { cell: access({ meta: true }), fact: { kind: 'ungranted', regime: 'seatbelt-metadata' } }
      : { cell: denied, fact: { kind: 'ungranted', regime: 'seatbelt' } },
  // The profile denies the listed secrets where the sandbox closes them (TYBA's); elsewhere (Box's) the grants decide.
  closedSecrets: (listed, _spelled, holds) => (holds.secretsClosed ? listed : []),
  // `file-write*` on the literal: the file can be deleted and made again, nothing beside it.
  rewriteInPlace: 'literal-rule',
  // Every host-trusted path is carvable here (a rule needs no file): none is left for the workload to create.
  hostTrusted: { readOnly: 'profile-rule', created: 'unchecked' },
};
