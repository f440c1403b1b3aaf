// The JSON Schema `boxwright schema` prints, used by someone else's
// validator: taplo (@taplo/cli), the engine of Even Better TOML. Every
// example must pass it (against the editor schema and its own dialect's),
// and deliberately wrong configs must fail it, each where boxwright's own
// schema check fails too.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** `taplo check --schema` of the files: exit 0 or not, and what it printed. */
async function taplo(schema: string, files: readonly string[]): Promise<{ ok: boolean; output: string }> {
  const args = [taploCli, 'check', '--no-auto-config', '--colors', 'never', '--schema', pathToFileURL(schema).href, ...files];
  try {
    const r = await run(process.execPath, args, { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 });
    return { ok: true, output: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    if (typeof err.code !== 'number') throw e;
    return { ok: false, output: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}

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

describe('independent: the JSON Schema through taplo', () => {
  let dir = '';
  const schema = (dialect: string): string => join(dir, `${dialect}.json`);
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'bw-taplo-'));
    for (const dialect of ['editor', 'box', 'tyba']) {
      const r = spawnSync(process.execPath, [join(repoRoot, 'bin', 'boxwright.cjs'), 'schema', '--dialect', dialect], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      writeFileSync(schema(dialect), r.stdout);
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('every example passes the editor schema and its own dialect\'s', async (t) => {
    const skip = requireOrSkip(available, '@taplo/cli (npm ci)');
    if (skip) return t.skip(skip);
    const byDialect: Record<string, string[]> = { box: [], tyba: [] };
    for (const name of exampleNames) {
      const o = await compileExample(name, 'linux');
      assert.ok(!o.check.diagnostics.some((d) => d.ruleId === 'schema' || d.ruleId === 'toml-syntax'), `${name}: boxwright's own schema check fails it`);
      byDialect[o.check.ir!.dialect]!.push(join('examples', name));
    }
    const results = await Promise.all([
      taplo(schema('editor'), exampleNames.map((n) => join('examples', n))),
      taplo(schema('box'), byDialect.box!),
      taplo(schema('tyba'), byDialect.tyba!),
    ]);
    for (const r of results) assert.ok(r.ok, r.output);
    assert.ok(byDialect.box!.length > 20 && byDialect.tyba!.length >= 2);
  });

  it('every wrong config fails taplo, where boxwright\'s schema check fails it too (the check can fail)', async (t) => {
    const skip = requireOrSkip(available, '@taplo/cli (npm ci)');
    if (skip) return t.skip(skip);
    const entries = Object.entries(WRONG);
    for (const [name, text] of entries) {
      writeFileSync(join(dir, `${name}.toml`), text);
      const o = await compileText(text, 'linux', { fs: 'none', home: '/home/dev' });
      assert.ok(o.check.diagnostics.some((d) => d.ruleId === 'schema'), `${name}: boxwright's schema check accepts it`);
    }
    // One run over all of them: taplo names each file it finds invalid.
    const files = entries.map(([name]) => join(dir, `${name}.toml`));
    const r = await taplo(schema('editor'), files);
    assert.equal(r.ok, false, r.output);
    const invalid = new Set([...r.output.matchAll(/invalid file error=schema validation failed path="([^"]+)"/g)].map((m) => m[1]));
    for (const f of files) assert.ok(invalid.has(f), `taplo accepts ${f}:\n${r.output}`);
  });

  it('the editor schema says "not both dialects", and still admits each alone: taplo and ajv agree', async (t) => {
    const skip = requireOrSkip(available, '@taplo/cli (npm ci)');
    if (skip) return t.skip(skip);
    const editor = JSON.parse(readFileSync(schema('editor'), 'utf8')) as object;
    const validate = new Ajv({ strict: false, allErrors: true }).compile(editor);
    const both = Object.entries(WRONG).filter(([name]) => name.startsWith('both-dialects'));
    for (const [name, text] of [...both, ...Object.entries(ONE_DIALECT)]) {
      writeFileSync(join(dir, `${name}.toml`), text);
      const parsed = parseToml(text);
      assert.ok(parsed.document, name);
      assert.equal(validate(JSON.parse(toPlainJsonText(parsed.document))), !name.startsWith('both'), `ajv on ${name}: ${JSON.stringify(validate.errors)}`);
    }
    // taplo refuses each of the both-dialect files in the test above (they are in WRONG); here it admits each dialect alone.
    const ok = await taplo(schema('editor'), Object.keys(ONE_DIALECT).map((n) => join(dir, `${n}.toml`)));
    assert.ok(ok.ok, ok.output);
  });
});
