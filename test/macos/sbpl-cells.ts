/**
 * What a compiled profile gives at one path, in the model's terms (read,
 * write, execute, entry names, metadata), asked of the SBPL evaluator
 * operation by operation. The definitions (test/macos/README.md):
 *
 * - a file: read is `file-read-data` of it, write `file-write-data`,
 *   execute `process-exec`, metadata `file-read-metadata` (and
 *   `file-test-existence`, which must agree); a file has no names of its
 *   own beyond its content;
 * - a directory: names is `file-read-data` of the directory (reading its
 *   entries); read is names and `file-read-data` of a file below it; write
 *   is `file-write-create` of a new file in it; execute is `process-exec` of
 *   a file below it (a directory grants its tree);
 * - an absent path: as the file that would be created there (write is
 *   `file-write-create` of it).
 */
import type { Cell } from '../../model/cell.js';
import { legend } from '../../model/cell.js';
import type { SbplProfile, VnodeType } from './sbpl-eval.js';

export interface Observed {
  readonly read: boolean;
  readonly write: boolean;
  readonly exec: boolean;
  readonly names: boolean;
  readonly meta: boolean;
  /** `file-test-existence` disagrees with `file-read-metadata`. */
  readonly existenceDiffers: boolean;
}

export type ObjectKind = 'file' | 'dir' | 'socket' | 'absent';

/** A name no tree holds: what "a file below the directory" is asked as. */
const CHILD = '.boxwright-evaluator-child';

export function observe(profile: SbplProfile, path: string, kind: ObjectKind): Observed {
  const vnode: VnodeType = kind === 'dir' ? 'DIRECTORY' : kind === 'socket' ? 'SOCKET' : 'REGULAR-FILE';
  const ask = (operation: string, at = path, v: VnodeType = vnode): boolean => profile.allows({ operation, path: at, vnode: v });
  const meta = ask('file-read-metadata');
  const existenceDiffers = ask('file-test-existence') !== meta;
  if (kind === 'dir') {
    const child = `${path === '/' ? '' : path}/${CHILD}`;
    const names = ask('file-read-data');
    return {
      names,
      read: names && ask('file-read-data', child, 'REGULAR-FILE'),
      write: ask('file-write-create', child, 'REGULAR-FILE'),
      exec: ask('process-exec', child, 'REGULAR-FILE'),
      meta,
      existenceDiffers,
    };
  }
  const read = ask('file-read-data');
  return {
    read,
    names: read,
    write: ask(kind === 'absent' ? 'file-write-create' : 'file-write-data'),
    exec: ask('process-exec'),
    meta,
    existenceDiffers,
  };
}

/** The explain legend of what the evaluator saw (`rw`, `names`, `meta`, `—`…), as cell.ts spells a cell. */
export function observedLegend(o: Observed): string {
  const content = (o.read ? 'r' : '') + (o.write ? 'w' : '') + (o.exec ? 'x' : '');
  return content || (o.names ? 'names' : o.meta ? 'meta' : '—');
}

/**
 * Why the model's cell and what the profile gives disagree, or undefined.
 * `resolves`: the path is a directory the profile's path resolution gives
 * the metadata of (it leads to a granted path): a `—` cell there shows
 * metadata, and nothing more, as the profile's own comment says.
 */
export function cellDisagreement(cell: Cell, o: Observed, resolves: boolean): string | undefined {
  if (o.existenceDiffers) return 'file-test-existence and file-read-metadata disagree';
  const want = cell.kind === 'access' ? cell : { read: false, write: false, exec: false, names: false, meta: false };
  const seen = observedLegend(o);
  if (cell.kind !== 'access' && resolves && seen === 'meta') return undefined;
  const flags: ('read' | 'write' | 'exec' | 'names' | 'meta')[] = (['read', 'write', 'exec', 'names'] as const).filter(
    (f) => want[f] !== o[f],
  );
  // Metadata is judged where the legend shows it: no content and no names either way.
  if (!want.read && !want.write && !want.exec && !want.names && !o.read && !o.write && !o.exec && !o.names && want.meta !== o.meta)
    flags.push('meta');
  if (!flags.length) return undefined;
  return `the model says ${legend(cell)}, the profile gives ${seen} (${flags.map((f) => `${f} ${o[f] ? 'allowed' : 'refused'}`).join(', ')})`;
}
