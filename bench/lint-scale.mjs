// Lint scaling: generated configs of N read grants and N nested write
// grants over real directories (each write tree `.../dI/out` inside its read
// tree `.../dI`), for N = 2,500, 5,000, 10,000 and 20,000, whole process,
// against a cold lint of a small config (N = 1) in the same run,
// interleaved. One row per N: the median wall ms and its ratio to the
// small lint, the median CPU ms (steadier on a shared machine) and its
// ratio, CPU ms per 1,000 grants (flat when the cost is linear), the CPU
// growth from the row before (2.0 when linear: N doubles), and the peak RSS
// (each run reports its CPU time and peak RSS at exit through a preload).
// Target (issue 37): the 20,000 row <= 5x the small lint; memory linear.
//
//   node bench/lint-scale.mjs [--runs N] [--vs DIR]
//
// --vs DIR: also time DIR's build (another checkout, built; its
// bin/boxwright.cjs) on the same configs in the same interleaved rounds,
// and give this build's time over its per row.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { interleaved, median, repoRoot, timeProcess } from './lib.mjs';

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const runs = Number(option('--runs') ?? 5);
const vs = option('--vs') ? resolve(option('--vs')) : undefined;
const sizes = [2500, 5000, 10000, 20000];

// Not under /tmp: /tmp is a non-canonical spelling for macOS.
mkdirSync(join(repoRoot, 'bench', 'out'), { recursive: true });
const root = mkdtempSync(join(repoRoot, 'bench', 'out', 'scale-'));
function config(n) {
  const base = join(root, `n${n}`);
  const reads = [];
  const writes = [];
  for (let i = 0; i < n; i++) {
    const dir = join(base, `g${Math.floor(i / 100)}`, `d${i}`);
    mkdirSync(join(dir, 'out'), { recursive: true });
    reads.push(JSON.stringify(dir));
    writes.push(JSON.stringify(join(dir, 'out')));
  }
  const file = join(root, `scale-${n}.toml`);
  writeFileSync(file, `[agent.filesystem]\nread = [\n  ${reads.join(',\n  ')},\n]\nwrite = [\n  ${writes.join(',\n  ')},\n]\n`);
  return file;
}

// Each run reports, at its exit, its peak resident set (getrusage's ru_maxrss) and the CPU time it used (user and
// system, its GC and compiler threads included): a tiny preload, so that the runs timed are the command itself.
// CPU time moves far less than wall time on a loaded machine, so the rows say both.
const usageFile = join(root, 'usage.json');
const preload = join(root, 'usage.cjs');
writeFileSync(
  preload,
  `process.on('exit', () => { const u = process.resourceUsage(); require('node:fs').writeFileSync(${JSON.stringify(usageFile)}, ` +
    'JSON.stringify({ rss: u.maxRSS, cpu: (u.userCPUTime + u.systemCPUTime) / 1000 })); });\n',
);
const usage = {};
/** Wall ms of one lint, its CPU ms and peak RSS kept by name. */
function lint(name, program, file) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--require', preload, program, ...lintArgs(file)], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${program} lint ${file} exited ${r.status}: ${r.stderr}`);
  const u = JSON.parse(readFileSync(usageFile, 'utf8'));
  (usage[name] ??= { cpu: [], rss: [] }).cpu.push(u.cpu);
  usage[name].rss.push(u.rss);
  return ms;
}
const cpuOf = (name) => +median(usage[name].cpu.slice(1)).toFixed(1);
const peakOf = (name) => +(Math.max(...usage[name].rss) / 1024).toFixed(1);

const lintArgs = (file) => ['lint', '--fs', 'host', '--home', root, '--format', 'json', file];
const bin = join(repoRoot, 'bin', 'boxwright.cjs');
const other = vs && join(vs, 'bin', 'boxwright.cjs');
try {
  const files = { small: config(1), ...Object.fromEntries(sizes.map((n) => [`n${n}`, config(n)])) };
  const commands = {};
  for (const [name, file] of Object.entries(files)) {
    commands[name] = () => lint(name, bin, file);
    if (other) commands[`vs_${name}`] = () => lint(`vs_${name}`, other, file);
  }
  // The floor of the 20,000 row: parsing its config (`boxwright parse`, the same process start and bundle) and listing
  // every write tree (find), which the host-trust guarantee requires: what any lint of it costs before the model.
  const big = files[`n${sizes.at(-1)}`];
  commands.parse = () => timeProcess(process.execPath, [bin, 'parse', big]);
  commands.find = () => timeProcess('find', [join(root, `n${sizes.at(-1)}`), '-type', 'd']);
  const r = interleaved(commands, { runs, warmup: 1 });
  const small = r.small.median;
  const smallCpu = cpuOf('small');
  let before;
  const rows = sizes.map((n) => {
    const name = `n${n}`;
    const ms = r[name].median;
    const cpu = cpuOf(name);
    const row = {
      n,
      grants: 2 * n,
      ms: +ms.toFixed(1),
      over_small: +(ms / small).toFixed(2),
      cpu_ms: cpu,
      cpu_over_small: +(cpu / smallCpu).toFixed(2),
      cpu_ms_per_1000_grants: +((cpu / (2 * n)) * 1000).toFixed(1),
      cpu_growth: before === undefined ? null : +(cpu / before).toFixed(2),
      peak_rss_mb: peakOf(name),
      ...(other
        ? {
            vs_ms: +r[`vs_${name}`].median.toFixed(1),
            over_vs: +(ms / r[`vs_${name}`].median).toFixed(2),
            vs_peak_rss_mb: peakOf(`vs_${name}`),
          }
        : {}),
    };
    before = cpu;
    return row;
  });
  const last = rows.at(-1);
  console.log(
    JSON.stringify({
      bench: 'lint-scale',
      small_ms: +small.toFixed(1),
      small_cpu_ms: smallCpu,
      small_peak_rss_mb: peakOf('small'),
      rows,
      n20000_over_small: last.over_small,
      parse_20000_ms: +r.parse.median.toFixed(1),
      find_20000_ms: +r.find.median.toFixed(1),
      // parse and listing, over the small lint: the 20,000 row's floor
      floor: +((r.parse.median + r.find.median) / small).toFixed(2),
      cpu_growth_20000_over_2500: +(last.cpu_ms / rows[0].cpu_ms).toFixed(2),
      ...(other ? { vs: vs, vs_small_ms: +r.vs_small.median.toFixed(1) } : {}),
      runs: r.small.runs,
      target: 5,
      command: `node ${join('bin', 'boxwright.cjs')} lint --fs host --home DIR --format json scale-N.toml`,
    }),
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
