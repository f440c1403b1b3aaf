// Hole 7: check-then-mount. boxwright checks the path facts, then
// bubblewrap mounts by path; a principal that can write a parent of another
// principal's grant swaps the grant for a symbolic link in between, and the
// next sandbox mounts the link's target (6–10 of 25 runs, in review). Now
// the launcher (targets/linux/launcher/bwrap-argv.c) opens every bind
// source without following links, proves the opened object is the checked
// canonical path, and bubblewrap binds the descriptor; the last case runs
// that very C code on the swapped sources. The race is made deterministic: a bwrap wrapper performs the
// writer principal's swap at the worst instant — after every check
// boxwright makes, before bubblewrap mounts anything.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, lstatSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, after, before, describe, it } from 'node:test';
import { requireOrSkip } from '../../helpers.js';
import { onPath } from '../support.js';
import { bare, compiled, isRoot, makeLab, sandboxed, skip, type Lab } from './support.js';
import { cc, rewriteDriver } from '../rewrite-argv.js';

describe('hostile workload: a grant swapped for a link between check and mount', { skip, concurrency: 1 }, () => {
  let lab: Lab;
  let config = '';
  let data = '';
  let swapper = '';
  before(() => {
    lab = makeLab('race');
    data = join(lab.home, 'shared', 'data');
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, 'file.txt'), 'public');
    mkdirSync(join(lab.home, 'elsewhere'));
    writeFileSync(join(lab.home, 'elsewhere', 'file.txt'), 'SECRET from elsewhere');
    config = lab.config(
      'c.toml',
      `[agent.filesystem]\n${lab.base.replace('read = ["/usr"]', 'read = ["/usr", "~/shared/data"]')}\n[tools.writer.filesystem]\nread = ["~/shared"]\nwrite = ["~/shared"]\n`,
    );
    swapper = join(lab.home, 'bin', 'bwrap-after-swap');
    writeFileSync(
      swapper,
      `#!/bin/sh\n# The writer principal's move, at the instant between boxwright's checks and the mounts.\nmv '${data}' '${data}.orig' && ln -s '${join(lab.home, 'elsewhere')}' '${data}' || exit 99\nexec '${onPath('bwrap')}' "$@"\n`,
    );
    chmodSync(swapper, 0o755);
  });
  afterEach(() => {
    if (lstatSync(data).isSymbolicLink()) {
      rmSync(data);
      renameSync(`${data}.orig`, data);
    }
  });
  after(() => lab.cleanup());

  // boxwright runs only a bubblewrap that is root's alone: the stand-in is made as root.
  it('the sandbox mounts the directory that was checked, not the link swapped in after the check', {
    skip: requireOrSkip(isRoot, "root (a stand-in bubblewrap must be root's for boxwright to run it)"),
  }, async () => {
    const r = await sandboxed(lab, config, ['cat', join(data, 'file.txt')], [], { env: { BOXWRIGHT_BWRAP: swapper } });
    assert.ok(lstatSync(data).isSymbolicLink(), 'the swap happened before the mounts');
    assert.equal(r.stdout, 'public', r.stderr);
  });

  it('control: bubblewrap mounting by path (the artifacts run by hand) follows the link to the other directory', async () => {
    const c = await compiled(lab, config);
    const r = await bare(c, ['cat', join(data, 'file.txt')], { bwrap: swapper });
    assert.ok(lstatSync(data).isSymbolicLink());
    assert.equal(r.stdout, 'SECRET from elsewhere', r.stderr);
  });

  // The launcher's own check (bwrap-argv.c, the code on the run path), on a compiled argv.
  it('a source that changed before the launcher opened it is refused: nothing is mounted, nothing runs', {
    skip: requireOrSkip(!!cc, "a C compiler (the launcher's bwrap-argv.c)"),
  }, async () => {
    const c = await compiled(lab, config);
    const driver = rewriteDriver();
    try {
      assert.ok(driver.rewrite(c.argv).ok, 'control: the unchanged sources are accepted');
      renameSync(data, `${data}.orig`);
      symlinkSync(join(lab.home, 'elsewhere'), data);
      const refused = (path: string, why: RegExp): void => {
        const r = driver.rewrite(['--ro-bind', path, path]);
        assert.ok(!r.ok && r.changed, path);
        assert.match(r.message, why);
        assert.match(r.message, /nothing was mounted from it$/);
      };
      const swapped = driver.rewrite(c.argv);
      assert.ok(
        !swapped.ok && swapped.changed && /changed after it was checked \(it is now a symbolic link\)/.test(swapped.message),
        'the compiled argv, its grant swapped: refused',
      );
      refused(data, /changed after it was checked \(it is now a symbolic link\)/);
      refused(join(data, 'file.txt'), /changed after it was checked \(it is now ".*elsewhere\/file.txt"\)/);
      refused(join(lab.home, 'shared', 'gone'), /changed after it was checked \(cannot open it: No such file or directory\)/);
      assert.ok(existsSync(join(lab.home, 'elsewhere', 'file.txt')));
    } finally {
      driver.cleanup();
    }
  });
});
