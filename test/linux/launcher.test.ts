// The launcher fails closed: every way the sandbox cannot be what was
// compiled ends in exit 125 and a message, and a marker file shows the
// command never ran. Each refusal sits beside the control (the same DIR,
// untouched) in which the marker does appear.
import assert from 'node:assert/strict';
import {
  appendFileSync,
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { encodeLaunchFile } from '../../targets/linux/launcher/index.js';
import { requireOrSkip } from '../helpers.js';
import { arch, bwrapRecord, fakeBwrap, launch, makeLauncherDir, realBwrap, sha256, skip, type LauncherDir } from './launcher-support.js';
import { bare, isRoot } from './hostile/support.js';

/** A stand-in bubblewrap must be root's, in directories only root writes, or the launcher refuses to run it: these tests make one as root. */
const skipFake = requireOrSkip(isRoot, "root (a stand-in bubblewrap must be root's for the launcher to run it)");

const NUL = '\0';

describe('launcher: fail-closed', { skip, concurrency: 1 }, () => {
  let home = '';
  let config = '';
  let marker = '';
  let d: LauncherDir;
  const touch = (): string[] => ['/usr/bin/touch', marker];
  before(async () => {
    home = realpathSync(mkdtempSync(join(tmpdir(), 'boxwright-launcher-home-')));
    mkdirSync(join(home, 'work'));
    marker = join(home, 'work', 'marker');
    config = join(home, 'c.toml');
    writeFileSync(config, '[agent.filesystem]\nread = ["/usr", "~/work"]\nwrite = ["~/work"]\n');
    d = await makeLauncherDir(config, { home });
  });
  afterEach(() => {
    rmSync(marker, { force: true });
    d.writeLaunch({});
    d.writeArgs(d.argv);
  });
  after(() => {
    rmSync(home, { recursive: true, force: true });
    rmSync(d.dir, { recursive: true, force: true });
  });

  /** Exit 125, the message, and no marker. */
  async function refused(args: readonly string[], message: RegExp, env: Record<string, string | undefined> = {}): Promise<string> {
    const r = await launch(d.run, args, { env });
    assert.equal(r.status, 125, r.stderr);
    assert.match(r.stderr, message);
    assert.match(r.stderr, /the command did not run/);
    assert.ok(!existsSync(marker), 'the command ran');
    return r.stderr;
  }

  it('control: the untouched DIR runs the command (status 0, the marker appears)', async () => {
    const r = await launch(d.run, touch());
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.ok(existsSync(marker));
  });

  it('the config changed since compile: 125, and the message says to recompile', async () => {
    appendFileSync(config, '# edited\n');
    try {
      const e = await refused(
        touch(),
        /agent\.run: .*c\.toml changed since the sandbox in .* was compiled from it \(sha256 [0-9a-f]{64}, compiled from [0-9a-f]{64}\)\. Recompile: boxwright compile /,
      );
      assert.ok(e.includes(d.launch.configSha256));
    } finally {
      writeFileSync(config, '[agent.filesystem]\nread = ["/usr", "~/work"]\nwrite = ["~/work"]\n');
    }
  });

  it('the config is gone: 125', async () => {
    renameSync(config, `${config}.away`);
    try {
      await refused(touch(), /cannot read .*c\.toml, the config .* was compiled from/);
    } finally {
      renameSync(`${config}.away`, config);
    }
  });

  it('the launch file is missing: 125', async () => {
    unlinkSync(join(d.dir, 'agent.launch'));
    await refused(touch(), /cannot open .*\/agent\.launch: No such file or directory/);
  });

  const corrupt: [string, (text: string) => string, RegExp][] = [
    ['empty', () => '', /the launch file is empty/],
    ['without its final NUL', (t) => t.slice(0, -1), /does not end with a NUL/],
    ['cut short before the landlock record', (t) => t.slice(0, t.indexOf(`landlock${NUL}`)), /ends where `landlock` was expected/],
    ['with an unknown record', (t) => `${t}sandbox${NUL}off${NUL}`, /`sandbox` is not a record this launcher knows here/],
    [
      'with records out of order',
      (t) => t.replace(`principal${NUL}agent${NUL}`, '').replace(`landlock${NUL}`, `principal${NUL}agent${NUL}landlock${NUL}`),
      /`args` where `principal` was expected/,
    ],
    [
      'of another format',
      (t) => t.replace(`launch${NUL}3${NUL}`, `launch${NUL}1${NUL}`),
      /launch format `1`; this launcher reads format 3/,
    ],
    [
      'with an args record without its digest',
      (t) => t.replace(/(args\0agent\.bwrap\.args\0)[0-9a-f]{64}\0/, '$1'),
      /`seccomp` needs 3 operands|not 64 lowercase hex digits/,
    ],
    [
      'with a bwrap record whose mode is not octal',
      (t) => t.replace(/(bwrap\0[^\0]+\0\d+\0)\d{4}\0/, `$1${'0x755'}${NUL}`),
      /mode `0x755`: not four octal digits/,
    ],
    [
      'with a malformed digest',
      (t) => t.replace(/config-sha256\0[0-9a-f]{64}/, `config-sha256${NUL}${'A'.repeat(64)}`),
      /not 64 lowercase hex digits/,
    ],
    [
      'naming an args file outside its directory',
      (t) => t.replace(`args${NUL}agent.bwrap.args`, `args${NUL}../agent.bwrap.args`),
      /not a file name in the launch file's directory/,
    ],
    ['with an env record that is not a name', (t) => t.replace(`env${NUL}PATH${NUL}`, `env${NUL}PATH=/x${NUL}`), /not a variable name/],
  ];
  for (const [what, change, message] of corrupt) {
    it(`a launch file ${what}: 125`, async () => {
      const text = new TextDecoder().decode(encodeLaunchFile(d.launch));
      d.writeLaunch(new TextEncoder().encode(change(text)));
      await refused(touch(), new RegExp(`agent\\.launch is not a launch file this launcher reads: .*${message.source}`));
    });
  }

  it("no seccomp program for this machine's architecture: 125", async () => {
    const other = arch === 'x86_64' ? 'aarch64' : 'x86_64';
    d.writeLaunch({ seccomp: { [other]: { name: `seccomp.${other}.bpf`, sha256: 'a'.repeat(64) } } });
    await refused(touch(), new RegExp(`names no seccomp program for this machine's architecture \\(${arch}\\)`));
  });

  for (const [what, change, message] of [
    ['the args file', { args: { name: 'gone.bwrap.args', sha256: 'a'.repeat(64) } }, /cannot open .*\/gone\.bwrap\.args: No such file/],
    [
      'the seccomp program',
      { seccomp: { [arch!]: { name: 'gone.bpf', sha256: 'a'.repeat(64) } } },
      /cannot open .*\/gone\.bpf: No such file/,
    ],
    ['the Landlock rules', { landlock: { name: 'gone.landlock', sha256: 'a'.repeat(64) } }, /cannot open .*\/gone\.landlock: No such file/],
  ] as const) {
    it(`${what} it names is missing: 125`, async () => {
      d.writeLaunch(change);
      await refused(touch(), message);
    });
  }

  for (const [what, change, message] of [
    [
      'an option bubblewrap has but a view never holds',
      (v: string[]) => ['--info-fd', '3', ...v],
      /a compiled view does not use --info-fd/,
    ],
    ['an option the table does not know', (v: string[]) => ['--bogus', ...v], /"--bogus" is not an option a compiled view holds/],
    ['a command after the options', (v: string[]) => [...v, '--', '/usr/bin/touch', marker], /"--" is not an option a compiled view holds/],
    ['an option without its operands', (v: string[]) => [...v, '--bind', '/usr'], /--bind needs 2 operands/],
    [
      'no --seccomp',
      (v: string[]) => v.filter((a, i) => a !== '--seccomp' && v[i - 1] !== '--seccomp'),
      /applies no seccomp program \(no --seccomp\)/,
    ],
    [
      'no mount of the in-sandbox step',
      (v: string[]) => v.map((a) => (a === '/.boxwright/exec' ? '/.boxwright/other' : a)),
      /does not mount the in-sandbox step at \/\.boxwright\/exec/,
    ],
  ] as const) {
    it(`a .bwrap.args with ${what}: 125`, async () => {
      d.writeArgs(change([...d.argv]));
      await refused(touch(), message);
    });
  }

  it('the bubblewrap compile recorded is gone: 125 with the install line', async () => {
    d.writeLaunch({ bwrap: { path: '/nonexistent/bwrap', uid: 0, mode: 0o755 } });
    await refused(touch(), /bubblewrap \(\/nonexistent\/bwrap\) cannot be started: No such file or directory.*apt-get install bubblewrap/);
  });

  it('bubblewrap is the one recorded: neither PATH nor BOXWRIGHT_BWRAP at run time is looked at', async () => {
    const r = await launch(d.run, touch(), { exactEnv: { PATH: '/nonexistent:/also-not', BOXWRIGHT_BWRAP: '/nonexistent/bwrap' } });
    assert.equal(r.status, 0, r.stderr);
    assert.ok(existsSync(marker));
  });

  it('bubblewrap whose owner or mode changed since compile: 125', async () => {
    const real = bwrapRecord();
    d.writeLaunch({ bwrap: { ...real, mode: real.mode ^ 0o1000 } });
    await refused(
      touch(),
      /bubblewrap \(.*\) changed since compile: owner uid \d+, mode \d{4}, where compile recorded uid \d+, mode \d{4}/,
    );
    d.writeLaunch({ bwrap: { ...real, uid: real.uid + 1 } });
    await refused(touch(), /changed since compile/);
  });

  it("bubblewrap that is not root's alone (another user's, or in a directory others can write): 125", { skip: skipFake }, async () => {
    const other = fakeBwrap(d.dir, 'bwrap-other', `exec '${realBwrap}' "$@"`);
    chownSync(other, 65534, 65534);
    d.writeLaunch({ bwrap: bwrapRecord(other) });
    await refused(touch(), /bubblewrap \(.*bwrap-other\) is not root's alone: .*bwrap-other belongs to uid 65534, not to root/);
    const open = mkdtempSync(join(d.dir, 'open-'));
    chmodSync(open, 0o777);
    const inOpen = fakeBwrap(open, 'bwrap', `exec '${realBwrap}' "$@"`);
    d.writeLaunch({ bwrap: bwrapRecord(inOpen) });
    await refused(touch(), /is not root's alone: .*open-\w+ can be written by others \(mode 0777\)/);
    // The control: the same wrapper in a directory only root writes runs.
    const fine = fakeBwrap(d.dir, 'bwrap-fine', `exec '${realBwrap}' "$@"`);
    d.writeLaunch({ bwrap: bwrapRecord(fine) });
    const r = await launch(d.run, touch());
    assert.equal(r.status, 0, r.stderr);
  });

  for (const [what, name] of [
    ['the .bwrap.args', 'agent.bwrap.args'],
    ['the seccomp program', `seccomp.${arch}.bpf`],
  ] as const) {
    it(`${what} changed after compile (its digest): 125, and bubblewrap never started`, async () => {
      const file = join(d.dir, name);
      const before = readFileSync(file);
      try {
        appendFileSync(file, name.endsWith('.args') ? `--bind${NUL}/${NUL}/${NUL}` : Buffer.alloc(8));
        await refused(
          touch(),
          new RegExp(
            `${name.replace(/[.]/g, '\\.')} is not the file compile wrote \\(sha256 [0-9a-f]{64}; the launch file says [0-9a-f]{64}\\)`,
          ),
        );
      } finally {
        writeFileSync(file, before);
      }
    });
  }

  it('a launcher directory, or a launch file, that others can write: 125', async () => {
    chmodSync(d.dir, 0o777);
    try {
      await refused(
        touch(),
        /is not a directory only you can write \(.* can be written by others \(mode 0777\)\): whoever writes it decides what this launcher runs/,
      );
    } finally {
      chmodSync(d.dir, 0o755);
    }
    chmodSync(join(d.dir, 'agent.launch'), 0o666);
    try {
      await refused(touch(), /agent\.launch can be changed by others \(owner uid \d+, mode 0666\)/);
    } finally {
      chmodSync(join(d.dir, 'agent.launch'), 0o644);
    }
  });

  for (const [what, target] of [
    ['its own directory', (): string => d.dir],
    ['its config', (): string => config],
    ['bubblewrap', (): string => bwrapRecord().path],
  ] as const) {
    it(`a view whose writable mount reaches ${what}: 125`, async () => {
      const path = target();
      d.writeArgs([...d.argv.slice(0, -2), '--bind', path, path, ...d.argv.slice(-2)]);
      await refused(
        touch(),
        new RegExp(`agent's sandbox could change ${path.replace(/[.]/g, '\\.')}, .*: ${path.replace(/[.]/g, '\\.')} is mounted writable`),
      );
    });
  }

  it('a bubblewrap that fails: 125, told apart from a command that exits 1', { skip: skipFake }, async () => {
    const fake = fakeBwrap(d.dir, 'bwrap-fails', 'echo "bwrap: Creating new namespace failed: Operation not permitted" >&2; exit 1');
    d.writeLaunch({ bwrap: bwrapRecord(fake) });
    await refused(
      touch(),
      /bwrap: Creating new namespace failed[^]*bubblewrap could not set up the sandbox \(it exited 1 before running the command/,
    );
    d.writeLaunch({});
    const control = await launch(d.run, ['/usr/bin/sh', '-c', 'exit 1']);
    assert.equal(control.status, 1, control.stderr);
  });

  it('a bubblewrap that exits 0 without running anything: 125', { skip: skipFake }, async () => {
    const fake = fakeBwrap(d.dir, 'bwrap-noop', 'exit 0');
    d.writeLaunch({ bwrap: bwrapRecord(fake) });
    await refused(touch(), /bubblewrap could not set up the sandbox \(it exited 0 before running the command/);
  });

  it('a bubblewrap that reports an exit-code but never ran the in-sandbox step: 125', { skip: skipFake }, async () => {
    // Through /proc/self/fd: dash redirects only to descriptors 0-9, and the status descriptor may be 10 or more.
    const fake = fakeBwrap(
      d.dir,
      'bwrap-forges',
      'while [ $# -gt 0 ]; do [ "$1" = --json-status-fd ] && fd=$2; shift; done\nprintf \'{ "child-pid": 1 }\\n{ "exit-code": 0 }\\n\' >> /proc/self/fd/$fd\nexit 0',
    );
    d.writeLaunch({ bwrap: bwrapRecord(fake) });
    await refused(touch(), /the in-sandbox step \(\/\.boxwright\/exec\) reported nothing/);
  });

  it("a real set-up failure (a --chdir outside the view): 125, with bubblewrap's own message above", async () => {
    const v = [...d.argv];
    v.splice(v.indexOf('--seccomp'), 0, '--chdir', '/nonexistent-dir');
    d.writeArgs(v);
    await refused(touch(), /bwrap: Can't chdir to \/nonexistent-dir[^]*bubblewrap could not set up the sandbox/);
  });

  it('the in-sandbox step refuses (malformed Landlock rules): 125, its reason above', async () => {
    writeFileSync(join(d.dir, 'bad.landlock'), `fs${NUL}execute${NUL}relative/path${NUL}`);
    d.writeLaunch({ landlock: { name: 'bad.landlock', sha256: sha256(readFileSync(join(d.dir, 'bad.landlock'))) } });
    await refused(
      touch(),
      /^agent\.run: not an absolute path: 'relative\/path'; nothing was run\nagent\.run: the in-sandbox step refused \(rules; its message is above\)/,
    );
  });

  it('usage: no command, an unknown option, a bad --pass-fd or --die-with-parent: exit 2, nothing run', async () => {
    for (const args of [
      [],
      ['-v'],
      ['--bogus', ...touch()],
      ['--pass-fd', '2', ...touch()],
      ['--pass-fd', 'x', ...touch()],
      ['--pass-env'],
      ['--die-with-parent', '0', ...touch()],
      ['--die-with-parent', '-1', ...touch()],
      ['--die-with-parent'],
    ]) {
      const r = await launch(d.run, args);
      assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(
        r.stderr,
        /^agent\.run: .*\nusage: agent\.run \[--pass-env NAME\|NAME=VALUE\]\.\.\. \[--pass-fd N\]\.\.\. \[--die-with-parent PID\] \[-v\] \[--\] CMD \[ARGS\.\.\.\]\n$/,
      );
    }
    assert.ok(!existsSync(marker));
  });

  it('--die-with-parent naming a process that is not its parent: 125, nothing run', async () => {
    await refused(['--die-with-parent', '1', ...touch()], /its parent \(pid \d+\) has ended, or is not pid 1 \(--die-with-parent\)/);
  });

  it('a --pass-fd that is not open: 125', async () => {
    await refused(['--pass-fd', '77', ...touch()], /--pass-fd 77: the descriptor is not open/);
  });
});

// The check-then-mount race (test/linux/hostile/race.test.ts for the Node
// runner): another principal that can write a parent of a grant swaps it
// for a link between the launcher's check and bubblewrap's mount; a bwrap
// wrapper makes the swap at that instant.
describe('launcher: a grant swapped for a link between check and mount', { skip, concurrency: 1 }, () => {
  let home = '';
  let data = '';
  let d: LauncherDir;
  let swapper = '';
  before(async () => {
    home = realpathSync(mkdtempSync(join(tmpdir(), 'boxwright-launcher-race-')));
    data = join(home, 'shared', 'data');
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, 'file.txt'), 'public');
    mkdirSync(join(home, 'elsewhere'));
    writeFileSync(join(home, 'elsewhere', 'file.txt'), 'SECRET from elsewhere');
    mkdirSync(join(home, 'work'));
    const config = join(home, 'c.toml');
    writeFileSync(
      config,
      '[agent.filesystem]\nread = ["/usr", "~/shared/data", "~/work"]\nwrite = ["~/work"]\n\n[tools.writer.filesystem]\nread = ["~/shared"]\nwrite = ["~/shared"]\n',
    );
    d = await makeLauncherDir(config, { home });
    swapper = fakeBwrap(
      d.dir,
      'bwrap-after-swap',
      `mv '${data}' '${data}.orig' && ln -s '${join(home, 'elsewhere')}' '${data}' || exit 99\nexec '${realBwrap}' "$@"`,
    );
  });
  afterEach(() => {
    d.writeLaunch({});
    d.writeArgs(d.argv);
    if (lstatSync(data).isSymbolicLink()) {
      rmSync(data);
      renameSync(`${data}.orig`, data);
    }
  });
  after(() => {
    rmSync(home, { recursive: true, force: true });
    rmSync(d.dir, { recursive: true, force: true });
  });

  it('swapped after the launcher opened it: the directory that was checked is mounted', { skip: skipFake }, async () => {
    d.writeLaunch({ bwrap: bwrapRecord(swapper) });
    const r = await launch(d.run, ['/usr/bin/cat', join(data, 'file.txt')]);
    assert.ok(lstatSync(data).isSymbolicLink(), 'the swap happened before the mounts');
    assert.equal(r.stdout, 'public', r.stderr);
    assert.equal(r.status, 0);
  });

  it('control: bubblewrap mounting by path (the artifacts by hand) follows the link', async () => {
    const r = await bare(
      { argv: d.compiled, bpf: readFileSync(join(d.dir, `seccomp.${arch}.bpf`)) },
      ['/usr/bin/cat', join(data, 'file.txt')],
      { bwrap: swapper },
    );
    assert.ok(lstatSync(data).isSymbolicLink());
    assert.equal(r.stdout, 'SECRET from elsewhere', r.stderr);
  });

  it('swapped before the launcher started: 125, nothing mounted, nothing run', async () => {
    renameSync(data, `${data}.orig`);
    symlinkSync(join(home, 'elsewhere'), data);
    const marker = join(home, 'work', 'marker');
    const r = await launch(d.run, ['/usr/bin/touch', marker]);
    assert.equal(r.status, 125, r.stderr);
    assert.match(
      r.stderr,
      new RegExp(
        `agent\\.run: ${data.replace(/[.]/g, '\\.')} changed after it was checked \\(it is now a symbolic link\\); nothing was mounted from it; the command did not run`,
      ),
    );
    assert.ok(!existsSync(marker));
  });

  it('a file inside the grant reached through a swapped parent: 125 (its own path is not the one checked)', async () => {
    // A view that binds the file itself, so its parent can be swapped under it.
    const file = join(data, 'file.txt');
    d.writeArgs(d.argv.map((a) => (a === data ? file : a)));
    renameSync(data, `${data}.orig`);
    symlinkSync(join(home, 'elsewhere'), data);
    const r = await launch(d.run, ['/usr/bin/cat', file]);
    assert.equal(r.status, 125, r.stderr);
    assert.match(r.stderr, /file\.txt changed after it was checked \(it is now ".*elsewhere\/file\.txt"\)/);
    assert.equal(r.stdout, '');
  });
});
