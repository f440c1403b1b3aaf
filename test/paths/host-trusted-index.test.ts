// compiler/paths/host-trusted-index.ts answers isUnder's questions through
// sets of ancestors, so that the host-trusted search and the model stay
// near-linear in write trees. It must answer them exactly as isUnder does,
// spelling by spelling: every output (lint, explain, the artifacts) is built
// on them. Each case is held to the quadratic definition it replaces.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { atOrAbove, insideEach, NearPaths } from '../../compiler/paths/host-trusted-index.js';
import { isStrictlyUnder, isUnder } from '../../compiler/paths/spelling.js';

// Spellings isUnder compares as strings: the root, doubled and trailing slashes, relative and empty, lookalike prefixes.
const paths = [
  '/',
  '',
  '//',
  '//x',
  '/a',
  '/a/',
  '/a//b',
  '/a/b',
  '/a/b/c',
  '/a/bc',
  '/a-b',
  '/ab',
  '/a/b/.git',
  '/a/b/.git/hooks',
  'a',
  'a/b',
  '%TEMP%',
  '/home/u',
  '/home/u/.bashrc',
  '/home/u/project/.git',
];

// The spellings above and random ones from a small alphabet, so that prefixes and lookalikes collide.
function randomPaths(count: number, seed: number): string[] {
  let s = seed;
  const next = (n: number): number => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 16) % n;
  };
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let p = next(5) ? '/' : '';
    for (let j = next(5); j > 0; j--) p += ['a', 'b', '/', '.git', 'a/'][next(5)];
    out.push(p);
  }
  return out;
}
const all = [...paths, ...randomPaths(300, 24)];

describe('host-trusted index', () => {
  it('atOrAbove(p) is exactly the paths p is under, each once, longest first', () => {
    const candidates = [...new Set(all.flatMap((p) => [...atOrAbove(p), p]))];
    for (const p of all) {
      const got = atOrAbove(p);
      assert.equal(new Set(got).size, got.length, `${JSON.stringify(p)}: a path twice`);
      assert.deepEqual([...got].sort(), candidates.filter((a) => isUnder(p, a)).sort(), JSON.stringify(p));
      for (let i = 1; i < got.length; i++) assert.ok(got[i]!.length < got[i - 1]!.length, `${JSON.stringify(p)}: not longest first`);
    }
  });

  it('NearPaths answers near and nearestStrictlyAbove as isUnder over every root does', () => {
    for (const [k, roots] of [paths, all.slice(0, 40), all.slice(40, 200), ['/'], [''], []].entries()) {
      const near = new NearPaths(roots);
      for (const p of all) {
        assert.equal(
          near.near(p),
          roots.some((r) => isUnder(p, r) || isUnder(r, p)),
          `set ${k}: near ${JSON.stringify(p)}`,
        );
        const longest = roots.filter((r) => isStrictlyUnder(p, r)).sort((a, b) => b.length - a.length)[0];
        assert.equal(near.nearestStrictlyAbove(p), longest, `set ${k}: above ${JSON.stringify(p)}`);
      }
    }
  });

  it('insideEach(ps).get(a) is ps.filter(p => isUnder(p, a)), in order', () => {
    const inside = insideEach(all);
    for (const a of new Set([...all, ...all.flatMap(atOrAbove)])) {
      const want = all.filter((p) => isUnder(p, a));
      assert.deepEqual(inside.get(a) ?? [], want, JSON.stringify(a));
    }
  });
});
