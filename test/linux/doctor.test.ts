// `boxwright doctor` reports the real state of this machine: real trials
// under bubblewrap when it is there; a missing or broken bwrap fails with a fix.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { requireOrSkip } from '../helpers.js';
import { boxwright, bwrapAvailable } from './support.js';

interface Report {
  version: number;
  platform: string;
  ok: boolean;
  findings: { id: string; status: string; title: string; detail: string; fix?: string }[];
}

const scratch = mkdtempSync(join(tmpdir(), 'boxwright-doctor-test-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

describe('boxwright doctor', {
  skip: requireOrSkip(process.platform === 'linux', 'a Linux host (doctor qualifies Linux machines)'),
  concurrency: true,
}, () => {
  it('qualifies this machine: bwrap and its version, namespaces, seccomp, the full set-up, architecture, kernel', {
    skip: requireOrSkip(bwrapAvailable, 'bubblewrap'),
  }, async () => {
    const r = await boxwright(['doctor', '--format', 'json']);
    const report = JSON.parse(r.stdout) as Report;
    assert.equal(report.version, 1);
    const byId = new Map(report.findings.map((f) => [f.id, f]));
    for (const id of ['architecture', 'kernel', 'launcher', 'landlock', 'bwrap', 'namespaces', 'seccomp', 'mount-setup'])
      assert.ok(byId.has(id), `finding ${id}`);
    // The ABI as Python's ctypes gets it from the same system call (landlock_create_ruleset, VERSION flag).
    const py = spawnSync(
      'python3',
      ['-c', 'import ctypes; l = ctypes.CDLL(None, use_errno=True); print(max(l.syscall(444, None, 0, 1), 0))'],
      { encoding: 'utf8' },
    );
    assert.equal(py.status, 0, py.stderr);
    assert.match(byId.get('landlock')!.detail, py.stdout.trim() === '0' ? /no Landlock \(ABI 0/ : new RegExp(`^ABI ${py.stdout.trim()}:`));
    assert.match(byId.get('launcher')!.detail, /^boxwright-sandbox \S+ \((x86_64|aarch64), launch format 3\)/);
    assert.match(byId.get('bwrap')!.detail, /^bubblewrap \d+\.\d+/);
    assert.equal(byId.get('namespaces')!.status, 'ok');
    assert.match(byId.get('seccomp')!.detail, /Seccomp: 2/);
    assert.equal(
      report.ok,
      report.findings.every((f) => f.status !== 'fail'),
    );
    assert.equal(r.status, report.ok ? 0 : 1);
    for (const f of report.findings) if (f.status === 'fail') assert.ok(f.fix, `${f.id} fails with a fix`);
    const text = await boxwright(['doctor']);
    assert.match(text.stdout, /✓ bubblewrap +bubblewrap \d/);
    assert.equal(text.status, r.status);
  });

  it('a missing bwrap fails, exit 1, with the install line', async () => {
    const r = await boxwright(['doctor', '--format', 'json'], { env: { BOXWRIGHT_BWRAP: join(scratch, 'missing', 'bwrap') } });
    assert.equal(r.status, 1);
    const f = (JSON.parse(r.stdout) as Report).findings.find((x) => x.id === 'bwrap')!;
    assert.equal(f.status, 'fail');
    assert.match(f.fix!, /apt-get install bubblewrap/);
  });

  it('a bwrap that cannot make namespaces fails the trial, with hints', async () => {
    const fake = join(scratch, 'bwrap');
    writeFileSync(
      fake,
      '#!/bin/sh\nif [ "$1" = --version ]; then echo "bubblewrap 0.8.0"; exit 0; fi\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n',
    );
    chmodSync(fake, 0o755);
    const r = await boxwright(['doctor', '--format', 'json'], { env: { BOXWRIGHT_BWRAP: fake } });
    assert.equal(r.status, 1);
    const report = JSON.parse(r.stdout) as Report;
    const ns = report.findings.find((x) => x.id === 'namespaces')!;
    assert.equal(ns.status, 'fail');
    assert.match(ns.detail, /No permissions to create new namespace/);
    assert.ok(ns.fix && ns.fix.length > 10);
  });

  it('an old bwrap is refused: the runner needs --json-status-fd', async () => {
    const fake = join(scratch, 'old-bwrap');
    writeFileSync(fake, '#!/bin/sh\necho "bubblewrap 0.3.1"\n');
    chmodSync(fake, 0o755);
    const r = await boxwright(['doctor', '--format', 'json'], { env: { BOXWRIGHT_BWRAP: fake } });
    assert.equal(r.status, 1);
    const f = (JSON.parse(r.stdout) as Report).findings.find((x) => x.id === 'bwrap')!;
    assert.equal(f.status, 'fail');
    assert.match(f.fix!, /upgrade bubblewrap/);
  });

  it('says what running as root means for the sandbox (a warning with the fix), and what running as a user means', async () => {
    const r = await boxwright(['doctor', '--format', 'json']);
    const f = (JSON.parse(r.stdout) as Report).findings.find((x) => x.id === 'identity')!;
    if (process.getuid?.() === 0) {
      assert.equal(f.status, 'warn');
      assert.match(f.detail, /uid 0 of the host's kernel, without capabilities/);
      assert.match(f.detail, /\/proc\/sys.*bound read-only/);
      assert.match(f.detail, /set-id mode bits are refused/);
      assert.match(f.fix!, /unprivileged user/);
    } else {
      assert.equal(f.status, 'info');
      assert.match(f.detail, /the workload is this user on the host/);
    }
  });

  it('a bwrap without --ro-bind-fd fails the set-up trial: the runner mounts only from verified descriptors', {
    skip: requireOrSkip(bwrapAvailable, 'bubblewrap'),
  }, async () => {
    const fake = join(scratch, 'no-bind-fd-bwrap');
    // A real bwrap, except that it does not know the descriptor binds (as upstream before 0.10.0).
    writeFileSync(
      fake,
      `#!/bin/sh
for a in "$@"; do case "$a" in --ro-bind-fd|--bind-fd) echo "bwrap: Unknown option $a" >&2; exit 1;; esac; done
exec bwrap "$@"
`,
    );
    chmodSync(fake, 0o755);
    const r = await boxwright(['doctor', '--format', 'json'], { env: { BOXWRIGHT_BWRAP: fake } });
    assert.equal(r.status, 1);
    const f = (JSON.parse(r.stdout) as Report).findings.find((x) => x.id === 'mount-setup')!;
    assert.equal(f.status, 'fail');
    assert.match(f.fix!, /no --bind-fd\/--ro-bind-fd .* upgrade bubblewrap/);
  });
});
