// learn's review as a view of the run's decision (app/learn/review.ts): what
// programs.json predicts a program may need later is a warning only where the
// run itself reached it ungranted; --check reports a failure only where the
// learning run's same call succeeded and never failed the same way. Judged on
// this machine's real make and dash (the host view), as learn judges them.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { checkConfig, type CheckedPolicy } from '../../app/check.js';
import type { Need } from '../../app/learn/needs.js';
import { reviewDiagnostics, stillFailing } from '../../app/learn/review.js';
import type { Access, WorkloadTrace } from '../../app/learn/trace.js';
import { hostView } from '../../compiler/paths/index.js';
import { requireOrSkip } from '../helpers.js';

const HOME = '/home/nobody-here';
const skip =
  requireOrSkip(process.platform === 'linux', 'Linux') ??
  requireOrSkip(existsSync('/usr/bin/make') && existsSync('/usr/bin/dash'), 'make and dash in /usr/bin');

/** make with what it needs to start (its loader and libraries, through their links) and nothing it may run. */
const MAKE =
  '[agent.filesystem]\nread = ["/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/etc/alternatives"]\nread_file = ["/etc/ld.so.cache"]\nexec = ["/usr/bin/make"]\n';

function check(text: string): CheckedPolicy {
  const c = checkConfig(Buffer.from(text, 'utf8'), { file: 'learned.toml', view: hostView(HOME), worktree: '/' });
  assert.ok(c.ir);
  return c;
}
const need = (path: string, kind: Need['kind']): Need => ({
  path,
  kind,
  is: 'file',
  count: 1,
  first: { syscall: 'execve', program: '/usr/bin/make', named: path },
});
const warnsMake = (d: readonly { ruleId: string; severity: string; message: string }[]): boolean =>
  d.some((x) => x.ruleId === 'exec-dependencies' && x.severity === 'warning' && x.message.includes('/usr/bin/dash'));

describe("learn's review: one decision with the run and --check", { skip }, () => {
  it("says make's /bin/sh is beyond a run that ran no shell, and warns where the run ran it ungranted", () => {
    const c = check(MAKE);
    // The control: lint alone predicts the shell (programs.json) and warns.
    assert.ok(warnsMake(c.diagnostics), 'lint warns that make fails when it gets to /bin/sh');
    const none = reviewDiagnostics(c, 'agent', [need('/usr/bin/make', 'exec')]);
    assert.ok(!warnsMake(none.diagnostics), 'a run that ran no shell: no warning');
    assert.match(none.beyondRun.join('\n'), /\/usr\/bin\/make may also need the programs? it runs \(\/usr\/bin\/dash/);
    assert.equal(none.verdicts.linux, 'accepted', 'nor a warning verdict for it');
    const fact = none.check.model.principals[0]!.grants.find((g) => g.grant.path === '/usr/bin/make')!.disclosures.linux ?? [];
    assert.ok(!fact.some((m) => m.kind === 'exec-needs-missing'), "explain's matrix does not say it either");
    // The run executed the shell, and the config does not give it: a defect run and --check meet too.
    const ran = reviewDiagnostics(c, 'agent', [need('/usr/bin/make', 'exec'), need('/usr/bin/dash', 'exec')]);
    assert.ok(warnsMake(ran.diagnostics), 'the warning stays');
    assert.deepEqual(ran.beyondRun, []);
  });

  it('--check: a failure is the same call at the same path that succeeded while learning and never failed the same way', () => {
    const a = (syscall: string, op: Access['op'], path: string, errno?: string): Access => ({
      pid: 1,
      program: '/usr/bin/cc',
      syscall,
      op,
      path,
      ok: !errno,
      ...(errno ? { errno } : {}),
    });
    const trace = (accesses: Access[]): WorkloadTrace => ({ accesses, started: true, unread: 0, processes: 1 });
    const learned = trace([
      a('newfstatat', 'stat', '/usr/include'),
      a('readlink', 'stat', '/usr/include', 'EINVAL'),
      a('newfstatat', 'stat', '/w/hello', 'ENOENT'),
      a('newfstatat', 'stat', '/w/hello'),
      a('openat', 'read', '/w/hello.c'),
      a('newfstatat', 'stat', '/usr/local/include'),
    ]);
    const checked = trace([
      a('readlink', 'stat', '/usr/include', 'EINVAL'),
      a('newfstatat', 'stat', '/w/hello', 'ENOENT'),
      a('openat', 'read', '/w/hello.c', 'EACCES'),
      a('newfstatat', 'stat', '/usr/local/include', 'ENOENT'),
    ]);
    const dirStat: Need = {
      ...need('/usr/local/include', 'stat'),
      is: 'dir',
      first: { syscall: 'newfstatat', program: 'cc', named: '/usr/local/include' },
    };
    assert.deepEqual(
      stillFailing(learned, checked, [dirStat]).map((x) => `${x.syscall} ${x.path} ${x.errno}`),
      ['openat /w/hello.c EACCES'],
    );
  });
});
