// A deny inside a read of /proc. The model said the denied file is `empty`
// (a read tree above it shows it: explain printed `empty`), but the
// lowering decided "shown" again from its own bind map, where a grant
// under /proc is no bind (the sandbox's own /proc serves it): it added no
// cover, noted "no mount shows it: absent from the view", and the workload
// read the file from the sandbox's /proc. The plan (targets/linux/model/plan.ts)
// covers a deny exactly where the model's cell is empty, so the cover is
// there now; the control is the config without the deny.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bare, compiled, makeLab, sandboxed, skip, type Lab } from './support.js';

describe('hostile workload: a deny inside a read of /proc', { skip, concurrency: 1 }, () => {
  let lab: Lab;
  let config = '';
  const read = ['/usr/bin/cat', '/proc/version'];
  before(() => {
    lab = makeLab('deny-proc');
    config = lab.config(
      'c.toml',
      `[agent.filesystem]\n${lab.base.replace('read = ["/usr"]', 'read = ["/usr", "/proc"]')}deny = ["/proc/version"]\n`,
    );
  });
  after(() => lab.cleanup());

  it("the denied /proc file reads empty and cannot be written; the rest of /proc is the sandbox's own", async () => {
    const c = await compiled(lab, config);
    const at = c.argv.indexOf('/proc/version');
    assert.deepEqual(
      c.argv.slice(at - 4, at + 1),
      ['--perms', '0444', '--ro-bind-data', c.argv[at - 1]!, '/proc/version'],
      'an empty read-only file covers it',
    );
    const r = await sandboxed(lab, config, read);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, '', 'the cover is empty');
    const w = await sandboxed(lab, config, ['/usr/bin/sh', '-c', 'echo x > /proc/version']);
    assert.notEqual(w.status, 0);
    const self = await sandboxed(lab, config, ['/usr/bin/cat', '/proc/self/comm']);
    assert.equal(self.stdout, 'cat\n', self.stderr);
  });

  it('control: without the deny (what the lowering gave before: no cover) the workload reads the file', async () => {
    const open = lab.config('open.toml', `[agent.filesystem]\n${lab.base.replace('read = ["/usr"]', 'read = ["/usr", "/proc"]')}`);
    const c = await compiled(lab, open);
    assert.ok(!c.argv.includes('/proc/version'), 'no cover');
    const r = await bare(c, read);
    assert.match(r.stdout, /^Linux version /, r.stderr);
  });
});
