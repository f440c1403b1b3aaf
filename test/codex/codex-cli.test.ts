/**
 * Codex's config.toml through lint, explain and diff (issue 39), the CLI's
 * exact output: a misspelt key with its did-you-mean, a value Codex refuses
 * at its own line, and the gate on each widening class and a narrowing.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cli } from '../cli-in-process.js';
import { repoRoot } from '../helpers.js';

const bin = join(repoRoot, 'bin', 'boxwright.cjs');
const dir = mkdtempSync(join(tmpdir(), 'bw-codex-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '', TMPDIR: '' };
/** In process (test/cli-in-process.ts); `run` through the real binary, as every run test does. */
const boxwright = (args: string[]) => cli(args, { cwd: dir, env });
function spawned(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: dir, env });
  return { status: r.status, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}
const file = (name: string, text: string): string => {
  writeFileSync(join(dir, name), text);
  return name;
};

describe('Codex config.toml: lint', () => {
  it('a misspelt key: a warning at the key, with the key Codex reads', async () => {
    const f = file('misspelt.toml', 'sandbox_mode = "workspace-write"\n[sandbox_workspace_write]\nwriteable_roots = ["/srv"]\n');
    const r = await boxwright(['lint', '--fs', 'none', '--dialect', 'codex', '--format', 'github', f]);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.equal(
      r.stdout.split('\n')[0],
      '::warning file=misspelt.toml,line=3,endLine=3,col=1,endColumn=16,title=boxwright unknown-setting [macos%2Clinux%2Cwindows]::`writeable_roots` is not a key of `[sandbox_workspace_write]`: Codex passes it over without a word, so what it says has no effect; did you mean `writable_roots`?',
    );
  });
  it('a value Codex refuses: an error at the value (Codex names the header line)', async () => {
    const f = file('bad.toml', 'default_permissions = "dev"\n[permissions.dev.filesystem]\n":root" = "read"\n"/srv" = "rw"\n');
    const r = await boxwright(['lint', '--fs', 'none', '--dialect', 'codex', '--format', 'github', f]);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.equal(
      r.stdout.split('\n')[0],
      '::error file=bad.toml,line=4,endLine=4,col=10,endColumn=14,title=boxwright schema [macos%2Clinux%2Cwindows]::`permissions.dev.filesystem."/srv"` is `rw`, which Codex refuses (it does not start): one of `read`, `write`, `none`',
    );
  });
  it('an unknown special path: a warning with the nearest one', async () => {
    const f = file('special.toml', 'default_permissions = "dev"\n[permissions.dev.filesystem]\n":rot" = "read"\n');
    const r = await boxwright(['lint', '--fs', 'none', '--dialect', 'codex', '--format', 'github', f]);
    assert.match(r.stdout, /line=3,endLine=3,col=1,.*title=boxwright unknown-setting .*did you mean `:root`\?/);
  });
});

describe('Codex config.toml: the diff gate', () => {
  const base =
    'default_permissions = "dev"\n[features]\nnetwork_proxy = true\n[permissions.dev]\nextends = ":workspace"\n[permissions.dev.filesystem]\n"~/.ssh" = "none"\n[permissions.dev.network]\nenabled = true\ndomains = { "pypi.org" = "allow" }\n';
  const gate = async (name: string, head: string): Promise<number> => {
    file('base.toml', base);
    file(name, head);
    return (
      await boxwright([
        'diff',
        '--fs',
        'host',
        '--home',
        dir,
        '--worktree',
        dir,
        '--dialect',
        'codex',
        '--fail-on',
        'widen',
        'base.toml',
        name,
      ])
    ).status;
  };
  it('fails on each widening class', async () => {
    assert.equal(
      await gate('proxy-dropped.toml', base.replace('network_proxy = true', 'network_proxy = false')),
      1,
      'the proxy dropped while domains remain',
    );
    assert.equal(await gate('none-removed.toml', base.replace('"~/.ssh" = "none"\n', '')), 1, '`none` removed');
    assert.equal(
      await gate('root-added.toml', base.replace('"~/.ssh" = "none"\n', '"~/.ssh" = "none"\n"/srv" = "write"\n')),
      1,
      'a writable root',
    );
    assert.equal(await gate('weaker.toml', base.replace('extends = ":workspace"', 'extends = ":danger-full-access"')), 1, 'a weaker mode');
    assert.equal(await gate('domain.toml', base.replace('"pypi.org" = "allow"', '"pypi.org" = "allow", "*" = "allow"')), 1, 'a domain');
  });
  it('passes a narrowing', async () => {
    assert.equal(await gate('narrow.toml', base.replace('enabled = true', 'enabled = false')), 0);
  });
});

describe('Codex config.toml: compile and run refuse it (Codex enforces it itself)', () => {
  it('compile: exit 2 with the reason', async () => {
    const f = file('c.toml', 'sandbox_mode = "workspace-write"\n');
    const r = await boxwright(['compile', '--fs', 'none', '--target', 'linux', '--out', join(dir, 'out'), f]);
    assert.equal(r.status, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /boxwright compile: c\.toml is a Codex config \(config\.toml\), which Codex enforces itself/);
  });
  it('run: exit 2, nothing run', async () => {
    const f = file('r.toml', 'sandbox_mode = "workspace-write"\n');
    const r = spawned(['run', f, '--', 'true']);
    assert.equal(r.status, 2, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /is a Codex config \(config\.toml\), which Codex enforces itself.*the command did not run \(Codex runs it: `codex sandbox -- CMD`\)/,
    );
  });
});

describe('Codex config.toml in a repository: diff --git', () => {
  it("a .codex/config.toml's widening since HEAD fails the gate; the protected names stay read-only in the request", async () => {
    const repo = join(dir, 'repo');
    const git = (...args: string[]): void => {
      const r = spawnSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: repo });
      assert.equal(r.status, 0, r.stderr.toString());
    };
    spawnSync('mkdir', ['-p', join(repo, '.codex')]);
    writeFileSync(join(repo, '.codex/config.toml'), 'sandbox_mode = "read-only"\n');
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'base');
    writeFileSync(join(repo, '.codex/config.toml'), 'sandbox_mode = "workspace-write"\n[sandbox_workspace_write]\nnetwork_access = true\n');
    const r = spawnSync(process.execPath, [bin, 'diff', '--fs', 'host', '--git', 'HEAD', '--fail-on', 'widen'], {
      cwd: repo,
      env: { ...process.env, NO_COLOR: '1', TMPDIR: '' },
    });
    const out = r.stdout.toString();
    assert.equal(r.status, 1, out + r.stderr.toString());
    assert.match(out, /network: `network \(direct, no proxy\)` is now true/);
    assert.match(out, /the agent now asks to write \/tmp \(r → rw\)/);
    assert.doesNotMatch(out, /asks to write [^\n]*\/\.git /);
  });
});
