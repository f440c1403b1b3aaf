// boxwright-landlock under real bubblewrap: every restriction next to a
// control that differs by the one rule, so that each test can fail.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { release } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { compileSeccomp } from '../../targets/linux/seccomp/index.js';
import { requireOrSkip } from '../helpers.js';
import { abi, ALL_RIGHTS, arch, bwrapAvailable, helper, interpreterOf, onPath, ruleset, sandboxed, scratch } from './landlock-support.js';

const skip =
  requireOrSkip(bwrapAvailable, 'bubblewrap (Debian package bubblewrap)') ??
  requireOrSkip(
    helper !== undefined,
    `the Landlock helper dist/sandbox/boxwright-sandbox.${arch ?? '?'} (a C compiler: Debian gcc, libc6-dev)`,
  ) ??
  requireOrSkip(abi >= 6, `Landlock ABI 6 or later in the kernel (the helper reports ${abi})`);

const dir = skip ? '' : scratch();
after(() => dir && rmSync(dir, { recursive: true, force: true }));
const node = realpathSync(process.execPath);
const EACCES = 13;

/** The dynamic loader of /usr/bin/ls, canonical (the kernel checks execute on it at execve). */
const loader = skip ? '' : realpathSync(interpreterOf('/usr/bin/ls') ?? '/nonexistent');

describe('boxwright-sandbox: execute only where granted', { skip }, () => {
  const usrRead = ['read_file', 'read_dir'] as const;
  const lsOnly = () =>
    ruleset([
      [['execute'], '/usr/bin/ls'],
      [['execute'], loader],
      [usrRead, '/usr'],
      [[...usrRead, 'write_file'], dir],
    ]);

  it('the loader is a file under /usr, not a directory of libraries', () => {
    assert.match(loader, /^\/usr\/lib.*\/ld-linux[-a-z0-9_.]*\.so\.\d$/);
    assert.ok(interpreterOf(node), 'node is dynamically linked (its libraries must load without execute)');
  });

  it('/usr/bin/ls runs and loads its libraries, with execute on it and on its loader only', async () => {
    const r = await sandboxed(dir, lsOnly(), ['/usr/bin/ls', '/usr/bin']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^ls$/m);
    assert.equal(r.ready, `applied abi=${abi} scopes=\n`);
  });

  it('without execute on the loader, /usr/bin/ls itself does not start (EACCES)', async () => {
    const r = await sandboxed(
      dir,
      ruleset([
        [['execute'], '/usr/bin/ls'],
        [usrRead, '/usr'],
      ]),
      ['/usr/bin/ls', '/usr/bin'],
    );
    assert.equal(r.status, 126, r.stderr);
    assert.equal(r.ready, `applied abi=${abi} scopes=\nexec-failed ${EACCES}\n`);
  });

  it('without read_file on /usr, the loader cannot open the libraries: reads follow the rules', async () => {
    const r = await sandboxed(
      dir,
      ruleset([
        [['execute', 'read_file'], '/usr/bin/ls'],
        [['execute', 'read_file'], loader],
        [['read_dir'], '/usr'],
      ]),
      ['/usr/bin/ls', '/usr/bin'],
    );
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /error while loading shared libraries/);
  });

  it('/usr/bin/cat does not run (EACCES); with execute on it, it does, and reads /usr', async () => {
    const denied = await sandboxed(dir, lsOnly(), ['/usr/bin/cat', '/usr/lib/os-release']);
    assert.equal(denied.status, 126);
    assert.equal(denied.ready, `applied abi=${abi} scopes=\nexec-failed ${EACCES}\n`);
    assert.match(denied.stderr, /boxwright-sandbox: cannot execute '\/usr\/bin\/cat': Permission denied/);
    const control = await sandboxed(dir, ruleset([...lsOnly().fs.map((f) => [f.rights, f.path] as const), [['execute'], '/usr/bin/cat']]), [
      '/usr/bin/cat',
      '/usr/lib/os-release',
    ]);
    assert.equal(control.status, 0, control.stderr);
    assert.match(control.stdout, /^ID=/m);
  });

  it('a binary copied into a writable tree does not run (EACCES); with execute on the tree, it does', async () => {
    const tree = join(dir, 'project');
    mkdirSync(tree, { recursive: true });
    copyFileSync('/usr/bin/ls', join(tree, 'copied-ls'));
    chmodSync(join(tree, 'copied-ls'), 0o755);
    const denied = await sandboxed(dir, lsOnly(), [join(tree, 'copied-ls'), '/usr']);
    assert.equal(denied.status, 126);
    assert.equal(denied.ready, `applied abi=${abi} scopes=\nexec-failed ${EACCES}\n`);
    const control = await sandboxed(dir, ruleset([...lsOnly().fs.map((f) => [f.rights, f.path] as const), [['execute'], tree]]), [
      join(tree, 'copied-ls'),
      '/usr',
    ]);
    assert.equal(control.status, 0, control.stderr);
    assert.match(control.stdout, /^bin$/m);
  });

  it('writes follow the rules too: a writable bind without write_file is not writable', async () => {
    const sh = ['/usr/bin/sh', '-c', `echo x > ${dir}/written`];
    const exec = [['execute', 'read_file', 'read_dir'], '/usr'] as const;
    const denied = await sandboxed(dir, ruleset([exec, [['read_file', 'read_dir'], dir]]), sh);
    assert.notEqual(denied.status, 0);
    assert.match(denied.stderr, /Permission denied/);
    assert.ok(!existsSync(join(dir, 'written')));
    const control = await sandboxed(dir, ruleset([exec, [['read_file', 'read_dir', 'write_file', 'make_reg'], dir]]), sh);
    assert.equal(control.status, 0, control.stderr);
    assert.ok(existsSync(join(dir, 'written')));
  });

  it('truncate is a right of its own (ABI 3+): write_file alone appends but cannot open with O_TRUNC', async () => {
    const file = join(dir, 'truncated');
    writeFileSync(file, 'old\n');
    const exec = [['execute', 'read_file', 'read_dir'], '/usr'] as const;
    const write = ruleset([exec, [['read_file', 'write_file'], dir]]);
    const truncating = await sandboxed(dir, write, ['/usr/bin/sh', '-c', `echo new > ${file}`]);
    assert.notEqual(truncating.status, 0);
    assert.match(truncating.stderr, /Permission denied/);
    const appending = await sandboxed(dir, write, ['/usr/bin/sh', '-c', `echo more >> ${file}`]);
    assert.equal(appending.status, 0, appending.stderr);
    assert.equal(readFileSync(file, 'utf8'), 'old\nmore\n');
    const control = await sandboxed(dir, ruleset([exec, [['read_file', 'write_file', 'truncate'], dir]]), [
      '/usr/bin/sh',
      '-c',
      `echo new > ${file}`,
    ]);
    assert.equal(control.status, 0, control.stderr);
    assert.equal(readFileSync(file, 'utf8'), 'new\n');
  });

  it("runs under boxwright's own seccomp program (Landlock syscalls allowed; openat2 ENOSYS, so paths are walked one component at a time)", async () => {
    const bpf = compileSeccomp().programs.find((p) => p.arch === arch)!.bytes;
    const r = await sandboxed(dir, lsOnly(), ['/usr/bin/ls', '/usr/bin'], { seccomp: bpf });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.ready, `applied abi=${abi} scopes=\n`);
    // The walk refuses a link anywhere in the path, as openat2 does.
    mkdirSync(join(dir, 'walk', 'real'), { recursive: true });
    symlinkSync(join(dir, 'walk', 'real'), join(dir, 'walk', 'link'));
    for (const p of [join(dir, 'walk', 'link'), join(dir, 'walk', 'link', 'x')]) {
      const link = await sandboxed(
        dir,
        ruleset([...lsOnly().fs.map((f) => [f.rights, f.path] as const), [['read_file'], p]]),
        ['/usr/bin/ls'],
        { seccomp: bpf },
      );
      assert.equal(link.status, 125, `${p}: ${link.stderr}`);
      assert.match(link.stderr, /a symbolic link in the path/);
    }
    const real = await sandboxed(
      dir,
      ruleset([...lsOnly().fs.map((f) => [f.rights, f.path] as const), [['read_file'], join(dir, 'walk', 'real')]]),
      ['/usr/bin/ls', dir],
      { seccomp: bpf },
    );
    assert.equal(real.status, 0, real.stderr);
  });
});

describe('boxwright-sandbox: scopes', { skip }, () => {
  const everything = [ALL_RIGHTS, '/'] as const;
  const abstractName = `boxwright-landlock-test-${process.pid}`;
  let unixServer: net.Server;
  let tcpServer: net.Server;
  let tcpPort = 0;
  let sleeper: ChildProcess;

  before(async () => {
    const serve = (s: net.Server, at: string | { port: number; host: string }) =>
      new Promise<void>((resolve) => s.listen(at, () => resolve()));
    unixServer = net.createServer((c) => c.end());
    await serve(unixServer, `\0${abstractName}`);
    tcpServer = net.createServer((c) => c.end());
    await serve(tcpServer, { port: 0, host: '127.0.0.1' });
    tcpPort = (tcpServer.address() as net.AddressInfo).port;
    // Until the tests end, however long they take: killed after them.
    sleeper = spawn('/usr/bin/sleep', ['infinity'], { stdio: 'ignore' });
  });
  after(() => {
    unixServer?.close();
    tcpServer?.close();
    sleeper?.kill();
  });

  /** node inside the sandbox connects to `target` and prints `connected` or the error code. */
  const connect = (target: string) => [
    node,
    '-e',
    `const c=require('net').connect(${target});c.on('connect',()=>{console.log('connected');c.destroy()});c.on('error',(e)=>console.log(e.code))`,
  ];
  const shareNet = ['--unshare-all', '--share-net'];

  it('with --share-net, a host abstract unix socket is reachable without the scope and EPERM with it', async () => {
    const target = JSON.stringify({ path: `\0${abstractName}` });
    const control = await sandboxed(dir, ruleset([everything]), connect(target), { isolation: shareNet });
    assert.equal(control.stdout.trim(), 'connected', control.stderr);
    const scoped = await sandboxed(dir, ruleset([everything], ['abstract-unix-socket']), connect(target), { isolation: shareNet });
    assert.equal(scoped.stdout.trim(), 'EPERM', scoped.stderr);
    assert.equal(scoped.ready, `applied abi=${abi} scopes=abstract-unix-socket\n`);
  });

  it('IPv4 loopback is unchanged by the scope', async () => {
    const r = await sandboxed(
      dir,
      ruleset([everything], ['abstract-unix-socket', 'signal']),
      connect(JSON.stringify({ port: tcpPort, host: '127.0.0.1' })),
      { isolation: shareNet },
    );
    assert.equal(r.stdout.trim(), 'connected', r.stderr);
    assert.equal(r.ready, `applied abi=${abi} scopes=abstract-unix-socket,signal\n`);
  });

  it('with the signal scope, a process outside the domain cannot be signalled (EPERM); without it, it can', async () => {
    // The host's PID namespace, so that the sleeper has a number inside.
    const kill = [node, '-e', `try{process.kill(${sleeper.pid},0);console.log('signalled')}catch(e){console.log(e.code)}`];
    const isolation = ['--unshare-net', '--unshare-ipc'];
    const control = await sandboxed(dir, ruleset([everything]), kill, { isolation });
    assert.equal(control.stdout.trim(), 'signalled', control.stderr);
    const scoped = await sandboxed(dir, ruleset([everything], ['signal']), kill, { isolation });
    assert.equal(scoped.stdout.trim(), 'EPERM', scoped.stderr);
    assert.equal(scoped.ready, `applied abi=${abi} scopes=signal\n`);
  });
});

describe('boxwright-sandbox: fail closed', { skip }, () => {
  const everything = [ALL_RIGHTS, '/'] as const;
  let n = 0;
  /** `touch MARKER` under the rules: whether the command ran. */
  async function touches(rules: Parameters<typeof sandboxed>[1], opts: Parameters<typeof sandboxed>[3] = {}) {
    const marker = join(dir, `marker-${n++}`);
    const r = await sandboxed(dir, rules, ['/usr/bin/touch', marker], opts);
    return { ...r, ran: existsSync(marker) };
  }

  it('a well-formed ruleset runs the command (the control for everything below)', async () => {
    const r = await touches(ruleset([everything], [], 1));
    assert.equal(r.status, 0, r.stderr);
    assert.ok(r.ran);
  });

  it("require-abi above the kernel's: exit 125, nothing run, `refused abi`", async () => {
    const r = await touches(ruleset([everything], [], 99));
    assert.equal(r.status, 125);
    assert.ok(!r.ran);
    assert.equal(r.ready, 'refused abi\n');
    assert.match(r.stderr, new RegExp(`^boxwright-sandbox: the rules need Landlock ABI 99, the kernel offers ${abi}; nothing was run\n$`));
    const atKernel = await touches(ruleset([everything], [], abi));
    assert.ok(atKernel.ran, atKernel.stderr);
  });

  it('a rule on a missing path, or on a path through a symbolic link: 125, nothing run', async () => {
    const missing = await touches(ruleset([everything, [['read_file'], join(dir, 'no-such-file')]]));
    assert.equal(missing.status, 125);
    assert.ok(!missing.ran);
    assert.equal(missing.ready, 'refused path\n');
    mkdirSync(join(dir, 'real'), { recursive: true });
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    const link = await touches(ruleset([everything, [['read_file'], join(dir, 'link')]]));
    assert.equal(link.status, 125);
    assert.ok(!link.ran);
    assert.match(link.stderr, /a symbolic link in the path/);
    const real = await touches(ruleset([everything, [['read_file'], join(dir, 'real')]]));
    assert.ok(real.ran, real.stderr);
  });

  const malformed: [string, string][] = [
    ['an unknown keyword', 'allow\0/\0'],
    ['an unknown right', 'fs\0execute,fly\0/\0'],
    ['a repeated right', 'fs\0execute,execute\0/\0'],
    ['no rights', 'fs\0\0/\0'],
    ['a missing operand', 'fs\0execute\0'],
    ['no final NUL', 'fs\0execute\0/'],
    ['a relative path', 'fs\0execute\0usr\0'],
    ['a .. component', 'fs\0execute\0/usr/../tmp\0'],
    ['a trailing slash', 'fs\0execute\0/usr/\0'],
    ['an unknown scope', 'scope\0ptrace\0'],
    ['a bad ABI number', 'require-abi\0-1\0'],
  ];
  for (const [what, text] of malformed) {
    it(`malformed rules (${what}): 125, nothing run, \`refused rules\``, async () => {
      const good = new TextEncoder().encode(`fs\0${ALL_RIGHTS.join(',')}\0/\0`);
      const bad = new TextEncoder().encode(text);
      const r = await touches(undefined, { rawRules: new Uint8Array([...good, ...bad]) });
      assert.equal(r.status, 125, r.stderr);
      assert.ok(!r.ran);
      assert.equal(r.ready, 'refused rules\n');
      assert.match(r.stderr, /^boxwright-sandbox: .*; nothing was run\n$/);
    });
  }

  it('bad command lines: 125, nothing run', async () => {
    for (const args of [
      [],
      ['--rules-fd'],
      ['--rules-fd', '3', '--rules-fd', '3'],
      ['--rules-fd', 'x'],
      ['--ready-fd', '4'],
      ['--rules-fd', '3', '--ready-fd', '3'],
      ['--rules-fd', '3', '--ready-fd', '9'],
      ['--rules-fd', ' 3'],
      ['--rules-fd', '+3'],
      ['--bogus'],
    ]) {
      const r = await touches(ruleset([everything]), { helperArgs: args });
      assert.equal(r.status, 125, `${args.join(' ')}: ${r.stderr}`);
      assert.ok(!r.ran, args.join(' '));
    }
  });

  it('a missing command: exec-failed ENOENT after the ready line, exit 127', async () => {
    const r = await sandboxed(dir, ruleset([everything]), ['/usr/bin/no-such-command']);
    assert.equal(r.status, 127);
    assert.equal(r.ready, `applied abi=${abi} scopes=\nexec-failed 2\n`);
  });
});

/**
 * The kernel's Landlock ABI, asked by someone else's code (Python's ctypes
 * calling landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION)).
 */
function pythonAbi(): number | undefined {
  if (!onPath('python3')) return undefined;
  const r = spawnSync(
    'python3',
    ['-c', 'import ctypes; l = ctypes.CDLL(None, use_errno=True); print(max(l.syscall(444, None, 0, 1), 0))'],
    { encoding: 'utf8' },
  );
  return r.status === 0 ? Number(r.stdout.trim()) : undefined;
}

/** The lowest ABI a mainline kernel of this release has (5.13: 1, …, 6.15: 7). */
function mainlineAbi(kernel: string): number {
  const [major = 0, minor = 0] = kernel.split(/[.-]/).map(Number);
  const v = major * 1000 + minor;
  const table: [number, number][] = [
    [6015, 7],
    [6012, 6],
    [6010, 5],
    [6007, 4],
    [6002, 3],
    [5019, 2],
    [5013, 1],
  ];
  return table.find(([at]) => v >= at)?.[1] ?? 0;
}

describe('boxwright-landlock --abi', { skip }, () => {
  it("prints the kernel's ABI, as Python's ctypes finds it, at least the mainline ABI of this release", {
    skip: requireOrSkip(pythonAbi() !== undefined, 'python3 (for ctypes)'),
  }, () => {
    const r = spawnSync(helper!, ['--abi'], { encoding: 'utf8' });
    assert.equal(r.status, 0);
    assert.match(r.stdout, /^\d+\n$/);
    assert.equal(Number(r.stdout), pythonAbi());
    assert.ok(Number(r.stdout) >= mainlineAbi(release()), `${r.stdout.trim()} on ${release()}`);
  });
});
