import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { repoRoot, requireOrSkip } from './helpers.js';

const hasPreCommit = spawnSync('pre-commit', ['--version']).status === 0;
const skip = requireOrSkip(hasPreCommit, 'pre-commit (Debian package pre-commit)');
const root = mkdtempSync(join(tmpdir(), 'boxwright-precommit-'));
after(() => rmSync(root, { recursive: true, force: true }));

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=ci@boxwright.test', '-c', 'user.name=ci', ...args], { cwd, encoding: 'utf8' });
}

/**
 * The hook as pre-commit installs it for a user: from a git repository
 * holding this checkout's files, through .pre-commit-hooks.yaml, with
 * `npm install`, `npm pack` and a global install of the tarball.
 */
function hookRepository(): { path: string; rev: string } {
  const path = join(root, 'boxwright');
  const files = git(repoRoot, 'ls-files', '-co', '--exclude-standard')
    .split('\n')
    .filter((f) => f && !f.startsWith('snapshots/') && !f.startsWith('test/') && !f.startsWith('bench/'));
  for (const f of files) {
    mkdirSync(dirname(join(path, f)), { recursive: true });
    try {
      cpSync(join(repoRoot, f), join(path, f));
    } catch {
      // A file deleted in the working tree but still tracked.
    }
  }
  git(path, 'init', '-q');
  git(path, 'add', '-A');
  git(path, 'commit', '-qm', 'hook under test');
  return { path, rev: git(path, 'rev-parse', 'HEAD').trim() };
}

const HOOK_SECONDS = 240;

/**
 * `git commit` in `cwd`, its hook included, under coreutils timeout: the hook
 * installs the package with npm from the registry, and a stalled registry
 * must fail the test, not hang it (spawnSync blocks the test's own timeout;
 * timeout signals the whole process group, npm included).
 */
function commit(cwd: string, env: NodeJS.ProcessEnv, message: string): { status: number | null; output: string } {
  const r = spawnSync(
    'timeout',
    ['-k', '10s', `${HOOK_SECONDS}s`, 'git', '-c', 'user.email=ci@boxwright.test', '-c', 'user.name=ci', 'commit', '-m', message],
    { cwd, env, encoding: 'utf8' },
  );
  const output = `${r.stdout}\n${r.stderr}`;
  assert.ok(
    r.status !== 124 && r.status !== 137,
    `git commit did not finish in ${HOOK_SECONDS} s (npm install from the registry stalled?):\n${output}`,
  );
  return { status: r.status, output };
}

describe('pre-commit hook, for real', { skip, timeout: 600_000 }, () => {
  it('fails a commit that adds a config a platform refuses, and lets a clean one through', () => {
    const hook = hookRepository();
    const work = join(root, 'work');
    mkdirSync(work);
    git(work, 'init', '-q');
    writeFileSync(
      join(work, '.pre-commit-config.yaml'),
      `repos:\n  - repo: ${hook.path}\n    rev: ${hook.rev}\n    hooks:\n      - id: boxwright\n        args: [--fs, none]\n`,
    );
    // The hook's npm install takes the packages npm ci just cached (pre-commit drops the
    // user's npmrc, and a registry behind a TLS proxy then stalls it without NODE_EXTRA_CA_CERTS).
    const env = { ...process.env, PRE_COMMIT_HOME: join(root, 'cache'), NO_COLOR: '1', npm_config_prefer_offline: 'true' };
    execFileSync('pre-commit', ['install'], { cwd: work, env });
    git(work, 'add', '.pre-commit-config.yaml');

    writeFileSync(join(work, 'sandbox.toml'), '[agent.filesystem]\nlist = ["~/inbox"]\n');
    git(work, 'add', 'sandbox.toml');
    const refused = commit(work, env, 'refused config');
    assert.notEqual(refused.status, 0, `the commit went through:\n${refused.output}`);
    assert.match(refused.output, /list-without-content/);
    assert.throws(() => git(work, 'rev-parse', 'HEAD'), 'no commit exists');

    writeFileSync(join(work, 'sandbox.toml'), '[agent.filesystem]\nread = ["~/project"]\n');
    git(work, 'add', 'sandbox.toml');
    const clean = commit(work, env, 'clean config');
    assert.equal(clean.status, 0, clean.output);

    // Other TOML is selected by the hook's `types_or: [toml, json]` and passed over by content (issue 14 item 19):
    // an unrelated agent-settings.toml, and a pyproject.toml that does not even parse.
    writeFileSync(join(work, 'agent-settings.toml'), '[settings]\ntheme = "dark"\n');
    writeFileSync(join(work, 'pyproject.toml'), '[project\nname = "x"\n');
    git(work, 'add', 'agent-settings.toml', 'pyproject.toml');
    const other = commit(work, env, 'other toml');
    assert.equal(other.status, 0, other.output);
    assert.doesNotMatch(other.output, /not a sandbox configuration|toml-syntax/);

    // JSON: Claude Code settings that its tool would not apply are refused; other JSON (package.json) is passed over.
    mkdirSync(join(work, '.claude'));
    writeFileSync(join(work, '.claude', 'settings.json'), '{"sandbox": {"enabled": "yes"}}\n');
    writeFileSync(join(work, 'package.json'), '{"name": "x", "version": "1.0.0"}\n');
    git(work, 'add', '.claude/settings.json', 'package.json');
    const json = commit(work, env, 'json');
    assert.notEqual(json.status, 0, json.output);
    assert.match(json.output, /\.claude\/settings\.json:1:25 {2}error {2}schema/);
    assert.doesNotMatch(json.output, /package\.json/);
    writeFileSync(join(work, '.claude', 'settings.json'), '{"sandbox": {"enabled": true}}\n');
    git(work, 'add', '.claude/settings.json');
    const enabled = commit(work, env, 'json fixed');
    assert.equal(enabled.status, 0, enabled.output);

    // Peers' own files, as repositories commit them (issue 36): a Codex config with `[mcp_servers.X.env]`, `[agents]` and
    // profiles (read as Box, it was refused: "unknown table `env`"), Cursor's sandbox.json, VS Code settings with a
    // `permissions` object, a Gemini CLI profile. Each is passed over; none is read as a boxwright dialect.
    const peers = [
      '.codex/config.toml',
      'codex-shared.toml',
      '.cursor/sandbox.json',
      '.vscode/settings.json',
      '.gemini/sandbox-macos-custom.sb',
    ];
    for (const f of peers) {
      mkdirSync(dirname(join(work, f)), { recursive: true });
      cpSync(join(repoRoot, 'test/peers/fixtures', f), join(work, f));
    }
    git(work, 'add', ...peers);
    const peerFiles = commit(work, env, "peers' files");
    assert.equal(peerFiles.status, 0, peerFiles.output);
    assert.doesNotMatch(peerFiles.output, /unknown table|did you mean|toml-syntax|json-syntax|error/);

    // A config anywhere, under any name, is still checked: a refused one in a broken TOML file too.
    mkdirSync(join(work, 'deploy'));
    writeFileSync(join(work, 'deploy', 'policy.toml'), '[agent.filesystem]\nlist = ["~/inbox"]\n');
    writeFileSync(join(work, 'broken.toml'), '[agent.filesystem\nread = ["~/project"]\n');
    git(work, 'add', 'deploy/policy.toml', 'broken.toml');
    const anywhere = commit(work, env, 'config elsewhere');
    assert.notEqual(anywhere.status, 0, anywhere.output);
    assert.match(anywhere.output, /deploy\/policy\.toml:2:9 {2}error {2}list-without-content/);
    assert.match(anywhere.output, /broken\.toml:1:\d+ {2}error {2}toml-syntax/);
  });
});

describe("the README's pre-commit snippet", () => {
  it('pins a revision that can exist: a full commit SHA or a tag of this repository (issue 14 item 19)', () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const revs = [...readme.matchAll(/^\s*rev:\s*(\S+)/gm)].map((m) => m[1]!);
    assert.ok(revs.length >= 1, 'the README shows a hook configuration');
    const tags = new Set(git(repoRoot, 'tag', '--list').split('\n').filter(Boolean));
    for (const rev of revs)
      assert.ok(/^[0-9a-f]{40}$/.test(rev) || tags.has(rev), `rev: ${rev} names no tag of this repository and is not a commit SHA`);
    const hooks = readFileSync(join(repoRoot, '.pre-commit-hooks.yaml'), 'utf8');
    assert.match(hooks, /^- id: boxwright$/m);
    assert.match(hooks, /^ {2}entry: boxwright lint --only-configs$/m);
    assert.match(hooks, /^ {2}types_or: \[toml, json\]$/m);
    assert.doesNotMatch(hooks, /^ {2}files:/m, 'configs are chosen by content, not by a name pattern');
  });
});
