// npm test's runner (after scripts/build.mjs): runs exactly the compiled test
// files, and fails the run for what node --test alone lets pass.
//
// 1. The files: every dist/test/**/*.test.js, and only those. Node 20 has no
//    globs, and `node --test dist/test/` runs every .js there, so each helper
//    module counted as a passing test. The list is checked against the
//    sources (a test/**/*.test.ts without its .js, or a .test.js without its
//    source, fails), a module under test/ that declares tests (test, it,
//    describe, suite) must be a .test.ts (else they would run only inside
//    whichever test file imports it), and every file must report
//    at least one test of its own (one that registers none counts as a pass).
// 2. No skip under CI: tests skip only through requireOrSkip, which throws
//    in CI; any skip that still reaches the reporter with CI set fails.
// 3. Goldens are never rewritten under CI (UPDATE_SNAPSHOTS=1 with CI set
//    fails before anything runs, and in test/snapshot.ts).
// 4. No leaked temporary files (and no write into the user's cache: the run
//    has an XDG_CACHE_HOME of its own): the run gets a private TMPDIR (os.tmpdir()
//    in every test process and in the CLIs they start); whatever is left in
//    it at the end fails the run. Private, so other runs on the machine
//    cannot make this one fail, nor hide what it leaves.
//
// 5. The run's wall time and its slowest files, printed at the end (with
//    the machine's load average, which they depend on), so that a slower
//    suite shows; BOXWRIGHT_TEST_TIMES=FILE also writes them as JSON
//    (scripts/test-times.mjs reads and compares them).
//
//   node scripts/test.mjs [--tier fast] [dist/test/x/y.test.js | test/x/y.test.ts ...]
//   BOXWRIGHT_TEST_CONCURRENCY=N   run N files at a time
//   BOXWRIGHT_TEST_TIMES=FILE      write the wall time and each file's time to FILE
//   BOXWRIGHT_TEST_BUDGET=full|fast|SHARE  the fuzzing budgets (default: the tier's; test/budget.ts)
//
// With files, runs only those (the checks of 1 still cover the whole list).
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const problems = [];

/** Files under `dir` (relative to it, `/`-separated), recursively. */
function walk(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) =>
      relative(dir, join(e.parentPath ?? e.path, e.name))
        .split(sep)
        .join('/'),
    )
    .sort();
}

const sources = walk(join(root, 'test')).filter((f) => f.endsWith('.ts'));
const testSources = sources.filter((f) => f.endsWith('.test.ts'));
const compiled = walk(join(root, 'dist', 'test')).filter((f) => f.endsWith('.test.js'));
const expected = testSources.map((f) => f.replace(/\.ts$/, '.js'));
for (const f of expected)
  if (!compiled.includes(f)) problems.push(`test/${f.replace(/\.js$/, '.ts')} has no compiled dist/test/${f} (run the build)`);
for (const f of compiled)
  if (!expected.includes(f)) problems.push(`dist/test/${f} has no source test/${f.replace(/\.js$/, '.ts')} (a stale build?)`);
// Hooks (after, before …) are fine in a helper; what declares tests is not.
const declaresTests = /import\s*\{([^}]*)\}\s*from\s*['"]node:test['"]|import\s+\w+\s+from\s*['"]node:test['"]/g;
for (const f of sources) {
  if (f.endsWith('.test.ts')) continue;
  for (const m of readFileSync(join(root, 'test', f), 'utf8').matchAll(declaresTests)) {
    const names = m[1] === undefined ? ['test'] : m[1].split(',').map((n) => n.trim().split(/\s+as\s+/)[0]);
    if (names.some((n) => ['test', 'it', 'describe', 'suite'].includes(n)))
      problems.push(
        `test/${f} declares tests but is not a .test.ts: they would run only inside whichever test file imports it (rename it, or move them into a .test.ts)`,
      );
  }
}
const all = expected.map((f) => join(root, 'dist', 'test', f));

// 6. Two tiers (test/tiers.json): `fast` is what `npm test` runs on every
//    change (in-process tests and a few real-tool smoke tests, under a
//    minute on 2 cores), `full` the files that install, build or run real
//    tools at length; `npm run test:all` (what CI runs) runs both. Every
//    test file is in exactly one tier.
const args = process.argv.slice(2);
const tierAt = args.indexOf('--tier');
const tier = tierAt >= 0 ? args.splice(tierAt, 2)[1] : 'all';
if (!['fast', 'all'].includes(tier)) problems.push(`--tier ${tier}: fast or all`);
const tiers = JSON.parse(readFileSync(join(root, 'test', 'tiers.json'), 'utf8'));
// 8. One knob for the fuzzing and generated-config budgets (test/budget.ts):
//    a quarter of each file's full size in the fast tier, the full size
//    otherwise. BOXWRIGHT_TEST_BUDGET set by hand wins (full, fast, or a
//    share: 2 doubles them), and BOXWRIGHT_FUZZ_RUNS=N sets every count.
process.env.BOXWRIGHT_TEST_BUDGET ??= tier === 'fast' ? 'fast' : 'full';
const inTier = new Map();
for (const name of ['fast', 'full'])
  for (const f of tiers[name] ?? []) {
    if (inTier.has(f)) problems.push(`${f} is in test/tiers.json's ${inTier.get(f)} and ${name} tiers: one only`);
    inTier.set(f, name);
    if (!testSources.includes(f.replace(/^test\//, ''))) problems.push(`test/tiers.json names ${f}, which is no test file`);
  }
for (const f of testSources)
  if (!inTier.has(`test/${f}`)) problems.push(`test/${f} is in neither tier of test/tiers.json: add it to fast or full`);
// 7. Files in `alone` (each with its reason) run after the others, one at a
//    time: they change what every file shares (a control that grants a
//    workload write on the host's /tmp, where the other files work).
const alone = new Set(Object.keys(tiers.alone ?? {}));
for (const f of alone) if (!inTier.has(f)) problems.push(`test/tiers.json's alone names ${f}, which is in no tier`);

const wanted = args.map((a) => {
  const abs = resolve(a.replace(/^test\//, 'dist/test/').replace(/\.ts$/, '.js'));
  if (!all.includes(abs)) problems.push(`${a} is not a test file (dist/test/**/*.test.js)`);
  return abs;
});
// Files at a time: one more than the cores (3 on a 2-core machine). Most
// files wait on processes they start (bubblewrap, npm, compilers, the CLI),
// so a file beside each core's uses what they leave idle: measured on
// 2-core machines, the whole suite took 275.3 s at 3 against 289.0 s at 2
// (2026-12-02, this machine, one run each) and 103.9 s against 108.7 s on a
// faster one the day before. BOXWRIGHT_TEST_CONCURRENCY says otherwise (=1
// for one file at a time). The suite passes at any number: no
// test assumes a duration (test/waits.ts), each file has its own temporary
// directories and caches, and the tests that run workloads as another user
// do it in labs of their own.
const concurrency = Number(process.env.BOXWRIGHT_TEST_CONCURRENCY ?? Math.max(availableParallelism(), 1) + 1);
if (!Number.isInteger(concurrency) || concurrency < 1)
  problems.push(`BOXWRIGHT_TEST_CONCURRENCY=${process.env.BOXWRIGHT_TEST_CONCURRENCY} is not a number of files (1 or more)`);
// Also refused by each matchSnapshot (test/snapshot.ts); said once here, before anything runs.
if (process.env.CI && process.env.UPDATE_SNAPSHOTS === '1')
  problems.push('UPDATE_SNAPSHOTS=1 is refused when CI is set: CI compares the goldens, it never rewrites them');
if (problems.length > 0) {
  process.stderr.write(`test: ${problems.length} problem(s) before the run:\n  ${problems.join('\n  ')}\n`);
  process.exit(1);
}
// Longest first, so that the last file to finish is a short one and not a
// long one started last: the files measured slowest (seconds, one file at
// a time on the shared 2-core machine, 2026-12-02, after issue 24's cuts),
// then the rest in name order. A file missing here only starts later.
const SLOW_FILES = {
  'test/install.test.ts': 150,
  'test/precommit.test.ts': 90,
  'test/linux/srt-differential.test.ts': 80,
  'test/independent/powershell.test.ts': 52,
  'test/linux/run-cache.test.ts': 34,
  'test/independent/taplo-schema.test.ts': 30,
  'test/linux/run-usage.test.ts': 28,
  'test/linux/model-vs-kernel.test.ts': 26,
  'test/linux/private-checkout.test.ts': 23,
  'test/linux/e2e.test.ts': 22,
  'test/linux/hostile/host-trusted.test.ts': 20,
  'test/linux/model-vs-kernel-tyba.test.ts': 16,
  'test/independent/sarif.test.ts': 15,
  'test/linux/launcher-build.test.ts': 13,
  'test/linux/landlock-run.test.ts': 12,
  'test/linux/landlock-build.test.ts': 10,
};
const weight = (f) => SLOW_FILES[relative(root, f).replace(/^dist\/(test\/.*)\.js$/, '$1.ts')] ?? 0;
const tiered =
  tier === 'fast' ? all.filter((f) => inTier.get(relative(root, f).replace(/^dist\/(test\/.*)\.js$/, '$1.ts')) === 'fast') : all;
const files = (wanted.length > 0 ? wanted : tiered).slice().sort((a, b) => weight(b) - weight(a));
const isAlone = (f) => alone.has(relative(root, f).replace(/^dist\/(test\/.*)\.js$/, '$1.ts'));
const pooled = files.filter((f) => !isAlone(f));
const last = files.filter(isAlone);

// With the host's temporary directory's mode (1777 for /tmp): the hostile
// tests run workloads as another user, who must reach their labs in it.
const scratch = mkdtempSync(join(tmpdir(), 'boxwright-test-run-'));
chmodSync(scratch, statSync(tmpdir()).mode & 0o7777);
// `boxwright run` caches the sandboxes it compiles (XDG_CACHE_HOME): a cache
// of the run's own, never the user's, and expected to hold entries at the
// end, so beside the scratch directory, whose leftovers fail the run.
const cache = mkdtempSync(join(tmpdir(), 'boxwright-test-cache-'));
process.env.TMPDIR = scratch;
process.env.XDG_CACHE_HOME = cache;

const reported = new Set();
const skipped = [];
/** Each file's time in this run (node:test's own measure of the file, import included), by path. */
const fileTimes = new Map();
const startLoad = loadavg()[0];
const started = process.hrtime.bigint();
let failed = false;
const dropScratch = () => {
  rmSync(scratch, { recursive: true, force: true });
  rmSync(cache, { recursive: true, force: true });
};
// ^C reaches the test processes too (same process group); the directory goes with them.
process.once('SIGINT', () => {
  dropScratch();
  process.exit(130);
});
/** One node:test run of `some` files, `n` at a time, its report written as it comes. */
async function runFiles(some, n) {
  if (some.length === 0) return;
  const stream = run({ files: some, concurrency: n });
  stream.on('test:fail', (d) => {
    failed = true;
    if (d.file !== undefined) reported.add(d.file);
  });
  stream.on('test:complete', (d) => {
    if (d.nesting === 0 && d.file !== undefined && d.name === d.file)
      fileTimes.set(d.file, { ms: d.details.duration_ms, ok: d.details.passed });
  });
  stream.on('test:pass', (d) => {
    if (d.file !== undefined && d.name !== d.file) reported.add(d.file);
    if (d.skip !== undefined || d.todo !== undefined) skipped.push(`${relative(root, d.file ?? '?')}: ${d.name} (${d.skip ?? d.todo})`);
  });
  // Written in order, so that what follows comes after the last test's line.
  for await (const chunk of stream.compose(new spec())) process.stdout.write(chunk);
}
try {
  await runFiles(pooled, concurrency);
  await runFiles(last, 1);
} catch (e) {
  dropScratch();
  throw e;
}

const after = [];
const silent = files.filter((f) => !reported.has(f)).map((f) => relative(root, f));
if (silent.length > 0) after.push(`${silent.length} test file(s) reported no test of their own:\n  ${silent.join('\n  ')}`);
if (process.env.CI && skipped.length > 0) after.push(`CI is set, yet ${skipped.length} test(s) were skipped:\n  ${skipped.join('\n  ')}`);
const left = readdirSync(scratch).sort();
if (left.length > 0)
  after.push(
    `the run left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in its temporary directory (a test or the CLI does not clean up):\n  ${left.join('\n  ')}`,
  );
dropScratch();
if (after.length > 0) process.stdout.write(`\n✖ test: ${after.join('\n✖ test: ')}\n`);
process.exitCode = failed || after.length > 0 ? 1 : 0;

const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
const times = [...fileTimes]
  .map(([f, t]) => ({ file: relative(root, f).replace(/^dist\/(test\/.*)\.js$/, '$1.ts'), ms: Math.round(t.ms), ok: t.ok }))
  .sort((a, b) => b.ms - a.ms);
const load = `load average ${startLoad.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end`;
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
process.stdout.write(
  `\nℹ test: ${files.length} file${files.length === 1 ? '' : 's'} in ${seconds(wallMs)} (${concurrency} at a time, ${availableParallelism()} cores, ${load}, budget ${process.env.BOXWRIGHT_TEST_BUDGET}); slowest: ${times
    .slice(0, 5)
    .map((t) => `${t.file} ${seconds(t.ms)}`)
    .join(', ')}\n`,
);
if (process.env.BOXWRIGHT_TEST_TIMES) {
  const record = {
    wallMs: Math.round(wallMs),
    concurrency,
    cores: availableParallelism(),
    loadAverage: { start: startLoad, end: loadavg()[0] },
    node: process.version,
    passed: process.exitCode === 0,
    files: times,
  };
  writeFileSync(process.env.BOXWRIGHT_TEST_TIMES, JSON.stringify(record, null, 2) + '\n');
}
