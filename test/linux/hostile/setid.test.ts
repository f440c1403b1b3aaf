// Hole 3: setuid files planted on the host. As root, `cp /usr/bin/id out/x
// && chmod 4755 out/x` inside left a setuid-root program in the write tree
// on the host. The filter refuses the set-id bits in every chmod-family
// call and every creation mode (seccomp rules setid-mode-*), so no file the
// workload creates or changes carries them; the probe (probes/probe.c)
// tries chmod, fchmod, fchmodat, fchmodat2, open, openat, creat and mknod,
// and chmod with junk in the mode's high word.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bare, compiled, isRoot, makeLab, programWithout, results, sandboxed, skip, type Lab } from './support.js';

const CALLS = ['chmod', 'chmod-highword', 'fchmod', 'fchmodat', 'fchmodat2', 'open', 'openat', 'creat', 'mknod'];
const SETID_RULES = ['setid-mode-fchmod', 'setid-mode-path', 'setid-mode-at', 'setid-mode-open', 'setid-mode-openat'];

describe('hostile workload: set-id bits on the host', { skip, concurrency: 3 }, () => {
  let lab: Lab;
  let config = '';
  const out = (name: string): string => join(lab.home, 'out', name);
  /** The set-id bits of every file the probe left in out/NAME, as the host sees them. */
  const hostModes = (name: string): Record<string, number> =>
    Object.fromEntries(readdirSync(out(name)).map((f) => [f, statSync(join(out(name), f)).mode & 0o6000]));
  before(() => {
    lab = makeLab('setid');
    for (const d of ['root', 'nobody', 'control', 'shell']) mkdirSync(out(d), { recursive: true });
    config = lab.config(
      'c.toml',
      `[agent.filesystem]\n${lab.base.replace('read = ["/usr"]', 'read = ["/usr", "~/out"]')}write = ["~/out"]\n`,
    );
    if (isRoot) lab.giveToNobody();
    for (const d of ['out', 'out/root', 'out/control', 'out/shell']) chmodSync(join(lab.home, d), 0o777);
  });
  after(() => lab.cleanup());

  for (const nobody of isRoot ? [false, true] : [false]) {
    const who = nobody ? 'as an unprivileged user' : isRoot ? 'as root' : 'as this user';
    it(`${who}: every way to set a setuid or setgid bit fails with EPERM, and the host sees none`, async () => {
      const dir = out(nobody || !isRoot ? 'nobody' : 'root');
      const r = await sandboxed(lab, config, [lab.probe, 'setuid', dir], [], { nobody });
      assert.equal(r.status, 0, r.stderr);
      const got = results(r.stdout);
      for (const call of CALLS) assert.equal(got[call], 'EPERM', `${call}: ${r.stdout}`);
      for (const [f, bits] of Object.entries(hostModes(nobody || !isRoot ? 'nobody' : 'root')))
        assert.equal(bits, 0, `${f} carries set-id bits on the host`);
    });
  }

  it('the shell attack: cp /usr/bin/id out/x && chmod 4755 out/x leaves no setuid program', async () => {
    const r = await sandboxed(lab, config, [
      'sh',
      '-c',
      `cp /usr/bin/id ${out('shell')}/x && chmod 4755 ${out('shell')}/x; echo "chmod=$?"; chmod u+x,g+s ${out('shell')}/x; echo "gplus=$?"`,
    ]);
    assert.match(r.stdout, /chmod=[1-9]/);
    assert.match(r.stdout, /gplus=[1-9]/);
    assert.equal(statSync(join(out('shell'), 'x')).mode & 0o6000, 0);
  });

  it('ordinary modes still work: chmod 755, 644, the sticky bit', async () => {
    const r = await sandboxed(lab, config, [
      'sh',
      '-c',
      `f=${out('shell')}/plain; : > $f && chmod 755 $f && chmod 644 $f && mkdir -p ${out('shell')}/d && chmod 1777 ${out('shell')}/d && echo fine`,
    ]);
    assert.equal(r.stdout, 'fine\n', r.stderr);
    assert.equal(statSync(join(out('shell'), 'd')).mode & 0o7777, 0o1777);
  });

  it('control: the same artifacts with a filter lacking the set-id rules plant setuid and setgid files on the host', async () => {
    const c = await compiled(lab, config);
    const r = await bare({ ...c, bpf: programWithout(SETID_RULES) }, [lab.probe, 'setuid', out('control')]);
    const got = results(r.stdout);
    for (const call of CALLS) assert.equal(got[call], 'ok', `${call} must succeed without the rules: ${r.stdout}${r.stderr}`);
    const modes = hostModes('control');
    assert.ok(
      Object.values(modes).every((bits) => bits !== 0),
      `every probe file carries a set-id bit on the host: ${JSON.stringify(modes)}`,
    );
    rmSync(out('control'), { recursive: true, force: true });
  });
});
