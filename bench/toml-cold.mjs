#!/usr/bin/env node
// The TOML front end's share of a cold start, as the CLI pays it: the front
// end alone (dist/compiler/toml/index.js) bundled the way the CLI is bundled
// (esbuild, CommonJS, the same plugins) and loaded through a V8 code cache
// the way bin/boxwright.cjs loads the CLI; then one parseToml of
// examples/coding-agent.toml. Fresh processes, interleaved with bare
// `node -e 0`, medians.
//
// usage: node bench/toml-cold.mjs [--runs 21] [--base DIR]
//        (build first: node scripts/build.mjs)
//
// --base DIR measures another built checkout (e.g. a copy of the previous
// commit) in the same run, interleaved, so that before and after see the
// same machine load.
//
// Prints one JSON line: per checkout, load_ms (evaluating the bundle: module
// initialisation), first_parse_ms (the first parseToml: lexer and parser
// construction included), second_parse_ms (the same document again: the
// steady-state cost, for comparison), process_ms (whole process), and
// node_ms (bare `node -e 0`).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median, repoRoot } from './lib.mjs';

const self = fileURLToPath(import.meta.url);

// ---------------------------------------------------------------- child: one cold start
if (process.argv[2] === '--child') {
  const [, , , bundle, config] = process.argv;
  const { Script } = await import('node:vm');
  const Module = (await import('node:module')).default;
  const t0 = performance.now();
  const source = readFileSync(bundle, 'utf8');
  const cachedData = readFileSync(`${bundle}.cache`);
  const script = new Script(Module.wrap(source), { filename: bundle, cachedData });
  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, Module.createRequire(bundle), mod, bundle, resolve(bundle, '..'));
  const t1 = performance.now();
  const bytes = readFileSync(config);
  const t2 = performance.now();
  const r = mod.exports.parseToml(bytes);
  const t3 = performance.now();
  mod.exports.parseToml(bytes);
  const t4 = performance.now();
  if (r.errors.length > 0) throw new Error(r.errors[0].message);
  process.stdout.write(JSON.stringify({ rejected: script.cachedDataRejected, load: t1 - t0, first: t3 - t2, second: t4 - t3 }) + '\n');
  process.exit(0);
}

if (process.argv[2] === '--write-cache') {
  const bundle = process.argv[3];
  const { Script } = await import('node:vm');
  const Module = (await import('node:module')).default;
  const script = new Script(Module.wrap(readFileSync(bundle, 'utf8')), { filename: bundle });
  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, Module.createRequire(bundle), mod, bundle, resolve(bundle, '..'));
  mod.exports.parseToml(readFileSync(process.argv[4]));
  writeFileSync(`${bundle}.cache`, script.createCachedData());
  process.exit(0);
}

// ---------------------------------------------------------------- parent
const args = process.argv.slice(2);
let runs = 21;
let base;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--runs') runs = Number(args[++i]);
  else if (args[i] === '--base') base = resolve(args[++i]);
  else {
    console.error(`unknown argument ${args[i]}`);
    process.exit(2);
  }
}

const config = join(repoRoot, 'examples', 'coding-agent.toml');
const dir = mkdtempSync(join(tmpdir(), 'boxwright-toml-cold-'));
try {
  const esbuild = await import('esbuild');
  const { bundledChevrotain } = await import(pathToFileURL(join(repoRoot, 'scripts', 'esbuild-plugins.mjs')).href);
  const checkouts = { now: repoRoot, ...(base === undefined ? {} : { base }) };
  const bundles = {};
  for (const [name, root] of Object.entries(checkouts)) {
    const outfile = join(dir, `${name}.cjs`);
    // the base checkout is bundled with its own plugin file (its chevrotain loader may differ)
    const plugins =
      root === repoRoot
        ? [bundledChevrotain]
        : [(await import(pathToFileURL(join(root, 'scripts', 'esbuild-plugins.mjs')).href)).bundledChevrotain];
    await esbuild.build({
      entryPoints: [join(root, 'dist', 'compiler', 'toml', 'index.js')],
      outfile,
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      minifySyntax: true,
      minifyWhitespace: true,
      define: { 'import.meta.url': '__bundleUrl' },
      banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
      plugins,
      nodePaths: [join(root, 'node_modules')],
      logLevel: 'warning',
    });
    const w = spawnSync(process.execPath, [self, '--write-cache', outfile, config], { encoding: 'utf8' });
    if (w.status !== 0) throw new Error(`writing the code cache failed: ${w.stderr}`);
    bundles[name] = { outfile, bytes: readFileSync(outfile).length };
  }

  const times = { node: [] };
  for (const name of Object.keys(bundles)) times[name] = { process: [], load: [], first: [], second: [] };
  const wall = (argv) => {
    const t = process.hrtime.bigint();
    const r = spawnSync(process.execPath, argv, { encoding: 'utf8' });
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    if (r.status !== 0) throw new Error(`${argv.join(' ')} failed: ${r.stderr}`);
    return { ms, out: r.stdout };
  };
  const warmup = 3;
  for (let i = 0; i < warmup + runs; i++) {
    const node = wall(['-e', '0']);
    if (i >= warmup) times.node.push(node.ms);
    for (const [name, b] of Object.entries(bundles)) {
      const c = wall([self, '--child', b.outfile, config]);
      const inproc = JSON.parse(c.out.trim());
      if (inproc.rejected) throw new Error(`the code cache of ${name} was rejected`);
      if (i < warmup) continue;
      const t = times[name];
      t.process.push(c.ms);
      t.load.push(inproc.load);
      t.first.push(inproc.first);
      t.second.push(inproc.second);
    }
  }
  const r1 = (x) => Math.round(x * 10) / 10;
  const out = { bench: 'toml-cold', runs, node_ms: r1(median(times.node)) };
  for (const [name, b] of Object.entries(bundles)) {
    const t = times[name];
    out[name] = {
      bundle_bytes: b.bytes,
      load_ms: r1(median(t.load)),
      first_parse_ms: r1(median(t.first)),
      front_end_ms: r1(median(t.load.map((x, i) => x + t.first[i]))),
      second_parse_ms: r1(median(t.second)),
      process_ms: r1(median(t.process)),
    };
  }
  process.stdout.write(JSON.stringify(out) + '\n');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
