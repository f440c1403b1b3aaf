// Issue 24: the explain matrix shows only what rules word. Every footnote of
// every example's matrix is a model fact in its rule's words (explanation())
// or a diagnostic lint reports in that config for that platform, and the
// views' source writes no note of its own (a `ruleId: ''` with words).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Platform } from '../../compiler/diagnostic.js';
import { explainCheck } from '../../app/cli/explain.js';
import { configReader } from '../../app/cli/options.js';
import type { Fact } from '../../model/index.js';
import type { AccessModel } from '../../model/model.js';
import { explanation } from '../../rules/index.js';
import { exampleNames } from '../compile-helpers.js';
import { repoRoot } from '../helpers.js';

const reader = configReader({ fs: join(repoRoot, 'examples/machine.json'), worktree: '/home/dev/project' });

/** Every fact the model holds for a platform, of every principal: grants, host-trusted paths, everything else, the network. */
function factsOf(model: AccessModel, p: Platform): Fact[] {
  const out: Fact[] = [];
  for (const pa of model.principals) {
    for (const ga of pa.grants) {
      const cell = ga.effective[p];
      if (cell.kind === 'refused') out.push(cell.because);
      for (const f of [ga.notes[p], ga.combined?.[p], ...(ga.disclosures[p] ?? [])]) if (f) out.push(f);
    }
    for (const ta of pa.hostTrusted) for (const f of [ta.notes[p], ...(ta.disclosures[p] ?? [])]) if (f) out.push(f);
    const e = pa.elsewhere[p];
    out.push(e.fact, ...(e.mechanism ? [e.mechanism] : []), ...(e.disclosures ?? []));
    const net = pa.network[p];
    if (net) out.push(net);
  }
  return out;
}

describe('explain words nothing of its own (issue 24)', () => {
  it("every note and disclosure of every example's matrix is a model fact worded by its rule, or a diagnostic lint reports there", () => {
    let checked = 0;
    for (const name of exampleNames) {
      const file = `examples/${name}`;
      const check = reader.check(readFileSync(join(repoRoot, file)), file);
      const m = explainCheck(check).matrix!;
      for (const pm of m.principals)
        for (const [where, cells] of [
          ...pm.rows.map((r) => [`${r.list} ${r.written}`, r.cells] as const),
          ['everything else', pm.elsewhere] as const,
        ])
          for (const [p, c] of Object.entries(cells) as [Platform, (typeof cells)[Platform]][]) {
            const worded = [
              ...factsOf(check.model!, p).map(explanation),
              ...check.diagnostics.filter((d) => d.platforms.includes(p)).map((d) => ({ ruleId: d.ruleId, text: d.message })),
            ];
            for (const n of [...(c.note ? [c.note] : []), ...(c.disclosures ?? [])]) {
              checked++;
              const same = worded.filter((w) => w.text === n.text);
              assert.ok(same.length, `${name}: ${where}, ${p}: "${n.text}" is no model fact's explanation nor a diagnostic`);
              // Everything else cites the mechanism's rule beside the regime's words; a row cites the rule of its words, or none.
              if (n.ruleId && where !== 'everything else')
                assert.ok(
                  same.some((w) => w.ruleId === n.ruleId),
                  `${name}: ${where}, ${p}: cites ${n.ruleId} for words of ${same.map((w) => w.ruleId).join(', ')}`,
                );
            }
          }
    }
    assert.ok(checked > 100, `${checked} footnotes`);
  });

  it("app/views/ writes no note with words of its own (`ruleId: ''` beside a literal text)", () => {
    const dir = join(repoRoot, 'app', 'views');
    const own = /ruleId:\s*''\s*,\s*text:\s*[`'"]/;
    const found = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) =>
        readFileSync(join(dir, f), 'utf8')
          .split('\n')
          .map((line, i) => ({ f, i, line }))
          .filter(({ line }) => own.test(line) || /ruleId:\s*''\s*,?\s*$/.test(line))
          .map(({ f, i, line }) => `app/views/${f}:${i + 1}: ${line.trim()}`),
      );
    assert.deepEqual(found, []);
  });
});
