import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allRules } from '../../rules/registry.js';
import { lintText, ruleIds } from '../lint-helpers.js';

/**
 * Rules whose example is prose, not a config (what they catch is on the
 * machine, not in the file): named here, so that no example stops being
 * linted unnoticed.
 */
const proseOnly = { bad: new Set(['windows-open-reads']), good: new Set(['ipv6-socket', 'process-info', 'exec-not-confined', 'windows-open-reads']) };
const isProse = (example: string): boolean => example.trim().startsWith('#') && !example.includes('[');

/** Rules whose passing example still reports (an info or a warning no config can avoid). */
const unavoidable = new Set(['tool-exec-widening', 'low-label-exposure', 'windows-open-reads', 'exec-not-confined', 'read-allow-inert', 'metadata-everywhere', 'private-temp', 'ipv6-socket']);

describe('every rule documents a failing and a passing example, and they do what they say', () => {
  for (const rule of allRules) {
    it(rule.meta.id, () => {
      const { id, docs, seedRow, severity } = rule.meta;
      assert.ok(docs.summary && docs.details && docs.bad && docs.good && seedRow, `${id}: docs incomplete`);
      assert.ok(Object.keys(severity).length > 0);
      if (!rule.check && id !== 'toml-syntax' && id !== 'schema' && id !== 'suppression') assert.fail(`${id} has no check`);
      assert.equal(isProse(docs.bad), proseOnly.bad.has(id), `${id}: its failing example is ${isProse(docs.bad) ? '' : 'not '}prose (proseOnly.bad)`);
      assert.equal(isProse(docs.good), proseOnly.good.has(id), `${id}: its passing example is ${isProse(docs.good) ? '' : 'not '}prose (proseOnly.good)`);
      if (!proseOnly.bad.has(id)) {
        const bad = lintText(docs.bad + '\n');
        assert.ok(ruleIds(bad).includes(id), `${id}: its failing example does not trigger it: ${ruleIds(bad).join(', ')}`);
      }
      if (!unavoidable.has(id) && !proseOnly.good.has(id)) {
        const good = lintText(docs.good + '\n');
        assert.ok(!ruleIds(good).includes(id), `${id}: its passing example triggers it`);
      }
    });
  }
  it('rule ids are unique', () => {
    const ids = allRules.map((r) => r.meta.id);
    assert.equal(new Set(ids).size, ids.length);
  });
});
