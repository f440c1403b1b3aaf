// Build on install, but only in a source checkout (`npm ci` in a clone).
// An installed package (from a tarball, e.g. pre-commit's global install)
// ships dist/ and no sources, so there is nothing to build.
//
// Why postinstall and not prepare: npm runs `prepare` inside `npm pack`,
// printing its banner on stdout, and pre-commit takes `npm pack`'s stdout
// as the tarball's file name; the hook install then fails.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (existsSync(join(root, 'tsconfig.json')) && existsSync(join(root, 'compiler'))) {
  await import('./build.mjs');
}
