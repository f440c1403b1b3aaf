// Hole 4: terminal injection. --new-session stops the plain TIOCSTI attack,
// but a child that calls setsid() and then TIOCSCTTY on a terminal that is
// no other session's controlling tty (one a harness opened for the agent)
// can push keystrokes into it, for whatever reads it next. The filter
// refuses ioctl TIOCSTI and TIOCLINUX on the request's low 32 bits
// (seccomp rules tty-inject, tty-linux), as Flatpak's does.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bare, compiled, isRoot, makeLab, programWithout, results, sandboxed, skip, type Lab } from './support.js';

/** Whether this kernel still honours TIOCSTI at all (dev.tty.legacy_tiocsti, 6.2+); the control needs it. */
const legacyTiocsti =
  !existsSync('/proc/sys/dev/tty/legacy_tiocsti') || readFileSync('/proc/sys/dev/tty/legacy_tiocsti', 'utf8').trim() === '1';

describe('hostile workload: terminal injection', { skip, concurrency: 2 }, () => {
  let lab: Lab;
  let config = '';
  before(() => {
    lab = makeLab('tty');
    mkdirSync(join(lab.home, 'work'));
    config = lab.config('c.toml', `[agent.filesystem]\n${lab.base}workspace = "~/work"\n`);
    if (isRoot) lab.giveToNobody();
  });
  after(() => lab.cleanup());

  for (const nobody of isRoot ? [false, true] : [false]) {
    const who = nobody ? 'as an unprivileged user' : isRoot ? 'as root' : 'as this user';
    it(`${who}: the workload can take the free terminal, but TIOCSTI and TIOCLINUX fail with EPERM, whatever the high word`, async () => {
      const r = await sandboxed(lab, config, [lab.probe, 'tiocsti'], [], { wrap: [lab.ptyrun], nobody });
      const got = results(r.stdout);
      assert.equal(got.tiocsctty, 'ok', `the attack's first step works, so the filter is what stops it: ${r.stdout}${r.stderr}`);
      assert.equal(got.tiocsti, 'EPERM');
      assert.equal(got['tiocsti-highword'], 'EPERM');
      assert.equal(got.tioclinux, 'EPERM');
      assert.equal(got.injected, undefined, 'nothing was injected');
    });
  }

  it('control: the same artifacts with a filter lacking the tty rules let the injected keystroke through', async () => {
    const c = await compiled(lab, config);
    const r = await bare({ ...c, bpf: programWithout(['tty-inject', 'tty-linux']) }, [lab.probe, 'tiocsti'], { wrap: [lab.ptyrun] });
    const got = results(r.stdout);
    assert.equal(got.tiocsctty, 'ok', r.stdout + r.stderr);
    assert.notEqual(
      got.tioclinux,
      'EPERM',
      'off a virtual console TIOCLINUX fails otherwise (ENOTTY/EINVAL): the EPERM above is the filter',
    );
    if (!legacyTiocsti) return assert.equal(got.tiocsti, 'EIO', 'dev.tty.legacy_tiocsti=0: this kernel refuses TIOCSTI itself');
    assert.equal(got.tiocsti, 'ok');
    assert.equal(got.injected, 'Z', 'the keystroke reached the terminal input queue');
  });
});
