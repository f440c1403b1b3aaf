import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileExample, exampleNames } from '../compile-helpers.js';
import { matchSnapshot } from '../snapshot.js';
import { runtimeGolden, withoutRuntime } from './support.js';

/**
 * Goldens: every example compiled for Windows as
 * `boxwright compile --fs examples/machine.json --worktree /home/dev/project`
 * would; a refused example has none and must be refused on Windows. The
 * PowerShell runtime, the same in every script, has one golden of its own:
 * an example's apply.ps1 and undo.ps1 goldens hold what differs, with a
 * marker where the script holds the runtime verbatim (support.ts).
 */
describe('windows goldens', () => {
  it('the PowerShell runtime', () => matchSnapshot('windows/runtime.ps1', runtimeGolden));

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
      for (const a of o.artifacts) {
        const script = a.name === 'apply.ps1' ? 'apply' : a.name === 'undo.ps1' ? 'undo' : undefined;
        matchSnapshot(`windows/${stem}/${a.name}`, script ? withoutRuntime(a.content as string, script, name) : a.content);
      }
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
