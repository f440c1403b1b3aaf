/**
 * The two JSON dialects end to end: detection, lint with exact spans in
 * every format, explain (mandatory denies shown as implicit rows), diff's
 * widening gate on a Claude Code settings file, and the commands that do
 * not take them. Goldens in snapshots/settings/.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import kleur from 'kleur';
import { PLATFORMS } from '../../compiler/diagnostic.js';
import { checkConfig } from '../../app/check.js';
import { diffChecks } from '../../app/cli/diff.js';
import { configReader } from '../../app/cli/options.js';
import { explainCheck } from '../../app/cli/explain.js';
import { diffText } from '../../app/format/diff.js';
import { explainJson, explainMarkdown, explainText } from '../../app/format/explain.js';
import { formatGithub } from '../../app/format/github.js';
import { formatJson } from '../../app/format/json.js';
import { formatSarif } from '../../app/format/sarif.js';
import { formatText } from '../../app/format/text.js';
import { detectDialect, isSandboxConfigFile } from '../../compiler/schema/dialect.js';
import { parseJson } from '../../compiler/json/index.js';
import { allRules } from '../../rules/engine/registry.js';
import type { Rule } from '../../rules/engine/engine.js';
import { repoRoot } from '../helpers.js';
import { machine } from '../lint-helpers.js';
import { matchSnapshot } from '../snapshot.js';
import { cli as inProcess } from '../cli-in-process.js';

kleur.enabled = false;
const worktree = '/home/dev/project';
const examples = {
  srt: 'examples/settings/srt-settings.json',
  claude: 'examples/settings/project/.claude/settings.json',
  wider: 'examples/settings/project/.claude/settings.wider.json',
};
/** Claude Code's project file as it sits in a checkout: `.claude/settings.json` relative to the project (its `/` prefix is relative to that directory). */
const check = (file: string, shownAs = file) => checkConfig(readFileSync(join(repoRoot, file)), { file: shownAs, view: machine, worktree });
/** The Claude Code examples as they sit in their project (/home/dev/project of the machine): what a one-slash path is relative to. */
const inProject = (file: string): string => file.replace(/^examples\/settings\/project\//, '');
const entry = (r: ReturnType<typeof check>) => ({
  path: r.file,
  text: r.text,
  ...(r.dialect ? { dialect: r.dialect } : {}),
  verdicts: r.verdicts,
  diagnostics: r.diagnostics,
});
/** In process (test/cli-in-process.ts). */
const cli = (args: string[], cwd = repoRoot) => inProcess(args, { cwd, env: { ...process.env, NO_COLOR: '1' } });

describe('detection', () => {
  const json = (text: string, file = 'x.json') => detectDialect({ syntax: 'json', value: parseJson(text).document! }, file);
  it('sandbox-runtime by `filesystem`/`network`, Claude Code by `sandbox`/`permissions` or its path', async () => {
    assert.deepEqual(json('{"filesystem": {}}'), { dialect: 'srt' });
    assert.deepEqual(json('{"sandbox": {}}'), { dialect: 'claude' });
    assert.deepEqual(json('{"model": "opus"}', 'repo/.claude/settings.local.json'), { dialect: 'claude' });
    assert.match(
      (json('{"network": {}, "sandbox": {}}') as { diagnostic: { message: string } }).diagnostic.message,
      /both dialects in one file/,
    );
    assert.match((json('{"name": "x"}') as { diagnostic: { message: string } }).diagnostic.message, /not a sandbox configuration/);
  });
  it('--only-configs passes over other JSON (package.json, tsconfig.json, a browser extension manifest)', async () => {
    const is = (text: string, file: string) => isSandboxConfigFile(Buffer.from(text), file);
    assert.equal(is('{"name": "x", "version": "1.0.0"}', 'package.json'), false);
    assert.equal(is('{"compilerOptions": {"strict": true}}', 'tsconfig.json'), false);
    assert.equal(is('{"manifest_version": 3, "permissions": ["tabs"]}', 'manifest.json'), false);
    assert.equal(is('{}', '.claude/settings.json'), true);
    assert.equal(is('{"filesystem": {"denyRead": [],}', 'srt.json'), true, 'a broken settings file is still one');
    assert.equal(is('[agent.filesystem]\nread = ["~/project"]\n', 'box.toml'), true);
  });
  it('a dialect of the other syntax is a positioned error, not a crash', async () => {
    const toml = checkConfig(Buffer.from('[agent.filesystem]\nread = ["~/project"]\n'), {
      file: 'c.toml',
      view: machine,
      worktree,
      dialect: 'srt',
    });
    assert.equal(toml.diagnostics[0]?.ruleId, 'json-syntax');
    const json = checkConfig(Buffer.from('{"sandbox": {}}'), { file: 'c.json', view: machine, worktree, dialect: 'box' });
    assert.match(json.diagnostics[0]!.message, /reads TOML, and this file is JSON/);
  });
});

describe('lint: goldens in every format, exact spans', () => {
  for (const [name, file] of Object.entries(examples)) {
    it(name, async () => {
      const r = check(file, inProject(file));
      matchSnapshot(`settings/${name}.lint.txt`, formatText([entry(r)]));
      matchSnapshot(`settings/${name}.lint.json`, formatJson([entry(r)]));
      matchSnapshot(`settings/${name}.lint.github.txt`, formatGithub([entry(r)]));
    });
  }
  it('the misspelt key is a warning at the key, with the rename as a fix unless the key exists; SARIF carries the region', async () => {
    const r = check(examples.srt);
    const d = r.diagnostics.find((x) => x.ruleId === 'unknown-setting')!;
    assert.deepEqual([d.span.start.line, d.span.start.column, d.span.end.column], [7, 5, 16]);
    // The example also writes `denyWrite`: renamed, JSON.parse would keep the renamed one and drop `**/.env` (issue 40).
    assert.equal(d.fix, undefined);
    assert.equal(d.suggestion, 'rename `denyWirte` to `denyWrite`');
    const alone = readFileSync(join(repoRoot, examples.srt), 'utf8').replace('"denyWrite": ["**/.env"],\n', '');
    const renamed = checkConfig(Buffer.from(alone), { file: 'srt-settings.json', view: machine, worktree }).diagnostics.find(
      (x) => x.ruleId === 'unknown-setting',
    )!;
    assert.equal(alone.slice(renamed.fix!.edits[0]!.start, renamed.fix!.edits[0]!.end), 'denyWirte');
    const sarif = JSON.parse(formatSarif([entry(r)], allRules as readonly Rule[], '0', { root: repoRoot, cwd: repoRoot })) as {
      runs: { results: { ruleId: string; locations: { physicalLocation: { region: { startLine: number; startColumn: number } } }[] }[] }[];
    };
    const res = sarif.runs[0]!.results.find((x) => x.ruleId === 'unknown-setting')!;
    assert.deepEqual(res.locations[0]!.physicalLocation.region, { startLine: 7, startColumn: 5, endLine: 7, endColumn: 16 });
  });
});

describe('explain', () => {
  for (const [name, file] of Object.entries({ srt: examples.srt, claude: examples.claude })) {
    it(`${name}: goldens, the mandatory denies as implicit rows`, async () => {
      const { matrix } = explainCheck(check(file, inProject(file)));
      assert.ok(matrix);
      const rows = matrix.principals[0]!.rows;
      assert.ok(
        rows.some((r) => r.implicit && r.path === '/home/dev/project/.bashrc' && r.cells.linux.legend !== 'rwx'),
        'the .bashrc mandatory deny is shown',
      );
      matchSnapshot(`settings/${name}.explain.txt`, explainText(matrix));
      matchSnapshot(`settings/${name}.explain.md`, explainMarkdown(matrix));
      matchSnapshot(`settings/${name}.explain.json`, explainJson(matrix));
    });
  }
  it('a read-denied directory is scratch on Linux, unreadable on macOS', async () => {
    const { matrix } = explainCheck(check(examples.srt));
    const ssh = matrix!.principals[0]!.rows.find((r) => r.written === '~/.ssh')!;
    assert.equal(ssh.cells.linux.legend, 'scratch');
    assert.equal(ssh.cells.macos.legend, 'meta');
  });
});

describe('diff: a pull request that widens .claude/settings.json fails --fail-on widen', () => {
  it('the access it gains, per platform', async () => {
    const reader = configReader({ fs: join(repoRoot, 'examples/machine.json'), worktree });
    const base = reader.check(readFileSync(join(repoRoot, examples.claude)), inProject(examples.claude));
    const head = reader.check(readFileSync(join(repoRoot, examples.wider)), inProject(examples.wider));
    const d = await diffChecks(base, head, PLATFORMS, { artifacts: true });
    assert.ok('delta' in d);
    const sentences = d.delta.changes.map((c) => c.sentence);
    assert.ok(sentences.includes('linux: the agent can now read, write, execute ~/.aws'), sentences.join('\n'));
    assert.ok(d.delta.changes.some((c) => c.widens));
    assert.deepEqual(d.artifacts, [], 'sandbox-runtime enforces these: no boxwright artifact to compare');
    matchSnapshot('settings/claude__wider.diff.txt', diffText([d]));
  });
  it('the CLI exits 1 on the widening, 0 the other way round', async () => {
    const fs = ['--fs', 'examples/machine.json', '--worktree', worktree];
    const widen = await cli(['diff', ...fs, '--fail-on', 'widen', examples.claude, examples.wider]);
    assert.equal(widen.status, 1, widen.stdout + widen.stderr);
    assert.match(widen.stderr, /what is asked for widens \(on every machine\)/);
    const narrow = await cli(['diff', ...fs, '--fail-on', 'widen', examples.wider, examples.claude]);
    assert.equal(narrow.status, 0, narrow.stdout + narrow.stderr);
  });
});

describe('commands that do not take them', () => {
  it('compile and run refuse a settings file: sandbox-runtime enforces it', async () => {
    const compile = await cli(['compile', '--fs', 'examples/machine.json', '--target', 'linux', '--out', '/nonexistent/out', examples.srt]);
    assert.notEqual(compile.status, 0);
    assert.match(compile.stderr + compile.stdout, /sandbox-runtime enforces itself/);
  });
});
