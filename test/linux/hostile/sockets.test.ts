// socket-in-read-grant holds under real bubblewrap: a unix socket under a
// read-only grant is connectable (connect(2) is not a write the read-only
// mount stops), and a deny of it covers it with an empty file, which
// refuses the connection. What lint warns is what the kernel does.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeLab, results, sandboxed, skip, type Lab } from './support.js';
import { boxwright } from '../support.js';

describe('unix sockets under a read grant', { skip, concurrency: 2 }, () => {
  let lab: Lab;
  let server: Server;
  let socket = '';
  let served = 0;
  before(async () => {
    lab = makeLab('sockets');
    mkdirSync(join(lab.home, 'services'));
    socket = join(lab.home, 'services', 'db.sock');
    server = createServer((c) => {
      served++;
      c.on('error', () => undefined); // the probe hangs up at once
      c.end('hello');
    });
    await new Promise<void>((resolve) => server.listen(socket, resolve));
  });
  after(() => {
    server.close();
    lab.cleanup();
  });

  it("lint warns, from the kernel's table of bound sockets (--fs host)", async () => {
    const config = lab.config('ro.toml', `[agent.filesystem]\n${lab.base}read = ["/usr", "~/services"]\n`.replace('read = ["/usr"]\n', ''));
    const r = await boxwright(['lint', config, '--home', lab.home, '--fs', 'host', '--format', 'json']);
    const ds = (JSON.parse(r.stdout) as { files: { diagnostics: { ruleId: string; platforms: string[]; message: string }[] }[] }).files[0]!
      .diagnostics;
    const d = ds.find((x) => x.ruleId === 'socket-in-read-grant');
    assert.ok(d, r.stdout);
    assert.deepEqual(d.platforms, ['linux']);
    assert.ok(d.message.includes(socket));
  });

  it('the warning is true: through a read-only bind the workload connects', async () => {
    const config = lab.config('ro2.toml', `[agent.filesystem]\nread = ["/usr", "~/services"]\nexec = [${JSON.stringify(lab.probe)}]\n`);
    const before = served;
    const r = await sandboxed(lab, config, [lab.probe, 'connect', socket]);
    assert.equal(results(r.stdout).connect, 'ok', r.stdout + r.stderr);
    assert.ok(served > before, 'the host server accepted the connection');
  });

  it('the suggestion works: a deny of the socket covers it, and connecting fails', async () => {
    const config = lab.config(
      'denied.toml',
      `[agent.filesystem]\nread = ["/usr", "~/services"]\ndeny = [${JSON.stringify(socket)}]\nexec = [${JSON.stringify(lab.probe)}]\n`,
    );
    const r = await sandboxed(lab, config, [lab.probe, 'connect', socket]);
    assert.equal(r.status, 0, r.stderr);
    // The cover is an empty read-only file: no socket there (EACCES: connect needs write permission; ECONNREFUSED on a writable one).
    assert.ok(['EACCES', 'ECONNREFUSED'].includes(results(r.stdout).connect!), r.stdout);
    const lint = await boxwright(['lint', config, '--home', lab.home, '--fs', 'host', '--format', 'json']);
    assert.ok(!lint.stdout.includes('socket-in-read-grant'), 'no warning once it is denied');
  });
});
