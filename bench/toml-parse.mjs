#!/usr/bin/env node
// Throughput of boxwright's TOML parser against smol-toml 1.9.1, and its cold-start cost.
//
// usage: node bench/toml-parse.mjs [--rounds 3] [--runs 10] [--mb 5] [--keep]
//        (build first: npx tsc -p .)
//
// 1. Generates the benchmark document with ../shared/toml-test/gen-large.mjs (5 MiB by default).
// 2. Alternates child processes (boxwright, smol-toml, boxwright, ...), one parser per process: each
//    child reads the file, does 3 warm-up parses and then `--runs` timed ones and reports the median.
//    boxwright parses the bytes (it decodes UTF-8 itself), smol-toml the string (default options).
//    The figure per parser is the median of its children's medians.
// 3. Cold start: wall time of a fresh `node` process that imports the module and parses a 30-line
//    config, against a bare `node -e 0`, medians of alternating runs.
// Prints one JSON line:
//   {"bench":"toml-parse","bytes":N,"boxwright_ms":..,"smoltoml_ms":..,"ratio":..,"retained_mb":{...},"cold":{...},...}
// where ratio = smoltoml_ms / boxwright_ms (>= 1 means boxwright is at least as fast).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..');
const modulePath = join(repoRoot, 'dist', 'compiler', 'toml', 'index.js');

// A typical 30-line sandbox policy.
const CONFIG = `# boxwright sandbox policy
name = "agent-sandbox"
version = 2

[filesystem]
read = ["/usr", "/lib", "/etc/ssl"]
write = ["/tmp", "$WORKSPACE"]
deny = ["~/.ssh", "~/.aws"]
follow-symlinks = false

[network]
allow = ["registry.npmjs.org:443", "github.com:443"]
dns = true
max-connections = 64

[process]
allow-exec = ["/usr/bin/git", "/usr/bin/node"]
env.PATH = "/usr/bin:/bin"
env.HOME = "/home/agent"
limits = { cpu = 2.5, memory-mb = 4096, pids = 256 }

[[mount]]
source = "/work"
target = "/workspace"
mode = "rw"

[[mount]]
source = "/cache"
target = "/home/agent/.cache"
created = 2024-05-01T12:00:00Z`;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// ---------------------------------------------------------------- child mode
if (process.argv[2] === '--child') {
  const [, , , which, file, runsText] = process.argv;
  const runs = Number(runsText);
  const bytes = readFileSync(file);
  let parse;
  if (which === 'boxwright') {
    const { parseToml } = await import(pathToFileURL(modulePath).href);
    parse = () => {
      const r = parseToml(bytes);
      if (r.errors.length > 0) throw new Error(`boxwright rejected the document: ${r.errors[0].message}`);
      return r;
    };
  } else {
    const { parse: smolParse } = await import('smol-toml');
    const text = bytes.toString('utf8');
    parse = () => smolParse(text);
  }
  let keep;
  for (let i = 0; i < 3; i++) keep = parse();
  const times = [];
  // CPU time too (every thread's, the collector's helpers included): steadier than wall time on a shared machine
  const cpu = [];
  for (let i = 0; i < runs; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    keep = parse();
    times.push(performance.now() - t);
    const d = process.cpuUsage(c);
    cpu.push((d.user + d.system) / 1000);
  }
  if (keep === undefined) throw new Error('no result');
  // What one result keeps alive (the child runs with --expose-gc): the collector's work grows with it.
  keep = undefined;
  gc();
  const before = process.memoryUsage().heapUsed;
  keep = parse();
  gc();
  const retained = process.memoryUsage().heapUsed - before;
  process.stdout.write(JSON.stringify({ which, median: median(times), min: Math.min(...times), cpu: median(cpu), retained, times }) + '\n');
  process.exit(0);
}

if (process.argv[2] === '--cold-child') {
  // the in-process view of the cold start (the parent measures the whole process)
  const t0 = performance.now();
  const { parseToml } = await import(pathToFileURL(modulePath).href);
  const t1 = performance.now();
  const r = parseToml(readFileSync(process.argv[3]));
  const t2 = performance.now();
  if (r.errors.length > 0) throw new Error(r.errors[0].message);
  process.stdout.write(JSON.stringify({ importMs: t1 - t0, firstParseMs: t2 - t1 }) + '\n');
  process.exit(0);
}

// ---------------------------------------------------------------- parent
const args = process.argv.slice(2);
const opt = { rounds: 3, runs: 10, mb: 5, keep: false };
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--rounds') opt.rounds = Number(args[++i]);
  else if (args[i] === '--runs') opt.runs = Math.max(10, Number(args[++i]));
  else if (args[i] === '--mb') opt.mb = Number(args[++i]);
  else if (args[i] === '--keep') opt.keep = true;
  else {
    console.error(`unknown argument ${args[i]}`);
    process.exit(2);
  }
}

const gen = resolve(repoRoot, '..', 'shared', 'toml-test', 'gen-large.mjs');
const dir = mkdtempSync(join(tmpdir(), 'boxwright-toml-bench-'));
try {
  const file = join(dir, 'large.toml');
  execFileSync(process.execPath, [gen, file, '--mb', String(opt.mb)], { stdio: ['ignore', 'ignore', 'pipe'] });
  const bytes = readFileSync(file).length;

  const child = (which) => {
    const r = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--child', which, file, String(opt.runs)], {
      cwd: repoRoot,
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    });
    if (r.status !== 0) throw new Error(`${which} child failed: ${r.stderr}`);
    return JSON.parse(r.stdout.trim().split('\n').pop());
  };
  const box = [];
  const smol = [];
  const boxCpu = [];
  const smolCpu = [];
  const retained = { boxwright: 0, smoltoml: 0 };
  for (let i = 0; i < opt.rounds; i++) {
    const b = child('boxwright');
    const s = child('smol-toml');
    box.push(b.median);
    smol.push(s.median);
    boxCpu.push(b.cpu);
    smolCpu.push(s.cpu);
    retained.boxwright = b.retained;
    retained.smoltoml = s.retained;
  }
  const boxMs = median(box);
  const smolMs = median(smol);

  // cold start: a 30-line config
  const config = join(dir, 'config.toml');
  writeFileSync(config, CONFIG);
  const wall = (argv) => {
    const t = performance.now();
    const r = spawnSync(process.execPath, argv, { cwd: repoRoot, encoding: 'utf8' });
    const ms = performance.now() - t;
    if (r.status !== 0) throw new Error(`cold run failed: ${r.stderr}`);
    return { ms, out: r.stdout };
  };
  const bare = [];
  const cold = [];
  const inproc = [];
  for (let i = 0; i < 7; i++) {
    bare.push(wall(['-e', '0']).ms);
    const c = wall([fileURLToPath(import.meta.url), '--cold-child', config]);
    cold.push(c.ms);
    inproc.push(JSON.parse(c.out.trim()));
  }
  const round = (x) => Math.round(x * 10) / 10;
  const coldMs = median(cold);
  const bareMs = median(bare);
  process.stdout.write(
    JSON.stringify({
      bench: 'toml-parse',
      bytes,
      boxwright_ms: round(boxMs),
      smoltoml_ms: round(smolMs),
      ratio: Math.round((smolMs / boxMs) * 1000) / 1000,
      cpu_ms: { boxwright: round(median(boxCpu)), smoltoml: round(median(smolCpu)) },
      cpu_ratio: Math.round((median(smolCpu) / median(boxCpu)) * 1000) / 1000,
      boxwright_mb_s: round(bytes / 1e6 / (boxMs / 1000)),
      smoltoml_mb_s: round(bytes / 1e6 / (smolMs / 1000)),
      rounds: { boxwright: box.map(round), smoltoml: smol.map(round) },
      // the heap one parse result keeps alive: boxwright's exact spans (a span and two positions per key and value) are most of it
      retained_mb: { boxwright: round(retained.boxwright / 1e6), smoltoml: round(retained.smoltoml / 1e6) },
      cold: {
        process_ms: round(coldMs),
        node_e0_ms: round(bareMs),
        ratio_to_node: Math.round((coldMs / bareMs) * 100) / 100,
        import_ms: round(median(inproc.map((x) => x.importMs))),
        first_parse_ms: round(median(inproc.map((x) => x.firstParseMs))),
        config_lines: CONFIG.split('\n').length,
      },
    }) + '\n',
  );
} finally {
  if (!opt.keep) rmSync(dir, { recursive: true, force: true });
  else process.stderr.write(`kept ${dir}\n`);
}
