// Hole 6: TYBA's temp directory was the host's /tmp, read-write: a host
// tmux server's socket there let the workload type into a host shell, and
// ssh-agent and X11 sockets live there too. On Linux the session's temp
// directory is now a private tmpfs at /tmp (TMPDIR=/tmp).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bare, compiled, makeLab, results, sandboxed, skip, type Lab } from './support.js';

describe("hostile workload: TYBA's temp directory", { skip, concurrency: 3 }, () => {
  let lab: Lab;
  let config = '';
  let worktree = '';
  let hostDir = '';
  let socket = '';
  let server: Server;
  const tyba = (): string[] => ['--worktree', worktree];
  before(async () => {
    lab = makeLab('temp');
    worktree = join(lab.home, 'worktree');
    mkdirSync(worktree);
    config = lab.config('user.toml', `[sandbox]\nread_allow = ["/usr", ${JSON.stringify(lab.probe)}]\n`);
    // A stand-in for a host tmux server: a socket in the host's /tmp that
    // runs whatever it is sent.
    hostDir = mkdtempSync('/tmp/boxwright-tmux-');
    socket = join(hostDir, 'default');
    server = createServer((c) => c.end());
    await new Promise<void>((resolve) => server.listen(socket, resolve));
  });
  after(() => {
    server.close();
    rmSync(hostDir, { recursive: true, force: true });
    lab.cleanup();
  });

  it("the host's /tmp and its sockets are not there: /tmp holds only the mount points of grants under it, and connecting fails", async () => {
    const r = await sandboxed(lab, config, ['sh', '-c', `ls -A /tmp; echo "TMPDIR=$TMPDIR"; ${lab.probe} connect ${socket}`], tyba());
    assert.equal(r.status, 0, r.stderr);
    // The lab itself lives in the host's /tmp: its granted paths are mounted into the private tmpfs.
    assert.equal(r.stdout.split('\n')[0], lab.home.split('/')[2]);
    assert.match(r.stdout, /\nTMPDIR=\/tmp\n/);
    assert.ok(!r.stdout.includes('boxwright-tmux-'), "the host's other /tmp entries are not there");
    assert.equal(results(r.stdout).connect, 'ENOENT');
  });

  it('/tmp is writable inside, and what is written there never reaches the host', async () => {
    const name = `boxwright-private-${process.pid}`;
    const r = await sandboxed(lab, config, ['sh', '-c', `echo x > /tmp/${name} && cat /tmp/${name}`], tyba());
    assert.equal(r.stdout, 'x\n', r.stderr);
    assert.ok(!existsSync(`/tmp/${name}`));
  });

  it("control: the old lowering (--bind /tmp /tmp) reaches the host's socket", async () => {
    const c = await compiled(lab, config, 'agent', tyba());
    const at = c.argv.findIndex((a, i) => a === '--tmpfs' && c.argv[i + 1] === '/tmp');
    assert.ok(at > 0, 'the artifact holds the private tmpfs');
    const old = [...c.argv.slice(0, at), '--bind', '/tmp', '/tmp', ...c.argv.slice(at + 2)];
    const r = await bare({ ...c, argv: old }, [lab.probe, 'connect', socket]);
    assert.equal(results(r.stdout).connect, 'ok', r.stdout + r.stderr);
  });
});
