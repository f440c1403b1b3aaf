// The test suite's own rules: a test skips only through requireOrSkip
// (loud, and a failure in CI), never with a reason of its own (read from the
// sources); goldens are never rewritten under CI. scripts/test.mjs checks the
// rest when the suite runs (the files that ran, any skip under CI, leftover
// temporary files), and reports its wall time, which the last tests here
// hold to its format.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './helpers.js';
import { rewritingGoldens } from './snapshot.js';
import { finished, WAIT_LIMIT_MS } from './waits.js';

const sources = readdirSync(join(repoRoot, 'test'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts'))
  .map((f) => ({ file: `test/${f}`, text: readFileSync(join(repoRoot, 'test', f), 'utf8') }));

const OPEN = '([{';
const CLOSE = ')]}';

/** The expression from `start` to the first of `stops` at depth 0 outside strings, or to the bracket that closes around it. */
function expressionAt(text: string, start: number, stops: string): string {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'" || c === '"' || c === '`') {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\') i++;
    } else if (OPEN.includes(c)) depth++;
    else if (CLOSE.includes(c) && depth-- === 0) return text.slice(start, i);
    else if (depth === 0 && stops.includes(c)) return text.slice(start, i);
  }
  return text.slice(start);
}

/** `expr` without its requireOrSkip(…) calls. */
function withoutRequireOrSkip(expr: string): string {
  const call = 'requireOrSkip(';
  for (let at = expr.indexOf(call); at >= 0; at = expr.indexOf(call)) {
    const args = expressionAt(expr, at + call.length, '');
    expr = expr.slice(0, at) + expr.slice(at + call.length + args.length + 1);
  }
  return expr;
}

/** A skip reason is requireOrSkip's, or another such value: skip names joined by `??`, nothing else. */
const fromRequireOrSkip = (expr: string): boolean => withoutRequireOrSkip(expr).replace(/\bskip(?:[A-Z]\w*)?\b|\?\?|\s+/g, '') === '';

function quietSkips(file: string, source: string): string[] {
  // Comment lines may mention skips; code never starts a line with // or *.
  const text = source.replace(/^\s*(?:\/\/|\*|\/\*).*$/gm, '');
  const found: string[] = [];
  const where = (i: number) => `${file}:${text.slice(0, i).split('\n').length}`;
  const check = (re: RegExp, stops: string, what: string) => {
    for (const m of text.matchAll(re)) {
      const expr = expressionAt(text, m.index! + m[0].length, stops);
      // A function named skip… is not a skip reason.
      if (/^\s*\([^)]*\)\s*(?::\s*\w+\s*)?=>/.test(expr)) continue;
      if (!fromRequireOrSkip(expr)) found.push(`${where(m.index!)}: ${what}: ${expr.trim()}`);
    }
  };
  check(/\b(?:const|let|var)\s+skip(?:[A-Z]\w*)?\s*(?::[^=;]+)?=(?!=)/g, ';', 'a skip value not from requireOrSkip');
  check(/\bskip\s*:/g, ',;', 'a skip option not from requireOrSkip');
  check(/\bt\.skip\(/g, '', 't.skip() with a reason not from requireOrSkip');
  for (const m of text.matchAll(/\b(?:it|test|describe|suite)\.(?:skip|todo)\s*\(|\btodo\s*:|\bt\.todo\(/g))
    found.push(`${where(m.index!)}: ${m[0]}`);
  return found;
}

describe('the test suite', () => {
  it('skips only through requireOrSkip', () => {
    assert.ok(sources.length > 50, `${sources.length} test sources`);
    assert.deepEqual(
      sources.filter((s) => s.file !== 'test/suite.test.ts').flatMap((s) => quietSkips(s.file, s.text)),
      [],
    );
  });

  it('the check can fail: each quiet form is found, the loud ones are not', () => {
    const quiet = [
      "it('a', { skip: 'not here' }, () => {});",
      "it('b', { skip: process.arch !== 'x64' ? 'x86_64 only' : undefined }, f);",
      "const skip =\n  process.arch !== 'x64' ? 'not an x86_64 host' : (requireOrSkip(a, 'a') ?? requireOrSkip(b, 'b'));",
      "const skipQemu = requireOrSkip(a, `x (${b ? 'c' : 'd'})`) ?? (arch === 'aarch64' ? 'natively' : undefined);",
      "it('c', { skip: true }, f);",
      "it('d', (t) => { if (x) return t.skip('because'); });",
      'describe.skip("e", f);',
      "it('f', { todo: 'later' }, f);",
    ];
    const loud = [
      "const skip = requireOrSkip(a, 'a (b)') ?? requireOrSkip(!!c, `c ${d ? 'e' : 'f'} (g`);",
      "it('g', { skip: skipHelper ?? requireOrSkip(x, 'y') }, f);",
      "describe('h', { skip, concurrency: 4 }, f);",
      "it('i', (t) => { const skip = requireOrSkip(x, 'y'); if (skip) return t.skip(skip); });",
      'const skipSpaces = (): void => { i++; };',
      '// skip: a comment',
    ];
    assert.deepEqual(
      quiet.map((q) => quietSkips('x.ts', q).length),
      quiet.map(() => 1),
      quiet.map((q) => `${q} → ${quietSkips('x.ts', q).join('; ')}`).join('\n'),
    );
    assert.deepEqual(
      loud.flatMap((l) => quietSkips('x.ts', l)),
      [],
    );
  });
});

describe('goldens under CI', () => {
  it('UPDATE_SNAPSHOTS=1 rewrites outside CI only, and is refused, loudly, with CI set', () => {
    assert.equal(rewritingGoldens({}), false);
    assert.equal(rewritingGoldens({ CI: 'true' }), false);
    assert.equal(rewritingGoldens({ UPDATE_SNAPSHOTS: '1' }), true);
    assert.throws(() => rewritingGoldens({ UPDATE_SNAPSHOTS: '1', CI: 'true' }), /UPDATE_SNAPSHOTS=1 is refused when CI is set/);
  });

  it('matchSnapshot with UPDATE_SNAPSHOTS=1 and CI set throws and leaves the golden as it was', () => {
    const golden = join(repoRoot, 'snapshots', 'explain', 'coding-agent.txt');
    const before = readFileSync(golden);
    const snapshot = pathToFileURL(join(repoRoot, 'dist', 'test', 'snapshot.js')).href;
    const r = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { matchSnapshot } from ${JSON.stringify(snapshot)}; matchSnapshot('explain/coding-agent.txt', 'not the golden');`,
      ],
      {
        encoding: 'utf8',
        env: { ...process.env, UPDATE_SNAPSHOTS: '1', CI: 'true' },
      },
    );
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /UPDATE_SNAPSHOTS=1 is refused when CI is set/);
    assert.ok(readFileSync(golden).equals(before), 'the golden was rewritten');
  });
});

// npm test's time report (scripts/test.mjs) and test-times.mjs's comparison,
// run on one small file: what they print and record, never how long it took.
describe('the wall-time report', () => {
  const file = 'test/architecture.test.ts';
  // Without NODE_TEST_CONTEXT, which makes a nested node:test run decline to run files.
  const env = { ...process.env, NODE_TEST_CONTEXT: undefined, BOXWRIGHT_TEST_CONCURRENCY: '1' };

  it('npm test ends with its wall time, the load average and the slowest files; BOXWRIGHT_TEST_TIMES records them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'boxwright-test-times-'));
    try {
      const out = join(dir, 'times.json');
      const r = finished(
        spawnSync(process.execPath, [join(repoRoot, 'scripts', 'test.mjs'), file], {
          cwd: repoRoot,
          encoding: 'utf8',
          env: { ...env, BOXWRIGHT_TEST_TIMES: out },
          timeout: WAIT_LIMIT_MS,
        }),
        `scripts/test.mjs ${file}`,
      );
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.match(
        r.stdout,
        /\nℹ test: 1 file in \d+\.\d s \(1 at a time, \d+ cores, load average \d+\.\d at the start, \d+\.\d at the end, budget (full|fast)\); slowest: test\/architecture\.test\.ts \d+\.\d s\n$/,
      );
      const record = JSON.parse(readFileSync(out, 'utf8')) as {
        wallMs: number;
        concurrency: number;
        passed: boolean;
        files: { file: string; ms: number; ok: boolean }[];
      };
      assert.equal(record.concurrency, 1);
      assert.equal(record.passed, true);
      assert.deepEqual(
        record.files.map((f) => [f.file, f.ok, Number.isInteger(f.ms) && f.ms > 0]),
        [[file, true, true]],
      );
      assert.ok(record.wallMs >= record.files[0]!.ms, `the wall time ${record.wallMs} ms holds the file's ${record.files[0]!.ms} ms`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('test-times.mjs --compare names what got slower than an earlier record', () => {
    const dir = mkdtempSync(join(tmpdir(), 'boxwright-test-times-'));
    try {
      // An earlier record in which the file took 1 ms: any real run is slower.
      const earlier = join(dir, 'earlier.json');
      writeFileSync(
        earlier,
        JSON.stringify({
          wallMs: 1,
          concurrency: 1,
          cores: 2,
          loadAverage: { start: 0, end: 0 },
          node: process.version,
          passed: true,
          files: [{ file, ms: 1, ok: true }],
        }),
      );
      const saved = join(dir, 'saved.json');
      const r = finished(
        spawnSync(process.execPath, [join(repoRoot, 'scripts', 'test-times.mjs'), '--compare', earlier, '--save', saved, file], {
          cwd: repoRoot,
          encoding: 'utf8',
          env,
          timeout: WAIT_LIMIT_MS,
        }),
        `scripts/test-times.mjs --compare ${file}`,
      );
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /^ +\d+\.\d s {2}the suite's wall time: 1 file, 1 at a time on \d+ cores {2}\(\+\d+\.\d s against 0\.0 s\)\n/);
      assert.match(r.stdout, /\nslowest 1:\n +\d+\.\d s {2}test\/architecture\.test\.ts {2}\(\+\d+\.\d s against 0\.0 s\)\n/);
      assert.match(
        r.stdout,
        new RegExp(
          `\\nslower than in ${earlier.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\n +\\+\\d+\\.\\d s  test/architecture\\.test\\.ts \\(0\\.0 s → \\d+\\.\\d s\\)\\n`,
        ),
      );
      const record = JSON.parse(readFileSync(saved, 'utf8')) as { files: { file: string }[] };
      assert.deepEqual(
        record.files.map((f) => f.file),
        [file],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
