// Issue 35, attacks 1 and 2: the search for host-trusted names had a budget
// (2,000 directories, in name order) and a depth (two levels below the write
// root), and a workload could spend the one and live below the other.
//
// 1. Run 1 makes 2,100 empty directories that sort before `repo` in its
//    write tree; run 2, the same command line, could write
//    `repo/.git/config`, and the host's `git status` ran the planted
//    fsmonitor.
// 2. A repository three levels below the write root
//    (`src/github.com/org/repo`) was never searched: its `.git` was writable.
// 3. A directory the search cannot list was passed over: run 1 makes the
//    directory holding a repository unreadable (`chmod 000`), run 2 makes it
//    readable again and writes the `.git` the search could not see.
//
// The search now lists every directory of every write tree at every depth,
// or the config is refused (exit 125 from run). Each control runs the same
// attack under the compiled artifacts minus the `.git` bind the old search
// did not make, and must get out.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, beforeEach, describe, it } from 'node:test';
import { requireOrSkip } from '../../helpers.js';
import { onPath } from '../support.js';
import { bare, compiled, hostGit, isRoot, makeLab, sandboxed, skip as skipLab, withoutOptions, type Lab } from './support.js';

const git = onPath('git');
const skip = skipLab ?? requireOrSkip(!!git, 'git');

function makeRepo(dir: string): void {
  mkdirSync(dir, { recursive: true });
  assert.equal(hostGit(dir, ['init', '-q']).status, 0);
  writeFileSync(join(dir, 'README'), 'hello\n');
  assert.equal(hostGit(dir, ['add', 'README']).status, 0);
  assert.equal(hostGit(dir, ['commit', '-qm', 'first']).status, 0);
}

/** The workload's attack on a repository: a fsmonitor the host's next `git status` runs. */
const plant = (repo: string, mark: string): string => `git -C ${repo} config core.fsmonitor "touch ${mark}"; echo "config=$?"`;

/** Whether the compiled argv binds `path` read-only over itself. */
const boundReadOnly = (argv: readonly string[], path: string): boolean =>
  argv.some((a, i) => a === '--ro-bind' && argv[i + 1] === path && argv[i + 2] === path);

/** The argv without the read-only bind of `path`: what the old search compiled. */
function withoutBind(argv: readonly string[], path: string): string[] {
  const out = withoutOptions(argv, (o, ops) => o === '--ro-bind' && ops[0] === path && ops[1] === path);
  assert.equal(argv.length - out.length, 3, `the artifact binds ${path} read-only`);
  return out;
}

describe('hostile workload: the host-trust search has no budget a workload can spend (issue 35, attack 1)', {
  skip,
  concurrency: 1,
}, () => {
  let lab: Lab;
  let work = '';
  let config = '';
  let mark = '';
  beforeEach(() => {
    lab?.cleanup();
    lab = makeLab('budget');
    work = join(lab.home, 'work');
    makeRepo(join(work, 'repo'));
    mark = join(lab.home, 'PWNED');
    config = lab.config(
      'c.toml',
      `[agent.filesystem]\n${lab.base.replace('read = ["/usr"]', 'read = ["/usr", "~/work"]')}write = ["~/work"]\n`,
    );
  });
  after(() => lab?.cleanup());

  // Run 1: 2,100 directories that sort before `repo` (the old search listed 2,000, in name order).
  const spend = `cd ${'$'}1 && i=0; while [ $i -lt 2100 ]; do mkdir a$i; i=$((i+1)); done; echo "made=$?"`;

  it('run 2, after run 1 made 2,100 directories before the repository, still finds repo/.git: the fsmonitor cannot be planted', async () => {
    const r1 = await sandboxed(lab, config, ['sh', '-c', spend, 'sh', work]);
    assert.equal(r1.status, 0, r1.stderr);
    assert.match(r1.stdout, /made=0/);
    const r2 = await sandboxed(lab, config, ['sh', '-c', plant(join(work, 'repo'), mark)]);
    assert.equal(r2.status, 0, r2.stderr);
    assert.doesNotMatch(r2.stdout, /config=0/, r2.stdout + r2.stderr);
    hostGit(join(work, 'repo'), ['status']);
    assert.ok(!existsSync(mark), 'the host ran nothing planted');
    // Nothing in lint says the search stopped.
    const c = await compiled(lab, config);
    assert.ok(boundReadOnly(c.argv, join(work, 'repo', '.git')));
  });

  it("control: without repo/.git's read-only bind (what the 2,000-directory search compiled), the host's git status runs the fsmonitor", async () => {
    const r1 = await sandboxed(lab, config, ['sh', '-c', spend, 'sh', work]);
    assert.equal(r1.status, 0, r1.stderr);
    const c = await compiled(lab, config);
    const r = await bare({ ...c, argv: withoutBind(c.argv, join(work, 'repo', '.git')) }, ['sh', '-c', plant(join(work, 'repo'), mark)]);
    assert.match(r.stdout, /config=0/, r.stdout + r.stderr);
    hostGit(join(work, 'repo'), ['status']);
    assert.ok(existsSync(mark), 'the host ran the planted fsmonitor');
  });
});

describe('hostile workload: a repository at any depth of a write tree (issue 35, attack 2)', { skip, concurrency: 1 }, () => {
  let lab: Lab;
  let repo = '';
  let config = '';
  let mark = '';
  beforeEach(() => {
    lab?.cleanup();
    lab = makeLab('depth');
    repo = join(lab.home, 'src', 'github.com', 'org', 'repo');
    makeRepo(repo);
    mark = join(lab.home, 'PWNED');
    config = lab.config(
      'c.toml',
      `[agent.filesystem]\n${lab.base.replace('read = ["/usr"]', 'read = ["/usr", "~/src"]')}write = ["~/src"]\n`,
    );
  });
  after(() => lab?.cleanup());

  it('~/src/github.com/org/repo/.git, three levels below the write root, is read-only', async () => {
    const r = await sandboxed(lab, config, ['sh', '-c', `${plant(repo, mark)}; echo x > ${repo}/README; echo "tree=$?"`]);
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /config=0/, r.stdout + r.stderr);
    assert.match(r.stdout, /tree=0/, 'the rest of the tree stays writable');
    hostGit(repo, ['status']);
    assert.ok(!existsSync(mark), 'the host ran nothing planted');
  });

  it("control: without its read-only bind (the old search stopped two levels down), the host's git status runs the fsmonitor", async () => {
    const c = await compiled(lab, config);
    const r = await bare({ ...c, argv: withoutBind(c.argv, join(repo, '.git')) }, ['sh', '-c', plant(repo, mark)]);
    assert.match(r.stdout, /config=0/, r.stdout + r.stderr);
    hostGit(repo, ['status']);
    assert.ok(existsSync(mark), 'the host ran the planted fsmonitor');
  });
});

// Root lists every directory whatever its mode: only an unprivileged workload can hide one from the search.
// As root, the lab is uid 65534's; any other user is unprivileged already.
const nobody = isRoot;
describe('hostile workload: a directory the search cannot list (issue 35, attack 1)', { skip, concurrency: 1 }, () => {
  let lab: Lab;
  let work = '';
  let config = '';
  let mark = '';
  beforeEach(() => {
    lab?.cleanup();
    lab = makeLab('unlisted');
    work = join(lab.home, 'work');
    makeRepo(join(work, 'hide', 'repo'));
    mark = join(lab.home, 'PWNED');
    config = lab.config(
      'c.toml',
      `[agent.filesystem]\n${lab.base.replace('read = ["/usr"]', 'read = ["/usr", "~/work"]')}write = ["~/work"]\n`,
    );
    if (nobody) lab.giveToNobody();
  });
  after(() => lab?.cleanup());

  // Only root can make a directory another user cannot list (as any other user this case is the one below).
  it("another user's directory this one can neither list nor write (a service's private directory) is passed over: the run goes ahead", {
    skip: requireOrSkip(isRoot, 'root, to make a directory another user owns'),
  }, async () => {
    const closed = join(work, 'service-private');
    mkdirSync(closed, { mode: 0o700 });
    chmodSync(closed, 0o700);
    const r = await sandboxed(lab, config, ['sh', '-c', `ls ${closed} >/dev/null 2>&1; echo "listed=$?"`], [], { nobody });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /listed=[1-9]/, 'the workload cannot list it either');
  });

  it('run 1 makes the directory unreadable; run 2 is refused (125), never run with the repository writable', async () => {
    const r1 = await sandboxed(lab, config, ['sh', '-c', `chmod 000 ${work}/hide; echo "hid=$?"`], [], { nobody });
    assert.equal(r1.status, 0, r1.stderr);
    assert.match(r1.stdout, /hid=0/);
    const r2 = await sandboxed(lab, config, ['sh', '-c', `chmod 755 ${work}/hide; ${plant(join(work, 'hide', 'repo'), mark)}`], [], {
      nobody,
    });
    assert.equal(r2.status, 125, r2.stdout + r2.stderr);
    assert.match(r2.stderr, /could not list a directory \(.*hide\)/);
    assert.doesNotMatch(r2.stdout, /config=0/);
  });

  it('control: compiled while the directory was readable and run without its .git bind, the attack plants the fsmonitor', async () => {
    const c = await compiled(lab, config);
    const r = await bare(
      { ...c, argv: withoutBind(c.argv, join(work, 'hide', 'repo', '.git')) },
      ['sh', '-c', plant(join(work, 'hide', 'repo'), mark)],
      {
        nobody,
      },
    );
    assert.match(r.stdout, /config=0/, r.stdout + r.stderr);
    hostGit(join(work, 'hide', 'repo'), ['status'], nobody);
    assert.ok(existsSync(mark), 'the host ran the planted fsmonitor');
  });
});
