import { createTwoFilesPatch } from 'diff';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repoRoot } from './helpers.js';

/**
 * Compares `actual` with the golden file `snapshots/<name>`. A mismatch
 * fails with a unified diff; `UPDATE_SNAPSHOTS=1` rewrites the golden.
 * Goldens are reviewed like code: a missing one is a failure, not a write.
 */
export function matchSnapshot(name: string, actual: string | Uint8Array): void {
  const file = join(repoRoot, 'snapshots', name);
  const actualBytes = typeof actual === 'string' ? Buffer.from(actual, 'utf8') : Buffer.from(actual);
  if (process.env.UPDATE_SNAPSHOTS === '1') {
    mkdirSync(dirname(file), { recursive: true });
    if (!existsSync(file) || !readFileSync(file).equals(actualBytes)) writeFileSync(file, actualBytes);
    return;
  }
  if (!existsSync(file)) throw new Error(`golden snapshots/${name} is missing; run with UPDATE_SNAPSHOTS=1, then review and commit it`);
  const expected = readFileSync(file);
  if (expected.equals(actualBytes)) return;
  const isText = typeof actual === 'string';
  const patch = isText
    ? createTwoFilesPatch(`snapshots/${name}`, 'actual', expected.toString('utf8'), actualBytes.toString('utf8'), 'golden', 'this run')
    : `binary golden differs: ${expected.length} bytes expected, ${actualBytes.length} bytes actual`;
  throw new Error(`snapshot mismatch for snapshots/${name} (UPDATE_SNAPSHOTS=1 rewrites it):\n${patch}`);
}
