import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileExample, exampleNames } from '../compile-helpers.js';
import { matchSnapshot } from '../snapshot.js';

/**
 * Goldens: every example compiled for Windows as
 * `boxwright compile --fs examples/machine.json --worktree /home/dev/project`
 * would; a refused example has none and must be refused on Windows.
 */
describe('windows goldens', () => {
  for (const name of exampleNames) {
    const stem = name.replace(/\.toml$/, '');
    it(stem, async () => {
      const o = await compileExample(name, 'windows');
      if (!o.ok) {
        assert.equal(o.check.verdicts.windows, 'refused', `${name} compiled to nothing although Windows does not refuse it: ${o.reason}`);
        return;
      }
      assert.notEqual(o.check.verdicts.windows, 'refused');
      assert.deepEqual(o.artifacts.map((a) => a.name).sort(), ['acl-plan.json', 'apply.ps1', 'undo.ps1']);
      for (const a of o.artifacts) matchSnapshot(`windows/${stem}/${a.name}`, a.content);
    });
  }
});

describe('windows determinism', () => {
  it('the same input gives the same bytes, LF only, with a trailing newline', async () => {
    for (const name of ['coding-agent.toml', 'tyba-user-config.toml', 'helper-execution.toml']) {
      const a = await compileExample(name, 'windows');
      const b = await compileExample(name, 'windows');
      assert.ok(a.ok && b.ok);
      assert.deepEqual(a.artifacts, b.artifacts);
      for (const art of a.artifacts) {
        const text = art.content as string;
        assert.ok(text.endsWith('\n') && !text.endsWith('\n\n'), `${name} ${art.name} ends with one newline`);
        assert.ok(!text.includes('\r'), `${name} ${art.name} has no CR`);
        assert.ok(!text.includes('/work/') && !text.includes(process.cwd()), `${name} ${art.name} holds a machine-specific path`);
      }
      const json = a.artifacts.find((x) => x.name === 'acl-plan.json')!.content as string;
      assert.equal(json, JSON.stringify(JSON.parse(json), null, 2) + '\n', 'two-space JSON');
    }
  });
});
