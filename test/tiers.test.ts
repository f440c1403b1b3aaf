// The two test tiers (test/tiers.json, read by scripts/test.mjs): every test
// file in exactly one of them, and nothing named there that is no test file.
// `npm test` runs `fast`; `npm run test:all` (what .ci/run runs) runs both.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, it } from 'node:test';
import { FAST_SHARE, FLOOR, runs } from './budget.js';
import { repoRoot } from './helpers.js';

const tiers = JSON.parse(readFileSync(join(repoRoot, 'test', 'tiers.json'), 'utf8')) as {
  fast: string[];
  full: string[];
  alone: Record<string, string>;
};
const sources = readdirSync(join(repoRoot, 'test'), { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith('.test.ts'))
  .map((e) => relative(repoRoot, join(e.parentPath, e.name)).split(sep).join('/'))
  .sort();

describe('test tiers', () => {
  it('every test file is in exactly one tier, and each tier names test files only', () => {
    const named = [...tiers.fast, ...tiers.full];
    assert.deepEqual(
      sources.filter((f) => named.filter((n) => n === f).length !== 1),
      [],
      'in no tier, or in both',
    );
    assert.deepEqual(
      named.filter((n) => !sources.includes(n)),
      [],
      'named but no test file',
    );
  });

  it('the files run alone are in a tier, each with its reason; the /tmp control is one', () => {
    for (const [f, why] of Object.entries(tiers.alone)) {
      assert.ok([...tiers.fast, ...tiers.full].includes(f), f);
      assert.ok(why.length > 40, `${f}: its reason`);
    }
    assert.ok('test/linux/hostile/private-temp.test.ts' in tiers.alone);
  });

  it('the fast tier keeps its real-tool smoke test and this guard; the installs and the attack suites are the full tier', () => {
    for (const f of ['test/tiers.test.ts', 'test/linux/hostile/learn.test.ts']) assert.ok(tiers.fast.includes(f), f);
    for (const f of ['test/install.test.ts', 'test/precommit.test.ts', 'test/linux/srt-differential.test.ts'])
      assert.ok(tiers.full.includes(f), f);
  });
});

describe('the fuzzing budget knob (test/budget.ts)', () => {
  /** `runs(full)` with the knobs set as given, the process's own put back after. */
  const withKnobs = (knobs: { budget?: string; runs?: string }, full: number): number => {
    const saved = { budget: process.env['BOXWRIGHT_TEST_BUDGET'], runs: process.env['BOXWRIGHT_FUZZ_RUNS'] };
    const set = (name: string, v: string | undefined) => (v === undefined ? delete process.env[name] : (process.env[name] = v));
    set('BOXWRIGHT_TEST_BUDGET', knobs.budget);
    set('BOXWRIGHT_FUZZ_RUNS', knobs.runs);
    try {
      return runs(full);
    } finally {
      set('BOXWRIGHT_TEST_BUDGET', saved.budget);
      set('BOXWRIGHT_FUZZ_RUNS', saved.runs);
    }
  };
  it('full (or unset): the size the file states; fast: a quarter, at least the floor, never above the full size', () => {
    assert.deepEqual(
      [withKnobs({}, 400), withKnobs({ budget: 'full' }, 3000), withKnobs({ budget: 'fast' }, 400), withKnobs({ budget: 'fast' }, 3000)],
      [400, 3000, 100, 750],
    );
    assert.equal(withKnobs({ budget: 'fast' }, 60), FLOOR);
    assert.equal(withKnobs({ budget: 'fast' }, 10), 10);
    assert.equal(FAST_SHARE, 0.25);
  });
  it('a share scales every budget; BOXWRIGHT_FUZZ_RUNS sets every count; a bad value is refused', () => {
    assert.equal(withKnobs({ budget: '2' }, 400), 800);
    assert.equal(withKnobs({ budget: 'fast', runs: '1' }, 400), 1);
    assert.throws(() => withKnobs({ budget: 'quick' }, 400), /BOXWRIGHT_TEST_BUDGET=quick/);
    assert.throws(() => withKnobs({ runs: '0' }, 400), /BOXWRIGHT_FUZZ_RUNS=0/);
  });
  it('scripts/test.mjs sets it from the tier, unless it is set already', () => {
    const runner = readFileSync(join(repoRoot, 'scripts', 'test.mjs'), 'utf8');
    assert.match(runner, /process\.env\.BOXWRIGHT_TEST_BUDGET \?\?= tier === 'fast' \? 'fast' : 'full';/);
  });
});
