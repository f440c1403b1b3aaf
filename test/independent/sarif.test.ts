// The SARIF that `boxwright lint --format sarif` writes, checked by
// Microsoft's SARIF multitool (`validate`: the SARIF 2.1.0 JSON schema it
// ships plus its SARIF rules, SARIF1001…), and by ajv against that same
// final 2.1.0 schema (draft 2020-12), as test/rules/formats.test.ts does
// in the fast tier. The multitool's schema pass reports missing
// properties and out-of-range numbers but not an unknown enum value, which
// ajv's does.
//
// One multitool run validates every log of the file (the lint of the
// examples, the one from a subdirectory, the broken ones): its start is most
// of its time, and its own log names the file of each finding.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import Ajv2020Module from 'ajv/dist/2020.js';
import { exampleNames } from '../compile-helpers.js';
import { repoRoot, requireOrSkip } from '../helpers.js';
import { isExecutable, sarifMultitool } from './tools.js';

const finalSchemaPath = join(repoRoot, 'node_modules', '@microsoft', 'sarif-multitool-linux', 'sarif-2.1.0.json');
const available = existsSync(sarifMultitool) && isExecutable(sarifMultitool) && existsSync(finalSchemaPath);

interface Finding {
  readonly level: string;
  readonly ruleId: string;
  readonly text: string;
}

/** `Sarif.Multitool validate` of the logs, in one run: what it found in each, by name, as its own SARIF log says. */
function multitool(dir: string, logs: Record<string, unknown>): Record<string, Finding[]> {
  const inputs = Object.entries(logs).map(([name, log]) => {
    const input = join(dir, `${name}.sarif`);
    writeFileSync(input, JSON.stringify(log, null, 2));
    return input;
  });
  const output = join(dir, 'validation.sarif');
  const r = spawnSync(
    sarifMultitool,
    ['validate', ...inputs, '--json-schema', finalSchemaPath, '--output', output, '--log', 'ForceOverwrite'],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
  const v = JSON.parse(readFileSync(output, 'utf8')) as {
    runs: {
      invocations?: { executionSuccessful: boolean }[];
      results?: {
        level?: string;
        ruleId: string;
        message: { text?: string; arguments?: string[] };
        locations?: { physicalLocation?: { artifactLocation?: { uri?: string } } }[];
      }[];
    }[];
  };
  assert.ok(
    v.runs[0]!.invocations?.every((i) => i.executionSuccessful),
    'the multitool ran to the end',
  );
  const found: Record<string, Finding[]> = Object.fromEntries(Object.keys(logs).map((name) => [name, []]));
  for (const x of v.runs[0]!.results ?? []) {
    const uri = x.locations?.[0]?.physicalLocation?.artifactLocation?.uri;
    const name = Object.keys(logs).find((n) => uri === pathToFileURL(join(dir, `${n}.sarif`)).href);
    assert.ok(name !== undefined, `a finding of the multitool in no log it was given: ${JSON.stringify(x)}`);
    found[name]!.push({ level: x.level ?? 'warning', ruleId: x.ruleId, text: x.message.text ?? (x.message.arguments ?? []).join(' ') });
  }
  return found;
}

/** The SARIF log of `boxwright lint` over every example, as a user's CI would produce it. */
function lintSarif(): Record<string, unknown> {
  const r = spawnSync(
    process.execPath,
    [
      join(repoRoot, 'bin', 'boxwright.cjs'),
      'lint',
      '--fs',
      'examples/machine.json',
      '--format',
      'sarif',
      ...exampleNames.map((n) => `examples/${n}`),
    ],
    {
      cwd: repoRoot,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  assert.equal(r.status, 1, r.stderr); // some examples are refused on purpose
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

const Ajv2020 = Ajv2020Module.default;

type Log = {
  version?: string;
  runs: {
    tool: { driver: { rules: { id: string; name?: string }[] } };
    results: { locations: { physicalLocation: { region: { startLine: number } } }[] }[];
  }[];
};
type SubLog = {
  runs: {
    originalUriBaseIds: Record<string, { uri: string }>;
    results: { locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string } } }[] }[];
  }[];
};

describe('independent: SARIF through the SARIF multitool and the final 2.1.0 schema', () => {
  let dir = '';
  let log: Record<string, unknown> = {};
  let repo = '';
  let subRun: { status: number | null; stdout: string; stderr: string } | undefined;
  /** The multitool's findings in each log (when it is there). */
  let found: Record<string, Finding[]> = {};
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'bw-sarif-'));
    log = lintSarif();
    // A lint from a subdirectory of a git work tree, with names that URIs must encode.
    repo = join(dir, 'repo');
    mkdirSync(join(repo, 'configs', 'team a'), { recursive: true });
    spawnSync('git', ['init', '-q', repo]);
    writeFileSync(join(repo, 'configs', 'team a', 'my config #1.toml'), '[agent.filesystem]\nlist = ["~/inbox"]\n');
    writeFileSync(join(repo, 'configs', '100%.toml'), '[agent.filesystem]\nwrite = ["~/project"]\n');
    subRun = spawnSync(
      process.execPath,
      [
        join(repoRoot, 'bin', 'boxwright.cjs'),
        'lint',
        '--fs',
        join(repoRoot, 'examples', 'machine.json'),
        '--format',
        'sarif',
        'team a/my config #1.toml',
        '100%.toml',
      ],
      { cwd: join(repo, 'configs'), encoding: 'utf8' },
    );
    if (!available) return;
    // Broken logs: each must be reported (the check can fail).
    const noVersion = structuredClone(log) as Log;
    delete noVersion.version;
    const line0 = structuredClone(log) as Log;
    line0.runs[0]!.results[0]!.locations[0]!.physicalLocation.region.startLine = 0;
    const sameName = structuredClone(log) as Log;
    const rule = sameName.runs[0]!.tool.driver.rules.find((r) => r.id === 'schema')!;
    rule.name = 'Schema';
    const logs: Record<string, unknown> = { examples: log, noVersion, line0, sameName };
    if (subRun.status === 1) logs['subdirectory'] = JSON.parse(subRun.stdout) as unknown;
    found = multitool(dir, logs);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the multitool finds nothing, error, warning or note, in the lint of every example', (t) => {
    const skip = requireOrSkip(available, '@microsoft/sarif-multitool (npm ci, Linux package)');
    if (skip) return t.skip(skip);
    const runs = log.runs as { results: unknown[] }[];
    assert.ok(runs[0]!.results.length > 30, 'the log holds results');
    assert.deepEqual(found['examples'], []);
  });

  it('ajv accepts it against the final 2.1.0 schema', (t) => {
    const skip = requireOrSkip(existsSync(finalSchemaPath), 'the SARIF 2.1.0 schema of @microsoft/sarif-multitool-linux (npm ci)');
    if (skip) return t.skip(skip);
    const validate = new Ajv2020({ strict: false, allErrors: true, validateFormats: false }).compile(
      JSON.parse(readFileSync(finalSchemaPath, 'utf8')) as object,
    );
    assert.ok(validate(log), JSON.stringify(validate.errors?.slice(0, 5), null, 2));
    const fatal = structuredClone(log) as { runs: { results: { level: string }[] }[] };
    fatal.runs[0]!.results[0]!.level = 'fatal';
    assert.equal(validate(fatal), false, 'ajv refuses an unknown level');
  });

  it('from a subdirectory of a git work tree: URIs relative to its root through %SRCROOT%, percent-encoded; the multitool and GitHub conventions agree', (t) => {
    const skip = requireOrSkip(available, '@microsoft/sarif-multitool (npm ci, Linux package)');
    if (skip) return t.skip(skip);
    const r = subRun!;
    assert.equal(r.status, 1, r.stderr);
    const sub = JSON.parse(r.stdout) as SubLog;
    const run = sub.runs[0]!;
    // GitHub code scanning: a relative URI with uriBaseId %SRCROOT%, whose base is the repository root, given as an absolute file URI ending in '/'.
    assert.deepEqual(run.originalUriBaseIds, { '%SRCROOT%': { uri: `${pathToFileURL(repo).href}/` } });
    const uris = [...new Set(run.results.map((x) => JSON.stringify(x.locations[0]!.physicalLocation.artifactLocation)))].sort();
    assert.deepEqual(uris, [
      JSON.stringify({ uri: 'configs/100%25.toml', uriBaseId: '%SRCROOT%' }),
      JSON.stringify({ uri: 'configs/team%20a/my%20config%20%231.toml', uriBaseId: '%SRCROOT%' }),
    ]);
    for (const u of run.results.map((x) => x.locations[0]!.physicalLocation.artifactLocation.uri))
      assert.equal(new URL(u, run.originalUriBaseIds['%SRCROOT%']!.uri).protocol, 'file:');
    assert.equal(
      decodeURIComponent(new URL('configs/team%20a/my%20config%20%231.toml', run.originalUriBaseIds['%SRCROOT%']!.uri).pathname),
      join(repo, 'configs', 'team a', 'my config #1.toml'),
    );
    assert.deepEqual(found['subdirectory'], []);
    // The examples linted from examples/: the same URIs as from the root.
    const fromExamples = spawnSync(
      process.execPath,
      [join(repoRoot, 'bin', 'boxwright.cjs'), 'lint', '--fs', 'machine.json', '--format', 'sarif', 'coding-agent.toml'],
      { cwd: join(repoRoot, 'examples'), encoding: 'utf8' },
    );
    const ex = JSON.parse(fromExamples.stdout) as SubLog;
    assert.deepEqual(
      [...new Set(ex.runs[0]!.results.map((x) => x.locations[0]!.physicalLocation.artifactLocation.uri))],
      ['examples/coding-agent.toml'],
    );
  });

  it('broken logs are reported (the check can fail)', (t) => {
    const skip = requireOrSkip(available, '@microsoft/sarif-multitool (npm ci, Linux package)');
    if (skip) return t.skip(skip);
    assert.ok(
      found['noVersion']!.some((f) => f.level === 'error' && f.ruleId === 'JSON1002'),
      'missing version',
    );
    assert.ok(
      found['line0']!.some((f) => f.level === 'error' && f.ruleId === 'JSON1008'),
      'startLine 0',
    );
    assert.ok(
      found['sameName']!.some((f) => f.ruleId === 'SARIF1001'),
      "a rule's name equal to its id",
    );
  });
});
