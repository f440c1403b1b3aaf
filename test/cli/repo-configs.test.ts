// Which other sandbox configs `compile --out` asks (app/cli/repo-configs.ts):
// inside a git work tree, every one below its top; outside one, those beside
// the config in its own directory only (a config kept in the home must not
// have the whole home searched, nor be refused past the limit).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { repositoryConfigs } from '../../app/cli/repo-configs.js';

const config = '[agent.filesystem]\nread = ["~/p"]\n';

describe('the other configs compile --out asks', () => {
  const dir = mkdtempSync(join(tmpdir(), 'boxwright-repo-configs-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('in a work tree: every sandbox config below its top, not in .git or node_modules, no other TOML', () => {
    const repo = join(dir, 'repo');
    for (const d of ['.git', 'a/b', 'node_modules/x']) mkdirSync(join(repo, d), { recursive: true });
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
});
