/**
 * What a grant is, in the model's terms, for the generic model and every
 * unit's model part alike (issue 38: the platform decisions moved to
 * targets/<os>/model/, these stayed shared): which accesses read and
 * write, what each asks for, a one-file entry on a directory, and the
 * fixed mechanisms' maker.
 */
import type { Grant } from '../compiler/ir/types.js';
import { access, type Cell, denied } from './cell.js';
import type { Mechanism } from './facts.js';

export const reads = (g: Grant): boolean => g.access === 'read' || g.access === 'read-write';

export const writes = (g: Grant): boolean => g.access === 'write' || g.access === 'read-write';

export const isDeny = (g: Grant): boolean => g.access === 'deny';

/** Windows: a deny of a path that does not exist has nothing to label (`nothing-to-label`): the one judgement the labels, the note and the plan read. */
export const labelsNothing = (g: Grant): boolean => isDeny(g) && g.facts.existence === 'absent';

/** What each access asks for, on every platform (cells are constants). */
const requested: Readonly<Record<Grant['access'], Cell>> = {
  read: access({ read: true }),
  write: access({ write: true }),
  'read-write': access({ read: true, write: true }),
  list: access({ names: true }),
  metadata: access({ meta: true }),
  exec: access({ exec: true }),
  deny: denied,
  'deny-read': denied,
  'deny-write': access({ read: true }),
};

export function requestedCell(g: Grant): Cell {
  return requested[g.access];
}

/** A one-file entry (read_file, write_file) that names a directory. */
export const namesDirectory = (g: Grant): boolean => g.scope === 'file' && g.access !== 'exec' && g.facts.kind === 'dir';

/** A `list` of a path that is not a directory: there are no entry names to give (an unknown kind may be a directory). */
export const listsNothing = (g: Grant): boolean => g.facts.kind === 'file' || g.facts.kind === 'other';

/** The mechanisms that carry no data, one object each: most grants have one. */
export const fixed = <K extends Mechanism['kind']>(kind: K): Mechanism => Object.freeze({ kind }) as Mechanism;

/** Whether a cell lacks a right the request asks for. */
export function lacksRequested(want: Cell, have: Cell): boolean {
  if (want.kind !== 'access') return false;
  if (have.kind !== 'access') return true;
  return (
    (want.read && !have.read) ||
    (want.write && !have.write) ||
    (want.exec && !have.exec) ||
    (want.names && !have.names) ||
    (want.meta && !have.meta)
  );
}
