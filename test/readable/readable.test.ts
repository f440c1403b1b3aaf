/**
 * Readable output (issue 36, Done-when 3). A real-looking 4 KB
 * `.claude/settings.json` (permission allow and deny lists with globs,
 * sandbox settings, hooks) got one diagnostic per pattern per platform and
 * per place: 65 lines of diagnostics, 272 lines in all under `--fs none`.
 * The target: at most 25 lines of diagnostics (one per finding, the line
 * that collapses the machine-dependent infos included) and at most 120
 * lines in all, with a manifest of the machine and with `--fs none`. (First
 * 100; the gate's lint rules then named the file's five host commands, its
 * local binding and its one-slash `Edit(/tmp/**)` landing in `.claude`:
 * seven real findings, five lines each with their code frames.) The
 * exact output is a golden (snapshots/lint/readable-*.txt); `-v` still
 * lists every place, and the exit status and counts are the same.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Diagnostic } from '../../compiler/diagnostic.js';
import { groupFindings } from '../../app/format/group.js';
import { repoRoot } from '../helpers.js';
import { matchSnapshot } from '../snapshot.js';
import { type CliRun, cli, plainEnv } from '../cli-in-process.js';

const project = join(repoRoot, 'test/readable/project');

/** `boxwright lint` in process (test/cli-in-process.ts), in `cwd`. */
const lint = (args: string[], cwd = project): Promise<CliRun> => cli(['lint', ...args], { cwd, env: plainEnv() });

const diagnosticLines = (out: string): number =>
  out.split('\n').filter((l) => /^\.claude\/settings\.json(:\d+:\d+)? {2}(error|warning|info) {2}/.test(l)).length;

const runs = {
  machine: ['--fs', '../machine.json', '--worktree', '/home/dev/project', '.claude/settings.json'],
  none: ['--fs', 'none', '--home', '/home/dev', '--worktree', '/home/dev/project', '.claude/settings.json'],
} as const;

describe('readable output for a real-looking settings file (issue 36)', () => {
  it('the fixture is a 4 KB settings file', async () => {
    const size = statSync(join(project, '.claude/settings.json')).size;
    assert.ok(size >= 4000 && size < 4400, `${size} bytes`);
  });
  for (const [name, args] of Object.entries(runs)) {
    it(`--fs ${name}: the exact output, within the target (≤ 25 lines of diagnostics, ≤ 120 lines)`, async () => {
      const r = await lint([...args]);
      assert.equal(r.status, 0, r.stderr);
      matchSnapshot(`lint/readable-settings.${name}.txt`, r.stdout);
      assert.ok(diagnosticLines(r.stdout) <= 25, `${diagnosticLines(r.stdout)} lines of diagnostics`);
      assert.ok(r.stdout.split('\n').length <= 120, `${r.stdout.split('\n').length} lines`);
      // -v lists every place: what the grouping saves, and the same counts and exit status.
      const v = await lint(['-v', ...args]);
      assert.equal(v.status, r.status);
      assert.ok(diagnosticLines(v.stdout) > 2 * diagnosticLines(r.stdout), `-v: ${diagnosticLines(v.stdout)}`);
      assert.equal(v.stdout.split('\n').at(-2), r.stdout.split('\n').at(-2), 'the counts are the same');
    });
  }

  it('a machine-dependent info collapses under --fs none: absent-path and read-deny-scratch say "depends on the machine" once', async () => {
    const r = await lint([...runs.none]);
    assert.doesNotMatch(r.stdout, /info {2}(absent-path|read-deny-scratch) {2}/);
    assert.match(
      r.stdout,
      /\.claude\/settings\.json {2}info {2}\d+ findings depend on the machine, which the view does not know \(absent-path ×\d+, read-deny-scratch ×\d+;/,
    );
  });

  it('one finding at several places is one diagnostic with its places; at one place for several platforms, one naming them', async () => {
    const span = (line: number, offset: number) => ({ start: { line, column: 3, offset }, end: { line, column: 9, offset: offset + 6 } });
    const d = (
      line: number,
      offset: number,
      platforms: Diagnostic['platforms'],
      message = `pattern /p/${line}/*.md is skipped`,
    ): Diagnostic => ({
      ruleId: 'glob-pattern',
      finding: 'writeSkipped',
      severity: 'warning',
      platforms,
      message,
      file: 'f.json',
      span: span(line, offset),
    });
    const found = groupFindings([
      d(2, 10, ['linux']),
      d(2, 10, ['macos']),
      d(3, 30, ['linux']),
      d(4, 50, ['linux']),
      d(5, 70, ['windows']),
    ]);
    assert.deepEqual(
      found.map((f) => [f.diagnostic.span.start.line, f.diagnostic.platforms, f.also.map((s) => s.start.line)]),
      [
        [2, ['macos', 'linux'], []],
        [3, ['linux'], [4]],
        [5, ['windows'], []],
      ],
    );
    // Words that differ in more than their paths are findings of their own.
    assert.equal(
      groupFindings([d(3, 30, ['linux']), d(4, 50, ['linux'], 'pattern /p/4/*.md is skipped: nothing is write-denied')]).length,
      2,
    );
    // A diagnostic that is no rule's finding (a schema or syntax error) is never grouped.
    const { finding: _, ...unfound } = d(6, 90, ['linux']);
    const schema: Diagnostic = { ...unfound, ruleId: 'schema' };
    assert.equal(groupFindings([schema, { ...schema, span: span(7, 110) }]).length, 2);
  });
});

/** The absent-path diagnostics of a text output, each with its suggestion. */
const absentPathLines = (out: string): string[] =>
  out
    .split('\n\n')
    .filter((block) => / absent-path /.test(block))
    .flatMap((block) => block.split('\n').filter((l) => / absent-path |^ {2}suggestion /.test(l)));

describe("Claude Code's one-slash paths (issue 36): the hint covers `/tmp` and `/tmp/**`", () => {
  const machine = join(repoRoot, 'test/readable/machine.json');
  const scratch = (text: string): string => {
    const root = mkdtempSync(join(tmpdir(), 'boxwright-one-slash-'));
    after(() => rmSync(root, { recursive: true, force: true }));
    mkdirSync(join(root, '.claude'));
    writeFileSync(join(root, '.claude', 'settings.json'), text);
    return root;
  };
  it('Edit(/tmp/**) and Edit(/tmp) name .claude/tmp: write `//tmp/**`, `//tmp`', async () => {
    const cwd = scratch('{"permissions": {"allow": ["Edit(/tmp/**)", "Edit(/tmp)"]}, "sandbox": {"enabled": true}}\n');
    const r = await lint(['--fs', machine, '--worktree', '/home/dev/project', '--platform', 'linux', '.claude/settings.json'], cwd);
    assert.deepEqual(absentPathLines(r.stdout), [
      ".claude/settings.json:1:28  warning  absent-path  [linux]  `/tmp/**` is relative to the settings file's directory in Claude Code (it names the tree of /home/dev/project/.claude/tmp, which does not exist), not the absolute /tmp/**: an absolute path starts with `//`",
      '  suggestion Write the absolute path with two slashes: `//tmp/**` (anthropics/claude-code#32287).',
      ".claude/settings.json:1:45  warning  absent-path  [linux]  `/tmp` is relative to the settings file's directory in Claude Code (it names /home/dev/project/.claude/tmp, which does not exist), not the absolute /tmp: an absolute path starts with `//`",
      '  suggestion Write the absolute path with two slashes: `//tmp` (anthropics/claude-code#32287).',
    ]);
  });
  it('Edit(/src/**) absent both ways, outside the working directory: `./src/**` for the project, `//src/**` for the absolute path', async () => {
    const root = scratch('{"permissions": {"allow": ["Edit(/src/**)"]}, "sandbox": {"enabled": true}}\n');
    const r = await lint(
      ['--fs', machine, '--worktree', '/home/dev/project', '--platform', 'linux', join(root, '.claude/settings.json')],
      root,
    );
    assert.deepEqual(absentPathLines(r.stdout.replaceAll(root, '<dir>')), [
      '<dir>/.claude/settings.json:1:28  warning  absent-path  [linux]  <dir>/.claude/src does not exist: sandbox-runtime skips it on Linux, so nothing there becomes writable (macOS lets it be created and written)',
      "  suggestion `/src/**` is relative to the settings file's directory in Claude Code: create <dir>/.claude/src first, or write `./src/**` for the project's, `//src/**` for the absolute path.",
    ]);
    // Inside the working directory the same entry is writable through it on Linux (explain's cell): nothing to say.
    const inside = await lint(['--fs', machine, '--worktree', '/home/dev/project', '--platform', 'linux', '.claude/settings.json'], root);
    assert.deepEqual(absentPathLines(inside.stdout), []);
  });
});
