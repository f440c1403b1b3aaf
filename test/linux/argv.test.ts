// The Linux lowering as data: argv order and content, origins, escaping, the
// .args round trip, covers, links, network, workspace, determinism. No bwrap
// needed (the end-to-end tests run the same argv under the real thing).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { CompileOutcome } from '../../app/cli/compile.js';
import { hostView, manifestView } from '../../compiler/paths/index.js';
import { bpfName, hostArch, parseArgsFile, seccompProgram, type Arg } from '../../targets/linux/index.js';
import { depth } from '../../targets/linux/lower.js';
import { compileSeccomp } from '../../targets/linux/seccomp/index.js';
import { findCommand, lookupFile } from '../../targets/linux/view.js';
import { viewFromArgv } from './view-from-argv.js';
import { compileBytes, compileExample, compileText } from '../compile-helpers.js';

type Ok = Extract<CompileOutcome, { ok: true }>;

function ok(o: CompileOutcome): Ok {
  if (!o.ok)
    throw new Error(
      `expected artifacts, got a refusal: ${o.reason}\n${o.check.diagnostics.map((d) => `${d.ruleId}: ${d.message}`).join('\n')}`,
    );
  return o;
}

function artifact(o: Ok, name: string): string | Uint8Array {
  const a = o.artifacts.find((x) => x.name === name);
  if (!a) throw new Error(`no artifact ${name}; have ${o.artifacts.map((x) => x.name).join(', ')}`);
  return a.content;
}

interface BwrapJson {
  version: number;
  header: string[];
  forced: boolean;
  principal: string;
  fds: { fd: number; option: string }[];
  seccomp: { arch: string; file: string; sha256: string }[];
  argv: Arg[];
  notes: { path: string; text: string }[];
}

function json(o: Ok, id = 'agent'): BwrapJson {
  return JSON.parse(artifact(o, `${id}.bwrap.json`) as string) as BwrapJson;
}

const args = (o: Ok, id = 'agent'): string[] => json(o, id).argv.map((a) => a.arg);

const scratch: string[] = [];
after(() => scratch.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A manifest machine with the given entries under home /home/u. */
function machine(entries: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'boxwright-argv-'));
  scratch.push(dir);
  const file = join(dir, 'machine.json');
  writeFileSync(file, JSON.stringify({ home: '/home/u', entries }));
  return file;
}

describe('linux argv: examples/coding-agent.toml', () => {
  it("the agent's argv, in order", async () => {
    const o = ok(await compileExample('coding-agent.toml', 'linux'));
    assert.deepEqual(args(o), [
      '--unshare-all',
      '--cap-drop',
      'ALL',
      '--die-with-parent',
      '--new-session',
      '--symlink',
      'usr/bin',
      '/bin',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      // Host-global /proc entries read-only (targets/linux/model/proc-readonly.json), in path order.
      ...['acpi', 'bus', 'driver', 'fs', 'irq', 'pressure', 'scsi', 'sys', 'sysrq-trigger'].flatMap((e) => [
        '--ro-bind-try',
        `/proc/${e}`,
        `/proc/${e}`,
      ]),
      '--ro-bind',
      '/home/dev/project',
      '/home/dev/project',
      '--ro-bind',
      '/usr/bin/git',
      '/usr/bin/git',
      '--perms',
      '0444',
      '--ro-bind-data',
      '6',
      '/home/dev/project/.env',
      '--bind',
      '/home/dev/project/output',
      '/home/dev/project/output',
      // The in-sandbox step (boxwright-sandbox: Landlock, then the command), from fd 5.
      '--perms',
      '0555',
      '--ro-bind-data',
      '5',
      '/.boxwright/exec',
      '--remount-ro',
      '/',
      '--chdir',
      '/home/dev/project',
      '--seccomp',
      '4',
    ]);
  });

  it('every argument carries its origin: the config line and entry, or baseline / seccomp / implicit', async () => {
    const o = ok(await compileExample('coding-agent.toml', 'linux'));
    const argv = json(o).argv;
    const originOf = (arg: string, nth = 0): unknown => argv.filter((a) => a.arg === arg)[nth]!.origin;
    assert.deepEqual(originOf('--ro-bind'), { line: 8, entry: 'read = "~/project"' });
    assert.deepEqual(originOf('--ro-bind', 1), { line: 11, entry: 'exec = "/usr/bin/git"' });
    assert.deepEqual(originOf('--bind'), { line: 9, entry: 'write = "~/project/output"' });
    assert.deepEqual(originOf('--ro-bind-data'), { line: 10, entry: 'deny = "~/project/.env"' });
    assert.match(originOf('--ro-bind-data', 1) as string, /^implicit: the in-sandbox step/);
    assert.deepEqual(originOf('--chdir'), { line: 7, entry: 'workspace = "~/project"' });
    assert.equal(originOf('--unshare-all'), 'baseline');
    assert.equal(originOf('--seccomp'), 'seccomp');
    assert.match(originOf('--symlink') as string, /^implicit: merged-\/usr link \/bin -> usr\/bin/);
    for (const a of argv) assert.ok(a.origin !== undefined, `${a.arg} has an origin`);
  });

  it('header fields, fds and the seccomp programs it expects', async () => {
    const o = ok(await compileExample('coding-agent.toml', 'linux'));
    const j = json(o);
    assert.equal(j.version, 1);
    assert.match(j.header[0]!, /^Generated by boxwright /);
    assert.equal(j.header[1], 'config: examples/coding-agent.toml');
    assert.match(j.header[2]!, /^config sha256: [0-9a-f]{64}$/);
    assert.equal(j.forced, false);
    assert.deepEqual(
      j.fds.map((f) => [f.fd, f.option]),
      [
        [3, '--args'],
        [4, '--seccomp'],
        [5, '--ro-bind-data'],
        [6, '--ro-bind-data'],
        [7, '/.boxwright/exec --rules-fd'],
      ],
    );
    for (const s of j.seccomp) assert.equal(s.sha256, compileSeccomp().programs.find((p) => p.arch === s.arch)!.sha256);
  });

  it('one .bwrap.json and .bwrap.args per principal, and the four shared seccomp files', async () => {
    const o = ok(await compileExample('coding-agent.toml', 'linux'));
    assert.deepEqual(o.artifacts.map((a) => a.name).sort(), [
      'agent.bwrap.args',
      'agent.bwrap.json',
      'agent.landlock',
      'agent.landlock.json',
      'mcp.search.bwrap.args',
      'mcp.search.bwrap.json',
      'mcp.search.landlock',
      'mcp.search.landlock.json',
      'seccomp.aarch64.bpf',
      'seccomp.json',
      'seccomp.txt',
      'seccomp.x86_64.bpf',
      'tool.formatter.bwrap.args',
      'tool.formatter.bwrap.json',
      'tool.formatter.landlock',
      'tool.formatter.landlock.json',
    ]);
    assert.deepEqual(
      args(o, 'tool.formatter').filter((a) => a.startsWith('/home')),
      ['/home/dev/project/src', '/home/dev/project/src'],
    );
  });
});

describe('linux argv: structure', () => {
  it('parents are mounted before children whatever the config order; covers after the mount they cover', async () => {
    const m = machine({
      '/home/u/a/b/c/d': 'dir',
      '/home/u/a/b/x': 'file',
      '/home/u/a/b/c/secret': 'file',
      '/home/u/a/hidden': 'dir',
      '/usr/bin/sh': 'file',
    });
    const text =
      '[agent.filesystem]\nwrite = ["~/a/b/c/d"]\nread = ["~/a/b/c/d", "~/a/b", "~/a"]\ndeny = ["~/a/b/c/secret", "~/a/hidden"]\nread_file = ["~/a/b/x"]\n';
    const o = ok(await compileBytes(Buffer.from(text), 'linux', { fs: m, worktree: '/w' }, 'c.toml'));
    const view = viewFromArgv(args(o));
    const paths = view.ops.map((op) => op.path);
    for (let i = 0; i < paths.length; i++)
      for (let j = i + 1; j < paths.length; j++)
        assert.ok(!paths[i]!.startsWith(paths[j]! + '/'), `${paths[j]} (a parent) must come before ${paths[i]}`);
    for (let i = 1; i < paths.length; i++) assert.ok(depth(paths[i - 1]!) <= depth(paths[i]!), 'sorted by depth');
    const a = args(o);
    assert.ok(a.indexOf('/home/u/a/b/c/secret') > a.indexOf('/home/u/a/b'));
    assert.deepEqual(a.slice(a.indexOf('--tmpfs'), a.indexOf('--tmpfs') + 4), [
      '--tmpfs',
      '/home/u/a/hidden',
      '--remount-ro',
      '/home/u/a/hidden',
    ]);
    const bindOf = (p: string): string => a[a.indexOf(p) - 1]!;
    assert.equal(bindOf('/home/u/a'), '--ro-bind');
    assert.equal(bindOf('/home/u/a/b/c/d'), '--bind');
  });

  it('paths with spaces, quotes, backslashes, newlines and non-ASCII stay single arguments and survive the .args file', async () => {
    const weird = [
      '/home/u/with space',
      '/home/u/quote"d',
      "/home/u/it's",
      '/home/u/back\\slash',
      '/home/u/new\nline',
      '/home/u/tab\there',
      '/home/u/ünï €',
      '/home/u/-dash',
      '/home/u/--bind',
    ];
    const m = machine(Object.fromEntries(weird.map((p) => [p, 'dir'])));
    const toml = weird.map((p) => JSON.stringify(p.replace('/home/u', '~')).replace(/\t/g, '\\t')).join(', ');
    const o = ok(await compileBytes(Buffer.from(`[agent.filesystem]\nread = [${toml}]\n`), 'linux', { fs: m, worktree: '/w' }, 'c.toml'));
    const a = args(o);
    for (const p of weird) assert.equal(a.filter((x) => x === p).length, 2, `${JSON.stringify(p)} appears as SRC and DEST`);
    const back = parseArgsFile(artifact(o, 'agent.bwrap.args') as Uint8Array);
    assert.deepEqual(back, a, 'the .args file splits back into exactly the argv');
    const j = json(o);
    const origin = j.argv.find((x) => x.arg === '/home/u/new\nline')!.origin as { entry: string };
    assert.equal(origin.entry, 'read = "~/new\\nline"');
  });

  it('the .args file is the argv, each argument NUL-terminated', async () => {
    const o = ok(await compileExample('read-write-file.toml', 'linux'));
    const bytes = Buffer.from(artifact(o, 'agent.bwrap.args') as Uint8Array);
    assert.equal(
      bytes.toString('utf8'),
      args(o)
        .map((x) => x + '\0')
        .join(''),
    );
  });

  it('denied files: one empty read-only file each, on its own fd (6, 7, …; 5 is the in-sandbox step); a deny no mount shows, or inside a denied directory, adds nothing', async () => {
    const m = machine({ '/home/u/p/.env': 'file', '/home/u/p/.npmrc': 'file', '/home/u/p/keys/k': 'file', '/home/u/other/f': 'file' });
    const text = '[agent.filesystem]\nread = ["~/p"]\ndeny = ["~/p/.npmrc", "~/p/.env", "~/p/keys", "~/p/keys/k", "~/other/f"]\n';
    const o = ok(await compileBytes(Buffer.from(text), 'linux', { fs: m, worktree: '/w' }, 'c.toml'));
    const a = args(o).join(' ');
    assert.match(
      a,
      /--perms 0444 --ro-bind-data 6 \/home\/u\/p\/\.env --perms 0444 --ro-bind-data 7 \/home\/u\/p\/\.npmrc --tmpfs \/home\/u\/p\/keys --remount-ro \/home\/u\/p\/keys/,
    );
    assert.doesNotMatch(a, /\/home\/u\/other|keys\/k/);
    const notes = json(o).notes.map((n) => `${n.path}: ${n.text}`);
    assert.ok(notes.some((n) => /^\/home\/u\/other\/f: (not in the view|no mount shows it)/.test(n)));
    assert.ok(notes.some((n) => n.startsWith('/home/u/p/keys/k: inside a denied directory')));
    assert.deepEqual(viewFromArgv(args(o)).dataFds, [6, 7]);
    assert.equal(viewFromArgv(args(o)).execFd, 5);
  });

  it('a denied socket: one decision of its cover, an empty read-only file (a directory cannot be mounted on a socket), which explain and the argv both say', async () => {
    const m = machine({ '/home/u/p/agent.sock': 'socket', '/home/u/p/f': 'file' });
    const o = ok(
      await compileBytes(
        Buffer.from('[agent.filesystem]\nread = ["~/p"]\ndeny = ["~/p/agent.sock"]\n'),
        'linux',
        { fs: m, worktree: '/w' },
        'c.toml',
      ),
    );
    assert.match(args(o).join(' '), /--perms 0444 --ro-bind-data 6 \/home\/u\/p\/agent\.sock/);
    const deny = o.check.model.principals[0]!.grants.find((ga) => ga.grant.access === 'deny')!;
    assert.deepEqual(deny.notes.linux, { kind: 'empty-cover', of: 'file' });
  });

  it("a grant under a deny is not mounted (the model says absent: inside the deny's empty cover)", async () => {
    const m = machine({ '/home/u/p/private/notes': 'dir' });
    const o = ok(
      await compileBytes(
        Buffer.from('[agent.filesystem]\nread = ["~/p", "~/p/private/notes"]\ndeny = ["~/p/private"]\n'),
        'linux',
        { fs: m, worktree: '/w' },
        'c.toml',
      ),
    );
    assert.ok(!args(o).includes('/home/u/p/private/notes'));
    assert.ok(json(o).notes.some((n) => n.path === '/home/u/p/private/notes' && /under a deny/.test(n.text)));
  });

  it('merged-/usr links follow their targets into the view', async () => {
    const usr = ok(await compileText('[agent.filesystem]\nread = ["/usr"]\n', 'linux'));
    assert.match(
      args(usr).join(' '),
      /--symlink usr\/bin \/bin --dev \/dev --symlink usr\/lib \/lib --symlink usr\/lib64 \/lib64 --proc \/proc --symlink usr\/sbin \/sbin --ro-bind \/usr \/usr/,
    );
    const lib64 = ok(await compileExample('loader-directory.toml', 'linux'));
    assert.deepEqual(
      args(lib64).filter((_, i, a) => a[i - 1] === '--symlink' || a[i - 2] === '--symlink'),
      ['usr/lib64', '/lib64'],
    );
    const none = ok(await compileExample('read-only-content.toml', 'linux'));
    assert.ok(!args(none).includes('--symlink'));
  });

  it('--share-net only for a direct network exception, with its line; the gateway socket only for the others', async () => {
    const o = ok(await compileExample('direct-network.toml', 'linux', { 'gateway-socket': '/run/product/gateway.sock' }));
    for (const id of ['tool.fetcher', 'mcp.search']) {
      const j = json(o, id);
      const share = j.argv.find((x) => x.arg === '--share-net');
      assert.ok(share, `${id} shares the network`);
      assert.equal(typeof (share.origin as { line: number }).line, 'number');
      assert.ok(!j.argv.some((x) => x.arg === '/run/product/gateway.sock'));
    }
    const c = ok(await compileExample('coding-agent.toml', 'linux', { 'gateway-socket': '/run/product/gateway.sock' }));
    const a = args(c);
    assert.ok(!a.includes('--share-net'));
    assert.deepEqual(a.slice(a.indexOf('/run/product/gateway.sock') - 1, a.indexOf('/run/product/gateway.sock') + 2), [
      '--ro-bind',
      '/run/product/gateway.sock',
      '/run/product/gateway.sock',
    ]);
  });

  it('the workspace: created with --dir when no mount holds it, always entered with --chdir', async () => {
    const w = ok(await compileExample('workspace.toml', 'linux'));
    assert.match(
      args(w).join(' '),
      /--dir \/home\/dev\/work --perms 0555 --ro-bind-data 5 \/.boxwright\/exec --remount-ro \/ --chdir \/home\/dev\/work --seccomp 4$/,
    );
    const c = ok(await compileExample('coding-agent.toml', 'linux'));
    assert.ok(!args(c).includes('--dir'));
  });

  it('a grant under /proc is served by the fresh /proc, never bound from the host', async () => {
    const o = ok(await compileExample('process-information.toml', 'linux'));
    assert.ok(!args(o).includes('/proc/cpuinfo'));
    assert.ok(json(o).notes.some((n) => n.path === '/proc/cpuinfo' && /own \/proc/.test(n.text)));
  });

  it('tyba: the worktree read-write, /tmp a private tmpfs (TMPDIR), the data directory absent, the worktree entered', async () => {
    const o = ok(await compileExample('tyba-user-config.toml', 'linux'));
    const a = args(o).join(' ');
    assert.match(a, /--tmpfs \/tmp --/, 'a private tmpfs, writable (no --remount-ro)');
    assert.ok(!/--bind \/tmp /.test(a), "never the host's /tmp");
    assert.match(a, /--setenv TMPDIR \/tmp/);
    assert.match(a, /--bind \/home\/dev\/project \/home\/dev\/project/);
    assert.match(a, /--ro-bind \/home\/dev\/datasets \/home\/dev\/datasets/);
    assert.match(a, /--chdir \/home\/dev\/project/);
    assert.ok(!a.includes('.tyba'));
    const tmp = json(o).argv.find((x) => x.arg === '/tmp')!;
    assert.equal(tmp.origin, "implicit: the temp directory: a private tmpfs, not the host's /tmp");
  });

  it('--force on a refused config: marked at the top, and the refused grant gets no mount', async () => {
    const o = ok(await compileExample('write-only.toml', 'linux', { force: true }));
    const j = json(o);
    assert.equal(j.forced, true);
    assert.ok(j.header.some((l) => /WARNING: compiled with --force/.test(l)));
    assert.ok(!args(o).includes('--bind'), 'the write-only grant is not mounted writable');
    assert.ok(j.notes.some((n) => /refused \(write-only\)/.test(n.text)));
  });

  it('a refused config compiles to nothing', async () => {
    const o = await compileExample('write-only.toml', 'linux');
    assert.equal(o.ok, false);
  });
});

describe('linux artifacts: seccomp and determinism', () => {
  it('the .bpf artifacts are compileSeccomp programs; seccomp.json and seccomp.txt come from it with the header', async () => {
    const o = ok(await compileExample('coding-agent.toml', 'linux'));
    const s = compileSeccomp();
    for (const p of s.programs) {
      assert.deepEqual(Buffer.from(artifact(o, bpfName(p.arch)) as Uint8Array), Buffer.from(p.bytes));
      assert.deepEqual(Buffer.from(seccompProgram(p.arch)), Buffer.from(p.bytes));
    }
    assert.equal(artifact(o, 'seccomp.json'), s.policyJson);
    const txt = artifact(o, 'seccomp.txt') as string;
    assert.match(
      txt,
      /^# seccomp\.txt: .*\n# Generated by boxwright .*\n# config: examples\/coding-agent\.toml\n# config sha256: [0-9a-f]{64}\n/,
    );
  });

  it('byte-for-byte deterministic', async () => {
    for (const name of ['coding-agent.toml', 'tyba-user-config.toml', 'direct-network.toml']) {
      const a = ok(await compileExample(name, 'linux'));
      const b = ok(await compileExample(name, 'linux'));
      assert.deepEqual(
        a.artifacts.map((x) => [x.name, Buffer.from(x.content)]),
        b.artifacts.map((x) => [x.name, Buffer.from(x.content)]),
      );
    }
  });

  it('hostArch maps node architectures', () => {
    assert.equal(hostArch('x64'), 'x86_64');
    assert.equal(hostArch('arm64'), 'aarch64');
    assert.equal(hostArch('ia32'), undefined);
  });
});

describe('linux view lookups (the runner checks CMD with them)', () => {
  const host = hostView('/');
  it('resolves through the merged-/usr links and the host disk behind binds; ungranted and denied paths are not found', () => {
    const ops = viewFromArgv([
      '--proc',
      '/proc',
      '--dev',
      '/dev',
      '--symlink',
      'usr/bin',
      '/bin',
      '--ro-bind',
      '/usr',
      '/usr',
      '--perms',
      '0444',
      '--ro-bind-data',
      '5',
      '/usr/bin/env',
      '--remount-ro',
      '/',
    ]).ops;
    const sh = lookupFile(ops, '/bin/sh', host);
    assert.ok(sh.found && sh.sandboxPath.startsWith('/usr/bin/'), JSON.stringify(sh));
    assert.equal(lookupFile(ops, '/etc/passwd', host).found, false);
    const env = lookupFile(ops, '/usr/bin/env', host);
    assert.ok(!env.found && /denied/.test(env.reason));
    assert.ok(findCommand(ops, 'sh', { PATH: '/nowhere:/bin' }, '/', host).found);
    const missing = findCommand(ops, 'no-such-command-here', { PATH: '/usr/bin' }, '/', host);
    assert.ok(!missing.found && /not on PATH inside the sandbox/.test(missing.reason));
  });

  it('asks the view it is given, not the disk: a described machine answers for the binds (issue 12 item 5)', () => {
    const ops = viewFromArgv(['--symlink', 'usr/bin', '/bin', '--ro-bind', '/usr', '/usr', '--ro-bind', '/opt', '/opt']).ops;
    const described = manifestView(
      JSON.stringify({
        home: '/home/u',
        entries: { '/usr/bin/tool': 'file', '/usr/bin/cur': { symlink: '../lib/tool-2' }, '/usr/lib/tool-2': 'file', '/opt/dir': 'dir' },
      }),
      'm.json',
    );
    // /usr/bin/sh exists on this machine, not on the described one; /usr/bin/tool the other way round.
    const sh = lookupFile(ops, '/bin/sh', described);
    assert.ok(!sh.found && sh.reason === '/bin/sh: /usr/bin/sh does not exist on this machine', JSON.stringify(sh));
    assert.deepEqual(lookupFile(ops, '/bin/tool', described), { found: true, hostPath: '/usr/bin/tool', sandboxPath: '/usr/bin/tool' });
    // The view's links are followed by the same walk the rules use.
    assert.deepEqual(lookupFile(ops, '/bin/cur', described), { found: true, hostPath: '/usr/lib/tool-2', sandboxPath: '/usr/lib/tool-2' });
    assert.deepEqual(lookupFile(ops, '/opt/dir', described), { found: false, reason: '/opt/dir is a directory' });
    assert.deepEqual(lookupFile(ops, '/usr/bin/tool/x', described), {
      found: false,
      reason: '/usr/bin/tool/x: /usr/bin/tool is not a directory',
    });
    // A manifest records no modes: the runner never takes an unknown for executable.
    const tool = findCommand(ops, 'tool', { PATH: '/bin' }, '/', described);
    assert.ok(!tool.found && /\/bin\/tool: not executable/.test(tool.reason), JSON.stringify(tool));
  });

  it('reads back every option the lowering writes, and refuses one it does not know', () => {
    assert.throws(() => viewFromArgv(['--overlay', 'a', 'b', 'c']), /unknown bubblewrap option/);
  });
});
