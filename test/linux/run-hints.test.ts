// What `boxwright run` says when the command is not in the view or cannot
// start, under real bubblewrap: the message names the missing file (the
// command, a link on the way, its loader), and the grants it suggests,
// added to the config as printed, make the command run. The old hint
// suggested a read of a directory whose entry is a link ("which also holds
// its libraries"): following it gave another 127, in circles.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { requireOrSkip } from '../helpers.js';
import { boxwright, bwrapAvailable, onPath, type Outcome } from './support.js';

const skip = requireOrSkip(bwrapAvailable, 'bubblewrap') ?? requireOrSkip(!!onPath('gcc'), 'gcc (a static test program)');

type Lists = Record<'read' | 'read_file' | 'exec', string[]>;

/** The grants of an "Add to [agent.filesystem]: read = […]; exec = […]" suggestion, as lists. */
function suggested(stderr: string): Partial<Lists> {
  const m = /Add to \[agent\.filesystem\]: ((?:(?:read|read_file|exec) = \[[^\]]*\](?:; )?)+)/.exec(stderr);
  assert.ok(m, `no grants suggested:\n${stderr}`);
  const out: Partial<Lists> = {};
  for (const part of m[1]!.split('; ')) {
    const [list, value] = part.split(' = ') as [keyof Lists, string];
    out[list] = JSON.parse(value) as string[];
  }
  return out;
}

describe('run: the missing file named, and grants that work as printed', { skip, concurrency: 2 }, () => {
  let home = '';
  const config = (name: string, lists: Partial<Lists>): string => {
    const p = join(home, name);
    const body = Object.entries(lists).map(([k, v]) => `${k} = [${v.map((x) => JSON.stringify(x)).join(', ')}]`);
    writeFileSync(p, `[agent.filesystem]\n${body.join('\n')}\n`);
    return p;
  };
  const add = (a: Partial<Lists>, b: Partial<Lists>): Partial<Lists> => {
    const out: Partial<Lists> = { ...a };
    for (const [k, v] of Object.entries(b) as [keyof Lists, string[]][]) out[k] = [...new Set([...(out[k] ?? []), ...v])];
    return out;
  };
  const run = (cfg: string, cmd: readonly string[], env: Record<string, string> = {}): Promise<Outcome> =>
    boxwright(['run', cfg, '--home', home, '--fs', 'host', '--', ...cmd], { env: { BOXWRIGHT_RUN_CACHE: 'off', ...env } });
  before(() => {
    home = realpathSync(mkdtempSync(join(tmpdir(), 'boxwright-hints-')));
    mkdirSync(join(home, 'nc-agents', 'real'), { recursive: true });
    mkdirSync(join(home, 'nc-agents', 'bin'));
    writeFileSync(join(home, 'tool.c'), '#include <stdio.h>\nint main(void) { puts("ran"); return 0; }\n');
    execFileSync('gcc', ['-static', '-O2', '-o', join(home, 'nc-agents', 'real', 'tool'), join(home, 'tool.c')]);
    symlinkSync('../real/tool', join(home, 'nc-agents', 'bin', 'tool'));
  });
  after(() => rmSync(home, { recursive: true, force: true }));

  it('a command whose directory entry is a link: the link and its target named; the grants printed make it run, no circle', async () => {
    const bin = join(home, 'nc-agents', 'bin');
    // What the old hint suggested: the directory alone.
    const first = { read: [bin] };
    const r1 = await run(config('a.toml', first), [join(bin, 'tool')]);
    assert.equal(r1.status, 127, r1.stderr);
    assert.match(r1.stderr, new RegExp(`resolves to ${join(home, 'nc-agents', 'real', 'tool')} through the link ${join(bin, 'tool')}`));
    const fixed = add(first, suggested(r1.stderr));
    assert.deepEqual(fixed.exec, [join(home, 'nc-agents', 'real', 'tool')]);
    const r2 = await run(config('a2.toml', fixed), [join(bin, 'tool')]);
    assert.equal(r2.status, 0, r2.stderr);
    assert.equal(r2.stdout, 'ran\n');
  });

  it('a name on PATH that the view does not hold: the same, from nothing', async () => {
    const env = { PATH: `${join(home, 'nc-agents', 'bin')}:/usr/bin:/bin` };
    const r1 = await run(config('b.toml', {}), ['tool'], env);
    assert.equal(r1.status, 127, r1.stderr);
    const fixed = suggested(r1.stderr);
    const r2 = await run(config('b2.toml', fixed), ['tool'], env);
    assert.equal(r2.status, 0, r2.stderr);
    assert.equal(r2.stdout, 'ran\n');
  });

  it('a name on PATH that is a link to a dynamically linked program: the link, the program and what it needs to start, in one suggestion', {
    skip: requireOrSkip(!!onPath('git'), 'git (Debian git)'),
  }, async () => {
    symlinkSync(realpathSync('/usr/bin/git'), join(home, 'nc-agents', 'bin', 'g'));
    const env = { PATH: `${join(home, 'nc-agents', 'bin')}:/usr/bin:/bin` };
    const r1 = await run(config('d.toml', {}), ['g', '--version'], env);
    assert.equal(r1.status, 127, r1.stderr);
    const fixed = suggested(r1.stderr);
    assert.ok(fixed.read?.includes(join(home, 'nc-agents', 'bin')), r1.stderr);
    const r2 = await run(config('d2.toml', fixed), ['g', '--version'], env);
    assert.equal(r2.status, 0, r2.stderr);
    assert.match(r2.stdout, /^git version /);
  });

  it('a dynamically linked program without its loader and libraries: 127 naming the interpreter, then what it needs; granted, it runs', {
    skip: requireOrSkip(!!onPath('git'), 'git (Debian git)'),
  }, async () => {
    const git = realpathSync('/usr/bin/git');
    const first = { exec: [git] };
    const r1 = await run(config('c.toml', first), [git, '--version']);
    assert.equal(r1.status, 127, r1.stderr);
    assert.match(r1.stderr, /its interpreter "\/lib64\/ld-linux-x86-64\.so\.2" is not/);
    assert.match(r1.stderr, /cannot start in agent's sandbox: its ELF interpreter \/lib64\/ld-linux-x86-64\.so\.2 and the libraries/);
    assert.doesNotMatch(r1.stderr, /Grant it in/);
    const r2 = await run(config('c2.toml', add(first, suggested(r1.stderr))), [git, '--version']);
    assert.equal(r2.status, 0, r2.stderr);
    assert.match(r2.stdout, /^git version /);
  });
});
