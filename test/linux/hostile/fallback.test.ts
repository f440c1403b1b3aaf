// Attack 6 of issue 21: the no-cache fallback in the host's shared temp. A
// run that keeps no cache entry (a config on standard input, …) copied the
// launcher into $TMPDIR/boxwright-run-XXXXXX and executed it by path; a
// workload with `write = ["/tmp"]` watched /tmp with inotify and swapped
// the launcher before Node executed it. Now that directory lives under the
// cache root (private to the user, a path no grant may name), and the
// launcher is executed from a descriptor opened first and proved to be the
// file written (/proc/self/fd/N): a rename after that changes nothing. A
// Box write grant of /tmp gets its own warning (shared-temp-write). The
// controls: a launcher executed by path after a swap is the swapped one.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runLauncher } from '../../../targets/linux/run/sandbox/spawn.js';
import { requireOrSkip } from '../../helpers.js';
import { bin, boxwright, onPath } from '../support.js';
import { makeLab, skip, type Lab } from './support.js';

const strace = onPath('strace');

describe('hostile workload: the run files of a run without a cache entry (issue 21, attack 6)', { skip, concurrency: 1 }, () => {
  let lab: Lab;
  let config = '';
  let shared = '';
  let cache = '';
  let marker = '';
  before(() => {
    lab = makeLab('fallback');
    config = lab.config('c.toml', `[agent.filesystem]\n${lab.base}`);
    // The host's shared temp, as a workload with write = ["/tmp"] sees it.
    shared = mkdtempSync(join(tmpdir(), 'boxwright-shared-tmp-'));
    chmodSync(shared, 0o1777);
    cache = mkdtempSync(join(tmpdir(), 'boxwright-fallback-cache-'));
    marker = join(lab.home, 'swapped');
  });
  after(() => {
    rmSync(shared, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
    lab.cleanup();
  });
  const env = (): Record<string, string> => ({ TMPDIR: shared, XDG_CACHE_HOME: cache });

  it('a config on standard input runs in the sandbox, and nothing of the run appears in the shared temp', async () => {
    const seen: string[] = [];
    const watcher = watch(shared, (_event, name) => void (name && seen.push(name)));
    try {
      const r = await boxwright(
        ['run', '-', '--home', lab.home, '--', 'sh', '-c', 'echo "in the sandbox: $(ls /root 2>&1 | head -c 40)"'],
        { env: env(), input: readFileSync(config, 'utf8') },
      );
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /^in the sandbox: ls: cannot access '\/root': No such file/);
    } finally {
      watcher.close();
    }
    assert.deepEqual(seen, [], 'no file of the run was made in TMPDIR');
    assert.deepEqual(readdirSync(shared), []);
    // The private directory it ran from is gone, and the cache root is private.
    assert.deepEqual(
      readdirSync(join(cache, 'boxwright', 'run')).filter((n) => n.startsWith('.run-')),
      [],
    );
    assert.equal(statSync(join(cache, 'boxwright')).mode & 0o777, 0o700);
  });

  it('the launcher is executed from a descriptor, in a private directory under the cache root', {
    skip: requireOrSkip(!!strace, 'strace (Debian package strace)'),
  }, () => {
    const log = join(lab.home, 'strace.log');
    const r = spawnSync(
      strace!,
      ['-f', '-qq', '-s', '4096', '-e', 'trace=execve', '-o', log, process.execPath, bin, 'run', '-', '--home', lab.home, '--', 'true'],
      {
        input: readFileSync(config),
        env: { ...process.env, ...env(), NO_COLOR: '1' },
        encoding: 'utf8',
      },
    );
    assert.equal(r.status, 0, r.stderr);
    const execs = readFileSync(log, 'utf8');
    rmSync(log);
    const launcher = /execve\("\/proc\/self\/fd\/\d+", \["([^"]+\/agent\.run)"/.exec(execs);
    assert.ok(launcher, `the launcher was executed through /proc/self/fd/N:\n${execs}`);
    assert.ok(launcher[1]!.startsWith(join(cache, 'boxwright', 'run', '.run-')), launcher[1]);
    assert.doesNotMatch(execs, new RegExp(`execve\\("${shared}`), 'nothing executed from the shared temp');
  });

  describe('a launcher swapped under its path', () => {
    let dir = '';
    let fake = '';
    before(async () => {
      dir = mkdtempSync(join(shared, 'boxwright-run-'));
      const c = await boxwright(['compile', config, '--home', lab.home, '--fs', 'host', '--target', 'linux', '--out', dir]);
      assert.equal(c.status, 0, c.stderr);
      fake = join(lab.home, 'fake.run');
      writeFileSync(fake, `#!/bin/sh\ntouch ${marker}\n`);
      chmodSync(fake, 0o755);
    });
    const swap = (): void => {
      copyFileSync(fake, join(dir, 'agent.swap'));
      renameSync(join(dir, 'agent.swap'), join(dir, 'agent.run'));
    };

    it('swapped before it is opened: runLauncher refuses (125), the swapped program never runs', async () => {
      rmSync(marker, { force: true });
      const run = join(dir, 'agent.run');
      const st = statSync(run);
      const expect = { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
      swap();
      const status = await runLauncher({ launcher: run, expect, command: ['true'], passEnv: [], passFds: [], verbose: false });
      assert.equal(status, 125);
      assert.ok(!existsSync(marker), 'the swapped program ran');
    });

    it("swapped after it is opened: what runs is the descriptor's file, which refuses (its own file was replaced), never the swap (control: by path the swap runs)", async () => {
      const c = await boxwright(['compile', config, '--home', lab.home, '--fs', 'host', '--target', 'linux', '--out', dir]);
      assert.equal(c.status, 0, c.stderr);
      rmSync(marker, { force: true });
      const fd = openSync(join(dir, 'agent.run'), 'r');
      swap();
      const viaFd = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
        const child = spawn('/proc/self/fd/3', ['true'], { stdio: ['ignore', 'ignore', 'pipe', fd], argv0: join(dir, 'agent.run') });
        let stderr = '';
        child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('close', (status) => resolve({ status, stderr }));
      });
      closeSync(fd);
      assert.equal(viaFd.status, 125, viaFd.stderr);
      assert.match(
        viaFd.stderr,
        /its own file \(.*agent\.run \(deleted\)\) was replaced or removed as it started; the command did not run/,
      );
      assert.ok(!existsSync(marker), 'the swapped program ran');
      // The control: by path, as the fallback used to run it, the swapped program runs.
      const byPath = spawnSync(join(dir, 'agent.run'), ['true']);
      assert.equal(byPath.status, 0);
      assert.ok(existsSync(marker), 'executed by path, the swap runs');
    });
  });

  it('lint warns of a Box write grant of /tmp or /var/tmp on Linux (shared-temp-write), with the remedy', async () => {
    const c = lab.config('tmp.toml', '[agent.filesystem]\nread = ["/tmp", "/var"]\nwrite = ["/tmp", "/var"]\n');
    const r = await boxwright(['lint', c, '--home', lab.home, '--fs', 'host', '--platform', 'linux']);
    assert.match(
      r.stdout,
      /warning {2}shared-temp-write {2}\[linux\] {2}\/tmp is the host's shared temp directory on Linux, writable here: .*tmux/,
    );
    assert.match(r.stdout, /\/var holds \/var\/tmp, which is the host's shared temp directory on Linux/);
    assert.match(r.stdout, /Set private_tmp = true in this principal's filesystem table instead: a temp directory of its own/);
    assert.match(r.stdout, /Grant the workload only what it needs below \/var, and set private_tmp = true/);
  });
});
