// Hole 6: TYBA's temp directory was the host's /tmp, read-write: a host
// tmux server's socket there let the workload type into a host shell, and
// ssh-agent and X11 sockets live there too. On Linux the session's temp
// directory is now a private tmpfs at /tmp (TMPDIR=/tmp).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bare, compiled, makeLab, results, sandboxed, skip, type Lab } from './support.js';

describe("hostile workload: TYBA's temp directory", { skip, concurrency: 1 }, () => {
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

  // A home under the host's /tmp (this lab's is), with TYBA's data directory
  // in it: the model took the private tmpfs for a host read-write tree, so
  // the deny of the data directory pinned its ancestors under /tmp with
  // writable binds of the host's directories, and the whole home was there.
  const secretHome = (): { key: string; note: string; shared: string } => {
    const key = join(lab.home, '.ssh', 'id_ed25519');
    mkdirSync(join(lab.home, '.ssh'), { recursive: true });
    mkdirSync(join(lab.home, '.tyba'), { recursive: true });
    mkdirSync(join(lab.home, 'shared'), { recursive: true });
    writeFileSync(key, 'PRIVATE KEY\n');
    writeFileSync(join(lab.home, 'note'), 'host\n');
    writeFileSync(join(lab.home, 'shared', 'f'), 'shared\n');
    return { key, note: join(lab.home, 'note'), shared: join(lab.home, 'shared', 'f') };
  };

  it('a home under /tmp with the data directory in it: nothing of the host home is there, and nothing reaches it', async () => {
    const { key, note } = secretHome();
    const r = await sandboxed(lab, config, ['sh', '-c', `cat ${key}; echo pwned >> ${note}; echo "[end]"`], tyba());
    assert.doesNotMatch(r.stdout, /PRIVATE KEY/, r.stdout + r.stderr);
    assert.equal(readFileSync(note, 'utf8'), 'host\n', 'the host file is unchanged');
  });

  it('a read_allow of a host path under /tmp is mounted read-only: readable, never written', async () => {
    const { shared } = secretHome();
    const ro = lab.config(
      'ro.toml',
      `[sandbox]\nread_allow = ["/usr", ${JSON.stringify(lab.probe)}, ${JSON.stringify(join(lab.home, 'shared'))}]\n`,
    );
    const r = await sandboxed(lab, ro, ['sh', '-c', `cat ${shared}; echo pwned >> ${shared}; echo "rc=$?"`], tyba());
    assert.match(r.stdout, /^shared\nrc=[12]\n$/, r.stdout + r.stderr);
    assert.equal(readFileSync(shared, 'utf8'), 'shared\n', 'the host file is unchanged');
  });

  it("control: a writable bind of the home's top directory under /tmp (what the pinned ancestor was) shows the key and writes the host", async () => {
    const { key, note } = secretHome();
    const c = await compiled(lab, config, 'agent', tyba());
    const at = c.argv.findIndex((a, i) => a === '--tmpfs' && c.argv[i + 1] === '/tmp');
    const top = '/' + lab.home.split('/').slice(1, 3).join('/');
    const old = [...c.argv.slice(0, at + 2), '--bind', top, top, ...c.argv.slice(at + 2)];
    const r = await bare({ ...c, argv: old }, ['sh', '-c', `cat ${key}; echo pwned >> ${note}`]);
    assert.match(r.stdout, /PRIVATE KEY/, r.stdout + r.stderr);
    assert.equal(readFileSync(note, 'utf8'), 'host\npwned\n');
    writeFileSync(note, 'host\n');
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
