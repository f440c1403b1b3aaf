// Landlock through `boxwright run` and a compiled launcher, under real
// bubblewrap and the real kernel (issue 17's "done when"): read trees are
// not executable, exec grants are and still load their libraries, a tool
// with a direct network exception cannot reach the host's abstract
// sockets while IPv4 loopback is unchanged, and `run` fails closed without
// the helper or without Landlock unless `--landlock off`. Each refusal has
// its control: the same command allowed where the protection is absent.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { repoRoot, requireOrSkip } from '../helpers.js';
import { boxwright, bwrapAvailable, onPath, testCache, type Outcome } from './support.js';
import { finished, WAIT_LIMIT_MS } from '../waits.js';

const kernelAbi = (): number => {
  const r = spawnSync(
    join(repoRoot, 'dist', 'sandbox', `boxwright-sandbox.${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}`),
    ['--abi'],
    { encoding: 'utf8' },
  );
  return r.status === 0 ? Number(r.stdout.trim()) : 0;
};
const abi = bwrapAvailable ? kernelAbi() : 0;
const skip =
  requireOrSkip(bwrapAvailable, 'bubblewrap') ??
  requireOrSkip(abi >= 1, 'a kernel with Landlock') ??
  requireOrSkip(!!onPath('python3'), 'python3');
const nodeDir = dirname(realpathSync(process.execPath));
const node = realpathSync(process.execPath);

describe('Landlock under boxwright run: execute only where granted', { skip, concurrency: 4 }, () => {
  let home = '';
  let config = '';
  const run = (cfg: string, cmd: readonly string[], extra: readonly string[] = []): Promise<Outcome> =>
    boxwright(['run', cfg, '--home', home, '--fs', 'host', ...extra, '--', ...cmd]);
  before(() => {
    home = realpathSync(mkdtempSync(join(tmpdir(), 'boxwright-ll-')));
    mkdirSync(join(home, 'p'));
    copyFileSync('/usr/bin/cat', join(home, 'p', 'mycat'));
    spawnSync('chmod', ['755', join(home, 'p', 'mycat')]);
    writeFileSync(join(home, 'p', 'note'), 'hello\n');
    // The issue's config, plus a shell to ask the kernel from inside.
    config = join(home, 'c.toml');
    writeFileSync(config, '[agent.filesystem]\nread = ["/usr", "~/p"]\nexec = ["/usr/bin/ls", "/usr/bin/dash"]\n');
  });
  after(() => rmSync(home, { recursive: true, force: true }));

  it('/usr/bin/ls runs (dynamically linked: its libraries load from the read tree)', async () => {
    const r = await run(config, ['/usr/bin/ls', join(home, 'p')]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'mycat\nnote\n');
    assert.match(
      spawnSync('readelf', ['-l', '/usr/bin/ls'], { encoding: 'utf8' }).stdout,
      /Requesting program interpreter/,
      '/usr/bin/ls is dynamically linked',
    );
  });

  it('the kernel refuses /usr/bin/cat and a binary copied into ~/p (EACCES); --landlock off runs both (the control)', async () => {
    const script = `/usr/bin/cat ${home}/p/note; echo "cat=$?"; ${home}/p/mycat ${home}/p/note; echo "copied=$?"`;
    const confined = await run(config, ['/usr/bin/dash', '-c', script]);
    assert.equal(confined.status, 0, confined.stderr);
    assert.equal(confined.stdout, 'cat=126\ncopied=126\n');
    assert.match(confined.stderr, /\/usr\/bin\/cat: Permission denied/);
    assert.match(confined.stderr, /mycat: Permission denied/);
    const open = await run(config, ['/usr/bin/dash', '-c', script], ['--landlock', 'off']);
    assert.equal(open.stdout, 'hello\ncat=0\nhello\ncopied=0\n', open.stderr);
  });

  it('run says so before starting a command Landlock would refuse: 126 and the exec grant to add', async () => {
    const r = await run(config, [join(home, 'p', 'mycat'), join(home, 'p', 'note')]);
    assert.equal(r.status, 126);
    assert.match(r.stderr, /readable but not executable: Landlock grants execute only on exec grants/);
    assert.match(r.stderr, new RegExp(`Add "${join(home, 'p', 'mycat')}" to its \`exec\` list`));
  });

  it('the dynamic loader still runs a program from a read tree: the gap explain and lint disclose', async () => {
    // The interpreter /usr/bin/ls names (PT_INTERP), on either architecture.
    const loader = realpathSync(
      /Requesting program interpreter: (\S+)\]/.exec(spawnSync('readelf', ['-l', '/usr/bin/ls'], { encoding: 'utf8' }).stdout)![1]!,
    );
    const r = await run(config, ['/usr/bin/dash', '-c', `${loader} ${home}/p/mycat ${home}/p/note`]);
    assert.equal(r.stdout, 'hello\n', r.stderr);
    const explain = spawnSync(
      process.execPath,
      [join(repoRoot, 'bin', 'boxwright.cjs'), 'explain', config, '--home', home, '--fs', 'host', '--platform', 'linux'],
      { encoding: 'utf8' },
    );
    assert.match(explain.stdout, /the dynamic loader can still run a program from it/);
  });

  it('compile --out writes a launcher that applies the same rules, with no Node on the path', async () => {
    const out = join(home, 'out');
    const c = await boxwright(['compile', config, '--home', home, '--fs', 'host', '--target', 'linux', '--out', out]);
    assert.equal(c.status, 0, c.stderr);
    for (const f of ['agent.bwrap.args', 'agent.landlock', 'agent.landlock.json', 'agent.launch', 'agent.run'])
      assert.ok(existsSync(join(out, f)), f);
    const ls = finished(
      spawnSync(join(out, 'agent.run'), ['/usr/bin/ls', join(home, 'p')], {
        encoding: 'utf8',
        env: { PATH: '/usr/bin:/bin' },
        timeout: WAIT_LIMIT_MS,
      }),
      'agent.run /usr/bin/ls',
    );
    assert.equal(ls.status, 0, ls.stderr);
    const cat = finished(
      spawnSync(join(out, 'agent.run'), ['/usr/bin/cat', join(home, 'p', 'note')], {
        encoding: 'utf8',
        env: { PATH: '/usr/bin:/bin' },
        timeout: WAIT_LIMIT_MS,
      }),
      'agent.run /usr/bin/cat',
    );
    assert.equal(cat.status, 126, cat.stderr);
    // The exec watch saw Landlock refuse it: the message says so, with the grant.
    assert.match(
      cat.stderr,
      /\/usr\/bin\/cat is in agent's view, but Landlock refuses to execute it: exec = \["\/usr\/bin\/cat"\] in \[agent.filesystem\]/,
    );
    const rules = JSON.parse(readFileSync(join(out, 'agent.landlock.json'), 'utf8')) as { fs: { path: string; rights: string[] }[] };
    const loader = realpathSync(
      /Requesting program interpreter: (\S+)\]/.exec(spawnSync('readelf', ['-l', '/usr/bin/ls'], { encoding: 'utf8' }).stdout)![1]!,
    );
    assert.deepEqual(
      rules.fs
        .filter((r) => r.rights.includes('execute'))
        .map((r) => r.path)
        .sort(),
      ['/usr/bin/dash', '/usr/bin/ls', loader].sort(),
    );
  });
});

describe("Landlock under boxwright run: a direct network exception and the host's abstract sockets", { skip }, () => {
  const name = `boxwright-ll-run-${process.pid}`;
  let home = '';
  let config = '';
  let unix: net.Server;
  let tcp: net.Server;
  let port = 0;
  before(async () => {
    home = realpathSync(mkdtempSync(join(tmpdir(), 'boxwright-ll-net-')));
    config = join(home, 'net.toml');
    const grants = ['/usr', ...(nodeDir.startsWith('/usr/') ? [] : [nodeDir])].map((g) => JSON.stringify(g)).join(', ');
    writeFileSync(config, `[agent.filesystem]\nread = ["/usr"]\n\n[tools.fetch.filesystem]\nread = [${grants}]\n\n[tools.fetch.network]\n`);
    unix = net.createServer((c) => c.end());
    await new Promise<void>((r) => unix.listen(`\0${name}`, () => r()));
    tcp = net.createServer((c) => c.end());
    await new Promise<void>((r) => tcp.listen({ port: 0, host: '127.0.0.1' }, () => r()));
    port = (tcp.address() as net.AddressInfo).port;
  });
  after(() => {
    unix?.close();
    tcp?.close();
    rmSync(home, { recursive: true, force: true });
  });
  const connect = (target: string, extra: readonly string[] = []): Promise<Outcome> =>
    boxwright([
      'run',
      config,
      '--home',
      home,
      '--fs',
      'host',
      '--principal',
      'tool:fetch',
      ...extra,
      '--',
      node,
      '--jitless',
      '-e',
      `const c=require('net').connect(${target});c.on('connect',()=>{console.log('connected');c.destroy()});c.on('error',(e)=>console.log(e.code))`,
    ]);

  it('cannot connect to a host abstract unix socket (EPERM); with --landlock off it can (the control)', {
    skip: requireOrSkip(abi >= 6, 'Landlock ABI 6 (the abstract-socket scope)'),
  }, async () => {
    const target = JSON.stringify({ path: `\0${name}` });
    const scoped = await connect(target);
    assert.equal(scoped.stdout.trim(), 'EPERM', scoped.stderr);
    const open = await connect(target, ['--landlock', 'off']);
    assert.equal(open.stdout.trim(), 'connected', open.stderr);
  });

  it("reaches the host's IPv4 loopback, as direct-network says", async () => {
    const r = await connect(JSON.stringify({ port, host: '127.0.0.1' }));
    assert.equal(r.stdout.trim(), 'connected', r.stderr);
  });
});

describe('Landlock under boxwright run: fail closed', { skip }, () => {
  let home = '';
  let config = '';
  before(() => {
    home = realpathSync(mkdtempSync(join(tmpdir(), 'boxwright-ll-fc-')));
    config = join(home, 'c.toml');
    writeFileSync(config, '[agent.filesystem]\nread = ["/usr", "~"]\nwrite = ["~/out"]\nexec = ["/usr/bin/dash"]\n');
    mkdirSync(join(home, 'out'));
  });
  after(() => rmSync(home, { recursive: true, force: true }));
  const marker = (): string => join(home, 'out', 'ran');
  const touch = (): string[] => ['/usr/bin/dash', '-c', `echo ran > ${marker()}`];

  it('without the helper (an install where it was not built): 125, nothing ran', async () => {
    // A copy of the package without dist/sandbox: what a machine without a C compiler at install time has.
    const pkg = mkdtempSync(join(tmpdir(), 'boxwright-nohelper-'));
    try {
      cpSync(join(repoRoot, 'bin'), join(pkg, 'bin'), { recursive: true });
      mkdirSync(join(pkg, 'dist'));
      cpSync(join(repoRoot, 'dist', 'cli'), join(pkg, 'dist', 'cli'), { recursive: true });
      copyFileSync(join(repoRoot, 'package.json'), join(pkg, 'package.json'));
      const r = await runBin(join(pkg, 'bin', 'boxwright.cjs'), ['run', config, '--home', home, '--fs', 'host', '--', ...touch()]);
      assert.equal(r.status, 125, r.stderr);
      assert.match(r.stderr, /boxwright-sandbox\.\w+ is not built .*; the command did not run/);
      assert.ok(!existsSync(marker()));
    } finally {
      rmSync(pkg, { recursive: true, force: true });
    }
  });

  it('on a kernel without Landlock: 125 with the fact found; --landlock off runs it (the documented opt-out)', async () => {
    // The kernel's ABI as boxwright learned it this boot (targets/linux/run/sandbox/landlock-abi.ts): said to be 0.
    const cache = mkdtempSync(join(tmpdir(), 'boxwright-abi0-'));
    try {
      const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
      mkdirSync(join(cache, 'boxwright'), { mode: 0o700 });
      writeFileSync(join(cache, 'boxwright', 'landlock-abi'), `${boot} 0\n`);
      const env = { XDG_CACHE_HOME: cache };
      const r = await boxwright(['run', config, '--home', home, '--fs', 'host', '--', ...touch()], { env });
      assert.equal(r.status, 125, r.stderr);
      assert.match(r.stderr, /this kernel has no Landlock \(ABI 0\)/);
      assert.ok(!existsSync(marker()));
      const lint = await boxwright(['lint', config, '--home', home, '--fs', 'host'], { env });
      assert.match(lint.stdout, /landlock-unavailable/);
      const off = await boxwright(['run', config, '--home', home, '--fs', 'host', '--landlock', 'off', '--', ...touch()], { env });
      assert.equal(off.status, 0, off.stderr);
      assert.ok(existsSync(marker()));
    } finally {
      rmSync(cache, { recursive: true, force: true });
      rmSync(marker(), { force: true });
    }
  });

  it('--landlock off: no Landlock artifacts, and explain says rx again', async () => {
    const out = join(home, 'off');
    const c = await boxwright(['compile', config, '--home', home, '--fs', 'host', '--target', 'linux', '--out', out, '--landlock', 'off']);
    assert.equal(c.status, 0, c.stderr);
    assert.ok(!existsSync(join(out, 'agent.landlock')));
    assert.ok(existsSync(join(out, 'agent.run')));
    const on = await boxwright(['explain', config, '--home', home, '--fs', 'host', '--platform', 'linux']);
    const off = await boxwright(['explain', config, '--home', home, '--fs', 'host', '--platform', 'linux', '--landlock', 'off']);
    assert.match(on.stdout, /read \/usr +r +r \[/);
    assert.match(off.stdout, /read \/usr +r +rx \[/);
  });
});

function runBin(binPath: string, args: readonly string[]): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binPath, ...args], {
      env: { ...process.env, XDG_CACHE_HOME: testCache, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
