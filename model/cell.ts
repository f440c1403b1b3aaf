import type { Refusal } from './facts.js';

/**
 * What one platform gives at one path. `access` lists content rights;
 * `empty` is Linux's placeholder over a denied path (reads succeed empty,
 * writes fail); `denied` is a refusal rule (macOS, Windows labels);
 * `absent` means the path does not exist for the workload (Linux) or is
 * simply not granted (macOS); `refused` means the platform refuses the
 * configuration because of this grant.
 */
export type Cell =
  | {
      readonly kind: 'access';
      readonly read: boolean;
      readonly write: boolean;
      readonly exec: boolean;
      readonly names: boolean;
      readonly meta: boolean;
    }
  | { readonly kind: 'empty' }
  /**
   * sandbox-runtime on Linux: an empty writable directory of the sandbox's
   * own (a tmpfs) over a read-denied one, or a directory bubblewrap made
   * in it for a mount point: reads find nothing of the host, writes
   * succeed and are gone when the command ends.
   */
  | { readonly kind: 'scratch' }
  | { readonly kind: 'denied' }
  | { readonly kind: 'absent' }
  | { readonly kind: 'refused'; readonly because: Refusal };

export const absent: Cell = Object.freeze({ kind: 'absent' });
export const denied: Cell = Object.freeze({ kind: 'denied' });
export const empty: Cell = Object.freeze({ kind: 'empty' });
export const scratch: Cell = Object.freeze({ kind: 'scratch' });

export function access(flags: { read?: boolean; write?: boolean; exec?: boolean; names?: boolean; meta?: boolean }): Cell {
  const read = flags.read ?? false;
  // Reading content implies seeing names and properties.
  const names = read || (flags.names ?? false);
  const meta = read || names || (flags.meta ?? false);
  return accessCells[(read ? 1 : 0) | (flags.write ? 2 : 0) | (flags.exec ? 4 : 0) | (names ? 8 : 0) | (meta ? 16 : 0)]!;
}

/**
 * Every access cell there can be, one object each (a cell is a value: the
 * model hands out the same one wherever the rights are the same, instead
 * of a new object for each grant on each platform); index 0 is `absent`.
 */
const accessCells: readonly Cell[] = Array.from({ length: 32 }, (_, i): Cell => {
  if (i === 0) return absent;
  return Object.freeze({
    kind: 'access',
    read: (i & 1) !== 0,
    write: (i & 2) !== 0,
    exec: (i & 4) !== 0,
    names: (i & 8) !== 0,
    meta: (i & 16) !== 0,
  });
});

/**
 * The explain legend: `rw`, `r`, `rx`, `rwx`, `w`, `wx`, `names`, `meta`, `x`, `empty`, `scratch`,
 * `—` (absent or denied), `refused`.
 */
export function legend(cell: Cell): string {
  switch (cell.kind) {
    case 'empty':
      return 'empty';
    case 'scratch':
      return 'scratch';
    case 'denied':
    case 'absent':
      return '—';
    case 'refused':
      return 'refused';
    case 'access': {
      const content = (cell.read ? 'r' : '') + (cell.write ? 'w' : '') + (cell.exec ? 'x' : '');
      if (content) return content;
      return cell.names ? 'names' : 'meta';
    }
  }
}

export function sameCell(a: Cell, b: Cell): boolean {
  return legend(a) === legend(b) && a.kind === b.kind;
}
