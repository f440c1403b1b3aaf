// Attack 5 of issue 34: the run directory of a run without a cache entry in
// the host's shared temp. When the cache could not be used and
// XDG_RUNTIME_DIR was unset, `run` made `$TMPDIR/.run-PID-…` and wrote its
// launcher there. The vet asks only whether this config's principals reach
// that place; another run's workload that may write the shared temp is not
// this config's. It replaced the victim's agent.run before it ran, and the
// victim ran the attacker's file on the host with full capabilities. Now
// such a run uses the protected cache root or XDG_RUNTIME_DIR, and refuses
// (125) when neither can be made private: never the shared temp
// (targets/run/run-dir.ts).
//
// The attacker is real: another config's workload under `boxwright run`
// with `write` on the shared temp, polling it for `.run-*/agent.run` and
// replacing each one it finds. The control: the same attacker against a
// run directory placed where the old code put it (the shared temp), with the
// old code's steps (write the launcher, take its stamp, run it): the
// attacker's program runs on the host.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runLauncher } from '../../../targets/linux/run/sandbox/spawn.js';
import { stampOf } from '../../../targets/linux/run/sandbox/run-cache.js';
import { until } from '../../waits.js';
import { bin, boxwright } from '../support.js';
import { cc } from '../rewrite-argv.js';
import { makeLab, skip, type Lab } from './support.js';

describe('hostile workload: a run directory in the shared temp, replaced by another run (issue 34, attack 5)', {
  skip,
  concurrency: 1,
}, () => {
  let lab: Lab;
  let victim = '';
  let shared = '';
  let cache = '';
  let runtime = '';
  let marker = '';
  let attacker: ChildProcess | undefined;
  let attackerOut = '';
  before(async () => {
    lab = makeLab('run-dir');
    victim = lab.config('victim.toml', `[agent.filesystem]\n${lab.base}`);
    // The host's shared temp (1777), as the victim's TMPDIR and the attacker's write grant.
    shared = mkdtempSync(join(tmpdir(), 'boxwright-shared-tmp-'));
    chmodSync(shared, 0o1777);
    cache = mkdtempSync(join(tmpdir(), 'boxwright-run-dir-cache-'));
    runtime = mkdtempSync(join(tmpdir(), 'boxwright-run-dir-runtime-'));
    marker = join(lab.home, 'attacker-ran');
    // The attacker's program: a static binary (the launcher is executed from a
    // descriptor, which a #! script cannot be) that leaves a mark on the host.
    const fakeC = join(lab.home, 'fake.c');
    writeFileSync(fakeC, `#include <fcntl.h>\nint main(void) { return open(${JSON.stringify(marker)}, O_CREAT | O_WRONLY, 0644) < 0; }\n`);
    const built = spawnSync(cc!, ['-static', '-O1', '-o', join(shared, 'fake.run'), fakeC], { encoding: 'utf8' });
    assert.equal(built.status, 0, built.stderr);
    chmodSync(join(shared, 'fake.run'), 0o755);
    // The other config's workload: it may write the shared temp, and replaces every `.run-*/agent.run` it sees there.
    const other = lab.config('other.toml', `[agent.filesystem]\nread = ["/usr", "${shared}"]\nwrite = ["${shared}"]\nexec = ["/usr"]\n`);
    const loop = [
      `S='${shared}'`,
      'echo watching',
      'while [ ! -e "$S/stop" ]; do',
      '  for r in "$S"/.run-*/agent.run; do',
      '    [ -f "$r" ] || continue',
      '    cmp -s "$S/fake.run" "$r" && continue',
      '    d=${r%/agent.run}',
      '    cp "$S/fake.run" "$d/agent.swap" && mv -f "$d/agent.swap" "$r" && echo "$r" >> "$S/replaced.log"',
      '  done',
      '  sleep 0.01',
      'done',
    ].join('\n');
    attacker = spawn(process.execPath, [bin, 'run', other, '--home', lab.home, '--', 'sh', '-c', loop], {
      env: { ...process.env, NO_COLOR: '1', XDG_CACHE_HOME: join(lab.home, 'attacker-cache') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    attacker.stdout!.on('data', (d: Buffer) => (attackerOut += d.toString()));
    attacker.stderr!.on('data', (d: Buffer) => (attackerOut += d.toString()));
    await until(() => attackerOut.includes('watching') || attacker!.exitCode !== null, 'the attacker to start');
    assert.match(attackerOut, /watching/, attackerOut);
  });
  after(async () => {
    if (shared) writeFileSync(join(shared, 'stop'), '');
    if (attacker && attacker.exitCode === null) {
      await until(() => attacker!.exitCode !== null, 'the attacker to stop').catch(() => attacker!.kill('SIGKILL'));
    }
    for (const d of [shared, cache, runtime]) if (d) rmSync(d, { recursive: true, force: true });
    lab.cleanup();
  });

  const replaced = (): string => (existsSync(join(shared, 'replaced.log')) ? readFileSync(join(shared, 'replaced.log'), 'utf8') : '');
  const victimRun = (env: Record<string, string | undefined>) =>
    boxwright(['run', '-', '--home', lab.home, '--', 'sh', '-c', 'echo victim ran'], {
      env: { TMPDIR: shared, XDG_CACHE_HOME: cache, XDG_RUNTIME_DIR: undefined, ...env },
      input: readFileSync(victim, 'utf8'),
    });
  /** A run, and every name made in the shared temp while it ran. */
  const watched = async (env: Record<string, string | undefined>) => {
    const seen: string[] = [];
    const watcher = watch(shared, (_event, name) => void (name && !/^(replaced\.log|stop)$/.test(name) && seen.push(name)));
    try {
      return { ...(await victimRun(env)), seen };
    } finally {
      watcher.close();
    }
  };

  it('a config on standard input runs from a private directory under the cache root: nothing in the shared temp, nothing replaced', async () => {
    const r = await watched({});
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'victim ran\n');
    assert.deepEqual(r.seen, [], 'nothing of the run was made in the shared temp');
    assert.equal(replaced(), '');
    assert.ok(!existsSync(marker), "the attacker's program ran");
    assert.equal(statSync(join(cache, 'boxwright', 'run')).mode & 0o777, 0o700);
  });

  describe('the cache root not private', () => {
    before(() => chmodSync(join(cache, 'boxwright'), 0o777));
    after(() => chmodSync(join(cache, 'boxwright'), 0o700));

    it('XDG_RUNTIME_DIR unset: the run refuses (125) with the remedy, and makes nothing in the shared temp', async () => {
      const r = await watched({});
      assert.equal(r.status, 125, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(
        r.stderr,
        /no private directory for this run's sandbox \(.*can be written by others \(mode 777\); XDG_RUNTIME_DIR is not set/,
      );
      assert.match(r.stderr, /never made in a shared temp directory.*chmod 700.*XDG_RUNTIME_DIR.*the command did not run/);
      assert.deepEqual(r.seen, []);
      assert.ok(!existsSync(marker));
    });

    it('XDG_RUNTIME_DIR the shared temp (world-writable, sticky): refused as well (125)', async () => {
      const r = await watched({ XDG_RUNTIME_DIR: shared });
      assert.equal(r.status, 125, r.stderr);
      assert.match(r.stderr, new RegExp(`${shared} can be written by others \\(mode 1?777\\)`));
      assert.deepEqual(r.seen, []);
      assert.ok(!existsSync(join(shared, 'boxwright')));
    });

    it('XDG_RUNTIME_DIR private (0700, yours): the run uses it, and removes its directory after', async () => {
      const r = await watched({ XDG_RUNTIME_DIR: runtime });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, 'victim ran\n');
      assert.equal(statSync(join(runtime, 'boxwright')).mode & 0o777, 0o700);
      assert.deepEqual(readdirSync(join(runtime, 'boxwright')), []);
      assert.deepEqual(r.seen, []);
      assert.equal(replaced(), '');
      assert.ok(!existsSync(marker));
    });
  });

  it('XDG_CACHE_HOME the shared temp itself: the cache root there is refused too (its entry could be renamed away)', async () => {
    const r = await watched({ XDG_CACHE_HOME: shared });
    assert.equal(r.status, 125, r.stderr);
    assert.match(r.stderr, new RegExp(`${shared}/boxwright is in ${shared}, a directory others may write \\(mode 1777\\)`));
    assert.ok(!existsSync(join(shared, 'boxwright', 'run')));
  });

  it('XDG_CACHE_HOME the shared temp, a config file: no cache entry is written or read there; the run uses XDG_RUNTIME_DIR', async () => {
    const r = await boxwright(['run', victim, '--home', lab.home, '-v', '--', 'sh', '-c', 'echo victim ran'], {
      env: { TMPDIR: shared, XDG_CACHE_HOME: shared, XDG_RUNTIME_DIR: runtime },
    });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'victim ran\n');
    assert.match(r.stderr, new RegExp(`no cache entry: ${shared}/boxwright is in ${shared}, a directory others may write`));
    assert.ok(!existsSync(join(shared, 'boxwright', 'run')), 'no entry in the shared temp');
    assert.deepEqual(readdirSync(join(runtime, 'boxwright')), []);
    assert.equal(replaced(), '');
    assert.ok(!existsSync(marker));
  });

  it("control: a run directory where the old code put it (the shared temp) has its launcher replaced, and the attacker's program runs on the host", async () => {
    const dir = mkdtempSync(join(shared, `.run-${process.pid}-`));
    // The victim's config alone in its directory: run compiled it in process, without compile's look at the
    // other configs beside it (issue 35, attack 6), which would refuse this directory because of other.toml.
    const alone = join(lab.home, 'alone');
    mkdirSync(alone);
    copyFileSync(victim, join(alone, 'victim.toml'));
    const c = await boxwright([
      'compile',
      join(alone, 'victim.toml'),
      '--home',
      lab.home,
      '--fs',
      'host',
      '--target',
      'linux',
      '--out',
      dir,
    ]);
    assert.equal(c.status, 0, c.stderr);
    const fake = readFileSync(join(shared, 'fake.run'));
    await until(
      () => existsSync(join(dir, 'agent.run')) && readFileSync(join(dir, 'agent.run')).equals(fake),
      'the attacker to replace agent.run',
    );
    assert.match(replaced(), new RegExp(`${dir}/agent.run`));
    // The old code's next steps: the stamp of what is there now, then the launch.
    const stamp = stampOf(join(dir, 'agent.run'));
    assert.ok(typeof stamp !== 'string', String(stamp));
    const status = await runLauncher({
      launcher: join(dir, 'agent.run'),
      expect: stamp,
      command: ['true'],
      passEnv: [],
      passFds: [],
      verbose: false,
    });
    assert.equal(status, 0);
    assert.ok(existsSync(marker), "the attacker's program ran on the host");
    rmSync(marker);
  });
});
