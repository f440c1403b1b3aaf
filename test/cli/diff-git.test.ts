/**
 * `boxwright diff` on real pull requests (issue 14 items 2, 3 and the diff
 * parts of 16): a real temporary git repository, a base commit, and a
 * working tree that adds, deletes and changes configs and other TOML, run
 * through bin/ as a user (or the CI example) runs it.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type CliRun, cli } from '../cli-in-process.js';
import { repoRoot } from '../helpers.js';

const machine = join(repoRoot, 'examples', 'machine.json');
const scratch = mkdtempSync(join(tmpdir(), 'boxwright-diff-git-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '', GIT_CONFIG_NOSYSTEM: '1', HOME: scratch };

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=ci@boxwright.test', '-c', 'user.name=ci', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
    env,
  });
}

/** In process (test/cli-in-process.ts), in `cwd`: git runs as the command's child, with this environment. */
const boxwright = (cwd: string, args: readonly string[]): Promise<CliRun> => cli(args, { cwd, env });

const example = (name: string): string => join(repoRoot, 'examples', name);

describe('diff --git REV on a pull request', () => {
  const repo = join(scratch, 'repo');
  before(() => {
    mkdirSync(join(repo, 'sandbox'), { recursive: true });
    git(repo, 'init', '-q');
    copyFileSync(example('coding-agent.toml'), join(repo, 'sandbox', 'old.toml'));
    copyFileSync(example('read-write-overlap.toml'), join(repo, 'sandbox', 'changed.toml'));
    copyFileSync(example('read-only-content.toml'), join(repo, 'sandbox', 'same.toml'));
    writeFileSync(join(repo, 'pyproject.toml'), '[project]\nname = "x"\n');
    writeFileSync(join(repo, 'agent-settings.toml'), '[settings]\ntheme = "dark"\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'base');
    git(repo, 'tag', 'base');
    // The pull request: a config deleted, one added and committed, one new
    // and untracked, one changed, other TOML changed (one now broken).
    git(repo, 'rm', '-q', 'sandbox/old.toml');
    copyFileSync(example('write-only.toml'), join(repo, 'sandbox', 'new.toml'));
    git(repo, 'add', 'sandbox/new.toml');
    git(repo, 'commit', '-qm', 'head');
    copyFileSync(example('direct-network.toml'), join(repo, 'sandbox', 'untracked.toml'));
    copyFileSync(example('write-only.toml'), join(repo, 'sandbox', 'changed.toml'));
    writeFileSync(join(repo, 'pyproject.toml'), '[project]\nname = "y"\n[tool.broken\n');
    writeFileSync(join(repo, 'agent-settings.toml'), '[settings]\ntheme = "light"\n');
  });

  it('every config that changed, by content: added, deleted, changed, untracked; other TOML passed over', async () => {
    const r = await boxwright(repo, ['diff', '--fs', machine, '--git', 'base', '--no-artifacts']);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.equal(r.stderr, '');
    const headers = r.stdout.split('\n').filter((l) => l.includes(' → ') && !l.startsWith(' '));
    assert.deepEqual(headers, [
      'base:sandbox/changed.toml → sandbox/changed.toml',
      'base:sandbox/new.toml (absent) → sandbox/new.toml',
      'base:sandbox/old.toml → sandbox/old.toml (deleted)',
      'base:sandbox/untracked.toml (absent) → sandbox/untracked.toml',
    ]);
    assert.doesNotMatch(r.stdout, /pyproject|agent-settings|has errors|cannot read|cannot show/);
    // A new file is a diff from nothing; a deleted one, a diff to nothing.
    assert.match(
      r.stdout,
      /base:sandbox\/new\.toml \(absent\) → sandbox\/new\.toml\nverdicts\n {2}linux: accepted → refused\nrequested \(the same on every machine\)\n {2}\+ {2}the agent now asks to write ~\/project \(— → w\)\n.*\neffective access\n {2}\+ {2}macos: the agent can now write ~\/project/,
    );
    assert.match(r.stdout, /macos, linux: the agent can no longer read ~\/project \(r → —\)/);
  });

  it('from a subdirectory, the names are relative to it and the files are found', async () => {
    const r = await boxwright(join(repo, 'sandbox'), ['diff', '--fs', machine, '--git', 'base', '--no-artifacts']);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^base:sandbox\/changed\.toml → changed\.toml$/m);
  });

  it('a named file that is new, or deleted', async () => {
    const added = await boxwright(repo, ['diff', '--fs', machine, '--git', 'base', 'sandbox/new.toml']);
    assert.equal(added.status, 0, added.stdout + added.stderr);
    assert.match(added.stdout, /^base:sandbox\/new\.toml \(absent\) → sandbox\/new\.toml$/m);
    assert.match(added.stdout, /^linux \*\nlinux: the head revision is refused: no artifacts$/m);
    assert.match(added.stdout, /^macos agent\.sb$/m, 'the artifacts of a new file are all new');
    const deleted = await boxwright(repo, ['diff', '--fs', machine, '--git', 'base', 'sandbox/old.toml', '--no-artifacts']);
    assert.equal(deleted.status, 0, deleted.stdout + deleted.stderr);
    assert.match(deleted.stdout, /^base:sandbox\/old\.toml → sandbox\/old\.toml \(deleted\)$/m);
    assert.equal(
      (await boxwright(repo, ['diff', '--fs', machine, '--git', 'base', '--fail-on', 'widen', 'sandbox/new.toml'])).status,
      1,
      'a new config widens access',
    );
  });

  it('a named file that is no config: an error whose suggestion runs', async () => {
    const r = await boxwright(repo, ['diff', '--fs', machine, '--git', 'base', 'pyproject.toml']);
    assert.equal(r.status, 1);
    assert.match(
      r.stdout,
      /base:pyproject\.toml is not a sandbox config \(no Box, TYBA, sandbox-runtime or Claude Code keys at the top level: `git show base:pyproject\.toml \| boxwright lint -` says so\); nothing to compare/,
    );
    // The suggestion's pipeline, its two halves: git's output is the command's standard input.
    const shown = git(repo, 'show', 'base:pyproject.toml');
    const suggested = await cli(['lint', '--fs', 'none', '-'], { cwd: repo, env, stdin: shown });
    assert.equal(suggested.status, 1);
    assert.match(suggested.stdout, /<stdin>:1:1 {2}error {2}schema .*not a sandbox configuration/);
  });

  it('a bad revision, or no repository: a usage error, said once, exit 2', async () => {
    const bad = await boxwright(repo, ['diff', '--git', 'no-such-branch']);
    assert.equal(bad.status, 2);
    assert.equal(
      bad.stderr,
      'boxwright diff: `no-such-branch` is not a revision of this repository (a branch, a tag or a commit: `git log` lists them)\n',
    );
    const option = await boxwright(repo, ['diff', '--git=--output=x']);
    assert.equal(option.status, 2);
    assert.match(option.stderr, /is not a revision/);
    const outside = join(scratch, 'not-a-repo');
    mkdirSync(outside, { recursive: true });
    const none = await boxwright(outside, ['diff', '--git', 'HEAD']);
    assert.equal(none.status, 2);
    assert.match(
      none.stderr,
      /^boxwright diff: `diff --git` compares with a revision of the git repository the current directory is in, and .* is not inside one\n$/,
    );
    assert.doesNotMatch(bad.stderr + none.stderr, /internal error|fatal:|Command failed/);
  });

  it('nothing changed: says so', async () => {
    const r = await boxwright(repo, ['diff', '--fs', machine, '--git', 'HEAD', 'sandbox/same.toml']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /no change in effective access, verdicts, diagnostics or artifacts/);
    const clean = join(scratch, 'clean');
    mkdirSync(clean);
    git(clean, 'init', '-q');
    writeFileSync(join(clean, 'pyproject.toml'), '[project]\n');
    git(clean, 'add', '-A');
    git(clean, 'commit', '-qm', 'x');
    unlinkSync(join(clean, 'pyproject.toml'));
    const nothing = await boxwright(clean, ['diff', '--git', 'HEAD']);
    assert.equal(nothing.status, 0, nothing.stderr);
    assert.equal(nothing.stdout, 'no sandbox config changed\n');
  });
});

describe('diff of two files: principals added and removed, argument lists', () => {
  const cfg = (name: string, text: string): string => {
    const p = join(scratch, name);
    writeFileSync(p, text);
    return p;
  };
  it('a principal added or removed: no crash, and its bubblewrap arguments as lines', async () => {
    const base = cfg('one.toml', '[agent.filesystem]\nread = ["~/project"]\n');
    const head = cfg('two.toml', '[agent.filesystem]\nread = ["~/project"]\n\n[tools.formatter.filesystem]\nread = ["~/project/src"]\n');
    for (const [b, h, sign] of [
      [base, head, '+'],
      [head, base, '-'],
    ] as const) {
      const r = await boxwright(repoRoot, ['diff', '--fs', machine, b, h]);
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.doesNotMatch(r.stdout + r.stderr, /internal error|binary tool\.formatter\.bwrap\.args/);
      assert.match(
        r.stdout,
        new RegExp(`\\nlinux tool\\.formatter\\.bwrap\\.args\\n[^]*?\\n\\${sign}--ro-bind\\n\\${sign}/home/dev/project/src\\n`),
        r.stdout,
      );
    }
  });
  it('a changed argument list is a diff of arguments, not "binary … bytes"', async () => {
    const r = await boxwright(repoRoot, [
      'diff',
      '--fs',
      machine,
      '--platform',
      'linux',
      'examples/read-write-overlap.toml',
      'examples/coding-agent.toml',
    ]);
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /binary agent\.bwrap\.args/);
    assert.match(r.stdout, /\nlinux agent\.bwrap\.args\n[^]*\n\+--ro-bind\n\+\/usr\/bin\/git\n\+\/usr\/bin\/git\n/);
    assert.match(r.stdout, /binary seccomp\.x86_64\.bpf|linux seccomp\.txt|^(?![^]*seccomp)/, 'seccomp programs stay binary');
  });
  it('under --platform linux, diagnostics name only linux', async () => {
    const head = cfg('missing.toml', '[agent.filesystem]\nread = ["~/project", "~/no-such-dir"]\n');
    const r = await boxwright(repoRoot, [
      'diff',
      '--fs',
      machine,
      '--platform',
      'linux',
      '--no-artifacts',
      'examples/read-only-content.toml',
      head,
    ]);
    assert.match(r.stdout, /\+ error missing-path \[linux\] line 2/);
    assert.doesNotMatch(r.stdout, /\[macos|windows\]|macos,|,windows/);
  });
});
