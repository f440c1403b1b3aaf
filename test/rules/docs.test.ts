// RuleTester: every rule's two doc examples, linted against examples/machine.json,
// report exactly what the rule's docs say (rule id, severity, platforms,
// line:column, in order) — the failing one at least one diagnostic, the
// passing one none except where the rule is a disclosure no config avoids.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allRules } from '../../rules/engine/registry.js';
import type { DocExample, Rule } from '../../rules/engine/engine.js';
import { lintDocExample } from '../lint-helpers.js';

/** Rules whose passing example still reports: a disclosure no config can avoid. */
const unavoidable = new Set(['tool-exec-widening', 'low-label-exposure', 'read-allow-inert', 'metadata-everywhere']);

function reported(rule: Rule, example: DocExample): string[] {
  return lintDocExample(example)
    .diagnostics.filter((d) => d.ruleId === rule.meta.id)
    .map((d) => `${d.span.start.line}:${d.span.start.column} ${d.severity} ${d.platforms.join(',')}`);
}

describe('rule docs: each example reports exactly what the rule documents (RuleTester)', () => {
  for (const rule of allRules as readonly Rule[]) {
    const { id, docs, seedRow } = rule.meta;
    it(`${id}: failing example`, () => {
      assert.ok(docs.summary && docs.details && seedRow, `${id}: docs incomplete`);
      assert.ok(docs.bad.expect.length > 0, `${id}: the failing example must expect at least one diagnostic`);
      assert.deepEqual(reported(rule, docs.bad), [...docs.bad.expect]);
    });
    it(`${id}: passing example`, () => {
      assert.equal(
        docs.good.expect.length > 0,
        unavoidable.has(id),
        `${id}: only a disclosure no config avoids may report on its passing example`,
      );
      assert.deepEqual(reported(rule, docs.good), [...docs.good.expect]);
    });
  }
  it('rule ids are unique', () => {
    const ids = allRules.map((r) => r.meta.id);
    assert.equal(new Set(ids).size, ids.length);
  });
});
