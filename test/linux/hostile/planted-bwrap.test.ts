// Attack 5 of issue 21: `bwrap` found on PATH at every run. A principal
// that may write ~/.local/bin (any `pip install --user` config) plants a
// `bwrap` there; the next `boxwright run` of any config, and the next
// DIR/agent.run, executed it on the host, outside every sandbox. Now
// bubblewrap is resolved once — compile, or the check of a run, from
// --bwrap PATH, BOXWRIGHT_BWRAP, or the PATH directories outside the home —
// recorded in the launch with its owner and mode, and refused when it is
// not root's alone or lies under a principal's write grant; the launcher
// runs exactly that one. The control is the lookup the launcher used to
// make: the first `bwrap` on PATH, which runs the planted one. `learn`
// runs bubblewrap and strace on the host too, found the same way.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { requireOrSkip } from '../../helpers.js';
import { boxwright, onPath } from '../support.js';
import { launch, realBwrap } from '../launcher-support.js';
import { bare, compiled, isRoot, makeLab, NOBODY, sandboxed, skip, type Lab } from './support.js';

describe('hostile workload: a bubblewrap planted on PATH (issue 21, attack 5)', { skip, concurrency: 1 }, () => {
  let lab: Lab;
  let bin = '';
  let planted = '';
  let marker = '';
  let pip = '';
  let other = '';
  let path = '';
  before(async () => {
    lab = makeLab('planted-bwrap');
    bin = join(lab.home, '.local', 'bin');
    mkdirSync(bin, { recursive: true });
    planted = join(bin, 'bwrap');
    marker = join(lab.home, 'pwned');
    // A config that may write ~/.local/bin (where `pip install --user` puts scripts), and any other config.
    pip = lab.config(
      'pip.toml',
      `[agent.filesystem]\n${lab.base.replace('read = ["/usr"]', 'read = ["/usr", "~/.local/bin"]')}write = ["~/.local/bin"]\n`,
    );
    other = lab.config('other.toml', `[agent.filesystem]\n${lab.base}`);
    path = `${bin}:${process.env.PATH}`;
    // Run 1: the workload of the pip config plants bwrap, which would run whatever it likes on the host, then the real one.
    const script = `#!/bin/sh\\ntouch ${marker}\\nexec ${realBwrap} "$@"\\n`;
    const r = await sandboxed(lab, pip, ['sh', '-c', `printf '${script}' > ${planted} && chmod +x ${planted}; echo "rc=$?"`]);
    assert.match(r.stdout, /rc=0/, r.stderr);
    assert.ok(existsSync(planted), 'the workload planted bwrap');
  });
  after(() => lab.cleanup());
  const clean = (): void => rmSync(marker, { force: true });

  it('boxwright run of another config, with ~/.local/bin first on PATH: the planted bwrap never runs', async () => {
    clean();
    const r = await sandboxed(lab, other, ['sh', '-c', 'echo ran'], [], { env: { PATH: path } });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'ran\n');
    assert.ok(!existsSync(marker), 'the planted bwrap ran');
  });

  it('DIR/agent.run with ~/.local/bin first on PATH (and BOXWRIGHT_BWRAP naming the plant at run time): the bubblewrap compile recorded runs', async () => {
    clean();
    const out = mkdtempSync(join(tmpdir(), 'boxwright-planted-out-'));
    try {
      const c = await boxwright(['compile', other, '--home', lab.home, '--fs', 'host', '--target', 'linux', '--out', out], {
        env: { PATH: path },
      });
      assert.equal(c.status, 0, c.stderr);
      const r = await launch(join(out, 'agent.run'), ['sh', '-c', 'echo ran'], { env: { PATH: path, BOXWRIGHT_BWRAP: planted } });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, 'ran\n');
      assert.ok(!existsSync(marker), 'the planted bwrap ran');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('the plant named explicitly for a config whose principal may write it: refused (125), it never runs', async () => {
    clean();
    const r = await sandboxed(lab, pip, ['true'], [], { env: { BOXWRIGHT_BWRAP: planted } });
    assert.equal(r.status, 125, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /trusted-file-writable .*the agent can write .*\/\.local\/bin\/bwrap, the bubblewrap boxwright executes, outside any sandbox, for every run/,
    );
    assert.ok(!existsSync(marker));
  });

  it("a plant that is not root's, named explicitly (--bwrap): refused (125) by run and by compile", {
    skip: requireOrSkip(isRoot, 'root (the plant is made as uid 65534)'),
  }, async () => {
    clean();
    const theirs = mkdtempSync(join(tmpdir(), 'boxwright-planted-theirs-'));
    try {
      const fake = join(theirs, 'bwrap');
      writeFileSync(fake, `#!/bin/sh\ntouch ${marker}\nexec ${realBwrap} "$@"\n`);
      chmodSync(fake, 0o755);
      const { chownSync } = await import('node:fs');
      chownSync(fake, NOBODY, NOBODY);
      const r = await sandboxed(lab, other, ['true'], ['--bwrap', fake]);
      assert.equal(r.status, 125, r.stdout + r.stderr);
      assert.match(r.stderr, /bubblewrap .*\/bwrap \(--bwrap .*\) is not root's alone: .*belongs to uid 65534, not to root/);
      const out = join(theirs, 'out');
      const c = await boxwright(['compile', other, '--home', lab.home, '--fs', 'host', '--target', 'linux', '--out', out, '--bwrap', fake]);
      assert.equal(c.status, 1, c.stderr);
      assert.match(c.stderr, /is not root's alone/);
      assert.ok(!existsSync(marker));
    } finally {
      rmSync(theirs, { recursive: true, force: true });
    }
  });

  it('boxwright learn with ~/.local/bin first on PATH (a bwrap and a strace planted there): neither plant runs, the system ones do', {
    skip: requireOrSkip(!!onPath('strace'), 'strace (Debian package strace)'),
  }, async () => {
    // learn runs bubblewrap and strace inside its throw-away root, where a file a plant writes vanishes; but a plant
    // runs there with the user's rights and the host's network (it replaced what would have sandboxed it): each one
    // reports over a TCP connection to this listener. The workload could plant strace as it planted bwrap.
    clean();
    const said: string[] = [];
    const server = createServer((socket) => {
      let text = '';
      socket.on('data', (d: Buffer) => (text += d.toString()));
      socket.on('end', () => said.push(text));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const report = (name: string): string => `${process.execPath} -e "require('net').connect(${port}, '127.0.0.1').end('${name}')"`;
    // The bwrap plant (run 1's) also reports; it still touches the marker for the control below.
    const fakeBwrap = planted;
    const fakeStrace = join(bin, 'strace');
    writeFileSync(fakeStrace, `#!/bin/sh\n${report('strace')}\nexec /usr/bin/strace "$@"\n`);
    writeFileSync(fakeBwrap, `#!/bin/sh\ntouch ${marker}\n${report('bwrap')}\nexec ${realBwrap} "$@"\n`);
    chmodSync(fakeStrace, 0o755);
    chmodSync(fakeBwrap, 0o755);
    const work = mkdtempSync(join(tmpdir(), 'boxwright-planted-learn-'));
    try {
      const r = await boxwright(['learn', '--out', join(work, 'learned.toml'), '--', 'true'], {
        cwd: work,
        env: { PATH: path, HOME: lab.home },
      });
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.ok(existsSync(join(work, 'learned.toml')), 'learn wrote its config');
      // The control: the lookup learn used to make (the first strace on PATH) is the plant, and it runs. Its report
      // comes after any a plant made during learn (one listener, connections accepted in order).
      // Spawned, not spawnSync: the listener in this process must answer while it runs.
      const control = await new Promise<number | null>((resolve) =>
        spawn('strace', ['-o', '/dev/null', 'true'], { env: { ...process.env, PATH: path }, stdio: 'ignore' }).on('close', resolve),
      );
      assert.equal(control, 0);
      for (let waited = 0; !said.length; waited++) {
        if (waited === 300) assert.fail("waited 30 s for the planted strace's report (the control)");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.deepEqual(said, ['strace'], 'only the control ran a plant: learn ran neither the planted bwrap nor the planted strace');
    } finally {
      server.close();
      rmSync(work, { recursive: true, force: true });
      rmSync(fakeStrace, { force: true });
    }
  });

  it('doctor says which bubblewrap it uses and why, and names the one it passed over', async () => {
    const r = await boxwright(['doctor', '--format', 'json'], { env: { PATH: path, HOME: lab.home } });
    const findings = (JSON.parse(r.stdout) as { findings: { id: string; status: string; detail: string }[] }).findings;
    const by = new Map(findings.map((f) => [f.id, f]));
    assert.match(
      by.get('bwrap')!.detail,
      /at \/usr\/bin\/bwrap \(the first `bwrap` in the PATH directories outside your home; passed over: .*\/\.local\/bin\/bwrap/,
    );
    assert.equal(by.get('bwrap-passed-over')?.status, 'warn');
    assert.ok(!existsSync(marker));
  });

  it('control: the first bwrap on PATH (what every run used to execute) is the planted one, and it runs', async () => {
    clean();
    const c = await compiled(lab, other);
    await bare(c, ['true'], { bwrap: 'bwrap', env: { PATH: path } });
    assert.ok(existsSync(marker), 'the planted bwrap ran on the host');
  });
});
