// A one-file entry that names a directory. The model gives a `read_file` or
// `write_file` the path alone, but Linux can only bind a directory with
// everything below it: `write_file = ["~/.cache"]` let the workload create
// files in the tree (and replace the run cache's launcher, which ran
// outside the sandbox on the next run), `read_file = ["~/s"]` let it read
// every file below. Linux refuses such an entry now (file-entry-on-directory):
// nothing runs. The control shows what the directory's bind gives.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bare, compiled, makeLab, sandboxed, skip, type Lab } from './support.js';

describe('hostile workload: a one-file entry that names a directory', { skip, concurrency: 1 }, () => {
  let lab: Lab;
  let writeConfig = '';
  let readConfig = '';
  const plant = (): string[] => ['sh', '-c', `echo planted > ${join(lab.home, 'd', 'planted')}; echo "rc=$?"`];
  const peek = (): string[] => ['sh', '-c', `cat ${join(lab.home, 's', 'secret')}; echo "[end]"`];
  before(() => {
    lab = makeLab('file-entry');
    mkdirSync(join(lab.home, 'd'));
    mkdirSync(join(lab.home, 's'));
    writeFileSync(join(lab.home, 's', 'secret'), 'TOP SECRET\n');
    writeConfig = lab.config(
      'w.toml',
      `[agent.filesystem]\n${lab.base.replace('read = ["/usr"]', 'read = ["/usr", "~/d"]')}write_file = ["~/d"]\n`,
    );
    readConfig = lab.config('r.toml', `[agent.filesystem]\n${lab.base}read_file = ["~/s"]\n`);
  });
  after(() => lab.cleanup());

  it('write_file of a directory: run refuses (125), nothing is created in it', async () => {
    const r = await sandboxed(lab, writeConfig, plant());
    assert.equal(r.status, 125, r.stdout + r.stderr);
    assert.match(r.stderr, /`write_file` names a directory, .*\/d: Linux mounts a directory with everything below it/);
    assert.match(r.stderr, /the command did not run/);
    assert.equal(r.stdout, '');
    assert.ok(!existsSync(join(lab.home, 'd', 'planted')));
  });

  it('read_file of a directory: run refuses (125), nothing below it is read', async () => {
    const r = await sandboxed(lab, readConfig, peek());
    assert.equal(r.status, 125, r.stdout + r.stderr);
    assert.match(r.stderr, /`read_file` names a directory/);
    assert.doesNotMatch(r.stdout, /TOP SECRET/);
  });

  it('control: the lowering a write_file of a directory gets (compile --force) binds the whole tree, and the file is planted', async () => {
    const w = await compiled(lab, writeConfig, 'agent', ['--force']);
    assert.ok(w.argv.join('\0').includes(['--bind', join(lab.home, 'd'), join(lab.home, 'd')].join('\0')), 'a --bind of the directory');
    const planted = await bare(w, plant());
    assert.match(planted.stdout, /rc=0/, planted.stderr);
    assert.ok(existsSync(join(lab.home, 'd', 'planted')), 'a bind of the directory lets the workload create a file in it');
  });
});
