import { cpSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, found from this compiled file (dist/test/helpers.js). */
export const repoRoot: string = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('package.json not found above ' + fileURLToPath(import.meta.url));
    dir = up;
  }
  return dir;
})();

/**
 * `../shared` beside the checkout (CI lays a copy there). Tests that need it
 * fail in CI when it is missing, and are skipped loudly elsewhere.
 */
export function sharedDir(): string | undefined {
  const dir = resolve(repoRoot, '..', 'shared');
  return existsSync(dir) ? dir : undefined;
}

/**
 * Returns a skip reason (printed loudly) or undefined when `cond` holds;
 * throws in CI. `how`, when given, says where to get what is missing: it
 * follows the banner and the CI error, not the skip reason.
 */
export function requireOrSkip(cond: boolean, what: string, how?: string): string | undefined {
  if (cond) return undefined;
  if (process.env.CI) throw new Error(`${what} is required in CI but is missing${how ? `. ${how}` : ''}`);
  const msg = `SKIPPED: ${what} is missing on this machine (CI would fail here)`;
  process.stderr.write(`\n*** ${msg} ***\n${how ? `*** ${how} ***\n` : ''}\n`);
  return msg;
}

/**
 * Copies this checkout's build (dist/) to `to`, as it is. Other test files'
 * CLIs run from it meanwhile, and a first run of a command writes its V8
 * code cache aside (`<bundle>.cache.<pid>.tmp`, bin/boxwright.cjs) and
 * renames it: such a file is left out, for it can vanish between the
 * directory's listing and its copy (ENOENT, seen with both cores busy).
 */
export function copyBuild(to: string): void {
  cpSync(join(repoRoot, 'dist'), to, {
    recursive: true,
    preserveTimestamps: true,
    filter: (src) => !/\.cache(\.json)?\.\d+\.tmp$/.test(src),
  });
}
