/**
 * The format registry (issue 12 item 9): one table of output formats per
 * command (app/format/registry.ts) that both the `--format` option and the
 * commands read, so adding a format is one entry.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { diffChecks } from '../../app/cli/diff.js';
import { explainCheck } from '../../app/cli/explain.js';
import { configReader } from '../../app/cli/options.js';
import { formatNames, formats, renderer, whole, type FormattedCommand } from '../../app/format/registry.js';
import { PLATFORMS } from '../../compiler/diagnostic.js';
import { allRules } from '../../rules/engine/registry.js';
import { repoRoot } from '../helpers.js';
import { cli } from '../cli-in-process.js';

const reader = configReader({ fs: join(repoRoot, 'examples/machine.json'), worktree: '/home/dev/project' });
const check = (name: string) => reader.check(readFileSync(join(repoRoot, 'examples', name)), `examples/${name}`);

describe('format registry', () => {
  it('each command has the formats it documents, its default first', () => {
    assert.deepEqual(formatNames('lint'), ['text', 'json', 'sarif', 'github', 'markdown']);
    assert.deepEqual(formatNames('explain'), ['text', 'markdown', 'json']);
    assert.deepEqual(formatNames('diff'), ['text', 'markdown', 'json']);
    assert.deepEqual(formatNames('doctor'), ['text', 'json']);
    assert.deepEqual(formatNames('rules'), ['text', 'markdown']);
  });

  it("the command line's --format choices and default are the table's", async () => {
    for (const command of Object.keys(formats) as FormattedCommand[]) {
      const help = await cli([command, '--help'], { env: { ...process.env, NO_COLOR: '1' } });
      assert.equal(help.status, 0, help.stderr);
      // yargs may wrap the option's line: read it as one.
      const m = /-f, --format\s+output format\s+\[choices: ([^\]]+)\]\s+\[default: "([^"]+)"\]/.exec(help.stdout.replace(/\s+/g, ' '));
      assert.ok(m, `${command} --help lists no --format choices:\n${help.stdout}`);
      assert.deepEqual(
        [...m[1]!.matchAll(/"([^"]+)"/g)].map((x) => x[1]),
        formatNames(command),
        m[0],
      );
      assert.equal(m[2], formatNames(command)[0]);
    }
  });

  it('every entry loads a renderer that renders a real result', async () => {
    const lint = {
      files: [check('coding-agent.toml'), check('write-only.toml')].map((r) => ({
        path: r.file,
        text: r.text,
        verdicts: r.verdicts,
        diagnostics: r.diagnostics,
      })),
      platforms: PLATFORMS,
      base: repoRoot,
      root: repoRoot,
    };
    const { matrix } = explainCheck(check('coding-agent.toml'));
    assert.ok(matrix);
    const diff = [await diffChecks(check('read-write-overlap.toml'), check('write-only.toml'), PLATFORMS, { artifacts: false })];
    const doctor = {
      platform: process.platform,
      ok: true,
      findings: [{ id: 'kernel', status: 'ok' as const, title: 'kernel', detail: 'Linux' }],
    };
    const rendered: Record<string, string> = {};
    for (const name of formatNames('lint')) rendered[`lint ${name}`] = (await renderer(formats.lint, name))(lint);
    for (const name of formatNames('explain')) rendered[`explain ${name}`] = whole((await renderer(formats.explain, name))(matrix));
    for (const name of formatNames('diff')) rendered[`diff ${name}`] = (await renderer(formats.diff, name))(diff);
    for (const name of formatNames('doctor')) rendered[`doctor ${name}`] = (await renderer(formats.doctor, name))(doctor);
    for (const name of formatNames('rules')) rendered[`rules ${name}`] = (await renderer(formats.rules, name))({ rules: allRules });
    for (const [what, text] of Object.entries(rendered)) assert.ok(text.length > 20, `${what} rendered ${JSON.stringify(text)}`);
    // Each is its own format, not the default under another name.
    for (const command of ['lint', 'explain', 'diff', 'doctor', 'rules']) {
      const outputs = Object.entries(rendered)
        .filter(([k]) => k.startsWith(`${command} `))
        .map(([, v]) => v);
      assert.equal(new Set(outputs).size, outputs.length, `${command}: two formats render the same text`);
    }
    for (const json of ['lint json', 'lint sarif', 'explain json', 'diff json', 'doctor json'])
      assert.doesNotThrow(() => JSON.parse(rendered[json]!), json);
  });

  it("a name that is not the command's gives its default (the option refuses it on the command line)", async () => {
    const { matrix } = explainCheck(check('coding-agent.toml'));
    assert.ok(matrix);
    assert.equal(whole((await renderer(formats.explain, 'sarif'))(matrix)), whole((await renderer(formats.explain, 'text'))(matrix)));
    const lint = {
      files: [check('coding-agent.toml')].map((r) => ({ path: r.file, text: r.text, verdicts: r.verdicts, diagnostics: r.diagnostics })),
      platforms: PLATFORMS,
      base: repoRoot,
      root: repoRoot,
    };
    assert.equal((await renderer(formats.lint, undefined))(lint), (await renderer(formats.lint, 'text'))(lint));
    assert.equal((await renderer(formats.lint, 'toString'))(lint), (await renderer(formats.lint, 'text'))(lint));
  });
});
