// Build, in four steps:
// 1. tsc type-checks everything and emits dist/ (the tests run from there);
// 2. the JSON Schemas are compiled ahead of time into standalone ajv code,
//    so that no schema is compiled at start-up;
// 3. esbuild bundles the CLI into one file, dist/cli/boxwright.cjs, because
//    loading hundreds of small modules (chevrotain's lodash imports alone)
//    costs more start-up time than everything else together; runs here
//    write this machine's V8 code cache (see bin/boxwright.cjs), which the
//    package does not ship;
// 4. beside them, boxwright-sandbox (the launcher and Landlock helper),
//    static, for each architecture with a C compiler here
//    (scripts/build-sandbox.mjs); the compiles start first and run while
//    tsc does.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
// Start clean: a moved or deleted source must not leave a stale .js behind
// (node --test would still run an old test file).
rmSync(join(root, 'dist'), { recursive: true, force: true });
const { buildSandboxPrograms } = await import('./build-sandbox.mjs');
const sandboxPrograms = buildSandboxPrograms();
execFileSync(process.execPath, [tsc, '-p', root], { stdio: 'inherit', cwd: root });
execFileSync(process.execPath, [join(root, 'scripts', 'gen-validators.mjs')], { stdio: 'inherit', cwd: root });

await sandboxPrograms;

const esbuild = await import('esbuild');
const { bundledChevrotain, lazyAssert, lazySegmenter, noGuessVersion } = await import('./esbuild-plugins.mjs');
const outfile = join(root, 'dist', 'cli', 'boxwright.cjs');
/** A bundle for bin/boxwright.cjs: CommonJS, so that it can load through a V8 code cache. */
const bundle = (entry, out, extra) =>
  esbuild.build({
    entryPoints: [join(root, 'dist', 'app', 'cli', entry)],
    outfile: out,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minifySyntax: true,
    minifyWhitespace: true,
    define: { 'import.meta.url': '__boxwrightBundleUrl' },
    banner: { js: "const __boxwrightBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    logLevel: 'warning',
    ...extra,
  });
await bundle('entry.js', outfile, { legalComments: 'linked', plugins: [bundledChevrotain, lazyAssert, lazySegmenter, noGuessVersion] });
// `boxwright run`'s fast path (app/cli/run-fast.ts), on its own: what
// bin/boxwright.cjs tries before it loads the CLI, small enough that a run
// from the cache pays for no front end.
await bundle('run-fast.js', join(root, 'dist', 'cli', 'run-fast.cjs'), { legalComments: 'none' });

// Warm the code cache with representative runs, so the first real run
// starts as fast as the rest. Each run loads the cache the previous one
// wrote and writes it back with what it compiled on top: lint, then run
// (which also compiles a config; without bubblewrap it fails closed, and
// still warms everything up to the spawn).
rmSync(`${outfile}.cache`, { force: true });
rmSync(`${outfile}.cache.json`, { force: true });
const scratch = mkdtempSync(join(tmpdir(), 'boxwright-warm-'));
const warm = (args) =>
  spawnSync(process.execPath, [join(root, 'bin', 'boxwright.cjs'), ...args], {
    cwd: root,
    stdio: 'ignore',
    // The warm-up's run writes its sandbox into a scratch cache, never the user's.
    env: { ...process.env, BOXWRIGHT_WRITE_CODE_CACHE: '1', NO_COLOR: '1', XDG_CACHE_HOME: scratch },
  });
warm(['lint', '--fs', 'examples/machine.json', 'examples/coding-agent.toml', 'examples/tyba-user-config.toml']);
try {
  writeFileSync(join(scratch, 'warm.toml'), '[agent.filesystem]\nread = ["/usr"]\nexec = ["/usr/bin/true"]\n');
  warm(['run', join(scratch, 'warm.toml'), '--fs', 'host', '--', '/usr/bin/true']);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
if (!existsSync(`${outfile}.cache`)) throw new Error('the warm-up runs wrote no code cache: the CLI did not start');
