/**
 * `diff --fail-on widen` on sandbox-runtime and Claude Code settings fails
 * on every class of widening the settings hold beyond files (issue 36):
 * network (domains and wildcards, sockets, local binding, external
 * proxies), the sandbox's strength, commands outside the sandbox (excluded
 * and unsandboxed commands, hooks, helpers), programs run on the host, and
 * permission allow rules; a change to a setting boxwright does not model
 * fails as "cannot judge". The controls: the same changes the other way
 * round (narrowings) and a pure reordering pass. Each class is checked in
 * process (the exact sentence and gate failure), then through the CLI, by
 * direct path and by `--git` in a repository with two commits.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PLATFORMS } from '../../compiler/diagnostic.js';
import { diffChecks } from '../../app/cli/diff.js';
import { configReader } from '../../app/cli/options.js';
import { gateFailures } from '../../app/views/delta.js';
import { repoRoot } from '../helpers.js';
import { type Case, cases, claudeBase, type Json, net, sb, srtBase } from './settings-gate-cases.js';
import { cli } from '../cli-in-process.js';

const worktree = '/home/dev/project';
const machine = join(repoRoot, 'examples', 'machine.json');
const headOf = (c: Case): Json => {
  const j = c.dialect === 'srt' ? srtBase() : claudeBase();
  c.change(j);
  return j;
};
const baseOf = (c: Case): Json => (c.dialect === 'srt' ? srtBase() : claudeBase());
const fileOf = (c: Case): string => (c.dialect === 'srt' ? 'srt-settings.json' : '.claude/settings.json');
const bytes = (j: Json): Uint8Array => Buffer.from(JSON.stringify(j, null, 2) + '\n');

async function gate(c: Case, base: Json, head: Json) {
  const reader = configReader({ fs: machine, worktree });
  const b = reader.check(bytes(base), fileOf(c), PLATFORMS);
  const h = reader.check(bytes(head), fileOf(c), PLATFORMS);
  const d = await diffChecks(b, h, PLATFORMS, { artifacts: false });
  assert.ok('delta' in d, JSON.stringify(d));
  return { delta: d.delta, failures: gateFailures(d.delta) };
}

describe('the gate, in process: each class of widening, and its narrowing', () => {
  for (const c of cases) {
    it(`${c.name}: widens`, async () => {
      const { delta, failures } = await gate(c, baseOf(c), headOf(c));
      const sentences = delta.requested.map((r) => r.sentence);
      assert.ok(sentences.includes(c.line), sentences.join('\n'));
      assert.ok(failures.includes(c.gate), failures.join('\n'));
    });
    if (!c.line.startsWith('cannot judge'))
      it(`${c.name}: the other way round passes`, async () => {
        const { failures } = await gate(c, headOf(c), baseOf(c));
        // Turning the sandbox off also grants every file: taking it back narrows those too.
        assert.deepEqual(failures, []);
      });
    else
      it(`${c.name}: the other way round cannot be judged either`, async () => {
        const { failures } = await gate(c, headOf(c), baseOf(c));
        assert.ok(failures.includes(c.gate), failures.join('\n'));
      });
  }
  it('a reordering (lists and keys) is no change', async () => {
    const srt = srtBase();
    const reordered: Json = {
      filesystem: { denyWrite: [], allowWrite: ['.'], denyRead: ['~/.ssh'] },
      network: { deniedDomains: ['evil.example'], allowedDomains: ['*.npmjs.org', 'github.com'] },
    };
    const c = cases[0]!;
    const r = await gate(c, srt, reordered);
    assert.deepEqual(r.delta.requested, []);
    assert.deepEqual(r.failures, []);
    const claude = claudeBase();
    const cc = cases.find((x) => x.dialect === 'claude')!;
    const r2 = await gate(cc, claude, { permissions: { deny: ['Read(./.env)'], allow: ['Bash(npm test)'] }, sandbox: claude.sandbox });
    assert.deepEqual(r2.delta.requested, []);
    assert.deepEqual(r2.failures, []);
  });
  it('a narrower wildcard, or a domain a wildcard already covers, is no widening', async () => {
    const c = cases[0]!;
    const head = srtBase();
    net(head).allowedDomains = ['github.com', 'registry.npmjs.org', '*.eu.npmjs.org'];
    const r = await gate(c, srtBase(), head);
    assert.deepEqual(r.failures, []);
    assert.deepEqual(
      r.delta.requested.map((x) => x.sentence),
      ['network: `network.allowedDomains` no longer allows `*.npmjs.org`'],
    );
  });
});

const scratch = mkdtempSync(join(tmpdir(), 'boxwright-settings-gate-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '', GIT_CONFIG_NOSYSTEM: '1', HOME: scratch };
/** In process (test/cli-in-process.ts), in `cwd`. */
const boxwright = (cwd: string, args: readonly string[]) => cli(args, { cwd, env });
const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=ci@boxwright.test', '-c', 'user.name=ci', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
    env,
  });
const diffArgs = ['diff', '--fs', machine, '--worktree', worktree, '--fail-on', 'widen'];

/** Each case in a directory of its own: `case-N/srt-settings.json` or `case-N/.claude/settings.json`. */
const place = (root: string, i: number, c: Case, j: Json): string => {
  const rel = join(`case-${i}`, fileOf(c));
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), bytes(j));
  return rel;
};

describe('the gate, through the CLI: by direct path', () => {
  const dir = join(scratch, 'direct');
  it('exits 1 on a widening of each dialect and says what widened; 0 the other way round', async () => {
    for (const c of [cases.find((x) => x.name === 'srt: "*.ngrok.io"')!, cases.find((x) => x.name === 'claude: a SessionStart hook')!]) {
      // Two files in two places: a one-slash entry of each resolves in its own directory, so none here.
      const alone = (j: Json): Json => {
        if (c.dialect === 'claude') (sb(j).filesystem as Json).denyRead = ['~/.ssh'];
        return j;
      };
      const base = place(join(dir, 'base'), 0, c, alone(baseOf(c)));
      const head = place(join(dir, 'head'), 0, c, alone(headOf(c)));
      const widen = await boxwright(dir, [...diffArgs, join('base', base), join('head', head)]);
      assert.equal(widen.status, 1, widen.stdout + widen.stderr);
      assert.ok(widen.stdout.includes(c.line), widen.stdout);
      assert.ok(widen.stderr.includes(c.gate), widen.stderr);
      const narrow = await boxwright(dir, [...diffArgs, join('head', head), join('base', base)]);
      assert.equal(narrow.status, 0, narrow.stdout + narrow.stderr);
    }
  });
});

describe('the gate, through the CLI: by --git, in a repository with two commits', () => {
  const widened = join(scratch, 'widened');
  const narrowed = join(scratch, 'narrowed');
  before(() => {
    for (const [repo, first, second] of [
      [widened, baseOf, headOf],
      [narrowed, headOf, baseOf],
    ] as const) {
      mkdirSync(repo, { recursive: true });
      git(repo, 'init', '-q');
      cases.forEach((c, i) => place(repo, i, c, first(c)));
      git(repo, 'add', '-A');
      git(repo, 'commit', '-qm', 'base');
      cases.forEach((c, i) => place(repo, i, c, second(c)));
      git(repo, 'commit', '-qam', 'head');
    }
  });
  it('every widened file fails, each for what widened in it, and no path resolves under HEAD:', async () => {
    const r = await boxwright(widened, [...diffArgs, '--git', 'HEAD~1']);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.doesNotMatch(r.stdout, /HEAD[~1]*:\.claude\/|HEAD~1:case-\d+\/\.claude\/(?!settings\.json)/);
    assert.doesNotMatch(r.stdout, /\/HEAD/);
    cases.forEach((c, i) => {
      assert.ok(r.stderr.includes(`case-${i}/${fileOf(c)}: ${c.gate}`), `${c.name}\n${r.stderr}`);
      assert.ok(r.stdout.includes(c.line), `${c.name}\n${r.stdout}`);
    });
  });
  it('one file by name: the same', async () => {
    const i = cases.findIndex((c) => c.name === 'claude: a permission allow rule');
    const r = await boxwright(widened, [...diffArgs, '--git', 'HEAD~1', `case-${i}/.claude/settings.json`]);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /the settings widen: `permissions\.allow`/);
  });
  it('the narrowings pass, but for the settings boxwright does not model', async () => {
    const r = await boxwright(narrowed, [...diffArgs, '--git', 'HEAD~1']);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    const failed = r.stderr
      .replace(/^boxwright diff: --fail-on widen fails: /, '')
      .trim()
      .split('; ');
    const unjudged = cases.flatMap((c, i) => (c.gate.startsWith('cannot judge') ? [`case-${i}/${fileOf(c)}: ${c.gate}`] : []));
    assert.deepEqual(failed, unjudged);
  });
});
