/**
 * `diff --git REV --fail-on widen` on a pull request that changes the JSON
 * dialects: a widened `.claude/settings.json` fails the gate, other JSON
 * (package.json) is passed over, a deleted sandbox-runtime settings file is
 * compared with what srt runs without one (its built-in defaults).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { repoRoot } from '../helpers.js';
import { cli } from '../cli-in-process.js';

const machine = join(repoRoot, 'examples', 'machine.json');
const scratch = mkdtempSync(join(tmpdir(), 'boxwright-settings-git-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '', GIT_CONFIG_NOSYSTEM: '1', HOME: scratch };
const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=ci@boxwright.test', '-c', 'user.name=ci', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
    env,
  });
/** In process (test/cli-in-process.ts), in `cwd`: git runs as the command's child, with this environment. */
const boxwright = (cwd: string, args: readonly string[]) => cli(args, { cwd, env });

describe('diff --git with sandbox-runtime and Claude Code settings', () => {
  const repo = join(scratch, 'repo');
  before(() => {
    mkdirSync(join(repo, '.claude'), { recursive: true });
    git(repo, 'init', '-q');
    copyFileSync(join(repoRoot, 'examples/settings/project/.claude/settings.json'), join(repo, '.claude', 'settings.json'));
    copyFileSync(join(repoRoot, 'examples/settings/srt-settings.json'), join(repo, 'srt-settings.json'));
    writeFileSync(join(repo, 'package.json'), '{"name": "x", "version": "1.0.0"}\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'base');
    git(repo, 'tag', 'base');
    copyFileSync(join(repoRoot, 'examples/settings/project/.claude/settings.wider.json'), join(repo, '.claude', 'settings.json'));
    writeFileSync(join(repo, 'package.json'), '{"name": "x", "version": "1.0.1"}\n');
    git(repo, 'rm', '-q', 'srt-settings.json');
  });

  it('a widened .claude/settings.json fails --fail-on widen; package.json is passed over', async () => {
    const r = await boxwright(repo, ['diff', '--fs', machine, '--worktree', '/home/dev/project', '--git', 'base', '--fail-on', 'widen']);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /^base:\.claude\/settings\.json → \.claude\/settings\.json$/m);
    assert.match(r.stdout, /linux: the agent can now read, write, execute ~\/\.aws/);
    assert.doesNotMatch(r.stdout, /package\.json/);
    assert.match(r.stderr, /\.claude\/settings\.json: what is asked for widens \(on every machine\)/);
  });
  it('a deleted srt settings file is compared with srt without one: its built-in defaults', async () => {
    const r = await boxwright(repo, ['diff', '--fs', machine, '--worktree', '/home/dev/project', '--git', 'base', 'srt-settings.json']);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /srt-settings\.json \(deleted\)/);
    // The defaults write nothing of the project's: the write grant of `.` goes.
    assert.match(r.stdout, /the agent can no longer .*write/);
  });
});
