import { createTwoFilesPatch } from 'diff';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repoRoot } from './helpers.js';

/**
 * Whether `UPDATE_SNAPSHOTS=1` asks for the goldens to be rewritten. Refused
 * (thrown) when CI is set: CI checks the goldens a reviewer committed, and a
 * run that rewrote them would pass whatever the code now prints.
 */
export function rewritingGoldens(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.UPDATE_SNAPSHOTS !== '1') return false;
  if (env.CI)
    throw new Error(
      'UPDATE_SNAPSHOTS=1 is refused when CI is set: CI compares the goldens, it never rewrites them (unset CI to update them, then review and commit)',
    );
  return true;
}

export interface SnapshotOptions {
  /** For a binary golden: how to show it to a reader, so that a mismatch prints a diff of that (e.g. a disassembly), not only the lengths. */
  readonly readable?: (bytes: Buffer) => string;
}

/**
 * Compares `actual` with the golden file `snapshots/<name>`. A mismatch
 * fails with a unified diff; `UPDATE_SNAPSHOTS=1` rewrites the golden
 * (outside CI). Goldens are reviewed like code: a missing one is a failure,
 * not a write.
 */
export function matchSnapshot(name: string, actual: string | Uint8Array, options: SnapshotOptions = {}): void {
  const file = join(repoRoot, 'snapshots', name);
  const actualBytes = typeof actual === 'string' ? Buffer.from(actual, 'utf8') : Buffer.from(actual);
  if (rewritingGoldens()) {
    mkdirSync(dirname(file), { recursive: true });
    if (!existsSync(file) || !readFileSync(file).equals(actualBytes)) writeFileSync(file, actualBytes);
    return;
  }
  if (!existsSync(file)) throw new Error(`golden snapshots/${name} is missing; run with UPDATE_SNAPSHOTS=1, then review and commit it`);
  const expected = readFileSync(file);
  if (expected.equals(actualBytes)) return;
  throw new Error(
    `snapshot mismatch for snapshots/${name} (UPDATE_SNAPSHOTS=1 rewrites it):\n${difference([`snapshots/${name}`, 'actual'], ['golden', 'this run'], expected, actualBytes, typeof actual === 'string', options)}`,
  );
}

/** A unified diff of two versions of a golden (a binary one through `readable`, when given). */
function difference(
  names: readonly [string, string],
  headers: readonly [string, string],
  a: Buffer,
  b: Buffer,
  isText: boolean,
  options: SnapshotOptions,
): string {
  const patch = (x: string, y: string): string => createTwoFilesPatch(names[0], names[1], x, y, headers[0], headers[1]);
  if (isText) return patch(a.toString('utf8'), b.toString('utf8'));
  const lengths = `binary golden differs: ${a.length} bytes expected, ${b.length} bytes actual`;
  return options.readable === undefined ? lengths : `${lengths}; as read:\n${patch(options.readable(a), options.readable(b))}`;
}

/** What each shared golden was compared with first in this process, and for whom. */
const sharedSeen = new Map<string, { readonly bytes: Buffer; readonly by: string }>();

/**
 * One golden that several cases must all produce (e.g. every example's
 * seccomp program): `matchSnapshot`, plus a check that every case of this
 * run gave the same bytes, so that UPDATE_SNAPSHOTS=1 cannot write one
 * case's version over another's and a case that starts to differ fails
 * with a diff against the first, naming both.
 */
export function matchSharedSnapshot(name: string, actual: string | Uint8Array, by: string, options: SnapshotOptions = {}): void {
  const actualBytes = typeof actual === 'string' ? Buffer.from(actual, 'utf8') : Buffer.from(actual);
  const first = sharedSeen.get(name);
  if (first === undefined) sharedSeen.set(name, { bytes: actualBytes, by });
  else if (!first.bytes.equals(actualBytes)) {
    throw new Error(
      `${by} and ${first.by} differ in snapshots/${name}, which is one golden for both: it holds only what every case shares\n${difference([first.by, by], [`snapshots/${name}`, `snapshots/${name}`], first.bytes, actualBytes, typeof actual === 'string', options)}`,
    );
  }
  matchSnapshot(name, actual, options);
}
