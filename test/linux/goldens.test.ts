// Golden Linux artifacts for every bundled example Linux accepts (reviewed
// like code: UPDATE_SNAPSHOTS=1 rewrites them); a refused example writes none.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileExample, exampleNames } from '../compile-helpers.js';
import { matchSnapshot } from '../snapshot.js';

describe('linux goldens: every example', () => {
  for (const name of exampleNames) {
    it(name, async () => {
      const outcome = await compileExample(name, 'linux');
      const stem = name.replace(/\.toml$/, '');
      if (!outcome.ok) {
        assert.equal(outcome.check.verdicts.linux, 'refused', `${name}: no artifacts although linux does not refuse it: ${outcome.reason}`);
        return;
      }
      assert.notEqual(outcome.check.verdicts.linux, 'refused');
      for (const a of outcome.artifacts) matchSnapshot(`linux/${stem}/${a.name}`, a.content);
    });
  }
});
