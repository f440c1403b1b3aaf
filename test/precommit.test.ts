import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
  const files = git(repoRoot, 'ls-files', '-co', '--exclude-standard').split('\n').filter((f) => f && !f.startsWith('snapshots/') && !f.startsWith('test/') && !f.startsWith('bench/'));
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
  const r = spawnSync('timeout', ['-k', '10s', `${HOOK_SECONDS}s`, 'git', '-c', 'user.email=ci@boxwright.test', '-c', 'user.name=ci', 'commit', '-m', message], { cwd, env, encoding: 'utf8' });
  const output = `${r.stdout}\n${r.stderr}`;
  assert.ok(r.status !== 124 && r.status !== 137, `git commit did not finish in ${HOOK_SECONDS} s (npm install from the registry stalled?):\n${output}`);
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
  });
});
