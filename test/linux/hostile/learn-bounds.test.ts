// Issue 34, attacks 4 and 5 of learn: no limits, and processes that
// outlive it. A 10-second run that stat()s a 4,000-byte path in a loop
// wrote 620 MiB of strace output to the host disk, and a 1 GiB write took
// 1 GiB of the host's RAM (the throw-away overlay was a tmpfs without
// size=). The trace now goes to a tmpfs of --max-trace bytes and the
// overlay's scratch tmpfs holds --max-writes: the kernel refuses a byte
// past either, learn stops the command and says which bound and how to
// raise it, and what it learned is marked INCOMPLETE (bubblewrap's /dev,
// a tmpfs without size=, is read-only, and /dev/shm is a directory of the
// bounded scratch tmpfs). The controls run the
// same workloads with the bound raised: they write past it. A daemonizing
// workload (setsid, double fork) is gone when learn returns; its control,
// under bubblewrap without a PID namespace, outlives its sandbox.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  closeSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { skipLearn } from '../../learn/support.js';
import { bin, processesWith } from '../support.js';
import { hostArch } from '../../../targets/linux/index.js';
import { launcherPath } from '../../../targets/linux/launcher/index.js';
import { isRoot, NOBODY, spawnOutcome } from './support.js';

const MiB = 1024 * 1024;
/** A 4,000-byte path, stat()ed by the shell's own test builtin in a loop: strace writes a long line per call and no fork slows it. */
const LONG = `/nonexistent/${'x'.repeat(250)}/`.repeat(15).slice(0, 4000);
const STAT_LOOP = `while :; do [ -e "${LONG}" ]; done`;

/** The bytes of the regular files below `dir` now (0 for what vanished meanwhile). */
function bytesBelow(dir: string): number {
  let n = 0;
  const walk = (p: string): void => {
    let st;
    try {
      st = lstatSync(p);
    } catch {
      return;
    }
    if (st.isFile()) n += st.size;
    else if (st.isDirectory()) {
      let names: string[] = [];
      try {
        names = readdirSync(p);
      } catch {
        return;
      }
      for (const e of names) walk(join(p, e));
    }
  };
  walk(dir);
  return n;
}

describe('learn is bounded, and no process outlives it (issue 34, attacks 4 and 5)', { skip: skipLearn }, () => {
  let lab = '';
  let cache = '';
  before(() => {
    lab = mkdtempSync(join(tmpdir(), 'boxwright-learn-bounds-'));
    chmodSync(lab, 0o755);
    cache = join(lab, 'cache');
    mkdirSync(cache, { mode: 0o700 });
  });
  after(() => rmSync(lab, { recursive: true, force: true }));

  /** `boxwright learn ARGS`, watching the host disk learn's working files take (the cache root) every 10 ms. */
  async function learnWatched(args: readonly string[]) {
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, bytesBelow(cache))), 10);
    try {
      const r = await spawnOutcome(process.execPath, [bin, 'learn', ...args], { cwd: lab, env: { XDG_CACHE_HOME: cache } });
      return { ...r, most: Math.max(most, bytesBelow(cache)) };
    } finally {
      clearInterval(watch);
    }
  }

  it('control: with the trace bound raised (--max-trace 1G), the same loop writes past 4M in 2 s', async () => {
    const r = await learnWatched(['--max-trace', '1G', '--max-events', '1000', '--timeout', '2', '--', '/bin/sh', '-c', STAT_LOOP]);
    assert.equal(r.status, 124, r.stderr);
    assert.ok(r.most > 4 * MiB, `${r.most} bytes`);
  });

  it('--max-trace 4M: the loop is stopped at the bound with the flag to raise it, INCOMPLETE, and the host disk holds no more than 4M', async () => {
    const started = Date.now();
    const r = await learnWatched(['--max-trace', '4M', '--timeout', '60', '--', '/bin/sh', '-c', STAT_LOOP]);
    assert.equal(r.status, 124, r.stderr);
    assert.ok(Date.now() - started < 50_000, 'stopped by the bound, not by --timeout 60');
    assert.doesNotMatch(r.stdout, /could not be read/, 'the line strace could not end is not a call');
    assert.match(r.stderr, /the trace reached 4M \(--max-trace: .*\); learn stopped the command\. Raise it with --max-trace SIZE/);
    assert.match(r.stdout, /INCOMPLETE: stopped at --max-trace/);
    assert.ok(r.most <= 4 * MiB + 64 * 1024, `${r.most} bytes on the host`);
    assert.deepEqual(readdirSync(join(cache, 'boxwright', 'learn')), []);
  });

  const DD = 'dd if=/dev/zero of=big bs=1M count=64';

  it('control: with the overlay bound raised (--max-writes 1G), a 64M write completes in the throw-away root', async () => {
    const r = await learnWatched(['--max-writes', '1G', '--', '/bin/sh', '-c', DD]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /^64\+0 records out$/m);
    assert.equal(existsSync(join(lab, 'big')), false);
  });

  it('--max-writes 16M: the 64M write stops at 16M with the flag to raise it, INCOMPLETE; the host is unchanged', async () => {
    const r = await learnWatched(['--max-writes', '16M', '--', '/bin/sh', '-c', DD]);
    assert.equal(r.status, 124, r.stderr);
    assert.doesNotMatch(r.stderr, /^64\+0 records out$/m);
    assert.match(
      r.stderr,
      /the command's writes into the throw-away root reached 16M \(--max-writes: .*\); learn stopped it\. Raise it with --max-writes SIZE/,
    );
    assert.match(r.stdout, /INCOMPLETE: stopped at --max-writes/);
    assert.equal(existsSync(join(lab, 'big')), false);
  });

  const SHM = 'dd if=/dev/zero of=/dev/big bs=1M count=64; dd if=/dev/zero of=/dev/shm/big bs=1M count=64';

  it("control: bubblewrap's /dev (a tmpfs without size=) takes a 64M write, in /dev and in /dev/shm", async () => {
    const r = await spawnOutcome('bwrap', ['--unshare-all', '--bind', '/', '/', '--dev', '/dev', '--', '/bin/sh', '-c', SHM], { cwd: lab });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr.match(/^64\+0 records out$/gm)?.length, 2, r.stderr);
  });

  it('--max-writes 16M: /dev is read-only and /dev/shm is inside the bound', async () => {
    const r = await learnWatched(['--max-writes', '16M', '--', '/bin/sh', '-c', SHM]);
    assert.equal(r.status, 124, r.stderr);
    assert.match(r.stderr, /dd: failed to open '\/dev\/big': Read-only file system/);
    assert.doesNotMatch(r.stderr, /^64\+0 records out$/m);
    assert.match(r.stderr, /reached 16M \(--max-writes/);
  });

  it('without root (a user namespace; from root, as uid 65534): the helper holds --writes-size, and stdin reaches the command through a pipe', async () => {
    const helper = launcherPath(hostArch()!);
    assert.ok(helper, 'boxwright-sandbox is built');
    const base = join(lab, 'nobody-base');
    mkdirSync(join(base, 'scratch'), { recursive: true, mode: 0o700 });
    mkdirSync(join(base, 'keep'), { mode: 0o700 });
    chmodSync(base, 0o700);
    const work = join(lab, 'nobody-work');
    mkdirSync(work, { mode: 0o755 });
    const task = join(work, 'task.txt');
    writeFileSync(task, 'the task\n');
    const prog = join(lab, 'boxwright-sandbox');
    copyFileSync(helper, prog);
    chmodSync(prog, 0o755);
    if (isRoot) for (const p of [base, join(base, 'scratch'), join(base, 'keep'), work, task]) chownSync(p, NOBODY, NOBODY);
    const fd = openSync(task, 'r');
    try {
      const script = `echo injected >> /proc/self/fd/0; echo "append $?"; ${DD}`;
      const r = await spawnOutcome(
        prog,
        ['--throwaway-root', base, '--writable', work, '--writes-size', String(16 * MiB), '--', '/bin/sh', '-c', script],
        {
          cwd: work,
          nobody: isRoot,
          stdio: [fd, 'pipe', 'pipe'],
        },
      );
      // Killed at the bound (137), or ended by the shell on dd's ENOSPC first (1): the bound is recorded either way.
      assert.ok(r.status === 137 || r.status === 1, `${r.status}: ${r.stderr}`);
      assert.equal(readFileSync(join(base, 'keep', 'bound'), 'utf8'), 'writes');
      assert.doesNotMatch(r.stderr, /^64\+0 records out$/m);
      assert.equal(readFileSync(task, 'utf8'), 'the task\n');
      assert.equal(existsSync(join(work, 'big')), false);
    } finally {
      closeSync(fd);
    }
  });

  it('--max-events: learn reads no further than the bound, and says so', async () => {
    const r = await learnWatched(['--max-events', '20', '--', '/bin/ls', '/usr/bin']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /the trace holds more than 20 calls \(--max-events\); learn read no further\. Raise it with --max-events N/);
    assert.match(r.stdout, /INCOMPLETE: .*the trace was read up to --max-events \(20 calls\)/);
  });

  it('a bound that is not one is a usage error (2), and nothing runs', async () => {
    for (const bad of [
      ['--max-trace', '12X'],
      ['--max-trace', '512K'],
      ['--max-writes=-1M'],
      ['--max-events', '0'],
      ['--max-events', '1e6'],
    ]) {
      const r = await spawnOutcome(process.execPath, [bin, 'learn', ...bad, '--', '/bin/true'], {
        cwd: lab,
        env: { XDG_CACHE_HOME: cache },
      });
      assert.equal(r.status, 2, `${bad.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, new RegExp(bad[0]!.replace(/=.*/, '')));
    }
  });

  const token = `4${process.pid % 1000}.25`;
  const DAEMON = `setsid /bin/sh -c '(/bin/sleep ${token} &) ; exit 0' ; exit 0`;

  it('control: under bubblewrap without a PID namespace, the daemonized sleep outlives its sandbox', async () => {
    // No pipe on its stdio: the sleep would hold it open.
    const r = spawnSync('bwrap', ['--unshare-user', '--ro-bind', '/', '/', '--dev', '/dev', '--', '/bin/sh', '-c', DAEMON], {
      timeout: 20_000,
      stdio: 'ignore',
    });
    assert.equal(r.status, 0);
    await new Promise((res) => setTimeout(res, 200));
    const left = processesWith(token);
    assert.ok(left.length > 0, 'the sleep is still there');
    for (const p of left) process.kill(p, 'SIGKILL');
  });

  it('learn: the daemonized sleep is gone when learn returns', async () => {
    const r = await spawnOutcome(process.execPath, [bin, 'learn', '--', '/bin/sh', '-c', DAEMON], {
      cwd: lab,
      env: { XDG_CACHE_HOME: cache },
    });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(processesWith(token), []);
  });
});
