import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import kleur from 'kleur';
import { diffChecks, type DiffArgs } from '../../app/cli/diff.js';
import { configReader, platformsFrom } from '../../app/cli/options.js';
import { diffJson, diffMarkdown, diffText } from '../../app/format/diff.js';
import { compileExample } from '../compile-helpers.js';
import { repoRoot } from '../helpers.js';
import { matchSnapshot } from '../snapshot.js';
import { cli } from '../cli-in-process.js';

kleur.enabled = false;
const args: DiffArgs = { fs: join(repoRoot, 'examples/machine.json'), worktree: '/home/dev/project' };
const side = (name: string) => ({ label: `examples/${name}`, bytes: readFileSync(join(repoRoot, 'examples', name)) });
const text = (label: string, toml: string) => ({ label, bytes: Buffer.from(toml) });
/** What `boxwright diff` does with one pair: one reader (one view), each side checked once. */
/** Two revisions compared: both must have a model (a front-end error is a failure here). */
const diffConfigs = async (base: { label: string; bytes: Uint8Array }, head: { label: string; bytes: Uint8Array }, a: DiffArgs) => {
  const reader = configReader(a);
  const d = await diffChecks(reader.check(base.bytes, base.label), reader.check(head.bytes, head.label), platformsFrom(a.platform), a);
  if ('error' in d) throw new Error(d.error);
  return d;
};

describe('diff: effective-access changes in words', () => {
  it('a widened write and a new network exception, per platform and principal', async () => {
    const d = await diffConfigs(
      text(
        'base.toml',
        '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project/output"]\n\n[tools.fetcher.filesystem]\nread = ["~/index"]\n',
      ),
      text(
        'head.toml',
        '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project"]\n\n[tools.fetcher.filesystem]\nread = ["~/index"]\n[tools.fetcher.network]\n',
      ),
      { ...args, artifacts: false },
    );
    const sentences = d.delta.changes.map((c) => c.sentence);
    assert.ok(sentences.includes('linux: the agent can now write ~/project'), sentences.join('\n'));
    assert.ok(sentences.includes('windows: tool `fetcher` now has a direct network exception: it bypasses the gateway'));
    assert.ok(d.delta.changes.every((c) => c.widens));
    assert.deepEqual(
      d.delta.verdicts.map((v) => `${v.platform}:${v.before}->${v.after}`),
      ['macos:accepted->accepted-with-warnings', 'linux:accepted->accepted-with-warnings'],
    );
    assert.ok(d.delta.diagnosticsAdded.some((x) => x.ruleId === 'direct-network'));
    assert.ok(d.delta.stillTrue.some((s) => s.sentence === 'windows: `~/.kaggle` is still readable'));
  });
  it('narrowing is reported and does not count as widening', async () => {
    const d = await diffConfigs(side('read-write-overlap.toml'), side('read-only-content.toml'), { ...args, artifacts: false });
    assert.ok(
      d.delta.changes.some((c) => c.sentence === 'linux: the agent can no longer read, write ~/project/output'),
      d.delta.changes.map((c) => c.sentence).join('\n'),
    );
    assert.ok(d.delta.changes.some((c) => c.sentence === 'linux: the agent: ~/project/.env is now absent (was an empty placeholder)'));
    assert.ok(!d.delta.changes.some((c) => c.widens && c.platform === 'linux' && c.path === '~/project/output'));
  });
  it('private_tmp on: a fresh directory of its own is added access (a widening); from write = ["/tmp"], the host\'s /tmp is no longer shared', async () => {
    const off = '[agent.filesystem]\nread = ["~/project"]\n';
    const on = `${off}private_tmp = true\n`;
    const d = await diffConfigs(text('off.toml', off), text('on.toml', on), { ...args, artifacts: false });
    const sentences = d.delta.changes.map((c) => c.sentence);
    for (const s of [
      'linux: the agent can now read, write /tmp',
      'macos: the agent can now read, write $TMPDIR',
      'windows: the agent can now write %TEMP%\\boxwright-tmp-agent',
    ])
      assert.ok(sentences.includes(s), sentences.join('\n'));
    assert.ok(
      d.delta.changes.every((c) => c.widens),
      'write on a new directory is more access, though no one else sees it',
    );
    const back = await diffConfigs(text('on.toml', on), text('off.toml', off), { ...args, artifacts: false });
    assert.ok(back.delta.changes.length > 0 && back.delta.changes.every((c) => !c.widens));
    // The shared /tmp replaced by the private one (shared-temp-write's fix): the host's /tmp is gone on Linux.
    const shared = await diffConfigs(
      text('shared.toml', '[agent.filesystem]\nread = ["~/project", "/tmp"]\nwrite = ["/tmp"]\n'),
      text('on.toml', on),
      { ...args, artifacts: false },
    );
    assert.ok(
      shared.delta.diagnosticsRemoved.some((x) => x.ruleId === 'shared-temp-write'),
      'the warning of the shared temp directory is gone',
    );
  });
  it('identical configs: nothing to report', async () => {
    const d = await diffConfigs(side('coding-agent.toml'), side('coding-agent.toml'), args);
    assert.equal(d.delta.changes.length, 0);
    assert.equal(d.artifacts.length, 0);
    assert.match(diffText([d]), /no change in effective access, verdicts, diagnostics or artifacts/);
  });
  it('goldens of the access part, all formats', async () => {
    const d = await diffConfigs(side('read-write-overlap.toml'), side('write-only.toml'), { ...args, artifacts: false });
    matchSnapshot('diff/read-write-overlap__write-only.txt', diffText([d]));
    matchSnapshot('diff/read-write-overlap__write-only.md', diffMarkdown([d]));
    matchSnapshot('diff/read-write-overlap__write-only.json', diffJson([d]));
  });
  it('artifact diffs are unified diffs of each emitted artifact', async () => {
    const d = await diffConfigs(side('read-only-content.toml'), side('read-write-overlap.toml'), { ...args, platform: 'macos' });
    const sb = d.artifacts.find((a) => a.name === 'agent.sb');
    assert.ok(sb, `artifacts: ${d.artifacts.map((a) => a.name).join(', ')}`);
    assert.match(sb.patch, /^--- a\/agent\.sb/m);
    assert.match(sb.patch, /^\+.*file-write\*/m);
  });
  it('a revision Linux refused, then one it accepts: every artifact is new, the seccomp programs too (once an internal error)', async () => {
    const d = await diffConfigs(side('write-only.toml'), side('coding-agent.toml'), { ...args, platform: 'linux' });
    assert.equal(d.artifacts[0]?.patch, 'linux: the base revision was refused: all artifacts are new');
    const head = await compileExample('coding-agent.toml', 'linux');
    assert.ok(head.ok);
    const programs = head.artifacts.filter((a) => a.name.endsWith('.bpf'));
    assert.ok(programs.length >= 1);
    assert.deepEqual(
      d.artifacts.filter((a) => a.name.endsWith('.bpf')).map((a) => a.patch),
      programs.map((a) => `binary ${a.name}: absent → ${Buffer.byteLength(a.content)} bytes`).sort(),
    );
    const back = await diffConfigs(side('coding-agent.toml'), side('write-only.toml'), { ...args, platform: 'linux' });
    assert.deepEqual(
      back.artifacts.map((a) => a.patch),
      ['linux: the head revision is refused: no artifacts'],
    );
  });
});

describe('diff: the CLI', () => {
  /** In process (test/cli-in-process.ts), in `cwd`. */
  const run = (cwd: string, ...a: string[]) => cli(['diff', ...a], { cwd, env: { ...process.env, NO_COLOR: '1' } });
  it('--fail-on widen exits 1 when access widens, 0 when it narrows', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'boxwright-diff-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'a.toml'), '[agent.filesystem]\nread = ["~/project"]\n');
    writeFileSync(join(dir, 'b.toml'), '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project/output"]\n');
    const manifest = join(repoRoot, 'examples/machine.json');
    assert.equal((await run(dir, '--fs', manifest, '--fail-on', 'widen', 'a.toml', 'b.toml')).status, 1);
    assert.equal((await run(dir, '--fs', manifest, '--fail-on', 'widen', 'b.toml', 'a.toml')).status, 0);
    assert.equal((await run(dir, '--fs', manifest, 'a.toml', 'a.toml')).status, 0);
  });
  it('--git REV FILE compares the committed file with the working tree', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'boxwright-git-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const git = (...a: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...a], { cwd: dir });
    git('init', '-q');
    writeFileSync(join(dir, 'sandbox.toml'), '[agent.filesystem]\nread = ["~/project"]\n');
    git('add', 'sandbox.toml');
    git('commit', '-qm', 'base');
    writeFileSync(join(dir, 'sandbox.toml'), '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project/output"]\n');
    const r = await run(
      dir,
      '--fs',
      join(repoRoot, 'examples/machine.json'),
      '--git',
      'HEAD',
      'sandbox.toml',
      '--fail-on',
      'widen',
      '--no-artifacts',
    );
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /HEAD:sandbox\.toml → sandbox\.toml/);
    assert.match(r.stdout, /linux: the agent can now write ~\/project\/output/);
    const all = await run(dir, '--fs', join(repoRoot, 'examples/machine.json'), '--git', 'HEAD', '--no-artifacts');
    assert.match(all.stdout, /HEAD:sandbox\.toml → sandbox\.toml/, 'without FILE: every changed .toml');
  });
});
