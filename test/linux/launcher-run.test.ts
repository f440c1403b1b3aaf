// The launcher passes the command through: its exit status and signal
// death, signals sent to the launcher, 127/126 for a command the view lacks
// or cannot execute; and it holds what `boxwright run` holds (the hostile
// workload's protections): the environment allowlist, no inherited
// descriptor, the seccomp program, Landlock when the launch file names
// rules. Each protection beside a control that lacks it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bare, isRoot, makeLab, NOBODY, programWithout, results, skip as skipLab, type Lab } from './hostile/support.js';
import { abi, interpreterOf, ruleset } from './landlock-support.js';
import {
  arch,
  bwrapRecord,
  fakeBwrap,
  launch,
  makeLauncherDir,
  program,
  realBwrap,
  skip as skipLauncher,
  type LauncherDir,
} from './launcher-support.js';
import { requireOrSkip } from '../helpers.js';
import { until, WAIT_LIMIT_MS, within } from '../waits.js';
import { processesWith } from './support.js';

const skip = skipLauncher ?? skipLab;

describe('launcher: the command passes through', { skip, concurrency: 2 }, () => {
  let lab: Lab;
  let d: LauncherDir;
  let work = '';
  let outside = '';
  let dirFd = -1;
  let config = '';
  /** A DIR of its own, for a test that changes what its launch file names (the tests run two at a time). */
  const ownDir = (): Promise<LauncherDir> => makeLauncherDir(config, { home: lab.home });
  before(async () => {
    lab = makeLab('launcher');
    work = join(lab.home, 'work');
    mkdirSync(work);
    outside = join(lab.home, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.txt'), 'host secret');
    writeFileSync(join(work, 'not-executable'), '#!/bin/sh\necho ran\n');
    chmodSync(work, 0o777);
    config = lab.config(
      'c.toml',
      `[agent.filesystem]\n${lab.base.replace('read = ["/usr"]', 'read = ["/usr", "~/work"]')}write = ["~/work"]\nworkspace = "~/work"\n`,
    );
    if (isRoot) lab.giveToNobody();
    d = await makeLauncherDir(config, { home: lab.home });
    dirFd = openSync(outside, 'r');
  });
  after(() => {
    closeSync(dirFd);
    lab.cleanup();
  });

  it("the exit status is the command's", async () => {
    for (const code of [0, 1, 2, 42, 124, 125, 255]) {
      const r = await launch(d.run, ['/usr/bin/sh', '-c', `exit ${code}`]);
      assert.equal(r.status, code, r.stderr);
      assert.equal(r.stderr, '');
    }
  });

  it('a signal death is 128 + signo, as bubblewrap reports it', async () => {
    for (const [sig, n] of [
      ['TERM', 15],
      ['KILL', 9],
      ['SEGV', 11],
    ] as const) {
      const r = await launch(d.run, ['/usr/bin/sh', '-c', `kill -${sig} $$`]);
      assert.equal(r.status, 128 + n, `${sig}: ${r.stderr}`);
    }
  });

  it('bubblewrap itself killed: 128 + signo, said so', async () => {
    const own = await ownDir();
    own.writeLaunch({ bwrap: bwrapRecord(fakeBwrap(own.dir, 'bwrap-killed', 'kill -KILL $$')) });
    const r = await launch(own.run, ['/usr/bin/true']);
    assert.equal(r.status, 137);
    assert.match(r.stderr, /^agent\.run: bubblewrap was killed by signal 9 \(Killed\)\n$/);
  });

  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    it(`${sig} sent to the launcher reaches the command, which handles it`, async () => {
      const up = join(work, `up-${sig}`);
      const got = join(work, `got-${sig}`);
      let pid = 0;
      const running = launch(
        d.run,
        ['/usr/bin/sh', '-c', `trap 'echo caught > ${got}; exit 3' ${sig.slice(3)}; echo > ${up}; while :; do /usr/bin/sleep 0.05; done`],
        { started: (p) => (pid = p) },
      );
      await until(() => existsSync(up), 'the sandboxed command to start (its marker file)');
      process.kill(pid, sig);
      const r = await running;
      assert.equal(r.status, 3, r.stderr);
      assert.equal(r.signal, null);
      assert.equal(readFileSync(got, 'utf8'), 'caught\n');
    });
  }

  /**
   * The launcher started by a shell in the background, as `boxwright run`
   * starts it (its parent, which then waits): the shell is killed with
   * SIGKILL once the command is up, and forwards nothing.
   */
  async function parentKilled(name: string, options: readonly string[]): Promise<{ token: string; launcher: number }> {
    const token = `boxwright-orphan-${name}-${process.pid}`;
    const up = join(work, `up-${name}`);
    const go = join(work, `go-${name}`);
    const alive = join(work, `alive-${name}`);
    const pidFile = join(work, `launcher-${name}`);
    const script = `while :; do if [ -e '${go}' ]; then echo > '${alive}'; fi; /usr/bin/sleep 0.05; done`;
    // $$ is the shell's pid: the launcher's parent, which --die-with-parent names.
    // No pipes: the orphan would hold them open.
    const shell = spawn(
      '/usr/bin/sh',
      [
        '-c',
        `"$0" ${options.map((o) => (o === 'PARENT' ? '$$' : o)).join(' ')} -- /usr/bin/sh -c "echo > '${up}'; ${script}" ${token} & echo $! > '${pidFile}'; wait`,
        d.run,
      ],
      { stdio: 'ignore' },
    );
    let exited = false;
    const ended = new Promise((resolve) => shell.on('exit', resolve)).finally(() => (exited = true));
    await until(() => existsSync(up) || exited, 'the sandboxed command to start (its marker file)');
    assert.ok(existsSync(up), 'the launcher ended before the command started');
    const launcher = Number(readFileSync(pidFile, 'utf8'));
    assert.equal(
      Number(
        readFileSync(`/proc/${launcher}/stat`, 'utf8')
          .replace(/^.*\) \S+ /s, '')
          .split(' ')[0],
      ),
      shell.pid,
      "the shell is the launcher's parent",
    );
    shell.kill('SIGKILL');
    await within(ended, WAIT_LIMIT_MS, 'the killed shell to end');
    return { token, launcher };
  }

  it('--die-with-parent PID: a parent killed with SIGKILL takes the launcher, bubblewrap and the command with it', async () => {
    const { token } = await parentKilled('protected', ['--die-with-parent', 'PARENT']);
    await until(
      () => processesWith(token).length === 0,
      `the sandboxed command (${token}) to end with its parent; still running: ${processesWith(token).join(', ')}`,
    );
  });

  it('control: without --die-with-parent, the launcher outlives its killed parent, and the command runs on unsupervised', async () => {
    const { token, launcher } = await parentKilled('control', []);
    try {
      writeFileSync(join(work, 'go-control'), '');
      await until(() => existsSync(join(work, 'alive-control')), 'the orphaned command to answer after its parent was killed');
      assert.ok(processesWith(token).includes(launcher), 'the launcher runs on');
    } finally {
      // bubblewrap's own --die-with-parent ends the sandbox with the launcher.
      process.kill(launcher, 'SIGKILL');
      await until(() => processesWith(token).length === 0, `the control's sandbox (${token}) to end once its launcher was killed`);
    }
  });

  it('a command on no PATH directory of the view: 127, with the PATH searched', async () => {
    const r = await launch(d.run, ['no-such-command'], { env: { PATH: '/usr/local/bin:/usr/bin:/bin' } });
    assert.equal(r.status, 127);
    // One program, one prefix: the in-sandbox step speaks as the launcher (it said `boxwright-sandbox:`).
    assert.match(
      r.stderr,
      /^agent\.run: cannot execute 'no-such-command': No such file or directory\nagent\.run: no-such-command is not in agent's view: not found on the sandbox's PATH \(PATH=\/usr\/local\/bin:\/usr\/bin:\/bin\)\. Grant its directory in .*c\.toml/,
    );
  });

  it('a path outside the view: 127', async () => {
    const r = await launch(d.run, [join(outside, 'secret.txt')]);
    assert.equal(r.status, 127);
    assert.match(r.stderr, /secret\.txt is not in agent's view \(no such file inside the sandbox/);
  });

  it('a file in the view without execute permission: 126', async () => {
    const r = await launch(d.run, [join(work, 'not-executable')]);
    assert.equal(r.status, 126);
    assert.match(r.stderr, /not-executable is in agent's view but cannot be executed \(Permission denied\); it did not run/);
    const dir = await launch(d.run, [work]);
    assert.equal(dir.status, 126);
  });

  const seen = (stdout: string): string[] =>
    stdout
      .split('\0')
      .filter(Boolean)
      .map((kv) => kv.slice(0, kv.indexOf('=')))
      .sort();
  const callerEnv = {
    PATH: '/usr/bin:/bin',
    HOME: '/nonexistent-home',
    LC_ALL: 'C',
    LC_TIME: 'C',
    TERM: 'dumb',
    PGPASSWORD: 'pg',
    GITHUB_TOKEN: 'ghp',
    lc_all: 'x',
    SSH_AUTH_SOCK: '/tmp/agent',
  };

  it('the environment is the allowlist: the credentials stay out', async () => {
    const r = await launch(d.run, ['/usr/bin/env', '-0'], { exactEnv: callerEnv });
    assert.equal(r.status, 0, r.stderr);
    // PWD is bubblewrap's own, set by the view's --chdir.
    assert.deepEqual(seen(r.stdout), ['HOME', 'LC_ALL', 'LC_TIME', 'PATH', 'PWD', 'TERM']);
  });

  it('--pass-env NAME (repeated or comma-separated) lets exactly those through; -v names the rest', async () => {
    const r = await launch(d.run, ['--pass-env', 'GITHUB_TOKEN', '-v', '--pass-env', 'lc_all,NOT_SET', '/usr/bin/env', '-0'], {
      exactEnv: callerEnv,
    });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(seen(r.stdout), ['GITHUB_TOKEN', 'HOME', 'LC_ALL', 'LC_TIME', 'PATH', 'PWD', 'TERM', 'lc_all']);
    assert.match(
      r.stderr,
      /^agent\.run: withholding 2 environment variables: PGPASSWORD, SSH_AUTH_SOCK \(--pass-env NAME lets one through\)$/m,
    );
  });

  it('--pass-env NAME=VALUE sets NAME for the command alone, over what the caller has (commas and all)', async () => {
    const r = await launch(d.run, ['--pass-env', 'NODE_OPTIONS=--jitless,--x', '--pass-env', 'TERM=xterm', '/usr/bin/env', '-0'], {
      exactEnv: callerEnv,
    });
    assert.equal(r.status, 0, r.stderr);
    const env = new Map(
      r.stdout
        .split('\0')
        .filter(Boolean)
        .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
    );
    assert.equal(env.get('NODE_OPTIONS'), '--jitless,--x');
    assert.equal(env.get('TERM'), 'xterm');
    assert.ok(!env.has('GITHUB_TOKEN'));
    const bad = await launch(d.run, ['--pass-env', '=x', '/usr/bin/true'], { exactEnv: callerEnv });
    assert.equal(bad.status, 2, bad.stderr);
  });

  it("control: bare bubblewrap hands the caller's whole environment down", async () => {
    const r = await bare({ argv: d.compiled, bpf: readFileSync(join(d.dir, `seccomp.${arch}.bpf`)) }, ['/usr/bin/env', '-0'], {
      env: { PGPASSWORD: 'pg' },
    });
    assert.ok(seen(r.stdout).includes('PGPASSWORD'), r.stderr);
  });

  it('inherited descriptors do not reach the command, nor any the launcher gave bubblewrap', async () => {
    const r = await launch(d.run, [lab.probe, 'fds'], { fds: { 9: dirFd, 100: dirFd, 200: dirFd } });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(results(r.stdout).fds, '0,1,2');
    const read = await launch(d.run, [lab.probe, 'fdread', '100', 'secret.txt'], { fds: { 100: dirFd } });
    assert.equal(results(read.stdout).openat, 'EBADF');
  });

  it("bubblewrap itself inherits none of the caller's descriptors (the launcher closes them before it starts anything)", async () => {
    const own = await ownDir();
    const seenBy = join(own.dir, 'bwrap-fds');
    own.writeLaunch({
      bwrap: bwrapRecord(
        fakeBwrap(own.dir, 'bwrap-lists-fds', `for f in /proc/$$/fd/*; do readlink "$f"; done > '${seenBy}'\nexec '${realBwrap}' "$@"`),
      ),
    });
    const r = await launch(own.run, ['/usr/bin/true'], { fds: { 9: dirFd, 100: dirFd } });
    assert.equal(r.status, 0, r.stderr);
    const targets = readFileSync(seenBy, 'utf8');
    assert.match(targets, /memfd:boxwright-args/, "the listing saw the launcher's own descriptors");
    assert.ok(!targets.includes(outside), targets);
    const kept = await launch(own.run, ['--pass-fd', '100', '/usr/bin/true'], { fds: { 9: dirFd, 100: dirFd } });
    assert.equal(kept.status, 0, kept.stderr);
    const listed = readFileSync(seenBy, 'utf8');
    assert.equal(listed.split('\n').filter((t) => t === outside).length, 1, `only --pass-fd 100: ${listed}`);
  });

  it("a caller that closed stdout: the command's stdout is /dev/null, not a file the launcher opened", async () => {
    // $(…) runs in a subshell whose stdout is the pipe; /proc/$$ is the command's own table.
    const r = await launch('/usr/bin/sh', ['-c', `exec 1>&-; exec '${d.run}' /usr/bin/sh -c 'x=$(readlink /proc/$$/fd/1); echo "$x" >&2'`]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '/dev/null\n');
  });

  it('--pass-fd N lets exactly that descriptor through, under its number; -v names those closed', async () => {
    const r = await launch(d.run, ['--pass-fd', '100', '-v', lab.probe, 'fds'], { fds: { 9: dirFd, 100: dirFd, 200: dirFd } });
    assert.equal(results(r.stdout).fds, '0,1,2,100', r.stderr);
    // Besides 9 and 200, whatever the test runner itself inherited and left inheritable.
    const closed = /^agent\.run: closed inherited descriptors ([\d, ]+) \(--pass-fd N lets one through\)$/m
      .exec(r.stderr)?.[1]
      ?.split(', ')
      .map(Number);
    assert.ok(closed?.includes(9) && closed.includes(200) && !closed.includes(100), r.stderr);
    assert.match(
      r.stderr,
      /^agent\.run: running ".*bwrap" "--args" "\d+" "--json-status-fd" "\d+" "--" "\/\.boxwright\/exec" "--no-landlock" "--ready-fd" "\d+" "--keep-fd" "100" "--name" "agent\.run" "--" ".*probe" "fds"$/m,
    );
    assert.match(r.stderr, /^agent\.run: --args \d+ holds "--unshare-all" .*"--ro-bind-fd" "\d+" "\/usr" .*"--seccomp" "\d+"$/m);
    const read = await launch(d.run, ['--pass-fd', '100', lab.probe, 'fdread', '100', 'secret.txt'], { fds: { 100: dirFd } });
    assert.equal(results(read.stdout).content, 'host secret');
  });

  it('control: bare bubblewrap hands an inherited descriptor down', async () => {
    const r = await bare({ argv: d.compiled, bpf: readFileSync(join(d.dir, `seccomp.${arch}.bpf`)) }, [lab.probe, 'fds'], {
      fds: { 100: dirFd },
    });
    assert.match(results(r.stdout).fds ?? '', /\b100\b/, r.stderr);
  });

  it("the in-sandbox step is the launcher's own file, bound read-only at /.boxwright/exec (no copy, no --perms)", async () => {
    const v = await launch(d.run, ['-v', '/usr/bin/true']);
    assert.match(v.stderr, /"--ro-bind-fd" "\d+" "\/\.boxwright\/exec" "--remount-ro" "\/"/);
    assert.doesNotMatch(v.stderr, /"--perms" "0555"|"--ro-bind-data" "\d+" "\/\.boxwright\/exec"/);
    const r = await launch(d.run, [
      '/usr/bin/sh',
      '-c',
      'grep " /.boxwright/exec " /proc/self/mountinfo; echo x >> /.boxwright/exec && echo WRITTEN',
    ]);
    assert.match(r.stdout, / \/\.boxwright\/exec ro,/);
    assert.doesNotMatch(r.stdout, /WRITTEN/);
    assert.deepEqual(readFileSync(d.run), readFileSync(program!));
  });

  it('the seccomp program in DIR is applied (set-id modes refused); with one lacking the rules they go through', async () => {
    const out = join(work, 'setid');
    const controlOut = join(work, 'setid-control');
    mkdirSync(out);
    mkdirSync(controlOut);
    const r = await launch(d.run, [lab.probe, 'setuid', out]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(results(r.stdout).chmod, 'EPERM', r.stdout);
    const own = await ownDir();
    own.writeNamed(
      `seccomp.${arch}.bpf`,
      programWithout(['setid-mode-fchmod', 'setid-mode-path', 'setid-mode-at', 'setid-mode-open', 'setid-mode-openat']),
    );
    const control = await launch(own.run, [lab.probe, 'setuid', controlOut]);
    assert.equal(results(control.stdout).chmod, 'ok', control.stdout + control.stderr);
  });

  it('as an unprivileged user: runs, as that user', { skip: requireOrSkip(isRoot, 'root (uid 0), to switch to nobody') }, async () => {
    const r = await launch(d.run, ['/usr/bin/id', '-u'], { uid: NOBODY });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, `${NOBODY}\n`);
  });
});

describe('launcher: Landlock rules from the launch file', {
  skip: skip ?? requireOrSkip(abi >= 1, `Landlock in the kernel (ABI ${abi})`),
}, () => {
  let lab: Lab;
  let d: LauncherDir;
  before(async () => {
    lab = makeLab('launcher-landlock');
    const config = lab.config('c.toml', `[agent.filesystem]\n${lab.base}`);
    const loader = realpathSync(interpreterOf('/usr/bin/ls') ?? '/nonexistent');
    d = await makeLauncherDir(config, {
      home: lab.home,
      landlock: ruleset([
        [['execute'], '/usr/bin/ls'],
        [['execute'], loader],
        [['read_file', 'read_dir'], '/usr'],
      ]),
    });
  });
  after(() => lab.cleanup());

  it('execute where the rules grant it; elsewhere 126 (EACCES from Landlock), though the view holds the file', async () => {
    const ok = await launch(d.run, ['/usr/bin/ls', '/usr']);
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /^bin$/m);
    const denied = await launch(d.run, ['/usr/bin/cat', '/usr/lib/os-release']);
    assert.equal(denied.status, 126, denied.stderr);
    assert.match(denied.stderr, /\/usr\/bin\/cat is in agent's view but cannot be executed \(Permission denied\)/);
  });

  it('control: the same DIR with `landlock none` runs cat', async () => {
    d.writeLaunch({ landlock: undefined });
    try {
      const r = await launch(d.run, ['/usr/bin/cat', '/usr/lib/os-release']);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /^ID=/m);
    } finally {
      d.writeLaunch({});
    }
  });
});
