/**
 * The official TOML compliance suite (toml-lang/toml-test, in
 * ../shared/toml-test or $BOXWRIGHT_TOML_TEST: ./suite.ts), TOML 1.0.0 list only: every valid case must produce
 * exactly the expected tagged JSON, every invalid case must be rejected.
 * Inputs are read as bytes (the encoding cases depend on it).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parseToml, toTaggedJson } from '../../compiler/toml/index.js';
import { tomlTestSuite } from './suite.js';
import { compareTagged } from './compare-tagged.js';

const { dir: suite, skipReason: skip } = tomlTestSuite();
const list = suite === undefined ? undefined : join(suite, 'files-toml-1.0.0');

const EXPECTED_VALID = 210;
const EXPECTED_INVALID = 499;

if (skip !== undefined) {
  test('toml-test 1.0.0 compliance', { skip }, () => {});
} else {
  const files = readFileSync(list!, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.endsWith('.toml'));
  const valid = files.filter((f) => f.startsWith('valid/'));
  const invalid = files.filter((f) => f.startsWith('invalid/'));
  let validPassed = 0;
  let invalidPassed = 0;

  describe(`toml-test 1.0.0: valid (${valid.length} cases)`, () => {
    for (const f of valid) {
      test(f, () => {
        const bytes = readFileSync(join(suite!, f));
        const expected = JSON.parse(readFileSync(join(suite!, f.replace(/\.toml$/, '.json')), 'utf8'));
        const r = parseToml(bytes);
        assert.deepEqual(
          r.errors.map((e) => `${e.span.start.line}:${e.span.start.column} ${e.message}`),
          [],
        );
        assert.ok(r.document !== undefined);
        const diff = compareTagged(toTaggedJson(r.document), expected);
        assert.equal(diff, undefined, diff);
        validPassed++;
      });
    }
  });

  describe(`toml-test 1.0.0: invalid (${invalid.length} cases)`, () => {
    for (const f of invalid) {
      test(f, () => {
        const r = parseToml(readFileSync(join(suite!, f)));
        assert.equal(r.document, undefined, 'the document was accepted');
        assert.ok(r.errors.length > 0);
        for (const e of r.errors) {
          assert.ok(e.message.length > 0 && !/chevrotain|Expecting|token of type|NoViableAlt|MismatchedToken/i.test(e.message), e.message);
          assert.ok(e.span.start.line >= 1 && e.span.start.column >= 1);
        }
        invalidPassed++;
      });
    }
  });

  test('toml-test 1.0.0: totals', (t) => {
    t.diagnostic(`toml-test 1.0.0: valid ${validPassed}/${valid.length}, invalid ${invalidPassed}/${invalid.length}`);
    assert.equal(valid.length, EXPECTED_VALID, 'number of valid cases in the 1.0.0 list');
    assert.equal(invalid.length, EXPECTED_INVALID, 'number of invalid cases in the 1.0.0 list');
    assert.equal(validPassed, EXPECTED_VALID);
    assert.equal(invalidPassed, EXPECTED_INVALID);
  });
}
