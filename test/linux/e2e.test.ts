// The end-to-end matrix under real bubblewrap: `boxwright run` on a real
// temporary tree (`--home TMP --fs host`), each case a real sandbox. Perl
// makes raw syscalls, so socket families and high words reach the kernel as
// written. Needs bwrap (CI fails without it; elsewhere these skip loudly).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  closeSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { repoRoot, requireOrSkip } from '../helpers.js';
import { finished, until, WAIT_LIMIT_MS, within } from '../waits.js';
import { bin, boxwright, bwrapAvailable, makeHome, onPath, processesWith, writeConfig, type Outcome } from './support.js';

const skip = requireOrSkip(bwrapAvailable, 'bubblewrap') ?? requireOrSkip(!!onPath('perl'), 'perl');

/** node's own directory, granted when it lives outside /usr (CI toolcaches). */
const nodeDir = dirname(realpathSync(process.execPath));
const usrGrants = ['/usr', ...(nodeDir.startsWith('/usr/') ? [] : [nodeDir])];
const grantList = (xs: readonly string[]): string => xs.map((x) => JSON.stringify(x)).join(', ');

let home = '';
let config = '';
const run = (
  cmd: readonly string[],
  extra: readonly string[] = [],
  env: Record<string, string | undefined> = {},
  cfg = config,
): Promise<Outcome> => boxwright(['run', cfg, '--home', home, '--fs', 'host', ...extra, '--', ...cmd], { env });

describe('boxwright run under real bubblewrap', { skip, concurrency: 4 }, () => {
  before(() => {
    home = makeHome();
    config = writeConfig(
      home,
      'agent.toml',
      `[agent.filesystem]
workspace = "~/project"
read = ["~/project", ${grantList(usrGrants)}]
exec = [${grantList(usrGrants)}]
write = ["~/project/output"]
deny = ["~/project/.env", "~/project/secrets"]

[tools.fetcher.filesystem]
read = [${grantList(usrGrants)}]
[tools.fetcher.network]
`,
    );
  });
  after(() => rmSync(home, { recursive: true, force: true }));

  it('reads a granted file (from the workspace, entered with --chdir)', async () => {
    const r = await run(['cat', 'README.md']);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'hello from the project\n');
  });

  it('writes under a write grant, and the host sees it', async () => {
    const r = await run(['sh', '-c', 'echo built > output/result.txt']);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(readFileSync(join(home, 'project', 'output', 'result.txt'), 'utf8'), 'built\n');
  });

  it('writing outside the write grant fails: a read-only grant, and the sandbox root', async () => {
    const r = await run([
      'sh',
      '-c',
      'echo changed > README.md; echo "readme=$?"; touch /new-file; echo "root=$?"; mkdir /tmp 2>/dev/null; echo "tmp=$?"',
    ]);
    assert.match(r.stdout, /readme=[1-9]/);
    assert.match(r.stdout, /root=[1-9]/);
    assert.match(r.stdout, /tmp=[1-9]/);
    assert.equal(readFileSync(join(home, 'project', 'README.md'), 'utf8'), 'hello from the project\n');
  });

  it('a denied file reads empty and cannot be written; a denied directory is empty and read-only', async () => {
    const r = await run([
      'sh',
      '-c',
      'printf "[%s]" "$(cat .env)"; echo "read=$?"; echo leak > .env; echo "write=$?"; ls -A secrets | wc -l; cat secrets/key; echo "key=$?"; touch secrets/new; echo "new=$?"',
    ]);
    assert.match(r.stdout, /^\[\]read=0\n/);
    assert.match(r.stdout, /write=[1-9]/);
    assert.match(r.stdout, /\n0\n/);
    assert.match(r.stdout, /key=[1-9]/);
    assert.match(r.stdout, /new=[1-9]/);
    assert.equal(readFileSync(join(home, 'project', '.env'), 'utf8'), 'API_KEY=do-not-read\n');
    assert.ok(!existsSync(join(home, 'project', 'secrets', 'new')));
  });

  it('a workspace no grant holds: an empty directory, created and entered', async () => {
    const cfg = writeConfig(
      home,
      'workspace.toml',
      `[agent.filesystem]\nworkspace = "~/elsewhere"\nread = [${grantList(usrGrants)}]\nexec = [${grantList(usrGrants)}]\n`,
    );
    const r = await run(['sh', '-c', 'pwd; ls -A | wc -l'], [], {}, cfg);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, `${join(home, 'elsewhere')}\n0\n`);
  });

  it('ungranted paths do not exist', async () => {
    const r = await run([
      'sh',
      '-c',
      `for p in ${join(home, 'elsewhere')} ${join(home, 'agent.toml')} /etc /root /var /home; do test -e "$p" && echo "EXISTS $p"; done; echo done`,
    ]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'done\n');
  });

  it('IPv4 sockets are allowed, IPv6 refused (EAFNOSUPPORT), and the high-word trick too', async () => {
    const perl = String.raw`
      $! = 0; my $a = syscall(41, 2, 1, 0); printf "inet %d %d\n", $a >= 0 ? 1 : 0, $! + 0;
      $! = 0; my $b = syscall(41, 10, 1, 0); printf "inet6 %d %d\n", $b, $! + 0;
      $! = 0; my $c = syscall(41, 0x10000000a, 1, 0); printf "inet6-highword %d %d\n", $c, $! + 0;
      $! = 0; my $d = syscall(41, 1, 1, 0); printf "unix %d %d\n", $d >= 0 ? 1 : 0, $! + 0;`;
    const r = await run(['perl', '-e', perl]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'inet 1 0\ninet6 -1 97\ninet6-highword -1 97\nunix 1 0\n');
  });

  it('a JIT runtime fails under the executable-memory filter; node --jitless runs', async () => {
    const jit = await run([process.execPath, '-e', '1']);
    assert.equal(jit.status, 133, 'node with its JIT must fail: V8 aborts (SIGTRAP)');
    // After the command's own output, run says what the abort means and the remedy (issue 11).
    // The remedy is the command line itself, with --jitless: copied, it runs.
    assert.match(
      jit.stderr,
      /boxwright run: \S*node died of SIGTRAP \(exit 133\): .*executable-memory filter.*: boxwright run .* -- \S*node --jitless -e 1\n/,
    );
    const jitless = await run([process.execPath, '--jitless', '-e', 'console.log("jitless " + (1 + 1))']);
    assert.equal(jitless.status, 0, jitless.stderr);
    assert.equal(jitless.stdout, 'jitless 2\n');
  });

  it('the command line after -- is passed verbatim (no option parsing, no number coercion)', async () => {
    const r = await run(['printf', '%s|', '-0', '007', '1e3', '--principal', '--', '-v']);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, '-0|007|1e3|--principal|--|-v|');
  });

  it("the command's exit status passes through, a signal death as 128 + signo", async () => {
    assert.equal((await run(['sh', '-c', 'exit 7'])).status, 7);
    assert.equal((await run(['sh', '-c', 'kill -TERM $$'])).status, 143);
  });

  it('remounting a read-only bind writable from inside fails, and the host file is unchanged', {
    skip: requireOrSkip(!!onPath('mount'), 'mount (util-linux)'),
  }, async () => {
    const target = join(home, 'project');
    const r = await run([
      'sh',
      '-c',
      `mount -o remount,rw,bind ${target} ${target}; echo "mount=$?"; mount -o remount,rw ${target}; echo "mount2=$?"; echo pwned > ${target}/README.md; echo "write=$?"`,
    ]);
    // 32: mount(8)'s "mount failure" (EPERM: no capabilities, and the filter refuses mount(2)); 127 would mean no mount in the view.
    assert.match(r.stdout, /mount=32\n/);
    assert.match(r.stdout, /mount2=32\n/);
    assert.match(r.stdout, /write=[1-9]/);
    assert.equal(readFileSync(join(target, 'README.md'), 'utf8'), 'hello from the project\n');
  });

  it('control: as root, bare bwrap without --cap-drop ALL and the filter lets the same remount through', {
    skip: requireOrSkip(process.getuid?.() === 0, 'root (uid 0): bare bwrap lets the remount through only with its capabilities'),
  }, () => {
    const dir = join(home, 'control');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'f'), 'original\n');
    const view = [
      '--unshare-all',
      '--ro-bind',
      '/usr',
      '/usr',
      '--symlink',
      'usr/bin',
      '/bin',
      '--symlink',
      'usr/lib',
      '/lib',
      '--symlink',
      'usr/lib64',
      '/lib64',
      '--proc',
      '/proc',
      '--dev',
      '/dev',
      '--ro-bind',
      dir,
      dir,
    ];
    const r = finished(
      spawnSync('bwrap', [...view, '--', 'sh', '-c', `mount -o remount,rw,bind ${dir} ${dir} && echo changed > ${dir}/f`], {
        encoding: 'utf8',
        timeout: WAIT_LIMIT_MS,
      }),
      'bare bubblewrap remounting a bind',
    );
    assert.equal(r.status, 0, r.stderr);
    assert.equal(
      readFileSync(join(dir, 'f'), 'utf8'),
      'changed\n',
      'without the protections the host file changes: the test above is meaningful',
    );
  });

  it('no capabilities inside, even when boxwright runs as root', async () => {
    const r = await run(['sh', '-c', 'grep -E "^Cap(Eff|Prm|Bnd):" /proc/self/status']);
    assert.equal(r.status, 0, r.stderr);
    for (const line of r.stdout.trim().split('\n')) assert.match(line, /:\s+0000000000000000$/);
  });

  it('credential variables stay out unless --pass-env lets one in', async () => {
    const env = { AWS_SECRET_ACCESS_KEY: 'aws', GITHUB_TOKEN: 'gh', MY_SERVICE_PASSWORD: 'pw', SSH_AUTH_SOCK: '/tmp/agent', TZ: 'UTC' };
    const show = [
      'sh',
      '-c',
      'for v in AWS_SECRET_ACCESS_KEY GITHUB_TOKEN MY_SERVICE_PASSWORD SSH_AUTH_SOCK TZ; do eval "echo $v=\\${$v-unset}"; done',
    ];
    const r = await run(show, [], env);
    assert.equal(r.stdout, 'AWS_SECRET_ACCESS_KEY=unset\nGITHUB_TOKEN=unset\nMY_SERVICE_PASSWORD=unset\nSSH_AUTH_SOCK=unset\nTZ=UTC\n');
    const p = await run(show, ['--pass-env', 'GITHUB_TOKEN'], env);
    assert.match(p.stdout, /GITHUB_TOKEN=gh\n/);
    assert.match(p.stdout, /AWS_SECRET_ACCESS_KEY=unset/);
  });

  it('a principal with a direct network exception shares the host network namespace; the agent has its own', async () => {
    const host = realNetNs();
    const agent = await run(['readlink', '/proc/self/ns/net']);
    const tool = await run(['readlink', '/proc/self/ns/net'], ['--principal', 'tool:fetcher']);
    assert.equal(agent.status, 0, agent.stderr);
    assert.equal(tool.status, 0, tool.stderr);
    assert.notEqual(agent.stdout.trim(), host);
    assert.equal(tool.stdout.trim(), host);
  });

  it('--gateway-socket binds the host product socket into an otherwise empty network namespace', async () => {
    const sock = join(home, 'gateway.sock');
    const got: string[] = [];
    const server = createServer((c) => c.on('data', (d) => got.push(d.toString())));
    await new Promise<void>((resolve) => server.listen(sock, resolve));
    try {
      const perl = `use Socket; socket(my $s, PF_UNIX, SOCK_STREAM, 0) or die "socket: $!"; connect($s, pack_sockaddr_un("${sock}")) or die "connect: $!"; syswrite($s, "via gateway"); close($s); print "sent\\n";`;
      const r = await run(['perl', '-e', perl], ['--gateway-socket', sock]);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, 'sent\n');
      await until(() => got.join('') === 'via gateway', `the host socket to receive "via gateway" (got "${got.join('')}")`);
    } finally {
      server.close();
    }
  });

  it('SIGTERM to boxwright reaches the command, and its exit status comes back', async () => {
    const child = spawn(
      process.execPath,
      [bin, 'run', config, '--home', home, '--', 'sh', '-c', 'trap "exit 42" TERM; echo ready; while :; do sleep 0.02; done'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const ended = new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    await within(
      new Promise<void>((resolve) => child.stdout!.once('data', () => resolve())),
      WAIT_LIMIT_MS,
      'the sandboxed command to say it is ready',
      () => child.kill('SIGKILL'),
    );
    child.kill('SIGTERM');
    assert.equal(await within(ended, WAIT_LIMIT_MS, 'boxwright to end after SIGTERM'), 42);
  });

  it('SIGKILL to boxwright (which then forwards nothing) ends the sandbox too: the command does not run on unsupervised', async () => {
    const token = `boxwright-e2e-sigkill-${process.pid}`;
    const child = spawn(
      process.execPath,
      [bin, 'run', config, '--home', home, '--', 'sh', '-c', 'echo ready; while :; do sleep 0.02; done', token],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_, signal) => resolve(signal)));
    await within(
      new Promise<void>((resolve) => child.stdout!.once('data', () => resolve())),
      WAIT_LIMIT_MS,
      'the sandboxed command to say it is ready',
      () => child.kill('SIGKILL'),
    );
    assert.ok(processesWith(token).length >= 3, 'the launcher, bubblewrap and the command run');
    child.kill('SIGKILL');
    assert.equal(await within(exited, WAIT_LIMIT_MS, 'boxwright to die of SIGKILL'), 'SIGKILL');
    await until(
      () => processesWith(token).length === 0,
      `the sandbox (${token}) to end with boxwright; still running: ${processesWith(token).join(', ')}`,
    );
  });

  // Wherever in the run a SIGTERM lands — before boxwright listens for it,
  // once the launcher runs, once bubblewrap runs, once the command runs,
  // once its handler is set — the run ends, nothing of it stays behind, and
  // the status says what happened: 42 exactly when the command's handler
  // ran, else 143 (or boxwright's own death by SIGTERM, before it started
  // anything). Each moment is an event seen in /proc (the run's processes
  // by name), not a delay, so load changes only how far a phase has got
  // when the signal lands, never whether the checks hold.
  it("a SIGTERM at any moment of the run: no process stays behind, and the status is the command's exactly when it handled the signal", async () => {
    const comms = (token: string): string[] =>
      processesWith(token).map((pid) => {
        try {
          return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
        } catch {
          return '';
        }
      });
    const moments = ['at once', 'agent.run', 'bwrap', 'sh', 'handler set'] as const;
    const outcomes = await Promise.all(
      moments.map(async (moment, i) => {
        const token = `boxwright-e2e-sigterm-${process.pid}-${i}`;
        const caught = join(home, 'project', 'output', `caught-${i}`);
        const set = join(home, 'project', 'output', `set-${i}`);
        const script = `trap 'echo > output/caught-${i}; exit 42' TERM; echo > output/set-${i}; while :; do sleep 0.02; done`;
        const child = spawn(process.execPath, [bin, 'run', config, '--home', home, '--', 'sh', '-c', script, token], {
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
        let closed = false;
        const ended = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
          child.on('close', (c, s) => resolve([c, s])),
        ).finally(() => (closed = true));
        if (moment === 'handler set') await until(() => existsSync(set) || closed, 'the command to set its SIGTERM handler');
        else if (moment !== 'at once') await until(() => comms(token).includes(moment) || closed, `the run's ${moment} process`);
        child.kill('SIGTERM');
        const [code, signal] = await within(ended, WAIT_LIMIT_MS, `boxwright to end after a SIGTERM (${moment})`, () =>
          child.kill('SIGKILL'),
        );
        await until(() => processesWith(token).length === 0, `the run's processes (${token}) to end after a SIGTERM (${moment})`);
        const handled = existsSync(caught);
        const what = `SIGTERM (${moment}): exit ${code} signal ${signal}, handler ${handled ? 'ran' : 'did not run'}\n${stderr}`;
        if (handled || moment === 'handler set') assert.equal(code, 42, what);
        else assert.ok(code === 143 || (code === null && signal === 'SIGTERM'), what);
        // Not a refusal (125, "the in-sandbox step reported nothing"): the caller's signal ended it.
        assert.doesNotMatch(stderr, /reported nothing/, what);
        return `${moment}: ${handled ? 'handled' : code === 143 ? 'ended with 143' : 'boxwright died of it'}`;
      }),
    );
    // What each moment came to, for the reader (beyond the checks, it depends on the machine's load).
    process.stdout.write(`# SIGTERM outcomes: ${outcomes.join('; ')}\n`);
  });

  it('a command that is not in the view: a clear error, exit 127, nothing run', async () => {
    const r = await run(['no-such-command-anywhere']);
    assert.equal(r.status, 127);
    assert.match(r.stderr, /no-such-command-anywhere is not on PATH inside the sandbox/);
    const outside = await run([join(home, 'elsewhere', 'notes.txt')]);
    assert.equal(outside.status, 127);
    assert.match(outside.stderr, /not in the view/);
  });

  it('a large view (an argv of twice a pipe buffer) goes through --args intact', async () => {
    // 80 files at ~850-byte paths: a .bwrap.args of ~140 KB, twice a pipe buffer.
    const deep = join(home, 'big', ...Array.from({ length: 4 }, (_, i) => `${i}${'d'.repeat(200)}`));
    mkdirSync(deep, { recursive: true });
    const files = Array.from({ length: 80 }, (_, i) => join(deep, `file-${String(i).padStart(3, '0')}.txt`));
    files.forEach((f, i) => writeFileSync(f, `content ${i}\n`));
    const cfg = writeConfig(
      home,
      'big.toml',
      `[agent.filesystem]\nread = [${grantList(usrGrants)}]\nexec = [${grantList(usrGrants)}]\nread_file = [${grantList(files)}]\n`,
    );
    const r = await run(['sh', '-c', `cat "$0"; cat "$1"`, files[0]!, files[79]!], [], {}, cfg);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'content 0\ncontent 79\n');
    const out = mkdtempSync(join(tmpdir(), 'boxwright-big-'));
    try {
      assert.equal((await boxwright(['compile', cfg, '--home', home, '--target', 'linux', '--out', out])).status, 0);
      assert.ok(readFileSync(join(out, 'agent.bwrap.args')).length > 128 * 1024);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('the compiled artifacts (.bwrap.args and .bpf) loaded directly with bwrap behave as the runner does', async () => {
    const out = mkdtempSync(join(tmpdir(), 'boxwright-artifacts-'));
    try {
      const c = await boxwright(['compile', config, '--home', home, '--fs', 'host', '--target', 'linux', '--out', out]);
      assert.equal(c.status, 0, c.stderr);
      const arch = process.arch === 'arm64' ? 'aarch64' : 'x86_64';
      const perl =
        'printf "%d %d|", syscall(41, 10, 1, 0), $!+0; $!=0; printf "%d %d|", syscall(41, 0x10000000a, 1, 0), $!+0; open(my $f, "<", ".env"); print <$f> // "", "|"; open(my $s, "<", "/proc/self/status"); /^Seccomp:\\s+(\\d)/ && print "seccomp $1\\n" while <$s>;';
      // fd 3 the argv, 4 the seccomp program, 5 the in-sandbox step, 6 and 7 the denied files, 8 the Landlock rules (agent.bwrap.json's `usage`).
      const step = join(repoRoot, 'dist', 'sandbox', `boxwright-sandbox.${arch}`);
      const fds = [
        openSync(join(out, 'agent.bwrap.args'), 'r'),
        openSync(join(out, `seccomp.${arch}.bpf`), 'r'),
        openSync(step, 'r'),
        openSync('/dev/null', 'r'),
        openSync('/dev/null', 'r'),
        openSync(join(out, 'agent.landlock'), 'r'),
      ];
      let direct;
      try {
        direct = finished(
          spawnSync('bwrap', ['--args', '3', '--', '/.boxwright/exec', '--rules-fd', '8', '--', 'perl', '-e', perl], {
            stdio: ['ignore', 'pipe', 'pipe', ...fds],
            encoding: 'utf8',
            timeout: WAIT_LIMIT_MS,
          }),
          'bwrap with the compiled artifacts',
        );
      } finally {
        fds.forEach((fd) => closeSync(fd));
      }
      const viaRunner = await run(['perl', '-e', perl]);
      assert.equal(direct.status, 0, direct.stderr);
      assert.equal(direct.stdout, '-1 97|-1 97||seccomp 2\n');
      assert.equal(viaRunner.stdout, direct.stdout);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('boxwright run is fail-closed: the command never runs', { skip, concurrency: 4 }, () => {
  let scratch = '';
  let n = 0;
  /** A command that leaves a marker file of its own if it ever runs. */
  const touch = (): { cmd: string[]; marker: string } => {
    const marker = join(scratch, 'project', 'output', `MARKER-${++n}`);
    return { cmd: ['/usr/bin/touch', marker], marker };
  };
  let goodCfg = '';
  before(() => {
    scratch = makeHome();
    goodCfg = writeConfig(
      scratch,
      'good.toml',
      `[agent.filesystem]\nread = ["~/project", "/usr"]\nexec = ["/usr"]\nwrite = ["~/project/output"]\n`,
    );
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));
  const good = (): string => goodCfg;
  /** Runs `boxwright run ARGS -- touch MARKER`: exit 125, the reason, and no marker. */
  const expectNotRun = async (args: string[], why: RegExp, env: Record<string, string> = {}): Promise<void> => {
    const { cmd, marker } = touch();
    const r = await boxwright(['run', ...args, '--', ...cmd], { env });
    assert.equal(r.status, 125, `exit 125 expected: ${r.stderr}`);
    assert.match(r.stderr, why);
    assert.match(r.stderr, /did not run/);
    assert.ok(!existsSync(marker), 'the command ran although it must not');
  };

  it('the good config runs (control: the marker appears)', async () => {
    const { cmd, marker } = touch();
    const r = await boxwright(['run', good(), '--home', scratch, '--', ...cmd]);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(existsSync(marker));
  });

  it('a config Linux refuses (write-only)', async () => {
    const cfg = writeConfig(scratch, 'refused.toml', '[agent.filesystem]\nwrite = ["~/project"]\nread = ["~/project/output", "/usr"]\n');
    await expectNotRun([cfg, '--home', scratch], /linux refuses/);
  });

  it('a config with a syntax error, and an unreadable config', async () => {
    const cfg = writeConfig(scratch, 'broken.toml', '[agent.filesystem\nread = ["~/project"]\n');
    await expectNotRun([cfg, '--home', scratch], /has errors/);
    await expectNotRun([join(scratch, 'absent.toml'), '--home', scratch], /cannot read/);
  });

  it('a missing bwrap: BOXWRIGHT_BWRAP or --bwrap pointing nowhere, or a PATH without bwrap', async () => {
    await expectNotRun(
      [good(), '--home', scratch],
      /no bubblewrap to run the sandbox with \(BOXWRIGHT_BWRAP=.*no\/bwrap\): .*no\/bwrap: no such file; the command did not run\. Install it/,
      { BOXWRIGHT_BWRAP: join(scratch, 'no', 'bwrap') },
    );
    await expectNotRun(
      [good(), '--home', scratch, '--bwrap', join(scratch, 'no', 'bwrap')],
      /no bubblewrap to run the sandbox with \(--bwrap .*no\/bwrap\)/,
    );
    await expectNotRun([good(), '--home', scratch], /no bwrap in the PATH directories outside your home/, {
      PATH: join(scratch, 'empty-path'),
    });
  });

  it('an unusable bwrap: one that fails, and one that exits 0 without running anything', async () => {
    const dir = join(scratch, 'fakes');
    mkdirSync(dir, { recursive: true });
    for (const [name, body] of [
      ['failing', 'echo "bwrap: No permissions to create new namespace" >&2; exit 1'],
      ['silent', 'exit 0'],
    ] as const) {
      const fake = join(dir, name);
      writeFileSync(fake, `#!/bin/sh\n${body}\n`);
      chmodSync(fake, 0o755);
      await expectNotRun([good(), '--home', scratch], /could not set up the sandbox/, { BOXWRIGHT_BWRAP: fake });
    }
  });

  it('a failed namespace/mount set-up (a view naming a path the disk lacks)', async () => {
    const manifest = join(scratch, 'machine.json');
    const entries = { [join(scratch, 'project', 'output')]: 'dir', [join(scratch, 'project', 'vanished')]: 'dir', '/usr': 'dir' };
    writeFileSync(manifest, JSON.stringify({ home: scratch, entries }));
    const cfg = writeConfig(
      scratch,
      'vanished.toml',
      '[agent.filesystem]\nread = ["~/project/vanished", "~/project/output", "/usr"]\nexec = ["/usr"]\nwrite = ["~/project/output"]\n',
    );
    // The runner opens every bind source before bubblewrap starts: the missing one stops it there.
    await expectNotRun(
      [cfg, '--fs', manifest],
      /project\/vanished changed after it was checked \(cannot open it: No such file or directory\)/,
    );
  });

  it('usage: no command after --', async () => {
    const r = await boxwright(['run', good(), '--home', scratch]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /name the command after --/);
  });
});

/** The host's network namespace, as the sandbox's readlink prints it. */
function realNetNs(): string {
  return spawnSync('readlink', ['/proc/self/ns/net'], { encoding: 'utf8' }).stdout.trim();
}
