// `boxwright learn` on real programs nobody here wrote: git, node, Debian's
// python3, make with gcc. Each learns a config without changing the host
// (the tree is the same before and after, byte for byte and inode for
// inode), `boxwright run` under that config then succeeds, and the config
// holds every guarantee (support.ts: assertLearned) against what the real
// run wrote. Needs bubblewrap and strace (CI fails without them).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { requireOrSkip } from '../helpers.js';
import { boxwright, onPath, type Outcome } from '../linux/support.js';
import { assertLearned, changes, checkLearnedText, directoriesToCreate, skipLearn, snapshot, writtenBy } from './support.js';

const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : undefined;
const skip =
  skipLearn ??
  requireOrSkip(!!onPath('git'), 'git') ??
  requireOrSkip(!!onPath('make') && !!onPath('cc'), 'make and a C compiler') ??
  requireOrSkip(!!python, "Debian's /usr/bin/python3");

let lab = '';
/** Each program's own home (lab/NAME), so that the tests can run side by side and each see only its own tree change. */
const homeOf = (name: string): string => {
  const h = join(lab, name);
  mkdirSync(join(h, '.ssh'), { recursive: true });
  writeFileSync(join(h, '.ssh', 'id_ed25519'), 'PRIVATE KEY\n');
  writeFileSync(join(h, '.gitconfig'), '[init]\n\tdefaultBranch = main\n');
  return h;
};
const git = (home: string, cwd: string, ...args: string[]): string => {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1' } });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};
const cli = (args: readonly string[], cwd: string, home: string): Promise<Outcome> => boxwright(args, { cwd, env: { HOME: home } });

/**
 * Learns CMD in `workspace` into a fresh config, with the host unchanged;
 * then runs it for real under the config and checks the config against
 * what that run wrote. Returns the real run's outcome.
 */
async function learnThenRun(
  home: string,
  workspace: string,
  cmd: readonly string[],
): Promise<{ learned: Outcome; run: Outcome; text: string }> {
  const config = join(lab, 'configs', `${home.slice(lab.length + 1)}.toml`);
  const hostBefore = snapshot(home);
  const learned = await cli(['learn', '--out', config, '--', ...cmd], workspace, home);
  assert.equal(learned.status, 0, `learn ${cmd.join(' ')}:\n${learned.stderr}\n${learned.stdout}`);
  assert.deepEqual(changes(hostBefore, snapshot(home)), [], 'learn changed the host');
  const text = readFileSync(config, 'utf8');
  // What learn asks the user to do before the run: make the directories the run made (the grants name them, not their parents).
  for (const dir of directoriesToCreate(text)) mkdirSync(dir, { recursive: true });
  const runBefore = snapshot(home);
  const run = await cli(['run', config, '--', ...cmd], workspace, home);
  assert.equal(run.status, 0, `run under the learned config:\n${run.stderr}\n--- the config:\n${text}`);
  const written = writtenBy(runBefore, snapshot(home));
  const problems = assertLearned(checkLearnedText(config, text, home, workspace), { home, workspace, written, text });
  assert.deepEqual(problems, [], `the config learned from ${cmd.join(' ')}:\n${text}`);
  return { learned, run, text };
}

describe('boxwright learn on real programs', { skip, concurrency: 4 }, () => {
  before(() => {
    lab = mkdtempSync(join(tmpdir(), 'boxwright-learn-'));
    mkdirSync(join(lab, 'configs'), { recursive: true });
  });
  after(() => rmSync(lab, { recursive: true, force: true }));

  it('git commit in a repository', async () => {
    const home = homeOf('git');
    const repo = join(home, 'repo');
    mkdirSync(repo);
    git(home, repo, 'init', '-q');
    git(home, repo, 'config', 'user.name', 'Learner');
    git(home, repo, 'config', 'user.email', 'learner@example.invalid');
    writeFileSync(join(repo, 'README'), 'one\n');
    git(home, repo, 'add', 'README');
    git(home, repo, 'commit', '-qm', 'first');
    writeFileSync(join(repo, 'NOTES'), 'two\n');
    git(home, repo, 'add', 'NOTES');
    const head = git(home, repo, 'rev-parse', 'HEAD');
    const { text } = await learnThenRun(home, repo, ['git', 'commit', '-qm', 'learned']);
    assert.notEqual(git(home, repo, 'rev-parse', 'HEAD'), head, 'the real run committed');
    assert.match(text, /^exec = \[\n {2}"\/usr\/bin\/git",/m);
    assert.ok(!text.includes('.ssh"'), 'nothing of ~/.ssh');
    assert.match(
      text,
      /^write = \[\n(?: {2}.*\n)*? {2}"~\/repo\/\.git[^"]*",\s+#.*host-trusted \(version-control metadata/m,
      "the commit's writes of .git, flagged as host-trusted",
    );
  });

  it('node running a script that reads its project and writes out/', async () => {
    const home = homeOf('node');
    const proj = join(home, 'web');
    mkdirSync(join(proj, 'src', 'lib'), { recursive: true });
    mkdirSync(join(proj, 'data'));
    mkdirSync(join(proj, 'out'));
    writeFileSync(join(proj, 'package.json'), '{"name":"web"}\n');
    writeFileSync(join(proj, '.env'), 'TOKEN=never-read\n');
    writeFileSync(join(proj, 'data', 'input.json'), '{"values":[1,2,3]}');
    writeFileSync(join(proj, 'src', 'lib', 'sum.js'), 'exports.sum = (v) => v.reduce((a, b) => a + b, 0);\n');
    writeFileSync(
      join(proj, 'src', 'main.js'),
      "const fs = require('fs'); const { sum } = require('./lib/sum.js');\nconst v = JSON.parse(fs.readFileSync('data/input.json', 'utf8')).values;\nfs.writeFileSync('out/result.json', JSON.stringify({ total: sum(v) }));\n",
    );
    // --jitless: the sandbox's filter refuses V8's JIT its writable-executable memory (exec-memory).
    const { text } = await learnThenRun(home, proj, [process.execPath, '--jitless', 'src/main.js']);
    assert.equal(readFileSync(join(proj, 'out', 'result.json'), 'utf8'), '{"total":6}');
    assert.match(text, /^write = \[\n {2}"~\/web\/out",/m, 'out/ exactly: the only directory written');
    assert.ok(!/"~\/web",/.test(text) && !text.includes('.env"'), 'neither the project itself nor its .env');
  });

  it("Debian's python3 running a script that imports the standard library and its own package", async () => {
    const home = homeOf('python');
    const proj = join(home, 'py');
    mkdirSync(join(proj, 'pkg'), { recursive: true });
    writeFileSync(join(proj, 'pkg', '__init__.py'), '');
    writeFileSync(join(proj, 'pkg', 'util.py'), 'def total(d):\n    return sum(d["v"])\n');
    writeFileSync(join(proj, 'data.json'), '{"v": [4, 5]}');
    writeFileSync(
      join(proj, 'main.py'),
      'import json, os, re, pathlib, hashlib, collections, datetime\nfrom pkg import util\nprint(util.total(json.loads(pathlib.Path("data.json").read_text())), hashlib.sha256(b"x").hexdigest()[:6])\n',
    );
    const { run, text } = await learnThenRun(home, proj, [python!, 'main.py']);
    assert.equal(run.stdout, '9 2d7116\n');
    assert.ok(
      readdirSync(join(proj, 'pkg', '__pycache__')).some((f) => f.startsWith('util.cpython-')),
      'the real run wrote its bytecode in the directory made before it',
    );
    assert.match(text, /^write = \[\n {2}"~\/py\/pkg\/__pycache__",/m, 'write on the bytecode directory the run made, not on pkg/');
    assert.ok(!/"~\/py\/pkg",/.test(text), 'nothing of pkg/ itself');
    assert.match(text, /"\/usr\/lib\/python3\.\d+",/, 'the standard library, collapsed into its package directory');
  });

  it("Python's tempfile: the learned config has private_tmp = true and no grant of the host's /tmp, and the run does the same job", async () => {
    const home = homeOf('tempfile');
    const proj = join(home, 'tf');
    mkdirSync(proj);
    const script =
      'import tempfile, os\nwith tempfile.NamedTemporaryFile("w", delete=False) as f:\n    f.write("42")\nprint(open(f.name).read(), os.path.dirname(f.name))\nos.unlink(f.name)';
    const hostTmp = new Set(readdirSync('/tmp'));
    const { learned, run, text } = await learnThenRun(home, proj, [python!, '-c', script]);
    assert.equal(run.stdout, '42 /tmp\n', 'tempfile made its file in /tmp (TMPDIR=/tmp), the private one');
    assert.match(text, /^private_tmp = true {2}#/m);
    assert.ok(!/"\/tmp[/"]/.test(text) && !/"\/var\/tmp/.test(text), `no grant of a host temp directory:\n${text}`);
    assert.ok(!/shared-temp-write/.test(learned.stdout), "learn's own lint has nothing to say of /tmp");
    const leftover = readdirSync('/tmp').filter((n) => !hostTmp.has(n) && /^tmp/.test(n));
    assert.deepEqual(leftover, [], "neither run left a tempfile file in the host's /tmp");
  });

  it('make with gcc', async () => {
    const home = homeOf('make');
    const proj = join(home, 'c');
    mkdirSync(proj);
    writeFileSync(join(proj, 'greet.h'), '#define GREETING "hello"\n');
    writeFileSync(join(proj, 'hello.c'), '#include <stdio.h>\n#include "greet.h"\nint main(void) { puts(GREETING); return 0; }\n');
    writeFileSync(join(proj, 'Makefile'), 'hello: hello.c greet.h\n\tcc -O2 -o hello hello.c\n');
    await learnThenRun(home, proj, ['make']);
    assert.equal(spawnSync(join(proj, 'hello'), { encoding: 'utf8' }).stdout, 'hello\n');
  });
});
