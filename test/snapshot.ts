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
  if (env.CI) throw new Error('UPDATE_SNAPSHOTS=1 is refused when CI is set: CI compares the goldens, it never rewrites them (unset CI to update them, then review and commit)');
  return true;
}

/**
 * Compares `actual` with the golden file `snapshots/<name>`. A mismatch
 * fails with a unified diff; `UPDATE_SNAPSHOTS=1` rewrites the golden
 * (outside CI). Goldens are reviewed like code: a missing one is a failure,
 * not a write.
 */
export function matchSnapshot(name: string, actual: string | Uint8Array): void {
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
  const isText = typeof actual === 'string';
  const patch = isText
    ? createTwoFilesPatch(`snapshots/${name}`, 'actual', expected.toString('utf8'), actualBytes.toString('utf8'), 'golden', 'this run')
    : `binary golden differs: ${expected.length} bytes expected, ${actualBytes.length} bytes actual`;
  throw new Error(`snapshot mismatch for snapshots/${name} (UPDATE_SNAPSHOTS=1 rewrites it):\n${patch}`);
}
