// Hole 1: inherited file descriptors. bubblewrap closes nothing it did not
// open, so a directory descriptor that boxwright's caller left inheritable
// (a shell's `exec 9<~`, a harness's pipe) would let the command read and
// write the host through /proc/self/fd/9/… outside every grant. The runner
// closes them; --pass-fd N lets one through on purpose. (Node itself marks
// descriptors 0–15 close-on-exec at start-up; 100 and 200 are beyond that,
// so only the runner stands between them and the command.)
import assert from 'node:assert/strict';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bare, compiled, isRoot, makeLab, results, sandboxed, skip, type Lab } from './support.js';

describe('hostile workload: inherited descriptors', { skip, concurrency: 3 }, () => {
  let lab: Lab;
  let config = '';
  let outside = '';
  let dirFd = -1;
  before(() => {
    lab = makeLab('fds');
    outside = join(lab.home, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.txt'), 'host secret');
    mkdirSync(join(lab.home, 'work'));
    config = lab.config('c.toml', `[agent.filesystem]\n${lab.base}read_file = []\nworkspace = "~/work"\n`);
    if (isRoot) lab.giveToNobody();
    chmodSync(outside, 0o777); // writable for root without capabilities and for nobody alike
    // A directory outside every grant, open without close-on-exec in boxwright's parent.
    dirFd = openSync(outside, 'r');
  });
  after(() => {
    closeSync(dirFd);
    lab.cleanup();
  });

  for (const nobody of isRoot ? [false, true] : [false]) {
    const who = nobody ? 'as an unprivileged user' : isRoot ? 'as root' : 'as this user';
    it(`${who}: the command starts with stdin, stdout and stderr only`, async () => {
      const r = await sandboxed(lab, config, [lab.probe, 'fds'], [], { fds: { 9: dirFd, 100: dirFd, 200: dirFd }, nobody });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(results(r.stdout).fds, '0,1,2');
    });

    it(`${who}: an inherited directory descriptor reads and writes nothing of the host`, async () => {
      const read = await sandboxed(lab, config, [lab.probe, 'fdread', '100', 'secret.txt'], [], { fds: { 100: dirFd }, nobody });
      assert.equal(results(read.stdout).openat, 'EBADF', read.stdout + read.stderr);
      assert.ok(!read.stdout.includes('host secret'));
      const write = await sandboxed(lab, config, [lab.probe, 'fdwrite', '100', 'planted.txt'], [], { fds: { 100: dirFd }, nobody });
      assert.equal(results(write.stdout).create, 'EBADF');
      assert.ok(!existsSync(join(outside, 'planted.txt')));
    });
  }

  it('control: bare bubblewrap with the same artifacts hands the descriptor down, and the probe reads and writes the host', async () => {
    const c = await compiled(lab, config);
    const read = await bare(c, [lab.probe, 'fdread', '100', 'secret.txt'], { fds: { 100: dirFd } });
    assert.equal(results(read.stdout).content, 'host secret', read.stdout + read.stderr);
    const write = await bare(c, [lab.probe, 'fdwrite', '100', 'planted-by-control.txt'], { fds: { 100: dirFd } });
    assert.equal(results(write.stdout).write, 'ok');
    assert.equal(readFileSync(join(outside, 'planted-by-control.txt'), 'utf8'), 'planted\n');
  });

  it('--pass-fd N lets exactly that descriptor through, under its number', async () => {
    const r = await sandboxed(lab, config, [lab.probe, 'fds'], ['--pass-fd', '100'], { fds: { 9: dirFd, 100: dirFd, 200: dirFd } });
    assert.equal(results(r.stdout).fds, '0,1,2,100', r.stderr);
    // A passed directory is a way out of the view: Landlock (the default) still confines what is opened through it.
    const read = await sandboxed(lab, config, [lab.probe, 'fdread', '100', 'secret.txt'], ['--pass-fd', '100', '--landlock', 'off'], {
      fds: { 100: dirFd },
    });
    assert.equal(results(read.stdout).content, 'host secret');
    const confined = await sandboxed(lab, config, [lab.probe, 'fdread', '100', 'secret.txt'], ['--pass-fd', '100'], {
      fds: { 100: dirFd },
    });
    assert.equal(results(confined.stdout).openat, 'EACCES', confined.stdout);
  });

  it('-v names the descriptors it closed; --pass-fd takes descriptors above 2 only', async () => {
    const r = await sandboxed(lab, config, [lab.probe, 'fds'], ['-v'], { fds: { 100: dirFd, 200: dirFd } });
    assert.match(r.stderr, /closed inherited descriptors (\d+, )*100, 200\b/);
    const bad = await sandboxed(lab, config, [lab.probe, 'fds'], ['--pass-fd', '1']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--pass-fd takes a descriptor number above 2/);
  });
});
