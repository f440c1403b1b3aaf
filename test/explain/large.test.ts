/**
 * explain answers for large configs: its JSON is written in pieces (one
 * string of a 20,000-tree config's matrix is longer than V8's longest:
 * "Invalid string length"), the text table takes its widths without
 * spreading every row into one call (700,000 rows overflowed the stack),
 * and the names a write tree may hold but `--fs none` cannot look up
 * share one row per tree instead of one row each (34 rows a tree were
 * 680,000 rows). The pieces are held to JSON.stringify's bytes over the
 * generated configs, so the streamed output is the same document.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import kleur from 'kleur';
import { createTwoFilesPatch } from 'diff';
import { explainCheck } from '../../app/cli/explain.js';
import { artifactDiffs, MAX_ARTIFACT_EDITS } from '../../app/views/diff.js';
import { configReader } from '../../app/cli/options.js';
import { explainJsonPieces, explainMarkdown, explainText } from '../../app/format/explain.js';
import { noneView } from '../../compiler/paths/index.js';
import { runs } from '../budget.js';
import { generateConfig } from '../generated-configs.js';

kleur.enabled = false;

/** A Box config of `trees` read grants, each with a nested write tree. */
function manyTrees(trees: number): string {
  const reads: string[] = [];
  const writes: string[] = [];
  for (let i = 0; i < trees; i++) {
    reads.push(JSON.stringify(`/home/dev/work/g${i % 50}/d${i}`));
    writes.push(JSON.stringify(`/home/dev/work/g${i % 50}/d${i}/out`));
  }
  return `[agent.filesystem]\nread = [\n  ${reads.join(',\n  ')},\n]\nwrite = [\n  ${writes.join(',\n  ')},\n]\n`;
}

describe('explain of large configs', () => {
  it("the JSON pieces are JSON.stringify's bytes, for every generated config", () => {
    let compared = 0;
    for (let seed = 1; seed <= runs(200); seed++) {
      const { matrix } = explainCheck(generateConfig(seed).check);
      if (!matrix) continue;
      assert.equal([...explainJsonPieces(matrix)].join(''), `${JSON.stringify({ version: 1, ...matrix }, null, 2)}\n`, `seed ${seed}`);
      compared++;
    }
    assert.ok(compared > 0, 'no generated config had a matrix');
    const none = { ...explainCheck(generateConfig(1).check).matrix!, principals: [] };
    assert.equal([...explainJsonPieces(none)].join(''), `${JSON.stringify({ version: 1, ...none }, null, 2)}\n`);
  });

  it('600 write trees under --fs none: one row of unlooked-up names a tree, the JSON in pieces of about a megabyte', () => {
    const trees = 600;
    const reader = configReader({ fs: 'none', home: '/home/dev' }, () => noneView('/home/dev'));
    const { matrix } = explainCheck(reader.check(Buffer.from(manyTrees(trees)), 'many.toml'));
    assert.ok(matrix);
    const rows = matrix.principals[0]!.rows;
    const carved = rows.filter((r) => r.list === 'host-trusted');
    assert.equal(carved.length, trees, 'one host-trusted row per write tree');
    assert.match(carved[0]!.written, /^~\/work\/g0\/d0\/out\/\{\.agents,.*,opencode\.json\}$/);
    assert.match(carved[0]!.trusted ?? '', /^not looked up: host-trusted names a write tree may hold$/);
    // Each carve-out right after its write grant.
    const at = rows.findIndex((r) => r.list === 'write' && r.written === '/home/dev/work/g7/d7/out');
    assert.equal(rows[at + 1]!.written.startsWith('~/work/g7/d7/out/{'), true);
    const pieces = [...explainJsonPieces(matrix)];
    assert.ok(pieces.length > 1, 'more than one piece');
    for (const p of pieces) assert.ok(p.length < (1 << 20) + 64 * 1024, `a piece of ${p.length} characters`);
    const doc = JSON.parse(pieces.join(''));
    assert.equal(doc.principals[0].rows.length, rows.length);
    assert.ok(explainText(matrix).includes('host-trusted ~/work/g49/d599/out/{.agents,'));
    assert.ok(explainMarkdown(matrix).length > 0);
  });

  it("diff's artifact patches are bounded: past MAX_ARTIFACT_EDITS changed lines, one line with the sizes (was minutes of CPU)", () => {
    const text = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `--bind /home/dev/work/d${i}/${tag} x`).join('\n') + '\n';
    const side = (content: string) => [{ name: 'agent.profile.txt', content }] as never;
    const one = (xs: string, ys: string) =>
      artifactDiffs('linux', { label: 'a', artifacts: side(xs) }, { label: 'b', artifacts: side(ys) }, createTwoFilesPatch)[0]!.patch;
    // A few changes: the unified diff itself.
    const small = one(text(3000, 'out'), text(3000, 'out').replace('d7/out', 'd7/out2'));
    assert.match(small, /^-+-?\s?|^Index|--- a\/agent\.profile\.txt/m);
    assert.ok(small.includes('+--bind /home/dev/work/d7/out2 x'), small);
    // Every line changed: over the bound, said in one line.
    const big = one(text(3000, 'out'), text(3000, 'out2'));
    assert.equal(
      big,
      `agent.profile.txt: more than 2,000 lines changed (3,000 lines → 3,000): too many to show here; compile each revision and compare the outputs`,
    );
    assert.equal(MAX_ARTIFACT_EDITS, 2000);
  });
});
