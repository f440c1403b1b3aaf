// Where a short command's milliseconds go: runs `node --cpu-prof ARGS…`
// N times (fresh processes, NODE_EXTRA_CA_CERTS unset), and prints the
// self time per function summed over the runs and divided by N, biggest
// first, with the file and line each is in, and per file. Not part of
// `npm run bench` (it prints a report, not a figure); bench/README.md
// quotes it where a target is not met.
//
// --modules: profile a readable copy of the CLI instead (the bundles built
// as scripts/build.mjs builds them, without minifyWhitespace, so that
// esbuild's `// path` comments stay; into bench/out, removed after), with
// `bin/boxwright.cjs` in ARGS pointing at it, and add the self time per
// bundled module (the line of each sample, from V8's positionTicks).
//
//   node bench/profile.mjs [--modules] [--runs N] [--top K] [--interval US] -- bin/boxwright.cjs lint --fs examples/machine.json examples/coding-agent.toml
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { repoRoot } from './lib.mjs';

const argv = process.argv.slice(2);
const dashes = argv.indexOf('--');
if (dashes < 0 || dashes === argv.length - 1) {
  process.stderr.write('usage: node bench/profile.mjs [--runs N] [--top K] [--interval US] -- NODE-ARGS…\n');
  process.exit(2);
}
const opt = { runs: 10, top: 30, interval: 100, modules: false };
for (let i = 0; i < dashes; i += 2) {
  if (argv[i] === '--modules') {
    opt.modules = true;
    i--;
    continue;
  }
  const name = argv[i].replace(/^--/, '');
  if (!(name in opt) || !/^\d+$/.test(argv[i + 1] ?? '')) {
    process.stderr.write(`bench/profile.mjs: unknown option or bad value: ${argv[i]} ${argv[i + 1] ?? ''}\n`);
    process.exit(2);
  }
  opt[name] = Number(argv[i + 1]);
}
let args = argv.slice(dashes + 1);
const work = join(repoRoot, 'bench', 'out', `profile-${process.pid}`);
const dir = join(work, 'profiles');
mkdirSync(dir, { recursive: true });
try {
  /** For each bundle copied by --modules: its path, and the module that each of its lines is in. */
  const bundles = new Map();
  if (opt.modules) {
    const pkg = join(work, 'pkg');
    mkdirSync(join(pkg, 'bin'), { recursive: true });
    mkdirSync(join(pkg, 'dist', 'cli'), { recursive: true });
    copyFileSync(join(repoRoot, 'bin', 'boxwright.cjs'), join(pkg, 'bin', 'boxwright.cjs'));
    for (const f of ['sandbox', 'targets', 'compiler', 'rules', 'app']) symlinkSync(join(repoRoot, 'dist', f), join(pkg, 'dist', f), 'dir');
    for (const f of ['package.json', 'targets', 'examples', 'node_modules']) symlinkSync(join(repoRoot, f), join(pkg, f));
    await readableBundles(pkg);
    for (const name of ['boxwright.cjs', 'lint.cjs', 'run-fast.cjs']) {
      const file = join(pkg, 'dist', 'cli', name);
      const lines = readFileSync(file, 'utf8').split('\n');
      const moduleOf = [];
      let current = '(bundle prelude)';
      for (const line of lines) {
        // A linked node_modules (a worktree's) makes esbuild write `../main/node_modules/…`: the module is what follows.
        const m = /^\/\/ (?:\.\.\/)*(?:[\w.-]+\/)*?((?:node_modules|dist)\/\S+)$/.exec(line);
        if (m) current = m[1];
        moduleOf.push(current);
      }
      bundles.set(`file://${file}`, moduleOf);
      bundles.set(file, moduleOf);
    }
    args = args.map((a) => (a === 'bin/boxwright.cjs' ? join(pkg, 'bin', 'boxwright.cjs') : a));
    // Two unprofiled runs first: the first writes the copy's code cache.
    for (let i = 0; i < 2; i++) spawnSync(process.execPath, args, { cwd: repoRoot, stdio: 'ignore' });
  }
  const byModule = new Map();
  let wall = 0;
  for (let i = 0; i < opt.runs; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', String(opt.interval), ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    wall += Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.error) throw r.error;
  }
  const byFunction = new Map();
  const byFile = new Map();
  let total = 0;
  for (const f of readdirSync(dir)) {
    const p = JSON.parse(readFileSync(join(dir, f), 'utf8'));
    const nodes = new Map(p.nodes.map((n) => [n.id, n]));
    // Per bundled module: each node's self time spread over its lines as its ticks are.
    const selfMs = new Map();
    for (let i = 0; i < p.samples.length; i++)
      selfMs.set(p.samples[i], (selfMs.get(p.samples[i]) ?? 0) + (p.timeDeltas[i + 1] ?? 0) / 1000);
    for (const n of p.nodes) {
      const moduleOf = bundles.get(n.callFrame.url);
      const ms = selfMs.get(n.id);
      if (!moduleOf || !ms) continue;
      const ticks = n.positionTicks?.length ? n.positionTicks : [{ line: n.callFrame.lineNumber + 1, ticks: 1 }];
      const all = ticks.reduce((a, t) => a + t.ticks, 0);
      for (const t of ticks) {
        const m = moduleOf[t.line - 1] ?? '(unknown)';
        byModule.set(m, (byModule.get(m) ?? 0) + (ms * t.ticks) / all);
      }
    }
    // timeDeltas[i] is the time before sample i: each sample's node gets the delta that follows it.
    for (let i = 0; i < p.samples.length; i++) {
      const ms = (p.timeDeltas[i + 1] ?? 0) / 1000;
      const cf = nodes.get(p.samples[i]).callFrame;
      const file = cf.url ? basename(cf.url.replace(/^file:\/\//, '')) : '';
      const key = `${cf.functionName || '(anonymous)'}  ${file ? `${file}:${cf.lineNumber + 1}:${cf.columnNumber + 1}` : ''}`;
      byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
      const fileKey = file || cf.functionName;
      byFile.set(fileKey, (byFile.get(fileKey) ?? 0) + ms);
      total += ms;
    }
  }
  const per = (ms) => (ms / opt.runs).toFixed(2).padStart(7);
  const print = (title, map, top) => {
    console.log(`\n${title}`);
    for (const [k, ms] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${per(ms)} ms  ${k}`);
  };
  console.log(
    `${opt.runs} runs of node ${args.join(' ')}: wall ${(wall / opt.runs).toFixed(1)} ms a run (profiling included), profiled ${(total / opt.runs).toFixed(1)} ms a run`,
  );
  print('self time by file, per run', byFile, 15);
  if (opt.modules) print('self time by bundled module, per run', byModule, opt.top);
  print('self time by function, per run', byFunction, opt.top);
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** The CLI's bundles as scripts/build.mjs makes them, whitespace and module comments kept. */
async function readableBundles(pkg) {
  const { buildBundles } = await import(join(repoRoot, 'scripts', 'bundles.mjs'));
  await buildBundles(repoRoot, join(pkg, 'dist', 'cli'), { readable: true });
}
