/**
 * Start-up that cannot creep (issue 37): the bytes of JavaScript a cold
 * `boxwright lint` of a small Box config loads and runs stay under the
 * budget recorded in bench/startup-budget.json. bench/startup-bytes.mjs
 * counts them from V8's own coverage of one real run of bin/boxwright.cjs: a
 * count, not a time, so the test is the same on every machine and every run
 * (CONTRIBUTING.md, "Start-up budget", says how to change the budget).
 *
 * The control: a lint.cjs built the same way but with the `run` command
 * imported into the lint command's module (what an innocent-looking
 * `import { runCommand } from './run.js'` in app/cli/lint.ts does: the
 * runner, the platform registry and the targets in every lint's bundle) is
 * measured the same way, and must be over the budget. A lint.cjs built
 * without it in the same place measures exactly what the real build does, so
 * the difference is the runner's, not the copy's.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../helpers.js';

interface Measurement {
  readonly loadedBytes: number;
  readonly ranBytes: number;
  readonly files: Readonly<Record<string, { loaded: number; ran: number }>>;
  readonly builtins: readonly string[];
}
interface Budget {
  readonly loadedBytes: { readonly recorded: number; readonly budget: number };
  readonly ranBytes: { readonly recorded: number; readonly budget: number };
  readonly neverLoaded: readonly string[];
}
interface StartupBytes {
  readonly measureStartup: (root?: string) => Measurement;
  readonly overBudget: (m: Measurement, budget?: Budget) => string[];
  readonly readBudget: () => Budget;
}
interface PluginBuild {
  readonly onLoad: (o: { filter: RegExp }, f: (a: { path: string }) => unknown) => void;
  readonly onResolve: (o: { filter: RegExp }, f: () => unknown) => void;
}
type Plugin = { readonly name: string; readonly setup: (build: PluginBuild) => void };
interface Bundles {
  readonly buildBundles: (root: string, outDir: string, options?: { only?: string[]; lintPlugins?: Plugin[] }) => Promise<unknown>;
}
const load = async <T>(...path: string[]): Promise<T> => (await import(pathToFileURL(join(repoRoot, ...path)).href)) as T;

/**
 * Adds the `run` command to the lint command's imports, used (an export of the module), so that no tree-shaking drops it.
 * And node:child_process as it is: lint.cjs's shim of it (scripts/shims/child-process.mjs) has only spawnSync, and the
 * runner's spawn would fail the build first.
 */
const runnerCreepsIntoLint: Plugin = {
  name: 'runner-creeps-into-lint',
  setup(build) {
    build.onResolve({ filter: /^(node:)?child_process$/ }, () => ({ path: 'node:child_process', external: true }));
    build.onLoad({ filter: /[\\/]dist[\\/]app[\\/]cli[\\/]lint\.js$/ }, ({ path }) => ({
      contents: `import { runCommand as creptIn } from './run.js';\nexport { creptIn };\n${readFileSync(path, 'utf8')}`,
      loader: 'js',
    }));
  },
};

describe('the start-up budget of a cold lint', () => {
  const dir = mkdtempSync(join(tmpdir(), 'boxwright-startup-budget-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A package of bin/boxwright.cjs and a lint.cjs built into it, with `lintPlugins`. */
  const packageWith = async (name: string, lintPlugins: Plugin[]): Promise<string> => {
    const root = join(dir, name);
    mkdirSync(join(root, 'bin'), { recursive: true });
    copyFileSync(join(repoRoot, 'bin', 'boxwright.cjs'), join(root, 'bin', 'boxwright.cjs'));
    copyFileSync(join(repoRoot, 'package.json'), join(root, 'package.json'));
    const { buildBundles } = await load<Bundles>('scripts', 'bundles.mjs');
    await buildBundles(repoRoot, join(root, 'dist', 'cli'), { only: ['lint.cjs'], lintPlugins });
    return root;
  };

  it('holds: the bytes it loads and runs are within bench/startup-budget.json, and it loads neither child_process nor crypto', async () => {
    const { measureStartup, overBudget } = await load<StartupBytes>('bench', 'startup-bytes.mjs');
    const m = measureStartup();
    assert.deepEqual(overBudget(m), []);
    // Only the launcher and the lint bundle: a lint that loaded the full CLI would be over by ~50%.
    assert.deepEqual(Object.keys(m.files).sort(), ['bin/boxwright.cjs', 'dist/cli/lint.cjs']);
  });

  it('is the same count on every run', async () => {
    const { measureStartup } = await load<StartupBytes>('bench', 'startup-bytes.mjs');
    const [a, b] = [measureStartup(), measureStartup()];
    assert.deepEqual(a, b);
  });

  it('the control: the runner imported into the lint command puts a lint over the budget', async () => {
    const { measureStartup, overBudget, readBudget } = await load<StartupBytes>('bench', 'startup-bytes.mjs');
    const plain = measureStartup(await packageWith('plain', []));
    const crept = measureStartup(await packageWith('crept', [runnerCreepsIntoLint]));
    // The copy is the real build: the same bytes as dist/cli/lint.cjs.
    assert.equal(plain.loadedBytes, measureStartup().loadedBytes);
    assert.deepEqual(overBudget(plain), []);
    const budget = readBudget();
    assert.ok(
      crept.loadedBytes > budget.loadedBytes.budget,
      `with the runner, a lint loads ${crept.loadedBytes} bytes (${plain.loadedBytes} without): not over the budget ${budget.loadedBytes.budget}`,
    );
    assert.ok(overBudget(crept).some((p) => p.startsWith('loadedBytes ')));
  });
});
