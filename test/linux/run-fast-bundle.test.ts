/**
 * dist/cli/run-fast.cjs, `boxwright run` from the cache (targets/linux/run/run-fast.ts),
 * loads neither yargs nor the front end: that is what makes a cached run
 * cost little more than Node's start (issue 15 item 2). Checked on what
 * esbuild put into the bundle (scripts/bundles.mjs' metafile: every input
 * with the bytes it contributed), not on what the sources seem to import.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../helpers.js';

interface Metafile {
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly outputs: Readonly<
    Record<string, { readonly bytes: number; readonly inputs: Readonly<Record<string, { readonly bytesInOutput: number }>> }>
  >;
}
interface Bundles {
  readonly buildBundles: (root: string, outDir: string, options?: { readable?: boolean }) => Promise<Record<string, Metafile>>;
}

/**
 * The front end and the CLI's machinery. One data file of rules/ is there by
 * design: rules/runtimes.json, the JIT runtimes whose SIGTRAP (exit 133)
 * both paths explain the same way (targets/linux/run/sandbox/outcome.ts) — a table, no
 * rule code.
 */
const FORBIDDEN: readonly (readonly [string, RegExp])[] = [
  ['yargs', /(^|\/)node_modules\/(yargs|yargs-parser)\//],
  ['chevrotain', /(^|\/)node_modules\/(@chevrotain|chevrotain)\//],
  ['the TOML front end (compiler/toml)', /^dist\/compiler\/toml\//],
  ['the schema (compiler/schema)', /^dist\/compiler\/schema\//],
  ['the rules (rules/)', /^dist\/rules\/(?!runtimes\.json$)/],
  ['the CLI (app/cli)', /^dist\/app\/cli\//],
  ['the check (app/check)', /^dist\/app\/check\.js$/],
  ['the model', /^dist\/model\//],
  ['the formats (app/format)', /^dist\/app\/format\//],
];

describe('dist/cli/run-fast.cjs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'boxwright-run-fast-bundle-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('holds no yargs and no front end (no chevrotain, compiler/toml, compiler/schema, rules/), only what a cached run needs', async () => {
    const { buildBundles } = (await import(pathToFileURL(join(repoRoot, 'scripts', 'bundles.mjs')).href)) as Bundles;
    const meta = (await buildBundles(repoRoot, dir))['run-fast.cjs']!;
    const outputs = Object.values(meta.outputs);
    assert.equal(outputs.length, 1);
    // Every file read, and every file that contributed a byte: an import left in for its side effects counts too.
    const read = Object.keys(meta.inputs);
    const held = Object.entries(outputs[0]!.inputs)
      .filter(([, i]) => i.bytesInOutput > 0)
      .map(([f]) => f);
    for (const [what, pattern] of FORBIDDEN) {
      assert.deepEqual(
        read.filter((f) => pattern.test(f)),
        [],
        `run-fast.cjs reads ${what}`,
      );
    }
    // What it is for is there: a broken build that bundles nothing would pass the above.
    for (const f of [
      'dist/targets/linux/run/run-fast.js',
      'dist/targets/linux/run/sandbox/run-cache.js',
      'dist/targets/linux/run/sandbox/spawn.js',
      'dist/targets/linux/view.js',
      'dist/compiler/paths/host.js',
    ])
      assert.ok(held.includes(f), `run-fast.cjs holds ${f}`);
    // And it stays small: the full CLI is ~1 MB; the fast path was 35–39 KB when this was written, 66 KB once it
    // replayed the host-trusted facts (issue 21 part A: their data file is 7 KB of it) and resolved bubblewrap as
    // the full path does (part B).
    assert.ok(outputs[0]!.bytes < 72 * 1024, `run-fast.cjs is ${outputs[0]!.bytes} bytes`);
  });
});
