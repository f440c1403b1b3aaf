// Issue 21, attacks 1-3: a workload that may write what the host runs or
// trusts after the run gets out around the sandbox.
//
// 1. Git metadata in a Box write tree: `git config core.fsmonitor …` or a
//    planted .git/hooks/pre-commit, then the host's `git status` or
//    `git commit` runs it (and moving .git away to plant a new one).
// 2. A TYBA linked worktree: its .git file rewritten to name a git
//    directory the workload made, with core.fsmonitor; the host's git in
//    the worktree (TYBA's push, fetch and merge run outside) runs it.
// 3. A config in its own write tree: run 1 rewrites it, run 2 of the same
//    command line grants more.
//
// Host-trusted paths inside a write grant are bound read-only over
// themselves (their ancestors pinned); each control runs the same attack
// under the compiled artifacts minus exactly those binds, and must get out.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, beforeEach, describe, it } from 'node:test';
import { requireOrSkip } from '../../helpers.js';
import { onPath } from '../support.js';
import { bare, compiled, hostGit, isRoot, makeLab, sandboxed, skip as skipLab, withoutOptions, type Lab } from './support.js';

const git = onPath('git');
const skip = skipLab ?? requireOrSkip(!!git, 'git');

/** The argv without the read-only binds of these host-trusted paths: the control. */
function withoutTrusted(argv: readonly string[], paths: readonly string[]): string[] {
  const out = withoutOptions(argv, (o, ops) => o === '--ro-bind' && paths.includes(ops[0]!) && ops[0] === ops[1]);
  assert.equal(argv.length - out.length, 3 * paths.length, `the artifact binds ${paths.join(', ')} read-only`);
  return out;
}

describe('hostile workload: git metadata in a Box write tree (issue 21, attack 1)', { skip, concurrency: 1 }, () => {
  let lab: Lab;
  let proj = '';
  let config = '';
  let mark = '';
  beforeEach(() => {
    lab?.cleanup();
    lab = makeLab('trusted');
    proj = join(lab.home, 'proj');
    mkdirSync(join(proj, 'sub'), { recursive: true });
    for (const dir of [proj, join(proj, 'sub')]) {
      assert.equal(hostGit(dir, ['init', '-q']).status, 0);
      writeFileSync(join(dir, 'README'), 'hello\n');
      assert.equal(hostGit(dir, ['add', 'README']).status, 0);
      assert.equal(hostGit(dir, ['commit', '-qm', 'first']).status, 0);
    }
    mark = join(lab.home, 'PWNED');
    config = lab.config(
      'c.toml',
      `[agent.filesystem]\n${lab.base.replace('read = ["/usr"]', 'read = ["/usr", "~/proj"]')}write = ["~/proj"]\nworkspace = "~/proj"\n`,
    );
  });
  after(() => lab?.cleanup());

  // The attack: a fsmonitor command and a pre-commit hook in both repositories, .git moved away (to plant a fresh one), its parent too.
  const attack = (): string =>
    [
      `for r in . sub; do git -C $r config core.fsmonitor "touch ${mark}-fsmonitor"; echo "config=$?"`,
      `printf '#!/bin/sh\\ntouch ${mark}-hook\\n' > $r/.git/hooks/pre-commit; chmod +x $r/.git/hooks/pre-commit; echo "hook=$?"; done`,
      'mv .git .git-away; echo "mv=$?"; mv sub sub-away; echo "mvsub=$?"',
      'echo changed > README; echo "tree=$?"',
    ].join('\n');

  const hostRuns = (nobody: boolean): void => {
    for (const dir of [proj, join(proj, 'sub')]) {
      hostGit(dir, ['status'], nobody);
      hostGit(dir, ['commit', '-qam', 'host commit'], nobody);
    }
  };

  for (const nobody of isRoot ? [false, true] : [false]) {
    const who = nobody ? 'as an unprivileged user' : isRoot ? 'as root' : 'as this user';
    it(`${who}: the workload writes its tree but neither .git nor the directory holding one; the host's git status and commit run nothing planted`, async () => {
      // The repositories are the workload's user's, as a user's own checkout is (the host's git runs as that user too).
      if (nobody) lab.giveToNobody();
      const r = await sandboxed(lab, config, ['sh', '-c', attack()], [], { nobody });
      assert.equal(r.status, 0, r.stderr);
      assert.doesNotMatch(r.stdout, /config=0|hook=0|mv=0|mvsub=0/, r.stdout + r.stderr);
      assert.match(r.stdout, /tree=0/, 'the rest of the write tree stays writable');
      assert.match(r.stderr, /Read-only file system/);
      assert.match(r.stderr, /Device or resource busy/);
      hostRuns(nobody);
      assert.ok(!existsSync(`${mark}-fsmonitor`) && !existsSync(`${mark}-hook`), 'no planted code ran on the host');
      assert.equal(readFileSync(join(proj, 'README'), 'utf8'), 'changed\n');
    });
  }

  it("control: without the read-only binds the planted fsmonitor and hook run at the host's next git status and commit", async () => {
    const c = await compiled(lab, config);
    const argv = withoutTrusted(c.argv, [join(proj, '.git'), join(proj, 'sub', '.git')]);
    const r = await bare({ ...c, argv }, [
      'sh',
      '-c',
      `cd ${proj} && ${attack().replace('mv .git .git-away; echo "mv=$?"; mv sub sub-away; echo "mvsub=$?"', '')}`,
    ]);
    assert.match(r.stdout, /config=0\nhook=0\nconfig=0\nhook=0/, r.stdout + r.stderr);
    hostRuns(false);
    assert.ok(existsSync(`${mark}-fsmonitor`), 'the host ran the planted fsmonitor');
    assert.ok(existsSync(`${mark}-hook`), 'the host ran the planted pre-commit hook');
  });
});

describe('hostile workload: a TYBA linked worktree (issue 21, attack 2)', { skip, concurrency: 1 }, () => {
  let lab: Lab;
  let repo = '';
  let wt = '';
  let config = '';
  let mark = '';
  const tyba = (): string[] => ['--worktree', wt];
  beforeEach(() => {
    lab?.cleanup();
    lab = makeLab('worktree');
    repo = join(lab.home, 'repo');
    wt = join(lab.home, 'wt');
    mkdirSync(repo);
    assert.equal(hostGit(repo, ['init', '-q', '-b', 'main']).status, 0);
    writeFileSync(join(repo, 'README'), 'hello\n');
    assert.equal(hostGit(repo, ['add', 'README']).status, 0);
    assert.equal(hostGit(repo, ['commit', '-qm', 'first']).status, 0);
    // As TYBA makes a session's worktree: a branch in its namespace.
    const added = hostGit(repo, ['worktree', 'add', '-q', '-b', 'tyba/session', wt]);
    assert.equal(added.status, 0, added.out);
    mark = join(lab.home, 'PWNED');
    config = lab.config('user.toml', '[sandbox]\nread_allow = ["/usr"]\n');
  });
  after(() => lab?.cleanup());

  // A git directory of the workload's, with a fsmonitor, and the worktree's .git file rewritten to name it.
  const plant = (): string =>
    [
      'mkdir -p .planted/objects .planted/refs/heads && echo "ref: refs/heads/x" > .planted/HEAD',
      `printf '[core]\\n\\tfsmonitor = touch ${mark}\\n' > .planted/config`,
      `printf 'gitdir: %s/.planted\\n' "$PWD" > .git; echo "rewrite=$?"`,
      'rm -f .git; echo "rm=$?"; mv .git .git-away; echo "mv=$?"',
    ].join('\n');

  it("the agent's commits work, on its tyba/ branch; the .git file, the repository's config and hooks and the other branches do not move", async () => {
    const script = [
      'echo change >> README && git add README && git -c user.name=agent -c user.email=agent@example.invalid commit -qm "agent commit"; echo "commit=$?"',
      `git config core.fsmonitor "touch ${mark}"; echo "config=$?"`,
      `echo x > ${repo}/.git/hooks/post-checkout; echo "hook=$?"`,
      `git update-ref refs/heads/main HEAD; echo "main=$?"`,
      `echo x > ${repo}/.git/worktrees/wt/commondir; echo "commondir=$?"`,
      // The lab lives in the host's /tmp: nothing beside the worktree and the repository is there (no pin binds a host directory of /tmp in).
      `cat ${join(lab.home, 'user.toml')} 2>/dev/null; echo "outside=$?"`,
      plant(),
    ].join('\n');
    const r = await sandboxed(lab, config, ['sh', '-c', script], tyba());
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /commit=0/, r.stdout + r.stderr);
    for (const k of ['config', 'hook', 'main', 'commondir', 'outside', 'rewrite', 'rm', 'mv'])
      assert.doesNotMatch(r.stdout, new RegExp(`${k}=0`), `${k}: ${r.stdout}${r.stderr}`);
    // The host: the agent's commit is on tyba/session, main did not move, and git in the worktree runs nothing planted.
    assert.equal(hostGit(repo, ['log', '-1', '--format=%s', 'tyba/session']).out.trim(), 'agent commit');
    assert.equal(hostGit(repo, ['log', '-1', '--format=%s', 'main']).out.trim(), 'first');
    hostGit(wt, ['status']);
    assert.ok(!existsSync(mark), 'no planted code ran on the host');
    assert.match(readFileSync(join(wt, '.git'), 'utf8'), /^gitdir: .*\/repo\/\.git\/worktrees\/wt$/m);
  });

  it("control: without the .git file's read-only bind the workload points it at its own git directory, and the host's git status runs the planted fsmonitor", async () => {
    const c = await compiled(lab, config, 'agent', tyba());
    const argv = withoutTrusted(c.argv, [join(wt, '.git')]);
    const r = await bare({ ...c, argv }, ['sh', '-c', `cd ${wt} && ${plant().split('\n').slice(0, 3).join('\n')}`]);
    assert.match(r.stdout, /rewrite=0/, r.stdout + r.stderr);
    hostGit(wt, ['status']);
    assert.ok(existsSync(mark), 'the host ran the planted fsmonitor');
  });
});

describe('hostile workload: a config in its own write tree (issue 21, attack 3)', { skip, concurrency: 1 }, () => {
  let lab: Lab;
  let proj = '';
  let config = '';
  let secret = '';
  const grants = (write: string): string =>
    `[agent.filesystem]\nread = ["/usr", "~/proj"]\nexec = ["/usr"]\nwrite = [${write}]\nworkspace = "~/proj"\n`;
  beforeEach(() => {
    lab?.cleanup();
    lab = makeLab('own-config');
    proj = join(lab.home, 'proj');
    mkdirSync(proj);
    secret = join(lab.home, 'notes', 'secret.txt');
    mkdirSync(join(lab.home, 'notes'));
    writeFileSync(secret, 'TOP SECRET');
    config = join(proj, 'sandbox.toml');
    // A repository's own sandbox config, which pre-commit and review expect it to keep.
    writeFileSync(config, grants('"~/proj"'));
  });
  after(() => lab?.cleanup());

  const rewrite = (): string =>
    `printf '%s' '${grants('"~/proj", "~/notes"').replace('read = ["/usr", "~/proj"]', 'read = ["/usr", "~/proj", "~/notes"]')}' > sandbox.toml; echo "rewrite=$?"`;
  const readSecret = `cat ${join('..', 'notes', 'secret.txt')} 2>&1; echo "[end]"`;

  it('run 1 cannot rewrite the config it runs under, so run 2 of the same command line grants no more', async () => {
    const first = await sandboxed(lab, config, ['sh', '-c', rewrite()]);
    assert.match(first.stdout, /rewrite=[1-9]/, first.stdout + first.stderr);
    assert.match(first.stderr, /Read-only file system/);
    assert.equal(readFileSync(config, 'utf8'), grants('"~/proj"'));
    const second = await sandboxed(lab, config, ['sh', '-c', readSecret]);
    assert.doesNotMatch(second.stdout, /TOP SECRET/);
  });

  it("control: without the config's read-only bind run 1 rewrites it, and run 2 reads what run 1 could not", async () => {
    const c = await compiled(lab, config);
    const argv = withoutTrusted(c.argv, [config]);
    const first = await bare({ ...c, argv }, ['sh', '-c', `cd ${proj} && ${rewrite()}`]);
    assert.match(first.stdout, /rewrite=0/, first.stdout + first.stderr);
    const second = await sandboxed(lab, config, ['sh', '-c', readSecret]);
    assert.match(second.stdout, /TOP SECRET/, second.stdout + second.stderr);
    rmSync(secret);
  });
});
