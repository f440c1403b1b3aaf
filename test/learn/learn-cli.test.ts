// `boxwright learn` as a command: its usage errors, a run that failed, was
// killed, timed out or got a signal (what it learned is written, marked
// incomplete; the status passes through as in `run`), learning twice (the
// second run adds only what it needed), --check (what still fails under the
// learned config, through run's own path), TYBA, and the network (learned,
// never granted). Needs bubblewrap and strace.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bin, boxwright, testCache, type Outcome } from '../linux/support.js';
import { cli } from '../cli-in-process.js';
import { skipLearn } from './support.js';

let lab = '';
let home = '';
let work = '';
const learn = (args: readonly string[], cwd = work): Promise<Outcome> => boxwright(['learn', ...args], { cwd, env: { HOME: home } });

/** The CLI in this process (a usage error runs nothing): its status and what it wrote to stderr. */
async function inProcess(argv: string[]): Promise<{ status: number; stderr: string }> {
  const { status, stderr } = await cli(argv);
  return { status, stderr };
}

describe('boxwright learn: usage', () => {
  for (const [args, message] of [
    [[], /name the command to learn from after --/],
    [['git', 'status'], /put the command to learn from after --: boxwright learn -- git status/],
    [['--check', '--', 'true'], /--check runs the command under the learned config: name the file with --out/],
    [['--fs', 'none', '--', 'true'], /--fs can only be host/],
    [['--timeout', 'soon', '--', 'true'], /--timeout takes a number of seconds above 0/],
    [['--dialect', 'tyba', '--principal', 'tool:x', '--', 'true'], /a TYBA config has one principal/],
    [['--principal', 'robot', '--', 'true'], /--principal must be agent, tool.NAME or mcp.NAME/],
  ] as const) {
    it(`exits 2: ${args.join(' ') || '(nothing)'}`, async () => {
      const r = await inProcess(['learn', ...args]);
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, message);
    });
  }

  it('refuses to learn into a file that is not a config, and says why', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'boxwright-learn-usage-'));
    try {
      writeFileSync(join(dir, 'broken.toml'), '[agent.filesystem\nread = [');
      const r = await inProcess(['learn', '--out', join(dir, 'broken.toml'), '--', 'true']);
      assert.equal(r.status, 2);
      assert.match(r.stderr, /cannot learn into .*broken\.toml: it is not a config learn can add to/);
      assert.equal(readFileSync(join(dir, 'broken.toml'), 'utf8'), '[agent.filesystem\nread = [', 'left as it was');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("boxwright learn: a peer config is not learn's to write", () => {
  // Box lines appended to sandbox-runtime settings made a JSON file that no longer parses: refused before anything runs.
  for (const [name, text, what] of [
    [
      'srt.json',
      '{\n  "filesystem": {"denyRead": [], "allowWrite": [], "denyWrite": []},\n  "network": {"allowedDomains": [], "deniedDomains": []}\n}\n',
      'sandbox-runtime settings',
    ],
    ['config.toml', 'sandbox_mode = "workspace-write"\n', 'a Codex config \\(config\\.toml\\)'],
  ] as const) {
    it(`exits 2 and leaves ${name} as it was: it is ${what.replace(/\\/g, '')}`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'boxwright-learn-peer-'));
      try {
        writeFileSync(join(dir, name), text);
        const r = await inProcess(['learn', '--out', join(dir, name), '--', 'true']);
        assert.equal(r.status, 2, r.stderr);
        assert.match(
          r.stderr,
          new RegExp(`cannot learn into .*${name.replace('.', '\\.')}: it is ${what}, and learn writes Box and TYBA configs`),
        );
        assert.equal(readFileSync(join(dir, name), 'utf8'), text, 'left as it was');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});

describe('boxwright learn under bubblewrap', { skip: skipLearn, concurrency: 4 }, () => {
  before(() => {
    lab = mkdtempSync(join(tmpdir(), 'boxwright-learn-cli-'));
    home = join(lab, 'home');
    work = join(home, 'work');
    mkdirSync(work, { recursive: true });
    mkdirSync(join(lab, 'configs'));
    for (const f of ['a.txt', 'b.txt', 'c.txt']) writeFileSync(join(work, f), `${f}\n`);
    writeFileSync(join(home, '.netrc'), 'machine example.invalid login me password secret\n');
  });
  after(() => rmSync(lab, { recursive: true, force: true }));
  const config = (name: string): string => join(lab, 'configs', `${name}.toml`);

  it('a command that fails: its status passes through, what it learned is written, marked incomplete', async () => {
    const r = await learn(['--out', config('fails'), '--', '/bin/sh', '-c', 'cat a.txt; exit 3']);
    assert.equal(r.status, 3, r.stderr);
    const text = readFileSync(config('fails'), 'utf8');
    assert.match(text, /^# INCOMPLETE: the command failed \(status 3\)/m);
    assert.match(text, /"~\/work\/a\.txt",/);
    assert.match(r.stdout, /INCOMPLETE/);
  });

  it('a command killed by a signal: 128+N, written, marked incomplete', async () => {
    const r = await learn(['--out', config('killed'), '--', '/bin/sh', '-c', 'cat b.txt; kill -KILL $$']);
    assert.equal(r.status, 137, r.stderr);
    const text = readFileSync(config('killed'), 'utf8');
    assert.match(text, /^# INCOMPLETE: the command was killed by signal 9/m);
    assert.match(text, /"~\/work\/b\.txt",/);
  });

  it('--timeout ends it: 124, and what it learned until then is written', async () => {
    // The timeout counts from the command's start (the in-sandbox step's ready line), not from learn's set-up.
    const r = await learn(['--out', config('timeout'), '--timeout', '2', '--', '/bin/sh', '-c', 'cat c.txt; exec sleep 60']);
    assert.equal(r.status, 124, r.stderr);
    const text = readFileSync(config('timeout'), 'utf8');
    assert.match(text, /^# INCOMPLETE: ended by --timeout after 2 s/m);
    assert.match(text, /"~\/work\/c\.txt",/);
  });

  it('a signal to learn reaches the command, as in run: 128+N, and the config is written', async () => {
    const child = spawn(
      process.execPath,
      [bin, 'learn', '--out', config('signalled'), '--', '/bin/sh', '-c', 'cat a.txt; echo started; exec sleep 60'],
      { cwd: work, env: { ...process.env, HOME: home, XDG_CACHE_HOME: testCache, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    await new Promise<void>((resolve) => child.stdout.on('data', (d: Buffer) => d.toString().includes('started') && resolve()));
    child.kill('SIGTERM');
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(status, 143, stderr);
    assert.match(readFileSync(config('signalled'), 'utf8'), /^# INCOMPLETE: the command was killed by signal 15/m);
  });

  it('learning twice merges: the second run adds only what it needed, a third adds nothing', async () => {
    const file = config('merged');
    assert.equal((await learn(['--out', file, '--', '/bin/cat', 'a.txt'])).status, 0);
    const first = readFileSync(file, 'utf8');
    const r = await learn(['--out', file, '--', '/bin/cat', 'a.txt', 'b.txt']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^1 grant added to .*merged\.toml, \d+ already given/m);
    const second = readFileSync(file, 'utf8');
    assert.ok(second.startsWith(first.slice(0, first.indexOf('read_file = ['))), 'what was written stays as it was');
    assert.equal(second.match(/^ {2}"~\/work\/a\.txt",/gm)?.length, 1, 'no entry twice');
    assert.match(second, /# learned from: \/bin\/cat a\.txt b\.txt\n {2}"~\/work\/b\.txt",/);
    const again = await learn(['--out', file, '--', '/bin/cat', 'a.txt', 'b.txt']);
    assert.match(again.stdout, /^0 grants added/m);
    assert.equal(readFileSync(file, 'utf8'), second);
  });

  it('learning into a config a run that wrote /tmp adds private_tmp = true once, and no grant of /tmp; run then does the same', async () => {
    const file = config('merged-tmp');
    assert.equal((await learn(['--out', file, '--', '/bin/cat', 'a.txt'])).status, 0);
    assert.doesNotMatch(readFileSync(file, 'utf8'), /private_tmp/, 'a run that did not use /tmp gets no temp directory');
    const withTmp = ['/bin/sh', '-c', 't=$(mktemp) && echo kept > "$t" && cat "$t" a.txt && rm "$t"'];
    const r = await learn(['--out', file, '--', ...withTmp]);
    assert.equal(r.status, 0, r.stderr);
    const merged = readFileSync(file, 'utf8');
    assert.equal(merged.match(/^private_tmp = true {2}#/gm)?.length, 1, merged);
    assert.ok(!/"\/tmp[/"]/.test(merged), `no grant of the host's /tmp:\n${merged}`);
    const again = await learn(['--out', file, '--', ...withTmp]);
    assert.equal(again.status, 0, again.stderr);
    assert.equal(readFileSync(file, 'utf8'), merged, 'a third run adds nothing');
    const run = await boxwright(['run', file, '--', ...withTmp], { cwd: work, env: { HOME: home } });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'kept\na.txt\n');
  });

  it('--check runs the command under the learned config through boxwright run and says what still fails', async () => {
    const before = readFileSync(join(home, '.netrc'), 'utf8');
    const r = await learn(['--out', config('check'), '--check', '--', '/bin/cat', join(home, '.netrc'), 'a.txt']);
    assert.equal(r.status, 1, `the checked run's status (cat cannot read the secret):\n${r.stderr}`);
    assert.match(r.stdout, /not granted: ~\/\.netrc: read, but it is a secret location/);
    assert.match(r.stdout, /--check: the command ran under .*check\.toml through boxwright run and exited with status 1/);
    assert.match(r.stdout, /^ {2}read ~\/\.netrc: ENOENT \(cat: openat\)$/m);
    assert.equal(readFileSync(join(home, '.netrc'), 'utf8'), before);
    // No cache entry of the checked config: --check changes nothing of the host. Its run files lived in a private
    // directory under the cache root (never the shared temp: issue 21, attack 6), removed after the run. (The
    // other tests of this suite run beside this one, and their runs of other configs keep entries.)
    const runDir = join(testCache, 'boxwright', 'run');
    const compiledFrom = (n: string): string =>
      (JSON.parse(readFileSync(join(runDir, n, 'entry.json'), 'utf8')) as { inputs: { config: string } }).inputs.config;
    const entries = existsSync(runDir) ? readdirSync(runDir).filter((n) => existsSync(join(runDir, n, 'entry.json'))) : [];
    assert.deepEqual(
      entries.map(compiledFrom).filter((c) => c === config('check')),
      [],
      'no cache entry: --check changes nothing of the host',
    );
  });

  it('TYBA: the worktree is implicit, reads outside it become read_allow, and run accepts it', async () => {
    // The read outside the worktree is a system file, not this checkout's package.json: a clone under
    // /root (root's home, which learn never grants) or under /tmp (TYBA's private temporary directory)
    // would make that read ungrantable, and the test would depend on where it was cloned.
    const outside = '/usr/bin/env';
    const r = await learn(['--dialect', 'tyba', '--out', config('tyba'), '--', '/bin/cat', 'a.txt', outside]);
    assert.equal(r.status, 0, r.stderr);
    const text = readFileSync(config('tyba'), 'utf8');
    assert.match(text, /^\[sandbox\]\nread_allow = \[/m);
    assert.ok(!/^ {2}".*a\.txt",/m.test(text), `the worktree is the session's own:\n${text}`);
    assert.match(text, /^ {2}"\/usr\/bin\/env",/m, `the read outside the worktree is granted (read_allow):\n${text}`);
    const run = await boxwright(['run', '--dialect', 'tyba', config('tyba'), '--', '/bin/cat', 'a.txt', outside], {
      cwd: work,
      env: { HOME: home },
    });
    assert.equal(run.status, 0, `${run.stderr}\n${text}`);
  });

  it('a command that is not there: 127 as a shell says it, and nothing is written', async () => {
    const r = await learn(['--out', config('missing'), '--', '/no/such/program']);
    assert.equal(r.status, 127, r.stderr);
    assert.match(r.stderr, /cannot execute \/no\/such\/program .*nothing was written/);
    assert.equal(existsSync(config('missing')), false);
  });

  it("--principal tool.NAME learns into the tool's table, and run --principal tool:NAME accepts it", async () => {
    const r = await learn(['--principal', 'tool.fmt', '--out', config('tool'), '--', '/bin/cat', 'a.txt']);
    assert.equal(r.status, 0, r.stderr);
    const text = readFileSync(config('tool'), 'utf8');
    assert.match(text, /^\[tools\.fmt\.filesystem\]$/m);
    const run = await boxwright(['run', '--principal', 'tool:fmt', config('tool'), '--', '/bin/cat', 'a.txt'], {
      cwd: work,
      env: { HOME: home },
    });
    assert.equal(run.status, 0, `${run.stderr}\n${text}`);
    assert.equal(run.stdout, 'a.txt\n');
  });

  it('--network learns where the command went and grants none of it', async () => {
    const server = createServer((c) => c.end('pong'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const probe = `import socket\ns = socket.create_connection(("127.0.0.1", ${port}))\nprint(s.recv(4).decode())`;
    try {
      const r = await learn(['--network', '--out', config('network'), '--', '/usr/bin/python3', '-c', probe]);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`^network: 127\\.0\\.0\\.1:${port} \\(reached; python3: connect\\)$`, 'm'));
      assert.match(r.stdout, /learn ran with --network and grants none of these/);
      const text = readFileSync(config('network'), 'utf8');
      assert.ok(!/^\[.*network\]/m.test(text) && !text.includes('contain_egress'), 'no network grant');
      const off = await learn(['--out', config('no-network'), '--', '/usr/bin/python3', '-c', probe]);
      assert.notEqual(off.status, 0, 'without --network the sandbox has none');
      assert.match(off.stdout, new RegExp(`^network: 127\\.0\\.0\\.1:${port} \\(refused: `, 'm'));
    } finally {
      server.close();
    }
  });
});
