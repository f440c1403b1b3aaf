/**
 * Loads chevrotain cheaply.
 *
 * `import 'chevrotain'` resolves to its unbundled ESM build, which pulls in
 * several hundred lodash-es modules: about 330 ms on a 2-core VM, five times
 * the start-up of Node itself. The package also ships a self-contained
 * bundle of the very same version (`lib/chevrotain.min.mjs`, ~15 ms to load),
 * which its `exports` map does not expose. We locate it next to the resolved
 * entry point and load it synchronously with `require(esm)` (Node >= 20.19,
 * the project's minimum), so that nothing is loaded until the first parse.
 * If the bundle is not where we expect it, we fall back to the normal entry.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as Chevrotain from 'chevrotain';

export type ChevrotainApi = typeof Chevrotain;

let cached: ChevrotainApi | undefined;

export function chevrotain(): ChevrotainApi {
  if (cached !== undefined) return cached;
  const require = createRequire(import.meta.url);
  let api: ChevrotainApi | undefined;
  try {
    // .../node_modules/chevrotain/lib/src/api.js -> .../lib/chevrotain.min.mjs
    const entry = require.resolve('chevrotain');
    const bundle = join(dirname(entry), '..', 'chevrotain.min.mjs');
    const mod = require(bundle) as ChevrotainApi;
    if (typeof mod.Lexer === 'function' && typeof mod.EmbeddedActionsParser === 'function') api = mod;
  } catch {
    api = undefined;
  }
  if (api === undefined) api = require('chevrotain') as ChevrotainApi;
  cached = api;
  return api;
}
