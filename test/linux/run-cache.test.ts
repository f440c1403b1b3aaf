// `boxwright run`'s cache and fast path under real bubblewrap (issue 15
// item 2): a repeated run reuses the compiled sandbox only while the
// config, every machine fact its check asked and every cached file are as
// they were; anything else and the run checks again — and refuses what the
// check refuses, the command never running (a marker file proves it).
import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cacheKey, ENTRY_FORMAT, entryProblem, type Entry } from '../../targets/linux/run/sandbox/run-cache.js';
import { cacheInputs, type RunRequest } from '../../targets/linux/run/sandbox/run-request.js';
import { requireOrSkip } from '../helpers.js';
import { boxwright, bwrapAvailable, type Outcome } from './support.js';

const skip = requireOrSkip(bwrapAvailable, 'bubblewrap');
const CACHED = /boxwright run: the sandbox cached in /;

describe('boxwright run: the cache and its fast path', { skip, concurrency: 1 }, () => {
  let home = '';
  let cache = '';
  let config = '';
  let n = 0;
  const marker = (): string => join(home, 'p', 'out', `ran-${++n}`);
  const run = (
    cfg: string,
    cmd: readonly string[],
    env: Record<string, string | undefined> = {},
    options: readonly string[] = ['--home', home],
  ): Promise<Outcome> =>
    boxwright(['run', cfg, ...options, '--fs', 'host', '-v', '--', ...cmd], { env: { XDG_CACHE_HOME: cache, ...env } });
  /** The entry directory of `cfg` (the one whose entry.json names it), or undefined. */
  const entryOf = (cfg: string): string | undefined =>
    entries()
      .map((e) => join(cache, 'boxwright', 'run', e))
      .find((d) => existsSync(join(d, 'entry.json')) && readFileSync(join(d, 'entry.json'), 'utf8').includes(JSON.stringify(cfg)));
  const touch = (m: string): string[] => ['/usr/bin/dash', '-c', `echo ran > ${m}`];
  const entries = (): string[] => readdirSync(join(cache, 'boxwright', 'run')).filter((e) => !e.startsWith('.'));
  const text = (secretExists = true): string =>
    `[agent.filesystem]\nread = ["/usr", "~/p"]\nwrite = ["~/p/out"]\nexec = ["/usr/bin/dash", "/usr/bin/cat"]\ndeny = [${secretExists ? '"~/p/secret"' : ''}]\n`;

  before(() => {
    home = realpathSync(mkdtempSync(join(tmpdir(), 'boxwright-cache-home-')));
    cache = join(home, 'cache');
    mkdirSync(join(home, 'p', 'out'), { recursive: true });
    writeFileSync(join(home, 'p', 'note'), 'hello\n');
    writeFileSync(join(home, 'p', 'secret'), 'do not read\n');
    config = join(home, 'c.toml');
    writeFileSync(config, text());
  });
  after(() => rmSync(home, { recursive: true, force: true }));

  it('the first run checks and caches; the next takes the fast path and runs the same sandbox', async () => {
    const first = await run(config, ['/usr/bin/cat', join(home, 'p', 'note'), join(home, 'p', 'secret')]);
    assert.equal(first.status, 0, first.stderr);
    assert.equal(first.stdout, 'hello\n', 'the denied file reads empty');
    assert.doesNotMatch(first.stderr, CACHED);
    assert.equal(entries().length, 1);
    const dir = join(cache, 'boxwright', 'run', entries()[0]!);
    for (const d of [join(cache, 'boxwright'), join(cache, 'boxwright', 'run'), dir]) assert.equal(statSync(d).mode & 0o777, 0o700, d);
    for (const f of readdirSync(dir)) assert.equal(statSync(join(dir, f)).mode & 0o077, 0, `${f} is private`);
    const second = await run(config, ['/usr/bin/cat', join(home, 'p', 'note'), join(home, 'p', 'secret')]);
    assert.equal(second.status, 0, second.stderr);
    assert.equal(second.stdout, 'hello\n');
    assert.match(second.stderr, CACHED);
    // The fast path writes into the write grant as the full path does, and nowhere else.
    const m = marker();
    assert.equal((await run(config, touch(m))).status, 0);
    assert.ok(existsSync(m));
    const outside = await run(config, ['/usr/bin/dash', '-c', `echo x > ${join(home, 'p', 'note')}`]);
    assert.notEqual(outside.status, 0);
    assert.equal(readFileSync(join(home, 'p', 'note'), 'utf8'), 'hello\n');
  });

  it('a changed config is checked again: a refused one refuses, and nothing runs', async () => {
    const refused = join(home, 'refused.toml');
    writeFileSync(refused, readFileSync(config, 'utf8'));
    assert.doesNotMatch((await run(refused, ['/usr/bin/cat', join(home, 'p', 'note')])).stderr, CACHED);
    assert.match((await run(refused, ['/usr/bin/cat', join(home, 'p', 'note')])).stderr, CACHED);
    // Now write-only: Linux refuses it (write-only).
    writeFileSync(refused, '[agent.filesystem]\nwrite = ["~/p/out"]\nexec = ["/usr/bin/dash"]\n');
    const m = marker();
    const r = await run(refused, touch(m));
    assert.equal(r.status, 125, r.stderr);
    assert.doesNotMatch(r.stderr, CACHED);
    assert.match(r.stderr, /linux refuses/);
    assert.ok(!existsSync(m), 'the command never ran');
  });

  it('a changed fact the check asked (the denied file is gone) is checked again: Linux refuses, nothing runs', async () => {
    const cfg = join(home, 'facts.toml');
    writeFileSync(cfg, text());
    assert.equal((await run(cfg, ['/usr/bin/cat', join(home, 'p', 'note')])).status, 0);
    assert.match((await run(cfg, ['/usr/bin/cat', join(home, 'p', 'note')])).stderr, CACHED);
    rmSync(join(home, 'p', 'secret'));
    try {
      const m = marker();
      const r = await run(cfg, touch(m));
      assert.match(r.stderr, /the cached sandbox is not used: .*p\/secret was a file, is absent; checking the config/);
      assert.equal(r.status, 125, r.stderr);
      assert.match(r.stderr, /deny-absent-path|deny-target-absent|does not exist/);
      assert.ok(!existsSync(m), 'the command never ran');
    } finally {
      writeFileSync(join(home, 'p', 'secret'), 'do not read\n');
    }
  });

  it('a granted directory swapped for a link is checked again, and the link is not mounted blindly', async () => {
    const cfg = join(home, 'link.toml');
    mkdirSync(join(home, 'data'));
    mkdirSync(join(home, 'elsewhere'));
    writeFileSync(join(home, 'elsewhere', 'private'), 'elsewhere\n');
    writeFileSync(cfg, '[agent.filesystem]\nread = ["/usr", "~/data"]\nexec = ["/usr/bin/ls"]\n');
    assert.equal((await run(cfg, ['/usr/bin/ls', join(home, 'data')])).status, 0);
    rmSync(join(home, 'data'), { recursive: true });
    symlinkSync(join(home, 'elsewhere'), join(home, 'data'));
    const r = await run(cfg, ['/usr/bin/ls', join(home, 'data')]);
    assert.match(r.stderr, /the cached sandbox is not used: .*data was a directory, is a link to .*elsewhere/);
    assert.doesNotMatch(r.stdout, /private/);
  });

  it('a cached file changed (a tampered argv) is not used: the run checks again and rewrites the entry', async () => {
    const cfg = join(home, 'tamper.toml');
    writeFileSync(cfg, text());
    assert.equal((await run(cfg, ['/usr/bin/cat', join(home, 'p', 'note')])).status, 0);
    const dirs = entries().map((e) => join(cache, 'boxwright', 'run', e));
    const dir = dirs.find((d) => readFileSync(join(d, 'entry.json'), 'utf8').includes(cfg))!;
    // A writable bind of the whole home, written into the cached argv.
    const args = readFileSync(join(dir, 'agent.bwrap.args'), 'utf8').replace(
      `--ro-bind\0${join(home, 'p')}\0${join(home, 'p')}\0`,
      `--bind\0${home}\0${home}\0`,
    );
    writeFileSync(join(dir, 'agent.bwrap.args'), args);
    const r = await run(cfg, ['/usr/bin/dash', '-c', `echo pwned > ${join(home, 'p', 'note')}`]);
    assert.match(r.stderr, /the cached sandbox is not used: agent\.bwrap\.args changed since it was written/);
    assert.notEqual(r.status, 0);
    assert.equal(readFileSync(join(home, 'p', 'note'), 'utf8'), 'hello\n', 'the tampered argv was never run');
    assert.match((await run(cfg, ['/usr/bin/cat', join(home, 'p', 'note')])).stderr, CACHED, 'the entry was rewritten');
  });

  it('a cache directory others can write is not trusted: no fast path, no entry; the command runs from a private directory under XDG_RUNTIME_DIR, or not at all', async () => {
    const shared = join(home, 'shared-cache');
    mkdirSync(join(shared, 'boxwright'), { recursive: true });
    chmodSync(join(shared, 'boxwright'), 0o777);
    const runtime = mkdtempSync(join(home, 'runtime-'));
    for (let i = 0; i < 2; i++) {
      const r = await run(config, ['/usr/bin/cat', join(home, 'p', 'note')], { XDG_CACHE_HOME: shared, XDG_RUNTIME_DIR: runtime });
      assert.equal(r.status, 0, r.stderr);
      assert.doesNotMatch(r.stderr, CACHED);
      assert.match(r.stderr, /no cache entry: .*can be written by others/);
    }
    assert.ok(!existsSync(join(shared, 'boxwright', 'run')));
    assert.deepEqual(readdirSync(join(runtime, 'boxwright')), []);
    // Without a runtime directory there is no private place: never the temp directory (issue 34, attack 5).
    const r = await run(config, ['/usr/bin/cat', join(home, 'p', 'note')], { XDG_CACHE_HOME: shared, XDG_RUNTIME_DIR: undefined });
    assert.equal(r.status, 125, r.stderr);
    assert.match(r.stderr, /no private directory for this run's sandbox .*; the command did not run/);
  });

  it('a principal with a write grant above the cache gets no entry: the command runs from a private directory', async () => {
    const cfg = join(home, 'writes-cache.toml');
    writeFileSync(cfg, '[agent.filesystem]\nread = ["/usr", "~"]\nwrite = ["~/cache"]\nexec = ["/usr/bin/cat"]\n');
    const r = await run(cfg, ['/usr/bin/cat', join(home, 'p', 'note')]);
    assert.equal(r.status, 0, r.stderr);
    // The cache itself is a host-trusted path, bound read-only inside the write tree; the writable bind above it still means no entry.
    assert.match(r.stderr, new RegExp(`"--ro-bind-fd" "\\d+" "${join(cache, 'boxwright')}"`));
    assert.match(r.stderr, new RegExp(`no cache entry: agent's mounts make ${cache} writable, which holds the cache`));
    assert.ok(
      !readdirSync(join(cache, 'boxwright', 'run')).some((e) =>
        readFileSync(join(cache, 'boxwright', 'run', e, 'entry.json'), 'utf8').includes(cfg),
      ),
    );
  });

  it('a changed kernel fact (the Landlock ABI recorded this boot) is checked again', async () => {
    const cfg = join(home, 'abi.toml');
    writeFileSync(cfg, text());
    assert.equal((await run(cfg, ['/usr/bin/cat', join(home, 'p', 'note')])).status, 0);
    const file = join(cache, 'boxwright', 'landlock-abi');
    const [boot, abi] = readFileSync(file, 'utf8').trim().split(' ');
    writeFileSync(file, `${boot} ${Number(abi) === 1 ? 2 : 1}\n`);
    try {
      const r = await run(cfg, ['/usr/bin/cat', join(home, 'p', 'note')]);
      assert.match(r.stderr, new RegExp(`the cached sandbox is not used: the kernel's Landlock ABI was ${abi}, is`));
    } finally {
      writeFileSync(file, `${boot} ${abi}\n`);
    }
  });

  it('a malformed entry.json (not JSON, the wrong shape, facts: null) is not a hit: -v says why, the run checks again and rewrites it', async () => {
    const cfg = join(home, 'malformed.toml');
    writeFileSync(cfg, text());
    const cat = ['/usr/bin/cat', join(home, 'p', 'note')];
    assert.equal((await run(cfg, cat)).status, 0);
    const tampers: readonly (readonly [string, (e: Record<string, unknown>) => string, RegExp])[] = [
      ['not JSON', (e) => JSON.stringify(e).slice(0, 40), /entry\.json is not JSON/],
      [
        'facts: null',
        (e) => JSON.stringify({ ...e, facts: null }),
        /entry\.json is not an entry this boxwright wrote: facts is not an object/,
      ],
      [
        'facts.lookups: a string',
        (e) => JSON.stringify({ ...e, facts: { ...(e['facts'] as object), lookups: 'x' } }),
        /facts\.lookups is not a list/,
      ],
      [
        'a lookup of an unknown kind',
        (e) => JSON.stringify({ ...e, facts: { ...(e['facts'] as object), lookups: [['/usr', { kind: 'weird' }]] } }),
        /an unknown kind "weird"/,
      ],
      ['files: a list', (e) => JSON.stringify({ ...e, files: [] }), /files is not an object/],
      ['principals: a string', (e) => JSON.stringify({ ...e, principals: 'agent' }), /principals is not a list of ids/],
      [
        'a stamp without ctime',
        (e) => JSON.stringify({ ...e, files: { ...(e['files'] as object), 'agent.run': { ino: 1, size: 1, mtimeMs: 1 } } }),
        /files\.agent\.run is not a stamp/,
      ],
      [
        'a file left out of files',
        (e) =>
          JSON.stringify({
            ...e,
            files: Object.fromEntries(Object.entries(e['files'] as object).filter(([n]) => n !== 'agent.bwrap.args')),
          }),
        /are not the ones its entry\.json names/,
      ],
      ['another format', (e) => JSON.stringify({ ...e, format: 1 }), new RegExp(`format 1, not ${ENTRY_FORMAT}`)],
    ];
    for (const [what, tamper, why] of tampers) {
      const dir = entryOf(cfg)!;
      assert.ok(dir, `${what}: an entry to tamper`);
      const file = join(dir, 'entry.json');
      writeFileSync(file, tamper(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>));
      const r = await run(cfg, cat);
      assert.equal(r.status, 0, `${what}: ${r.stderr}`);
      assert.match(r.stderr, new RegExp(`the cached sandbox is not used: .*${why.source}.*; checking the config`), what);
      assert.doesNotMatch(r.stderr, CACHED, what);
      const again = await run(cfg, cat);
      assert.match(again.stderr, CACHED, `${what}: the entry was rewritten`);
      assert.equal(again.stdout, 'hello\n');
    }
  });

  it("a file added beside the entry's files is not a hit", async () => {
    const cfg = join(home, 'extra.toml');
    writeFileSync(cfg, text());
    assert.equal((await run(cfg, ['/usr/bin/cat', join(home, 'p', 'note')])).status, 0);
    writeFileSync(join(entryOf(cfg)!, 'agent.extra'), 'x', { mode: 0o600 });
    const r = await run(cfg, ['/usr/bin/cat', join(home, 'p', 'note')]);
    assert.match(r.stderr, /the cached sandbox is not used: the files in .* are not the ones its entry\.json names/);
    assert.match((await run(cfg, ['/usr/bin/cat', join(home, 'p', 'note')])).stderr, CACHED, 'rewritten');
  });

  it('a tampered <stem>.launch (Landlock turned off in it) is not used: checked again, Landlock applies, rewritten', async () => {
    const cfg = join(home, 'launch.toml');
    writeFileSync(cfg, text());
    // ls is in the view (/usr) but not an exec grant: Landlock refuses to execute it from dash.
    const m = marker();
    const lsThenMark = ['/usr/bin/dash', '-c', `/usr/bin/ls / >/dev/null && echo ran > ${m}`];
    assert.equal((await run(cfg, ['/usr/bin/cat', join(home, 'p', 'note')])).status, 0);
    const launch = join(entryOf(cfg)!, 'agent.launch');
    const bytes = readFileSync(launch, 'latin1');
    assert.ok(bytes.includes('landlock\0agent.landlock\0'), 'the launch file names the Landlock rules');
    writeFileSync(launch, bytes.replace('landlock\0agent.landlock\0', 'landlock\0none\0'), 'latin1');
    const r = await run(cfg, lsThenMark);
    assert.match(r.stderr, /the cached sandbox is not used: agent\.launch changed since it was written/);
    assert.notEqual(r.status, 0);
    assert.ok(!existsSync(m), 'the tampered launch file (no Landlock) was never run');
    assert.ok(readFileSync(join(entryOf(cfg)!, 'agent.launch'), 'latin1').includes('landlock\0agent.landlock\0'), 'rewritten');
    assert.match((await run(cfg, ['/usr/bin/cat', join(home, 'p', 'note')])).stderr, CACHED);
  });

  it('a replaced <stem>.run (the launcher) is not run: checked again, rewritten', async () => {
    const cfg = join(home, 'launcher.toml');
    writeFileSync(cfg, text());
    assert.equal((await run(cfg, ['/usr/bin/cat', join(home, 'p', 'note')])).status, 0);
    const pwned = join(home, 'pwned');
    const launcher = join(entryOf(cfg)!, 'agent.run');
    writeFileSync(launcher, `#!/bin/sh\necho pwned > ${pwned}\n`);
    chmodSync(launcher, 0o700);
    const r = await run(cfg, ['/usr/bin/cat', join(home, 'p', 'note')]);
    assert.match(r.stderr, /the cached sandbox is not used: agent\.run changed since it was written/);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'hello\n');
    assert.ok(!existsSync(pwned), 'the replaced launcher never ran');
    assert.match((await run(cfg, ['/usr/bin/cat', join(home, 'p', 'note')])).stderr, CACHED, 'rewritten');
    assert.ok(!existsSync(pwned));
  });

  it('an entry made for another boxwright version is not used, and is rewritten', async () => {
    const cfg = join(home, 'version.toml');
    writeFileSync(cfg, text());
    assert.equal((await run(cfg, ['/usr/bin/cat', join(home, 'p', 'note')])).status, 0);
    const file = join(entryOf(cfg)!, 'entry.json');
    const e = JSON.parse(readFileSync(file, 'utf8')) as Entry;
    writeFileSync(file, JSON.stringify({ ...e, inputs: { ...e.inputs, version: '0.0.0-another' } }));
    const r = await run(cfg, ['/usr/bin/cat', join(home, 'p', 'note')]);
    assert.match(r.stderr, /the cached sandbox is not used: the entry was made for other inputs/);
    assert.match((await run(cfg, ['/usr/bin/cat', join(home, 'p', 'note')])).stderr, CACHED, 'rewritten');
  });

  it('a run with other options (--landlock off, another --home) never reuses the entry of another', async () => {
    const cfg = join(home, 'options.toml');
    writeFileSync(cfg, text());
    const ls = ['/usr/bin/ls', '/usr'];
    const off = ['--home', home, '--landlock', 'off'];
    assert.equal((await run(cfg, ['/usr/bin/cat', join(home, 'p', 'note')])).status, 0);
    assert.match((await run(cfg, ['/usr/bin/cat', join(home, 'p', 'note')])).stderr, CACHED);
    // ls: in the view, not an exec grant: only --landlock off lets it run.
    const first = await run(cfg, ls, {}, off);
    assert.equal(first.status, 0, first.stderr);
    assert.doesNotMatch(first.stderr, CACHED, '--landlock off is its own entry');
    assert.match((await run(cfg, ls, {}, off)).stderr, CACHED);
    const on = await run(cfg, ls);
    assert.equal(on.status, 126, `with Landlock, ls is not executable: the --landlock off entry was not used: ${on.stderr}`);
    // Another home: the config's ~/p is another directory.
    const other = join(home, 'other-home');
    mkdirSync(join(other, 'p', 'out'), { recursive: true });
    writeFileSync(join(other, 'p', 'note'), 'the other home\n');
    writeFileSync(join(other, 'p', 'secret'), 'x\n');
    const there = await run(cfg, ['/usr/bin/cat', join(other, 'p', 'note')], {}, ['--home', other]);
    assert.equal(there.status, 0, there.stderr);
    assert.equal(there.stdout, 'the other home\n');
    assert.doesNotMatch(there.stderr, CACHED, 'another --home is its own entry');
    const here = await run(cfg, ['/usr/bin/cat', join(other, 'p', 'note')]);
    assert.notEqual(here.status, 0, "the first home's sandbox holds no other-home/p");
    assert.match(here.stderr, CACHED);
  });
});

describe('the cache key: every option that reaches the compile', () => {
  const req: RunRequest = {
    config: '/c.toml',
    principal: 'agent',
    command: ['true'],
    passEnv: [],
    passFds: [],
    verbose: false,
    fs: undefined,
    home: '/h',
    dialect: undefined,
    worktree: undefined,
    tybaDataDir: undefined,
    agentDirs: [],
    gatewaySocket: undefined,
    landlock: true,
    bwrap: undefined,
  };
  it('changes with each of them, and with the config, the bubblewrap resolved and the version; not with the command, -v, --pass-env or --pass-fd', () => {
    const key = (r: RunRequest, sha = 'a'.repeat(64), bwrap = '/usr/bin/bwrap'): string => cacheKey(cacheInputs(r, sha, bwrap));
    const base = key(req);
    const others: Partial<RunRequest>[] = [
      { config: '/d.toml' },
      { home: '/g' },
      { dialect: 'tyba' },
      { worktree: '/w' },
      { tybaDataDir: '/t' },
      { agentDirs: ['/a'] },
      { gatewaySocket: '/g.sock' },
      { landlock: false },
    ];
    const keys = new Set([
      base,
      key(req, 'b'.repeat(64)),
      key(req, 'a'.repeat(64), '/opt/bwrap'),
      ...others.map((o) => key({ ...req, ...o })),
    ]);
    assert.equal(keys.size, 3 + others.length, "each option, the config's digest and the bubblewrap give their own key");
    for (const same of [{ command: ['false'] }, { verbose: true }, { passEnv: ['X'] }, { passFds: [5] }, { principal: 'tool.x' }])
      assert.equal(key({ ...req, ...same }), base, JSON.stringify(same));
    const inputs = cacheInputs(req, 'a'.repeat(64), '/usr/bin/bwrap');
    assert.notEqual(cacheKey({ ...inputs, version: `${inputs.version}-other` }), base, 'the version is part of the key');
    assert.notEqual(cacheKey({ ...inputs, boxwright: '/elsewhere' }), base, "boxwright's package directory is part of the key");
  });

  it('entryProblem accepts what writeEntry writes and names what is wrong with anything else', () => {
    const good: Entry = {
      format: ENTRY_FORMAT,
      inputs: cacheInputs(req, 'a'.repeat(64), '/usr/bin/bwrap'),
      worktree: null,
      principals: ['agent'],
      facts: {
        lookups: [
          ['/usr', { kind: 'dir' }],
          ['/l', { kind: 'symlink', target: '/x' }],
        ],
        executable: [['/usr/bin/true', 'yes']],
        landlockAbi: 6,
        children: [['/p', [{ name: '.git', dir: true }]]],
        texts: [['/p/.git', null]],
      },
      files: { 'agent.run': { ino: 1, size: 2, mtimeMs: 3.5, ctimeMs: 4 } },
    };
    assert.equal(entryProblem(JSON.parse(JSON.stringify(good))), undefined);
    assert.match(entryProblem(null)!, /not an object/);
    assert.match(entryProblem({ ...good, facts: null })!, /facts is not an object/);
    assert.match(
      entryProblem({ ...good, facts: { ...good.facts, lookups: [['/l', { kind: 'symlink' }]] } })!,
      /a symlink without a target/,
    );
    assert.match(entryProblem({ ...good, facts: { ...good.facts, executable: [['/x', 'maybe']] } })!, /facts\.executable/);
    assert.match(entryProblem({ ...good, facts: { ...good.facts, landlockAbi: -1 } })!, /landlockAbi/);
    assert.match(entryProblem({ ...good, facts: { ...good.facts, sockets: { scopes: '/' } } })!, /facts\.sockets/);
    assert.match(entryProblem({ ...good, inputs: { ...good.inputs, extra: 1 } })!, /inputs is not the key/);
    assert.match(entryProblem({ ...good, worktree: 5 })!, /worktree/);
    assert.match(entryProblem({ ...good, files: { '../x': good.files['agent.run'] } })!, /not a file of the entry/);
    assert.match(entryProblem({ ...good, facts: { ...good.facts, children: [['/p', [{ name: '.git' }]]] } })!, /facts\.children/);
    assert.match(entryProblem({ ...good, facts: { ...good.facts, texts: [['/p/.git', 3]] } })!, /facts\.texts/);
  });
});

describe('run cache: the artifacts are asked too, not only the model', () => {
  // What a workload could do if a plan gave more than the model's cells say:
  // a writable bind of the cache (or above or below it) in any principal's
  // plan means no entry, whatever the cells say.
  it("a writable bind of the cache, of a directory above it or below it in a principal's plan: no entry; a read-only one, or none: cacheable", async () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'boxwright-cache-argv-')));
    const saved = process.env['XDG_CACHE_HOME'];
    try {
      process.env['XDG_CACHE_HOME'] = join(home, 'cache');
      mkdirSync(join(home, 'cache', 'boxwright', 'run'), { recursive: true });
      const { configReader } = await import('../../app/cli/options.js');
      const { compileConfig } = await import('../../app/cli/compile.js');
      const { cacheRefusal, writableNear } = await import('../../targets/linux/run/runner.js');
      const reader = configReader({ fs: 'host', home });
      const check = reader.check(Buffer.from('[agent.filesystem]\nread = ["/usr"]\nexec = ["/usr/bin/true"]\n'), 'c.toml');
      const outcome = await compileConfig(check, 'linux', {});
      assert.ok(outcome.ok);
      assert.equal(await cacheRefusal(outcome), undefined, 'a config that mounts nothing of the cache is cacheable');
      const root = join(home, 'cache', 'boxwright');
      // What cacheRefusal asks of each principal's plan: a writable bind at, above or below the cache.
      const bind = (path: string, write: boolean) => [{ kind: 'bind' as const, path, write }];
      for (const path of [root, join(home, 'cache'), join(root, 'run')]) {
        assert.match(
          writableNear(root, 'agent', bind(path, true))!,
          new RegExp(`agent's mounts make ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} writable, which holds the cache`),
          path,
        );
        assert.equal(writableNear(root, 'agent', bind(path, false)), undefined, `--ro-bind ${path}`);
      }
      assert.equal(writableNear(root, 'agent', bind(join(home, 'elsewhere'), true)), undefined, 'a writable bind beside the cache');
    } finally {
      if (saved === undefined) delete process.env['XDG_CACHE_HOME'];
      else process.env['XDG_CACHE_HOME'] = saved;
      rmSync(home, { recursive: true, force: true });
    }
  });
});
