// Hole 2: host sysctls writable as root. bubblewrap's fresh /proc leaves
// /proc/sys writable when boxwright runs as uid 0 (its own cover is skipped
// inside a user namespace), and kernel.core_pattern = |/path would make the
// host kernel run a file of the workload's as root. The view binds the
// host-global entries read-only (targets/linux/model/proc-readonly.json). The
// probe only opens for writing; it never writes, so no host setting changes.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { requireOrSkip } from '../../helpers.js';
import { bare, compiled, isRoot, makeLab, results, sandboxed, skip, withoutOptions, type Lab } from './support.js';

/** Writable as root on this kernel without the covers (an exhaustive scan found /proc/sys and /proc/pressure). */
const TARGETS = [
  '/proc/sys/kernel/core_pattern',
  '/proc/sys/kernel/core_uses_pid',
  '/proc/sys/vm/drop_caches',
  '/proc/sys/fs/file-max',
  '/proc/pressure/cpu',
];

describe('hostile workload: host-global /proc files', { skip, concurrency: 3 }, () => {
  let lab: Lab;
  let config = '';
  before(() => {
    lab = makeLab('proc');
    mkdirSync(join(lab.home, 'work'));
    config = lab.config('c.toml', `[agent.filesystem]\n${lab.base}workspace = "~/work"\n`);
    if (isRoot) lab.giveToNobody();
  });
  after(() => lab.cleanup());

  for (const nobody of isRoot ? [false, true] : [false]) {
    const who = nobody ? 'as an unprivileged user' : isRoot ? 'as root' : 'as this user';
    it(`${who}: /proc/sys and the other host-global entries cannot be opened for writing`, async () => {
      const r = await sandboxed(lab, config, [lab.probe, 'writable', ...TARGETS, '/proc/sysrq-trigger'], [], { nobody });
      assert.equal(r.status, 0, r.stderr);
      const got = results(r.stdout);
      for (const t of TARGETS) assert.ok(['EROFS', 'EACCES'].includes(got[t]!), `${t}: ${got[t]}`);
      if (!nobody && isRoot) for (const t of TARGETS) assert.equal(got[t], 'EROFS', `${t}: read-only mount, not just permissions`);
      assert.ok(['EROFS', 'ENOENT'].includes(got['/proc/sysrq-trigger']!), 'read-only, or absent on a kernel without magic SysRq');
    });
  }

  it('the workload still reads them, and its own /proc/self stays writable', async () => {
    const r = await sandboxed(lab, config, ['sh', '-c', 'cat /proc/sys/kernel/ostype; echo 500 > /proc/self/oom_score_adj && echo adj-ok']);
    assert.equal(r.stdout, 'Linux\nadj-ok\n', r.stderr);
  });

  it('control (as root): the same artifacts without the read-only /proc entries let every one be opened for writing', {
    skip: requireOrSkip(isRoot, 'root (uid 0): the attack on /proc/sys needs it'),
  }, async () => {
    const c = await compiled(lab, config);
    const open = withoutOptions(c.argv, (o, ops) => o === '--ro-bind-try' && ops[0]!.startsWith('/proc/'));
    assert.notDeepEqual(open, c.argv, 'the artifact holds the covers');
    const r = await bare({ ...c, argv: open }, [lab.probe, 'writable', ...TARGETS]);
    const got = results(r.stdout);
    for (const t of TARGETS) assert.equal(got[t], 'ok', `${t} must be writable without the protection: ${r.stdout}${r.stderr}`);
  });
});
