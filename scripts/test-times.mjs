// Where `npm test`'s time goes. Runs the suite as npm test does
// (scripts/test.mjs, the same concurrency, BOXWRIGHT_TEST_CONCURRENCY
// included) and prints its wall time, the machine's load average, and the
// slowest files with their time in that run; with --compare, beside an
// earlier record (--save writes one), so that a slower suite or file shows.
// With --alone, each file in a `node --test` of its own, one after the
// other: a file's cost without the others beside it.
//
// The figures depend on the machine and its load (the load average is
// printed for that reason), so nothing asserts them.
//
//   node scripts/build.mjs && node scripts/test-times.mjs [--top N] [--save FILE] [--compare FILE] [--alone] [FILE...]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values, positionals } = parseArgs({
  options: {
    top: { type: 'string', default: '15' },
    save: { type: 'string' },
    compare: { type: 'string' },
    alone: { type: 'boolean', default: false },
  },
  allowPositionals: true,
});
const top = Number(values.top);
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** The whole suite (or FILEs) through scripts/test.mjs: its own record of the run. */
function suiteRun() {
  const dir = mkdtempSync(join(tmpdir(), 'boxwright-test-times-'));
  try {
    const out = join(dir, 'times.json');
    process.stderr.write(
      `test-times: running the suite (scripts/test.mjs${positionals.length ? ' ' + positionals.join(' ') : ''}); its output is not shown\n`,
    );
    const r = spawnSync(process.execPath, [join(root, 'scripts', 'test.mjs'), ...positionals], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, BOXWRIGHT_TEST_TIMES: out },
    });
    let record;
    try {
      record = JSON.parse(readFileSync(out, 'utf8'));
    } catch {
      process.stderr.write(`test-times: the suite wrote no times (exit ${r.status}, signal ${r.signal})\n`);
      process.exit(2);
    }
    return record;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Each file alone, one after the other. */
function aloneRun() {
  const dist = join(root, 'dist', 'test');
  const files = positionals.length
    ? positionals.map((f) =>
        f
          .replace(/^test\//, '')
          .replace(/^dist\/test\//, '')
          .replace(/\.ts$/, '.js'),
      )
    : readdirSync(dist, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.test.js'))
        .sort();
  const startLoad = loadavg()[0];
  const started = process.hrtime.bigint();
  const times = [];
  for (const f of files) {
    const start = process.hrtime.bigint();
    const r = spawnSync(process.execPath, ['--test', '--test-reporter=dot', join(dist, f)], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'ignore'],
    });
    times.push({
      file: `test/${f.replace(/\.js$/, '.ts')}`,
      ms: Math.round(Number(process.hrtime.bigint() - start) / 1e6),
      ok: r.status === 0,
    });
  }
  times.sort((a, b) => b.ms - a.ms);
  const wallMs = Math.round(Number(process.hrtime.bigint() - started) / 1e6);
  return {
    wallMs,
    concurrency: 1,
    cores: availableParallelism(),
    loadAverage: { start: startLoad, end: loadavg()[0] },
    node: process.version,
    passed: times.every((t) => t.ok),
    files: times,
    alone: true,
  };
}

const record = values.alone ? aloneRun() : suiteRun();
const before = values.compare ? JSON.parse(readFileSync(values.compare, 'utf8')) : undefined;
const earlier = new Map((before?.files ?? []).map((t) => [t.file, t.ms]));
const delta = (now, then) => (then === undefined ? '' : `  (${now >= then ? '+' : ''}${seconds(now - then)} against ${seconds(then)})`);

const how = record.alone ? 'each file alone, one after the other' : `${record.concurrency} at a time on ${record.cores} cores`;
process.stdout.write(
  `${seconds(record.wallMs).padStart(8)}  the suite's wall time: ${record.files.length} file${record.files.length === 1 ? '' : 's'}, ${how}${delta(record.wallMs, before?.wallMs)}\n`,
);
process.stdout.write(
  `          load average ${record.loadAverage.start.toFixed(1)} at the start, ${record.loadAverage.end.toFixed(1)} at the end${before ? ` (the earlier run: ${before.loadAverage.start.toFixed(1)}, ${before.loadAverage.end.toFixed(1)})` : ''}\n`,
);
const sum = record.files.reduce((s, t) => s + t.ms, 0);
process.stdout.write(`${seconds(sum).padStart(8)}  the files' times added up\n\nslowest ${Math.min(top, record.files.length)}:\n`);
for (const t of record.files.slice(0, top))
  process.stdout.write(`${seconds(t.ms).padStart(8)}  ${t.file}${t.ok ? '' : '  (failed)'}${delta(t.ms, earlier.get(t.file))}\n`);
if (before) {
  // The files that got slower by the most, wherever they rank now.
  const worse = record.files
    .filter((t) => earlier.has(t.file))
    .map((t) => ({ ...t, by: t.ms - earlier.get(t.file) }))
    .filter((t) => t.by > 0)
    .sort((a, b) => b.by - a.by)
    .slice(0, 5);
  if (worse.length) process.stdout.write(`\nslower than in ${values.compare}:\n`);
  for (const t of worse)
    process.stdout.write(`${('+' + seconds(t.by)).padStart(8)}  ${t.file} (${seconds(earlier.get(t.file))} → ${seconds(t.ms)})\n`);
  const added = record.files.filter((t) => !earlier.has(t.file));
  if (added.length) process.stdout.write(`\nnew since then: ${added.map((t) => `${t.file} ${seconds(t.ms)}`).join(', ')}\n`);
}
if (values.save) writeFileSync(values.save, JSON.stringify(record, null, 2) + '\n');
if (!record.passed) {
  process.stdout.write('\ntest-times: the run had failures (its times count them as they ran)\n');
  process.exitCode = 1;
}
