// Issue 34, "Done when" 2: learned configs are least privilege by
// construction, on real programs under real bubblewrap and strace. For a
// Python program (a local import, tempfile, reads across a project that
// keeps a .env), `npm test` of a small package, and make with gcc, each
// learned config is checked through the model's cells (the check pipeline,
// app/check.ts), not only for having been written:
// - no secret is readable (the project's .env, the home's ~/.ssh key and
//   ~/.npmrc), on Linux or macOS;
// - no write on a host temp directory (/tmp, /var/tmp, /dev/shm);
// - no write on the directory a cache directory was made in (python's
//   __pycache__, npm's ~/.npm): the grant names the cache directory;
// - not INCOMPLETE;
// then `boxwright run` under it does the same job as the program run
// directly (the same output, the same files). The lab is outside the
// temp directories (the repository's ignored tmp/), so that a grant of
// /tmp is not refused for the wrong reason (a home under /tmp).
import assert from 'node:assert/strict';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CheckedPolicy } from '../../app/check.js';
import { sandboxEnv } from '../../targets/run/env.js';
import { repoRoot, requireOrSkip } from '../helpers.js';
import { boxwright, onPath, type Outcome } from '../linux/support.js';
import { assertLearned, changes, checkLearnedText, directoriesToCreate, skipLearn, snapshot, writtenBy } from './support.js';

const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : undefined;
const npm = onPath('npm');
const skip =
  skipLearn ??
  requireOrSkip(!!python, "Debian's /usr/bin/python3") ??
  requireOrSkip(!!npm, 'npm (apt-get install npm)') ??
  requireOrSkip(!!onPath('make') && !!onPath('cc'), 'make and a C compiler');

let lab = '';

interface Case {
  readonly name: string;
  /** The project's files, relative to it. */
  readonly files: Readonly<Record<string, string>>;
  readonly cmd: readonly string[];
  /** What the program is given beyond the test's environment (passed into the sandbox with --pass-env). */
  readonly env?: Readonly<Record<string, string>>;
}

interface Learned {
  readonly home: string;
  readonly proj: string;
  readonly text: string;
  readonly review: Outcome;
  readonly checked: CheckedPolicy;
  readonly run: Outcome;
  readonly direct: Outcome;
}

/** The secrets no learned config may make readable: the project's .env, the home's key and its npm token. */
const secretsOf = (home: string, proj: string): string[] => [join(proj, '.env'), join(home, '.ssh', 'id_ed25519'), join(home, '.npmrc')];

function makeHome(root: string, c: Case): { home: string; proj: string } {
  const home = join(root, c.name);
  const proj = join(home, 'proj');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY\n');
  writeFileSync(join(home, '.npmrc'), '//registry.npmjs.org/:_authToken=home-secret\n');
  for (const [rel, content] of Object.entries(c.files)) {
    mkdirSync(dirname(join(proj, rel)), { recursive: true });
    writeFileSync(join(proj, rel), content);
  }
  return { home, proj };
}

/** Files (not directories) new or changed between two snapshots, relative to `root`, digits as N (npm's log names hold the time). */
function filesChanged(before: Map<string, string>, after: Map<string, string>, root: string): string[] {
  return changes(before, after)
    .filter((p) => existsSync(p) && !lstatSync(p).isDirectory())
    .map((p) => p.slice(root.length + 1).replace(/\d+/g, 'N'))
    .sort();
}

const envFor = (home: string, c: Case): Record<string, string | undefined> => ({ HOME: home, TMPDIR: undefined, ...c.env });
const passEnv = (c: Case): string[] => Object.keys(c.env ?? {}).flatMap((n) => ['--pass-env', n]);

/** The program run directly in a copy of the home; then learned (host unchanged), checked, and run under the learned config. */
async function learnCase(c: Case): Promise<Learned> {
  const { home, proj } = makeHome(lab, c);
  // The reference: the same tree, the program run directly, with nothing of boxwright.
  const refHome = join(lab, `${c.name}-direct`);
  cpSync(home, refHome, { recursive: true });
  const refBefore = snapshot(refHome);
  // The environment boxwright run gives the command (its allowlist, and what --pass-env passes), so that both runs are given the same.
  const refEnv = sandboxEnv({ ...process.env, ...envFor(refHome, c) }, Object.keys(c.env ?? {})).env;
  const d = spawnSync(c.cmd[0]!, c.cmd.slice(1), {
    cwd: join(refHome, 'proj'),
    encoding: 'utf8',
    env: refEnv,
  });
  assert.equal(d.status, 0, `${c.cmd.join(' ')} directly: ${d.stderr}`);
  const direct: Outcome = { status: d.status, stdout: d.stdout, stderr: d.stderr };
  const directFiles = filesChanged(refBefore, snapshot(refHome), refHome);

  const config = join(lab, 'configs', `${c.name}.toml`);
  const hostBefore = snapshot(home);
  const review = await boxwright(['learn', ...passEnv(c), '--out', config, '--', ...c.cmd], { cwd: proj, env: envFor(home, c) });
  assert.equal(review.status, 0, `learn ${c.cmd.join(' ')}:\n${review.stderr}\n${review.stdout}`);
  assert.deepEqual(changes(hostBefore, snapshot(home)), [], 'learn changed the host');
  const text = readFileSync(config, 'utf8');
  // What learn asks for before a run: the directories the run made (named by the grants, Linux binds what exists).
  // Until they are made, lint refuses the config for them, and for nothing else.
  const toCreate = directoriesToCreate(text);
  const refusals = checkLearnedText(config, text, home, proj).diagnostics.filter(
    (x) => x.severity === 'error' && x.platforms.includes('linux'),
  );
  assert.deepEqual([...new Set(refusals.map((x) => x.ruleId))], toCreate.length ? ['missing-path'] : []);
  for (const dir of toCreate) mkdirSync(dir, { recursive: true });
  const checked = checkLearnedText(config, text, home, proj);
  const runBefore = snapshot(home);
  const run = await boxwright(['run', ...passEnv(c), config, '--', ...c.cmd], { cwd: proj, env: envFor(home, c) });
  assert.equal(run.status, 0, `run under the learned config:\n${run.stderr}\n--- the config:\n${text}`);
  const runAfter = snapshot(home);
  assert.equal(run.stdout, direct.stdout, 'the same output as the program run directly');
  assert.deepEqual(filesChanged(runBefore, runAfter, home), directFiles, 'the same files as the program run directly');
  const problems = assertLearned(checked, { home, workspace: proj, written: writtenBy(runBefore, runAfter), text });
  assert.deepEqual(problems, [], `the config learned from ${c.cmd.join(' ')}:\n${text}`);
  return { home, proj, text, review, checked, run, direct };
}

const agentOf = (c: CheckedPolicy) => c.model.principals.find((p) => p.principal.id === 'agent')!;
const can = (c: CheckedPolicy, path: string, platform: 'linux' | 'macos', right: 'read' | 'write'): boolean => {
  const cell = agentOf(c).effectiveAt(path, platform);
  return cell.kind === 'access' && cell[right];
};

/** The properties every learned config here holds, read from the model's cells. */
function assertLeast(l: Learned, cacheDirs: readonly string[]): void {
  const { checked, text, home, proj } = l;
  for (const s of secretsOf(home, proj))
    for (const platform of ['linux', 'macos'] as const)
      assert.ok(!can(checked, s, platform, 'read'), `${s} is readable on ${platform}:\n${text}`);
  const temps = ['/tmp', '/var/tmp', '/dev/shm'];
  for (const t of temps)
    assert.ok(!can(checked, `${t}/boxwright-probe`, 'linux', 'write'), `a host temp directory, ${t}, is writable:\n${text}`);
  for (const dir of cacheDirs) {
    assert.ok(can(checked, `${dir}/x`, 'linux', 'write'), `the cache directory ${dir} is writable`);
    assert.ok(
      !can(checked, `${dirname(dir)}/boxwright-probe`, 'linux', 'write'),
      `write on ${dirname(dir)}, the parent of ${dir}:\n${text}`,
    );
  }
  assert.ok(!/INCOMPLETE/.test(text) && !/INCOMPLETE/.test(l.review.stdout), `INCOMPLETE without cause:\n${text}`);
}

describe('learned configs are least privilege by construction (issue 34)', { skip, concurrency: 3 }, () => {
  before(() => {
    // Not a temp directory: the repository's own (ignored) tmp/.
    mkdirSync(join(repoRoot, 'tmp'), { recursive: true });
    lab = mkdtempSync(join(repoRoot, 'tmp', 'learned-least-'));
    mkdirSync(join(lab, 'configs'));
  });
  after(() => rmSync(lab, { recursive: true, force: true }));

  it('a Python program: a local import, tempfile, reads across a project that keeps a .env', async () => {
    const l = await learnCase({
      name: 'python',
      files: {
        '.env': 'TOKEN=never-read\n',
        'sub/.env.local': 'TOKEN=never-read-either\n',
        'helpers.py': 'SCALE = 2\n',
        'pkg/__init__.py': '',
        'pkg/util.py': 'def total(v):\n    return sum(v)\n',
        'data/a.json': '[1, 2]',
        'data/b.json': '[3]',
        'data/more/c.json': '[4]',
        'sub/notes.txt': 'five\n',
        'main.py': [
          'import json, tempfile',
          'import helpers',
          'from pkg import util',
          'vals = []',
          'for p in ["data/a.json", "data/b.json", "data/more/c.json"]:',
          '    with open(p) as f:',
          '        vals += json.load(f)',
          'with tempfile.TemporaryFile() as t:',
          '    t.write(b"x"); t.seek(0); assert t.read() == b"x"',
          'with tempfile.NamedTemporaryFile("w") as n:',
          '    n.write(open("sub/notes.txt").read())',
          'print(util.total(vals) * helpers.SCALE)',
          '',
        ].join('\n'),
      },
      cmd: [python!, 'main.py'],
    });
    assert.equal(l.run.stdout, '20\n');
    const { proj, checked } = l;
    assertLeast(l, [join(proj, '__pycache__'), join(proj, 'pkg', '__pycache__')]);
    // The .env files the run did not read are kept out of the trees it needed (python lists its import directories).
    assert.ok(!can(checked, join(proj, 'sub', '.env.local'), 'linux', 'read'));
    assert.ok(can(checked, join(proj, 'data', 'more', 'c.json'), 'linux', 'read'), 'what it read is readable');
  });

  it('--check says first that the directories the run made must exist, instead of a refusal from run', async () => {
    const { home, proj } = makeHome(lab, {
      name: 'made',
      files: { 'mk.py': 'import os\nos.makedirs("cache/v", exist_ok=True)\n' },
      cmd: [],
    });
    const config = join(lab, 'configs', 'made.toml');
    const o = await boxwright(['learn', '--out', config, '--check', '--', python!, 'mk.py'], {
      cwd: proj,
      env: { HOME: home, TMPDIR: undefined },
    });
    assert.equal(o.status, 125, o.stderr);
    assert.match(
      o.stderr,
      /--check did not run: the config names a directory the run made \("~\/proj\/cache"\), which Linux binds only once it exists/,
    );
    assert.deepEqual(directoriesToCreate(readFileSync(config, 'utf8')), [join(proj, 'cache')]);
    assert.ok(!existsSync(join(proj, 'cache')), 'the host is unchanged');
  });

  it('npm test of a small package (node under the executable-memory filter: NODE_OPTIONS=--jitless)', async () => {
    const files = {
      '.env': 'NPM_TOKEN=never-read\n',
      'package.json': '{"name":"tiny","version":"1.0.0","scripts":{"test":"node test/run.js"}}\n',
      'lib/add.js': 'exports.add = (a, b) => a + b;\n',
      'test/run.js': "const { add } = require('../lib/add.js');\nif (add(2, 3) !== 5) process.exit(1);\nconsole.log('ok 1 - add');\n",
    };
    // The control: V8's JIT asks for writable-executable memory, which the sandbox's seccomp filter refuses
    // (Box's platform table, row "Executable memory"; exec-memory): node aborts, while learning as under run.
    const bare = makeHome(join(lab, 'jit'), { name: 'npm', files, cmd: [] });
    const jit = await boxwright(['learn', '--out', join(lab, 'configs', 'jit.toml'), '--', npm!, 'test'], {
      cwd: bare.proj,
      env: { HOME: bare.home, TMPDIR: undefined, NODE_OPTIONS: undefined },
    });
    assert.equal(jit.status, 133, `node under the filter without --jitless:\n${jit.stderr}`);
    assert.match(jit.stderr, /jitless/, 'learn says how to run it');

    const l = await learnCase({ name: 'npm', files, cmd: [npm!, 'test'], env: { NODE_OPTIONS: '--jitless' } });
    assert.match(l.run.stdout, /ok 1 - add/);
    assertLeast(l, [join(l.home, '.npm')]);
    // The package npm ran from, not every package beside it.
    assert.ok(can(l.checked, '/usr/lib/node_modules/npm/package.json', 'linux', 'read'));
    if (existsSync('/usr/lib/node_modules/corepack'))
      assert.ok(
        !can(l.checked, '/usr/lib/node_modules/corepack/package.json', 'linux', 'read'),
        'corepack, another package, is not readable',
      );
  });

  it('make with gcc: the review and --check agree', async () => {
    const l = await learnCase({
      name: 'make',
      files: {
        '.env': 'DEPLOY_KEY=never-read\n',
        'greet.h': '#define GREETING "hello"\n',
        'hello.c': '#include <stdio.h>\n#include "greet.h"\nint main(void) { puts(GREETING); return 0; }\n',
        // Without the shell's syntax make runs cc itself, not /bin/sh: the run needs no shell.
        Makefile: 'hello: hello.c greet.h\n\tcc -O2 -o hello hello.c\n',
      },
      cmd: ['make'],
    });
    assertLeast(l, []);
    assert.equal(spawnSync(join(l.proj, 'hello'), { encoding: 'utf8' }).stdout, 'hello\n');
    // One decision: the review says make may need /bin/sh beyond this run, not that it fails; --check passes.
    assert.doesNotMatch(l.review.stdout, /warning {2}exec-dependencies/, 'no warning that make fails when it gets to /bin/sh');
    assert.match(l.review.stdout, /beyond this run: \/usr\/bin\/make may also need the program it runs \(\/usr\/bin\/dash\)/);
    // The control: lint alone, without the run, predicts the shell (programs.json) and warns.
    const lint = await boxwright(['lint', join(lab, 'configs', 'make.toml')], { cwd: l.proj, env: { HOME: l.home } });
    assert.match(lint.stdout, /warning {2}exec-dependencies .*\/usr\/bin\/dash/);
    rmSync(join(l.proj, 'hello'));
    const again = join(lab, 'configs', 'make-check.toml');
    const checkedRun = await boxwright(['learn', '--out', again, '--check', '--', 'make'], {
      cwd: l.proj,
      env: { HOME: l.home, TMPDIR: undefined },
    });
    assert.equal(checkedRun.status, 0, checkedRun.stderr);
    assert.match(checkedRun.stdout, /Nothing that succeeded while learning failed\./, checkedRun.stdout);
    assert.doesNotMatch(checkedRun.stdout, /warning {2}exec-dependencies/);
  });
});
