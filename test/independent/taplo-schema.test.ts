// The JSON Schema `boxwright schema` prints, used by someone else's
// validator: taplo (@taplo/cli), the engine of Even Better TOML. Every
// example must pass it (against the editor schema and its own dialect's),
// and deliberately wrong configs must fail it, each where boxwright's own
// schema check fails too.
//
// One taplo run checks every document: taplo's start (its WebAssembly) is
// most of its time, and a configuration file gives each folder its schema
// ([[rule]] include + schema.path), the way an editor's taplo.toml does. A
// control file per rule, which that rule's schema refuses, shows each rule
// applied (a rule matching nothing would let its files pass unchecked).
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import AjvModule from 'ajv';
import { parseToml, toPlainJsonText } from '../../compiler/toml/index.js';
import { compileExample, compileText, exampleNames } from '../compile-helpers.js';
import { repoRoot, requireOrSkip } from '../helpers.js';
import { taploCli } from './tools.js';

const run = promisify(execFile);
const Ajv = AjvModule.default;
const available = existsSync(taploCli);

/** `taplo check --config` of the files: exit 0 or not, and what it printed. */
async function taplo(config: string, files: readonly string[]): Promise<{ ok: boolean; output: string }> {
  const args = [taploCli, 'check', '--config', config, '--colors', 'never', ...files];
  try {
    const r = await run(process.execPath, args, { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 });
    return { ok: true, output: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    if (typeof err.code !== 'number') throw e;
    return { ok: false, output: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}

/** The files taplo's output names invalid against their schema. */
const invalidFiles = (output: string): Set<string> =>
  new Set([...output.matchAll(/invalid file error=schema validation failed path="([^"]+)"/g)].map((m) => m[1]!));

/** Wrong configs: each breaks a table boxwright owns. */
const WRONG: Record<string, string> = {
  'unknown-key': '[agent.filesystem]\nreed = ["~/project"]\n',
  'string-not-array': '[agent.filesystem]\nread = "~/project"\n',
  'integer-path': '[agent.filesystem]\nwrite = [1]\n',
  'contain-egress-string': '[mcp_servers.search]\ncontain_egress = "no"\n',
  'tool-network-key': '[tools.fetcher.network]\nallow = true\n',
  'principal-name': '[tools."x/../y".filesystem]\nread = ["~/project"]\n',
  'experimental-unknown': '[experimental-features]\nnative-fs-policy = true\n',
  'tyba-unknown-key': '[sandbox]\nread_allowed = ["~/datasets"]\n',
  'tyba-string': '[sandbox]\nread_allow = "~/datasets"\n',
  // Issue 14 item 5: a misspelt or unknown table under a principal granted nothing, silently.
  'agent-unknown-table': '[agent.filesytem]\nread = ["~/project"]\n',
  'agent-network-typo': '[agent.netwrok]\n',
  'tool-unknown-table': '[tools.fmt.filesytem]\nread = ["~/project"]\n',
  'mcp-unknown-table': '[mcp_servers.search.filesytem]\nread = ["~/index"]\n',
  // Issue 14 item 20: one file, both dialects.
  'both-dialects': '[sandbox]\nread_allow = ["~/datasets"]\n\n[agent.filesystem]\nread = ["~/project"]\n',
  'both-dialects-tool': '[sandbox]\n[tools.fmt.filesystem]\nread = ["~/project"]\n',
  'both-dialects-features': '[experimental-features]\nnative-filesystem-policy = true\n[sandbox]\n',
};

/** Configs of one dialect each that the editor schema must accept (what "not both" must not catch). */
const ONE_DIALECT: Record<string, string> = {
  'box-only': '[agent.filesystem]\nread = ["~/project"]\n[tools.fmt]\ncommand = "fmt"\n',
  'tyba-only': '[sandbox]\nread_allow = ["~/datasets"]\n[ui]\ntheme = "dark"\n',
  'features-only': '[experimental-features]\nnative-filesystem-policy = true\n',
};

/** Per schema: a control config that schema refuses (proof that its rule is applied). */
const CONTROL: Record<string, string> = {
  editor: '[agent.filesystem]\nreed = ["~/project"]\n',
  box: '[agent.filesystem]\nreed = ["~/project"]\n',
  tyba: '[sandbox]\nread_allowed = ["~/datasets"]\n',
};

describe('independent: the JSON Schema through taplo', () => {
  let dir = '';
  const schema = (dialect: string): string => join(dir, `${dialect}.json`);
  /** Where each document is, by the schema its folder's rule applies. */
  const doc = (dialect: string, ...path: string[]): string => join(dir, dialect, ...path);
  const byDialect: Record<string, string[]> = { box: [], tyba: [] };
  let checked: { ok: boolean; output: string; invalid: Set<string> } | undefined;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bw-taplo-'));
    for (const dialect of ['editor', 'box', 'tyba']) {
      const r = spawnSync(process.execPath, [join(repoRoot, 'bin', 'boxwright.cjs'), 'schema', '--dialect', dialect], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      writeFileSync(schema(dialect), r.stdout);
      mkdirSync(doc(dialect, 'examples'), { recursive: true });
      writeFileSync(doc(dialect, 'control.toml'), CONTROL[dialect]!);
    }
    if (!available) return;
    for (const name of exampleNames) {
      const o = await compileExample(name, 'linux');
      assert.ok(
        !o.check.diagnostics.some((d) => d.ruleId === 'schema' || d.ruleId === 'toml-syntax'),
        `${name}: boxwright's own schema check fails it`,
      );
      byDialect[o.check.ir!.dialect]!.push(name);
    }
    mkdirSync(doc('editor', 'wrong'));
    mkdirSync(doc('editor', 'one-dialect'));
    for (const [name, text] of Object.entries(WRONG)) writeFileSync(doc('editor', 'wrong', `${name}.toml`), text);
    for (const [name, text] of Object.entries(ONE_DIALECT)) writeFileSync(doc('editor', 'one-dialect', `${name}.toml`), text);
    const files = ['editor', 'box', 'tyba'].flatMap((dialect) => {
      const examples = dialect === 'editor' ? exampleNames : byDialect[dialect]!;
      for (const name of examples) cpSync(join(repoRoot, 'examples', name), doc(dialect, 'examples', name));
      return [...examples.map((name) => doc(dialect, 'examples', name)), doc(dialect, 'control.toml')];
    });
    files.push(
      ...Object.keys(WRONG).map((n) => doc('editor', 'wrong', `${n}.toml`)),
      ...Object.keys(ONE_DIALECT).map((n) => doc('editor', 'one-dialect', `${n}.toml`)),
    );
    const rules = ['editor', 'box', 'tyba'].map(
      (dialect) =>
        `[[rule]]\ninclude = [${JSON.stringify(`${join(dir, dialect)}/**/*.toml`)}]\n[rule.schema]\npath = ${JSON.stringify(pathToFileURL(schema(dialect)).href)}\n`,
    );
    writeFileSync(join(dir, 'taplo.toml'), rules.join('\n'));
    const r = await taplo(join(dir, 'taplo.toml'), files);
    checked = { ...r, invalid: invalidFiles(r.output) };
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("each folder's rule applies its schema: the control file of each is refused", (t) => {
    const skip = requireOrSkip(available, '@taplo/cli (npm ci)');
    if (skip) return t.skip(skip);
    assert.equal(checked!.ok, false, checked!.output);
    for (const dialect of ['editor', 'box', 'tyba'])
      assert.ok(checked!.invalid.has(doc(dialect, 'control.toml')), `taplo accepts ${dialect}'s control:\n${checked!.output}`);
  });

  it("every example passes the editor schema and its own dialect's", (t) => {
    const skip = requireOrSkip(available, '@taplo/cli (npm ci)');
    if (skip) return t.skip(skip);
    const refused = ['editor', 'box', 'tyba']
      .flatMap((dialect) => (dialect === 'editor' ? exampleNames : byDialect[dialect]!).map((n) => doc(dialect, 'examples', n)))
      .filter((f) => checked!.invalid.has(f) || checked!.output.includes(`${f}:`));
    assert.deepEqual(refused, [], checked!.output);
    assert.ok(byDialect.box!.length > 20 && byDialect.tyba!.length >= 2);
  });

  it("every wrong config fails taplo, where boxwright's schema check fails it too (the check can fail)", async (t) => {
    const skip = requireOrSkip(available, '@taplo/cli (npm ci)');
    if (skip) return t.skip(skip);
    for (const [name, text] of Object.entries(WRONG)) {
      const o = await compileText(text, 'linux', { fs: 'none', home: '/home/dev' });
      assert.ok(
        o.check.diagnostics.some((d) => d.ruleId === 'schema'),
        `${name}: boxwright's schema check accepts it`,
      );
      // taplo names each file it finds invalid.
      assert.ok(checked!.invalid.has(doc('editor', 'wrong', `${name}.toml`)), `taplo accepts ${name}:\n${checked!.output}`);
    }
  });

  it('the editor schema says "not both dialects", and still admits each alone: taplo and ajv agree', (t) => {
    const skip = requireOrSkip(available, '@taplo/cli (npm ci)');
    if (skip) return t.skip(skip);
    const editor = JSON.parse(readFileSync(schema('editor'), 'utf8')) as object;
    const validate = new Ajv({ strict: false, allErrors: true }).compile(editor);
    const both = Object.entries(WRONG).filter(([name]) => name.startsWith('both-dialects'));
    for (const [name, text] of [...both, ...Object.entries(ONE_DIALECT)]) {
      const parsed = parseToml(text);
      assert.ok(parsed.document, name);
      assert.equal(
        validate(JSON.parse(toPlainJsonText(parsed.document))),
        !name.startsWith('both'),
        `ajv on ${name}: ${JSON.stringify(validate.errors)}`,
      );
    }
    // taplo refuses each of the both-dialect files in the test above (they are in WRONG); here it admits each dialect alone.
    const refused = Object.keys(ONE_DIALECT)
      .map((n) => doc('editor', 'one-dialect', `${n}.toml`))
      .filter((f) => checked!.invalid.has(f) || checked!.output.includes(`${f}:`));
    assert.deepEqual(refused, [], checked!.output);
  });

  it('taplo refuses exactly the wrong configs and the controls, nothing else', (t) => {
    const skip = requireOrSkip(available, '@taplo/cli (npm ci)');
    if (skip) return t.skip(skip);
    const expected = [
      ...Object.keys(WRONG).map((n) => doc('editor', 'wrong', `${n}.toml`)),
      ...['editor', 'box', 'tyba'].map((d) => doc(d, 'control.toml')),
    ].sort();
    assert.deepEqual([...checked!.invalid].sort(), expected, checked!.output);
  });
});
