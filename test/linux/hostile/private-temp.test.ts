// Issue 34: a Box config had no temp directory but the host's /tmp, and a
// write grant of it hands the workload every other run's files there and
// the host's sockets (a tmux server's lets it type into a host shell).
// `private_tmp = true` gives the principal a private tmpfs at /tmp
// (TMPDIR=/tmp). The workload writes a file and binds a socket in /tmp,
// reads a file another run planted there and connects to a host socket:
// with private_tmp none of it reaches the host; the control, the same
// workload with `write = ["/tmp"]` instead, changes the host's /tmp and
// reaches both.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeLab, results, sandboxed, skip, type Lab } from './support.js';

describe('hostile workload: a Box principal with private_tmp = true', { skip, concurrency: 1 }, () => {
  let lab: Lab;
  let hostDir = '';
  let socket = '';
  let planted = '';
  let server: Server;
  // Outside /tmp: a config in a write tree of /tmp would be refused (trusted-file-writable), and the control needs it run.
  let configDir = '';
  const tag = `boxwright-pt-${process.pid}`;
  const made = [`/tmp/${tag}-file`, `/tmp/${tag}.sock`];
  const workload = (): string[] => [
    'sh',
    '-c',
    [
      `echo written > /tmp/${tag}-file`,
      `/usr/bin/python3 -c "import socket; socket.socket(socket.AF_UNIX).bind('/tmp/${tag}.sock')"`,
      'echo "TMPDIR=$TMPDIR"',
      `echo "planted=$(cat ${planted} 2>/dev/null || echo absent)"`,
      `echo "listed=$(ls -A /tmp | grep -c -e boxwright-tmux- -e ${tag}-planted)"`,
      `${lab.probe} connect ${socket}`,
    ].join('; '),
  ];
  const config = (name: string, fs: string): string => {
    const p = join(configDir, name);
    writeFileSync(p, `[agent.filesystem]\n${fs}`);
    return p;
  };
  before(async () => {
    lab = makeLab('private-temp');
    configDir = mkdtempSync(join(homedir(), '.boxwright-private-temp-'));
    // Another run's file, and a stand-in for a host tmux server's socket, in the host's /tmp.
    planted = `/tmp/${tag}-planted`;
    writeFileSync(planted, 'another run\n');
    hostDir = mkdtempSync('/tmp/boxwright-tmux-');
    socket = join(hostDir, 'default');
    server = createServer((c) => c.end());
    await new Promise<void>((resolve) => server.listen(socket, resolve));
  });
  after(() => {
    server.close();
    for (const p of [hostDir, configDir, planted, ...made]) rmSync(p, { recursive: true, force: true });
    lab.cleanup();
  });

  it("private_tmp: /tmp is writable and the run's own; the host's /tmp is unchanged, its files and sockets invisible", async () => {
    const c = config('private.toml', `${lab.base}private_tmp = true\n`);
    const r = await sandboxed(lab, c, workload());
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const got = results(r.stdout);
    assert.equal(got['TMPDIR'], '/tmp');
    assert.equal(got['planted'], 'absent', "another run's file in the host's /tmp is not there");
    assert.equal(got['listed'], '0', "the host's /tmp entries are not listed");
    assert.equal(got['connect'], 'ENOENT', "the host's socket is not there");
    for (const p of made) assert.ok(!existsSync(p), `${p} did not reach the host`);
    assert.equal(readFileSync(planted, 'utf8'), 'another run\n');
  });

  it('control: write = ["/tmp"] instead: the same workload writes the host\'s /tmp, reads the planted file and reaches the socket', async () => {
    const c = config('shared.toml', `read = ["/usr", "/tmp"]\nwrite = ["/tmp"]\nexec = [${JSON.stringify(lab.probe)}, "/usr"]\n`);
    // The host's /tmp changes under a run on a machine running other tests: a host-trusted name made there between the
    // compile and the launch makes the launcher refuse (125), one removed makes bubblewrap miss its bind. Both are the run
    // failing closed, not the control's question: it is asked again, three times at most.
    let r = await sandboxed(lab, c, workload());
    for (let i = 0; i < 2 && /compiled without|Can't find source path/.test(r.stderr); i++) r = await sandboxed(lab, c, workload());
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const got = results(r.stdout);
    assert.equal(got['planted'], 'another run');
    assert.equal(got['listed'], '2');
    assert.equal(got['connect'], 'ok');
    for (const p of made) assert.ok(existsSync(p), `${p} reached the host`);
  });

  it('a grant of /tmp itself beside private_tmp is refused on Linux before anything runs (exit 125), with the key pointed at', async () => {
    const c = config('both.toml', `read = ["/usr", "/tmp"]\nexec = [${JSON.stringify(lab.probe)}, "/usr"]\nprivate_tmp = true\n`);
    const r = await sandboxed(lab, c, ['sh', '-c', `echo ran > /tmp/${tag}-refused`]);
    assert.equal(r.status, 125, r.stdout + r.stderr);
    assert.match(r.stderr, /private-temp/);
    assert.ok(!existsSync(`/tmp/${tag}-refused`));
  });
});
