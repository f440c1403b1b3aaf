// The compiled profiles, read by the tests' SBPL evaluator (sbpl-eval.ts):
// one test per finding of the evaluator and of the review of the profiles
// (issue 23), each on a config written for it, each asking the profile
// what the model's cell (and so explain) says. The differential test
// (model-vs-sbpl.test.ts) finds such classes on generated configs; these
// pin each one down.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runsRoot, sessionSetup } from '../../targets/macos/run/sandbox-exec.js';
import type { CompileOutcome } from '../../app/cli/compile.js';
import { legend } from '../../model/cell.js';
import { profileName } from '../../targets/macos/profile.js';
import { compileText } from '../compile-helpers.js';
import { observe, observedLegend, type ObjectKind } from './sbpl-cells.js';
import { ProfileLoadError, SbplProfile } from './sbpl-eval.js';
import { artifactsOf, principalsOf } from './support.js';

async function compiled(
  toml: string,
  extra: Parameters<typeof compileText>[2] = {},
): Promise<{ outcome: CompileOutcome; profile: (id?: string, params?: Record<string, string>) => SbplProfile }> {
  const outcome = await compileText(toml, 'macos', extra);
  const artifacts = artifactsOf(outcome);
  return {
    outcome,
    profile: (id = 'agent', params = {}) => new SbplProfile(artifacts.find((a) => a.name === profileName(id))!.content, params),
  };
}

/** The model's macOS legend and the profile's at a path, side by side. */
async function both(toml: string, path: string, kind: ObjectKind, id = 'agent'): Promise<{ model: string; profile: string }> {
  const { outcome, profile } = await compiled(toml);
  const pa = principalsOf(outcome).find((p) => p.principal.id === id)!;
  return { model: legend(pa.effectiveAt(path, 'macos')), profile: observedLegend(observe(profile(id), path, kind)) };
}

describe('macos profiles, evaluated: what explain says is what the profile gives', () => {
  it('exec of a directory grants its tree: a program below it runs, as explain says', async () => {
    const toml = '[agent.filesystem]\nexec = ["~/results"]\n';
    assert.deepEqual(await both(toml, '/home/dev/results/output.txt', 'file'), { model: 'x', profile: 'x' });
    assert.deepEqual(await both(toml, '/home/dev/results', 'dir'), { model: 'x', profile: 'x' });
    assert.deepEqual(await both(toml, '/home/dev/results/output.txt', 'file', 'agent'), { model: 'x', profile: 'x' });
    // A file below it with its own read: read and run.
    assert.deepEqual(
      await both(
        '[agent.filesystem]\nexec = ["~/results"]\nread_file = ["~/results/summary.txt"]\n',
        '/home/dev/results/summary.txt',
        'file',
      ),
      { model: 'rx', profile: 'rx' },
    );
  });

  it("list of a regular file exposes no content: the profile gives its properties, and explain says meta, with lint's warning", async () => {
    const toml = '[agent.filesystem]\nlist = ["~/results/output.txt", "~/inbox"]\n';
    assert.deepEqual(await both(toml, '/home/dev/results/output.txt', 'file'), { model: 'meta', profile: 'meta' });
    assert.deepEqual(await both(toml, '/home/dev/inbox', 'dir'), { model: 'names', profile: 'names' });
    const { outcome } = await compiled(toml);
    const warning = outcome.check.diagnostics.find((d) => d.ruleId === 'list-without-content' && d.platforms.includes('macos'));
    assert.ok(
      warning && warning.severity === 'warning' && warning.message.includes('no entry names'),
      JSON.stringify(outcome.check.diagnostics.map((d) => d.message)),
    );
  });

  it('a read_file or write_file naming a directory gives the directory entry alone: what lies below is not read, and nothing is created in it', async () => {
    // examples/read-file-cannot-cover-dir.toml: the grants do not add up to read-write below the directory.
    const toml = '[agent.filesystem]\nread_file = ["~/project/output"]\nwrite = ["~/project/output"]\n';
    assert.deepEqual(await both(toml, '/home/dev/project/output', 'dir'), { model: 'w', profile: 'w' });
    assert.deepEqual(await both(toml, '/home/dev/project/output/new.txt', 'absent'), { model: 'w', profile: 'w' });
    assert.deepEqual(await both('[agent.filesystem]\nread_file = ["~/inbox"]\n', '/home/dev/inbox', 'dir'), {
      model: 'names',
      profile: 'names',
    });
    assert.deepEqual(
      await both('[agent.filesystem]\nread = ["~/project"]\nwrite_file = ["~/project/output"]\n', '/home/dev/project/output', 'dir'),
      { model: 'r', profile: 'r' },
    );
    assert.deepEqual(await both('[tools.t.filesystem]\nwrite_file = ["~/inbox"]\n', '/home/dev/inbox', 'dir', 'tool.t'), {
      model: '—',
      profile: '—',
    });
  });

  it("the baseline: the user's other terminals are not readable without the pty extension (a terminal this sandbox opened has it); the terminal it was started on can be written", async () => {
    const p = (await compiled('[agent.filesystem]\nread = ["~/project"]\n')).profile();
    const tty = (operation: string, extensions: string[] = []) =>
      p.allows({ operation, path: '/dev/ttys004', vnode: 'CHARACTER-DEVICE', extensions });
    assert.equal(tty('file-read-data'), false, "another terminal's input");
    assert.equal(tty('file-read-data', ['com.apple.sandbox.pty']), true, 'a pty the sandbox opened');
    assert.equal(tty('file-write-data'), true, 'the inherited terminal: output');
    assert.equal(tty('file-ioctl'), true, 'the inherited terminal: termios, window size');
    assert.equal(p.allows({ operation: 'file-read-data', path: '/dev/ptmx', vnode: 'CHARACTER-DEVICE' }), true);
    assert.equal(p.allows({ operation: 'pseudo-tty' }), true);
  });

  it('the baseline: no sysctl prefix lists other processes, and mach-host* does not set the host ports', async () => {
    const p = (await compiled('[agent.filesystem]\nread = ["~/project"]\n')).profile();
    const sysctl = (name: string) => p.allows({ operation: 'sysctl-read', sysctl: name });
    assert.equal(sysctl('hw.ncpu'), true);
    assert.equal(sysctl('kern.proc.pid.1'), false, "process 1's details by pid");
    assert.equal(sysctl('kern.proc.pgrp.1'), false, 'a process group by id');
    assert.equal(p.allows({ operation: 'mach-host*' }), true, "host_processor_info: Node's os.cpus()");
    assert.equal(p.allows({ operation: 'mach-host-special-port-set' }), false);
    assert.equal(p.allows({ operation: 'mach-host-exception-port-set' }), false);
  });

  it("a direct network exception reaches IP peers, and no unix socket (ssh-agent's, docker.sock), as explain's network row says", async () => {
    const { outcome, profile } = await compiled('[tools.fetcher.filesystem]\nread = ["~/services"]\n\n[tools.fetcher.network]\n');
    const p = profile('tool.fetcher');
    assert.equal(p.allows({ operation: 'network-outbound', remote: { kind: 'ip', protocol: 'tcp', host: '*', port: 443 } }), true);
    assert.equal(p.allows({ operation: 'network-outbound', remote: { kind: 'ip', protocol: 'tcp', host: 'localhost', port: 5432 } }), true);
    for (const sock of ['/home/dev/services/db.sock', '/private/tmp/com.apple.launchd.x/Listeners', '/home/dev/.docker/run/docker.sock'])
      assert.equal(p.allows({ operation: 'network-outbound', path: sock, remote: { kind: 'unix' } }), false, sock);
    assert.equal(p.allows({ operation: 'system-socket', socketDomain: 'AF_INET' }), true);
    assert.equal(p.allows({ operation: 'system-socket', socketDomain: 'AF_UNIX' }), false);
    const pa = principalsOf(outcome).find((x) => x.principal.id === 'tool.fetcher')!;
    assert.equal(pa.network.macos?.kind, 'ip-peers-only');
    assert.ok(!pa.grants.some((ga) => ga.sockets?.macos), 'no socket reachable on macOS');
    assert.ok(!outcome.check.diagnostics.some((d) => d.ruleId === 'socket-in-read-grant' && d.platforms.includes('macos')));
  });

  it("TYBA's temp directory on macOS is the session's own, made by the runner, never the host's shared /private/tmp", async () => {
    const { outcome, profile } = await compiled('[sandbox]\nread_allow = []\n');
    assert.throws(() => profile('agent'), ProfileLoadError, 'without -D TMPDIR the profile does not load: fail closed');
    const dir = mkdtempSync(join(tmpdir(), 'boxwright-session-'));
    try {
      const session = sessionSetup(true, dir, { PATH: '/usr/bin' });
      const temp = session.params.TMPDIR!;
      assert.equal(temp, realpathSync(join(dir, 'tmp')));
      assert.equal(statSync(temp).mode & 0o777, 0o700);
      assert.deepEqual(session.env, { PATH: '/usr/bin', TMPDIR: `${temp}/` });
      const p = profile('agent', session.params);
      assert.equal(observedLegend(observe(p, temp, 'dir')), 'rw');
      assert.equal(
        observedLegend(observe(p, '/private/tmp', 'dir')),
        'meta',
        "the host's /private/tmp: its metadata (TYBA's content, not metadata), no content, no writes",
      );
      assert.equal(observedLegend(observe(p, '/private/tmp/tmux-501/default', 'socket')), 'meta');
      const tmp = principalsOf(outcome)[0]!.grants.find((ga) => ga.grant.implicit?.parameter);
      assert.equal(tmp?.grant.path, '$TMPDIR');
      assert.equal(legend(tmp!.effective.macos), 'rw');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    assert.deepEqual(sessionSetup(false, '/nonexistent', { A: 'b' }), { params: {}, env: { A: 'b' } });
  });

  it("the runner's directories (the profile, the run's temp directory) live under the user's cache root, private, never a shared temp directory", () => {
    const cache = mkdtempSync(join(tmpdir(), 'boxwright-cache-'));
    try {
      const where = runsRoot({ XDG_CACHE_HOME: cache });
      assert.ok('root' in where, JSON.stringify(where));
      assert.equal(where.root, join(cache, 'boxwright', 'macos-runs'));
      for (const d of [join(cache, 'boxwright'), where.root]) assert.equal(statSync(d).mode & 0o777, 0o700, d);
      // Control: a cache root others may write is refused, and nothing is made below it.
      chmodSync(join(cache, 'boxwright'), 0o777);
      const refused = runsRoot({ XDG_CACHE_HOME: cache });
      assert.ok('problem' in refused && /can be written by others/.test(refused.problem), JSON.stringify(refused));
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  it('private_tmp under a deny of the cache root: the profile closes the run directory, and explain says — as the model does', async () => {
    const { outcome, profile } = await compiled('[agent.filesystem]\nread = ["~/project"]\ndeny = ["~/.cache"]\nprivate_tmp = true\n');
    const temp = '/home/dev/.cache/boxwright/macos-runs/run-1/tmp';
    const p = profile('agent', { TMPDIR: temp });
    assert.equal(observedLegend(observe(p, `${temp}/f`, 'file')), '—');
    const tmp = principalsOf(outcome)[0]!.grants.find((ga) => ga.grant.implicit?.parameter)!;
    assert.equal(legend(tmp.effective.macos), '—');
    // TYBA's data directory at the home: its deny covers the cache root too.
    const tyba = await compiled('[sandbox]\nread_allow = []\n', { 'tyba-data-dir': '/home/dev' });
    const tybaTmp = principalsOf(tyba.outcome)[0]!.grants.find((ga) => ga.grant.implicit?.parameter)!;
    assert.equal(observedLegend(observe(tyba.profile('agent', { TMPDIR: temp }), `${temp}/f`, 'file')), legend(tybaTmp.effective.macos));
    // Control: without the deny the same directory is the run's, read-write.
    const open = await compiled('[agent.filesystem]\nread = ["~/project"]\nprivate_tmp = true\n');
    assert.equal(observedLegend(observe(open.profile('agent', { TMPDIR: temp }), `${temp}/f`, 'file')), 'rw');
  });

  it("a Box principal's private_tmp on macOS: the run's own directory (a parameter), writable; the host's /private/tmp stays denied", async () => {
    const toml = '[agent.filesystem]\nread = ["~/project"]\nprivate_tmp = true\n\n[tools.fmt.filesystem]\nread = ["~/project"]\n';
    const { outcome, profile } = await compiled(toml);
    assert.throws(() => profile('agent'), ProfileLoadError, 'without -D TMPDIR the profile does not load: fail closed');
    const dir = mkdtempSync(join(tmpdir(), 'boxwright-session-'));
    try {
      const session = sessionSetup(true, dir, { PATH: '/usr/bin' });
      const temp = session.params.TMPDIR!;
      assert.equal(statSync(temp).mode & 0o777, 0o700);
      assert.equal(session.env.TMPDIR, `${temp}/`);
      const p = profile('agent', session.params);
      assert.equal(observedLegend(observe(p, temp, 'dir')), 'rw');
      assert.equal(observedLegend(observe(p, `${temp}/a/b.txt`, 'file')), 'rw');
      for (const host of ['/private/tmp', '/private/tmp/tmux-501/default', '/private/var/folders/xy/T/other-run'])
        assert.equal(observedLegend(observe(p, host, host.endsWith('default') ? 'socket' : 'dir')), '—', host);
      const pa = principalsOf(outcome).find((x) => x.principal.id === 'agent')!;
      const tmp = pa.grants.find((ga) => ga.grant.implicit?.parameter);
      assert.equal(tmp?.grant.path, '$TMPDIR');
      assert.equal(legend(tmp!.effective.macos), 'rw');
      assert.deepEqual(tmp!.disclosures.macos, [{ kind: 'run-temp-dir', platform: 'macos' }]);
      // The tool keeps the default: no parameter, so its profile loads without one and grants no temp directory.
      const tool = profile('tool.fmt');
      assert.equal(observedLegend(observe(tool, temp, 'dir')), '—');
      assert.ok(
        !principalsOf(outcome)
          .find((x) => x.principal.id === 'tool.fmt')!
          .grants.some((ga) => ga.grant.implicit),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
