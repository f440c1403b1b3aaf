import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cli, plainEnv } from '../cli-in-process.js';

/**
 * `diff --format markdown` is what the GitHub Action writes to the job
 * summary, and a pull request's author chooses its file names and the
 * paths in its configs: they show as data, never as Markdown structure.
 * (test/action/action.test.ts checks the same through the Action's step.)
 */
describe('diff --format markdown: names and paths are data', () => {
  it('a line break is shown as \\n, backticks get a longer fence, and a `<` outside code is &lt;', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'boxwright-diff-md-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const before = 'x\n### forged `a`.toml';
    const after = '`b`';
    writeFileSync(join(dir, before), '[agent.filesystem]\nread = ["~/project"]\n');
    writeFileSync(join(dir, after), '[agent.filesystem]\nread = ["~/project", "~/project/a\\n- 🔒 nothing widens <!--"]\n');
    const r = await cli(['diff', '--fs', 'none', '--no-artifacts', '--format', 'markdown', '--dialect', 'box', before, after], {
      cwd: dir,
      env: plainEnv(),
    });
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.split('\n');
    assert.deepEqual(
      lines.filter((l) => l.startsWith('#')),
      ['## boxwright diff', '### ``x\\n### forged `a`.toml`` → `` `b` ``'],
    );
    assert.ok(
      lines.some((l) => l.startsWith('- new: ') && l.includes('/project/a\\n- 🔒 nothing widens &lt;!-- must exist')),
      r.stdout,
    );
    assert.ok(!lines.some((l) => l.startsWith('- 🔒 nothing widens')));
    assert.ok(!r.stdout.includes('<!--'), r.stdout);
  });
});
