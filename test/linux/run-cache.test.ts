// `boxwright run`'s cache and fast path under real bubblewrap (issue 15
// item 2): a repeated run reuses the compiled sandbox only while the
// config, every machine fact its check asked and every cached file are as
// they were; anything else and the run checks again — and refuses what the
// check refuses, the command never running (a marker file proves it).
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
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
  const run = (cfg: string, cmd: readonly string[], env: Record<string, string> = {}): Promise<Outcome> =>
    boxwright(['run', cfg, '--home', home, '--fs', 'host', '-v', '--', ...cmd], { env: { XDG_CACHE_HOME: cache, ...env } });
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
    const args = readFileSync(join(dir, 'agent.bwrap.args'), 'utf8').replace(`--ro-bind\0${join(home, 'p')}\0${join(home, 'p')}\0`, `--bind\0${home}\0${home}\0`);
    writeFileSync(join(dir, 'agent.bwrap.args'), args);
    const r = await run(cfg, ['/usr/bin/dash', '-c', `echo pwned > ${join(home, 'p', 'note')}`]);
    assert.match(r.stderr, /the cached sandbox is not used: agent\.bwrap\.args changed since it was written/);
    assert.notEqual(r.status, 0);
    assert.equal(readFileSync(join(home, 'p', 'note'), 'utf8'), 'hello\n', 'the tampered argv was never run');
    assert.match((await run(cfg, ['/usr/bin/cat', join(home, 'p', 'note')])).stderr, CACHED, 'the entry was rewritten');
  });

  it('a cache directory others can write is not trusted: no fast path, no entry, the command runs from a private directory', async () => {
    const shared = join(home, 'shared-cache');
    mkdirSync(join(shared, 'boxwright'), { recursive: true });
    chmodSync(join(shared, 'boxwright'), 0o777);
    for (let i = 0; i < 2; i++) {
      const r = await run(config, ['/usr/bin/cat', join(home, 'p', 'note')], { XDG_CACHE_HOME: shared });
      assert.equal(r.status, 0, r.stderr);
      assert.doesNotMatch(r.stderr, CACHED);
      assert.match(r.stderr, /no cache entry: .*can be written by others/);
    }
    assert.ok(!existsSync(join(shared, 'boxwright', 'run')));
  });

  it('a principal that may write the cache gets no entry: the command runs from a private directory', async () => {
    const cfg = join(home, 'writes-cache.toml');
    writeFileSync(cfg, '[agent.filesystem]\nread = ["/usr", "~"]\nwrite = ["~/cache"]\nexec = ["/usr/bin/cat"]\n');
    const r = await run(cfg, ['/usr/bin/cat', join(home, 'p', 'note')]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, new RegExp(`no cache entry: agent may write ${join(cache, 'boxwright')}`));
    assert.ok(!readdirSync(join(cache, 'boxwright', 'run')).some((e) => readFileSync(join(cache, 'boxwright', 'run', e, 'entry.json'), 'utf8').includes(cfg)));
  });

  it("a changed kernel fact (the Landlock ABI recorded this boot) is checked again", async () => {
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
});
