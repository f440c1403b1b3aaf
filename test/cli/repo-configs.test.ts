// Which other sandbox configs `compile --out` asks (app/cli/repo-configs.ts):
// inside a git work tree, every one below its top; outside one, those beside
// the config in its own directory only (a config kept in the home must not
// have the whole home searched, nor be refused past the limit).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { repositoryConfigs } from '../../app/cli/repo-configs.js';
import { workTreeRoot } from '../../app/cli/work-tree.js';
import { requireOrSkip } from '../helpers.js';

/** A repository's `.git` as `git init` leaves it, without running git: HEAD, objects, refs. */
function gitDir(repo: string): void {
  for (const d of ['.git/objects', '.git/refs']) mkdirSync(join(repo, d), { recursive: true });
  writeFileSync(join(repo, '.git', 'HEAD'), 'ref: refs/heads/main\n');
}

const config = '[agent.filesystem]\nread = ["~/p"]\n';

describe('the other configs compile --out asks', () => {
  const dir = mkdtempSync(join(tmpdir(), 'boxwright-repo-configs-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('in a work tree: every sandbox config below its top, not in .git or node_modules, no other TOML', () => {
    const repo = join(dir, 'repo');
    for (const d of ['a/b', 'node_modules/x']) mkdirSync(join(repo, d), { recursive: true });
    gitDir(repo);
    for (const f of ['self.toml', 'a/b/other.toml', 'node_modules/x/dep.toml', '.git/in-git.toml']) writeFileSync(join(repo, f), config);
    writeFileSync(join(repo, 'a', 'pyproject.toml'), '[project]\nname = "x"\n');
    const found = repositoryConfigs(join(repo, 'self.toml'), join(repo, 'self.toml'));
    assert.deepEqual(found, { root: repo, configs: [join(repo, 'a', 'b', 'other.toml')] });
  });

  it('outside one: the configs beside it, not those below its directory', () => {
    const home = join(dir, 'home');
    mkdirSync(join(home, 'deep'), { recursive: true });
    for (const f of ['agent.toml', 'beside.toml', 'deep/below.toml']) writeFileSync(join(home, f), config);
    const found = repositoryConfigs(join(home, 'agent.toml'), join(home, 'agent.toml'));
    assert.deepEqual(found, { root: home, configs: [join(home, 'beside.toml')] });
  });

  it("an empty .git is no repository (Codex's mount point in a writable root, or a workload's): the configs beside it only", () => {
    const shared = join(dir, 'shared');
    mkdirSync(join(shared, '.git'), { recursive: true });
    mkdirSync(join(shared, 'project', 'deep'), { recursive: true });
    for (const f of ['elsewhere.toml', 'project/agent.toml', 'project/beside.toml', 'project/deep/below.toml'])
      writeFileSync(join(shared, f), config);
    const found = repositoryConfigs(join(shared, 'project', 'agent.toml'), join(shared, 'project', 'agent.toml'));
    assert.deepEqual(found, { root: join(shared, 'project'), configs: [join(shared, 'project', 'beside.toml')] });
  });

  it('the work tree is where git says it is (git rev-parse --show-toplevel): a repository, a linked work tree, an empty .git', (t) => {
    const skip = requireOrSkip(spawnSync('git', ['--version']).status === 0, 'git', 'apt-get install git');
    if (skip) return t.skip(skip);
    const git = (cwd: string, ...args: string[]) =>
      spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CEILING_DIRECTORIES: dir } });
    const repo = join(dir, 'oracle', 'repo');
    mkdirSync(join(repo, 'sub'), { recursive: true });
    assert.equal(git(repo, 'init', '-q').status, 0);
    assert.equal(git(repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'x').status, 0);
    const linked = join(dir, 'oracle', 'linked');
    assert.equal(git(repo, 'worktree', 'add', '-q', linked).status, 0);
    const empty = join(dir, 'oracle', 'empty');
    mkdirSync(join(empty, '.git'), { recursive: true });
    mkdirSync(join(empty, 'sub'), { recursive: true });
    for (const at of [join(repo, 'sub'), linked, join(empty, 'sub')]) {
      const top = git(at, 'rev-parse', '--show-toplevel');
      assert.equal(workTreeRoot(at), top.status === 0 ? top.stdout.trim() : undefined, at);
    }
  });
});
