// Every input gets an answer (issue 34): the front end fuzzed with shape
// generators — depth (nested TOML arrays, inline tables, dotted keys and
// table headers, nested JSON, paths of thousands of components, `.`, `..`
// and `//` runs), width (many keys, principals, grants, permission rules)
// and length (long strings, keys, comment lines and paths) — in both
// dialect families (Box and TYBA TOML; sandbox-runtime and Claude Code
// JSON). Each input goes through what lint, explain and compile do, in
// process: the check (app/check.ts), the text report, explain's matrix and
// the Linux target. Each must give an answer — diagnostics with positions
// inside the text, a verdict per platform, an output of bounded size —
// never an exception (the CLI's `internal error`), within a time bound.
// BOXWRIGHT_FUZZ_RUNS sets the budget (the default keeps the file to a few
// seconds). The crash it is written against, a 60,000-component path that
// overflowed the stack, is test/linux/hostile/input-shapes.test.ts.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { PLATFORMS } from '../../compiler/diagnostic.js';
import type { CheckResult } from '../../app/check.js';
import { compileConfig } from '../../app/cli/compile.js';
import { explainCheck } from '../../app/cli/explain.js';
import { configReader } from '../../app/cli/options.js';
import { explainText } from '../../app/format/explain.js';
import { formatText } from '../../app/format/text.js';
import { repoRoot } from '../helpers.js';
import { runs } from '../budget.js';

const RUNS = runs(30);
/** One input's whole answer, however it is shaped (the slowest here take a second or two on a busy machine). */
const TIME_LIMIT_MS = 30_000;
const args = { fs: join(repoRoot, 'examples/machine.json'), worktree: '/home/dev/project', home: '/home/dev' };
const reader = configReader(args);

/** What lint, explain and compile make of the bytes, with the checks every answer must pass. */
async function answer(text: string, file: string): Promise<void> {
  const bytes = Buffer.from(text, 'utf8');
  const started = Date.now();
  let check: CheckResult;
  try {
    check = reader.check(bytes, file);
  } catch (e) {
    assert.fail(`the check threw on ${shown(text)}: ${(e as Error).stack}`);
  }
  const lines = check.text.split('\n').length;
  for (const d of check.diagnostics) {
    assert.equal(d.file, file);
    assert.ok(d.message.length > 0, 'a diagnostic says something');
    const { start, end } = d.span;
    assert.ok(
      start.line >= 1 && start.line <= lines && end.line >= start.line && end.line <= lines,
      `${d.ruleId} at ${start.line}:${start.column} (${lines} lines)`,
    );
    assert.ok(
      start.offset >= 0 && end.offset >= start.offset && end.offset <= check.text.length,
      `${d.ruleId}: offsets ${start.offset}-${end.offset}`,
    );
  }
  for (const p of PLATFORMS) assert.ok(check.verdicts[p], `a verdict for ${p}`);
  // A refused front end says where and why: some error.
  if (!check.ir)
    assert.ok(
      check.diagnostics.some((d) => d.severity === 'error'),
      'no IR without an error',
    );
  // Bounded output: a few times the input, not a multiple of its square.
  const report = formatText([{ path: file, text: check.text, verdicts: check.verdicts, diagnostics: check.diagnostics }]);
  const bound = 64 * bytes.length + 1_000_000;
  assert.ok(report.length <= bound, `lint's report is ${report.length} characters for ${bytes.length} bytes`);
  const explained = explainCheck(check);
  const matrix = explained.matrix ? explainText(explained.matrix) : explained.errors;
  assert.ok(matrix.length <= bound * 4, `explain's text is ${matrix.length} characters for ${bytes.length} bytes`);
  if (check.ir && check.dialect !== 'srt' && check.dialect !== 'claude') {
    const outcome = await compileConfig(check, 'linux', { ...args, force: false });
    if (outcome.ok) assert.ok(outcome.artifacts.length > 0);
  }
  assert.ok(Date.now() - started < TIME_LIMIT_MS, `${Date.now() - started} ms for ${shown(text)}`);
}

function shown(text: string): string {
  return `${text.length} characters: ${JSON.stringify(text.slice(0, 120))}…`;
}

const n = (min: number, max: number): fc.Arbitrary<number> => fc.integer({ min, max });
const repeat = (s: string, k: number, sep = ''): string => Array.from({ length: k }, () => s).join(sep);
/** A path of many components: plain, or with `.`, `..`, empty components, a trailing slash, under ~ or /. */
const deepPath = fc
  .record({
    depth: n(1, 20_000),
    part: fc.constantFrom('a', 'dir', '.', '..', '', 'é', 'x y'),
    root: fc.constantFrom('~/', '/', '/usr/', '~'),
  })
  .map(({ depth, part, root }) => `${root}${repeat(part, depth, '/')}`);
const longString = n(0, 200_000).map((k) => repeat('x', k));
const pathValue = fc.oneof(
  deepPath,
  longString.map((s) => `/tmp/${s}`),
  fc.constantFrom('~/project', '/usr', '/', '~', '', '/tmp'),
);
const list = fc.constantFrom('read', 'write', 'read_file', 'write_file', 'deny', 'exec', 'list', 'metadata');
const quoted = (s: string): string => JSON.stringify(s);

/** TOML values nested `depth` deep: arrays, inline tables, or both in turn. */
const nested = fc
  .record({ depth: n(1, 2_500), kind: fc.constantFrom('array', 'inline', 'mixed'), leaf: fc.constantFrom('"/usr"', '1', '[]', '{}') })
  .map(({ depth, kind, leaf }) => {
    const open = (i: number): string => (kind === 'array' || (kind === 'mixed' && i % 2 === 0) ? '[' : '{ a = ');
    const close = (i: number): string => (kind === 'array' || (kind === 'mixed' && i % 2 === 0) ? ']' : ' }');
    let s = '';
    for (let i = 0; i < depth; i++) s += open(i);
    s += leaf;
    for (let i = depth - 1; i >= 0; i--) s += close(i);
    return s;
  });

const boxShapes: fc.Arbitrary<string> = fc.oneof(
  // Depth: nested values where a path list belongs, and as a key's value anywhere.
  fc.tuple(list, nested).map(([l, v]) => `[agent.filesystem]\n${l} = ${v}\n`),
  nested.map((v) => `x = ${v}\n[agent.filesystem]\nread = ["/usr"]\n`),
  // Depth: dotted keys and table headers.
  fc.tuple(n(1, 3_000), fc.boolean()).map(([d, header]) => (header ? `[${repeat('a', d, '.')}]\nx = 1\n` : `${repeat('a', d, '.')} = 1\n`)),
  fc.tuple(n(1, 3_000)).map(([d]) => `[[${repeat('t', d, '.')}]]\nx = 1\n`),
  // Depth and length: a grant path of thousands of components, or very long.
  fc
    .tuple(list, fc.array(pathValue, { minLength: 1, maxLength: 3 }))
    .map(([l, ps]) => `[agent.filesystem]\nread = ["/usr"]\n${l} = [${ps.map(quoted).join(', ')}]\n`),
  pathValue.map((p) => `[agent.filesystem]\nworkspace = ${quoted(p)}\nread = [${quoted(p)}]\n`),
  // Width: many keys, grants, principals.
  n(1, 20_000).map((k) => `[agent]\n${Array.from({ length: k }, (_, i) => `k${i} = ${i}\n`).join('')}`),
  fc
    .tuple(list, n(1, 3_000))
    .map(
      ([l, k]) => `[agent.filesystem]\nread = ["/usr"]\n${l} = [${Array.from({ length: k }, (_, i) => `"/home/dev/p${i}"`).join(',')}]\n`,
    ),
  fc
    .tuple(n(1, 150), fc.constantFrom('tools', 'mcp_servers'))
    .map(
      ([k, kind]) =>
        `[agent.filesystem]\nread = ["/usr"]\n${Array.from({ length: k }, (_, i) => `[${kind}.p${i}]\ncommand = "x"\n[${kind}.p${i}.filesystem]\nread = ["/usr", "/home/dev/p${i}"]\nwrite = ["/home/dev/p${i}/out"]\n`).join('')}`,
    ),
  // Length: a long string, key, comment or line.
  longString.map((s) => `# ${s}\n[agent.filesystem]\nread = ["/usr"]\n`),
  longString.map((s) => `[agent]\n${quoted(s)} = 1\n[agent.filesystem]\nread = ["/usr"]\n`),
  longString.map((s) => `[agent]\nmodel = ${quoted(s)}\n[agent.filesystem]\nread = ["/usr", ${quoted(`/home/dev/${s}`)}]\n`),
);

const tybaShapes: fc.Arbitrary<string> = fc.oneof(
  fc.array(pathValue, { maxLength: 4 }).map((ps) => `[sandbox]\nread_allow = [${ps.map(quoted).join(', ')}]\n`),
  n(1, 3_000).map((k) => `[sandbox]\nread_allow = [${Array.from({ length: k }, (_, i) => `"~/d${i}"`).join(', ')}]\n`),
  nested.map((v) => `theme = ${v}\n[sandbox]\nread_allow = []\n`),
);

/** JSON nested `depth` deep. */
const jsonNested = fc
  .record({ depth: n(1, 1_500), kind: fc.constantFrom('array', 'object') })
  .map(({ depth, kind }) =>
    kind === 'array' ? `${repeat('[', depth)}${repeat(']', depth)}` : `${repeat('{"a":', depth)}1${repeat('}', depth)}`,
  );
const srtShapes: fc.Arbitrary<string> = fc.oneof(
  fc.array(pathValue, { maxLength: 3 }).map((ps) =>
    JSON.stringify({
      network: { allowedDomains: [], deniedDomains: [] },
      filesystem: { denyRead: ps, allowRead: ps, allowWrite: ps, denyWrite: [] },
    }),
  ),
  n(1, 2_000).map((k) =>
    JSON.stringify({
      network: { allowedDomains: Array.from({ length: k }, (_, i) => `h${i}.example.com`), deniedDomains: [] },
      filesystem: { denyRead: [], allowRead: [], allowWrite: Array.from({ length: k }, (_, i) => `/home/dev/w${i}`), denyWrite: [] },
    }),
  ),
  jsonNested.map((v) => `{"network": {"allowedDomains": [], "deniedDomains": []}, "filesystem": ${v}}`),
);
const claudeShapes: fc.Arbitrary<string> = fc.oneof(
  fc.array(pathValue, { maxLength: 3 }).map((ps) =>
    JSON.stringify({
      sandbox: { enabled: true, filesystem: { allowWrite: ps, denyRead: ps } },
      permissions: { allow: ps.map((p) => `Edit(/${p})`) },
    }),
  ),
  n(1, 2_000).map((k) =>
    JSON.stringify({ sandbox: { enabled: true }, permissions: { deny: Array.from({ length: k }, (_, i) => `Read(//home/dev/s${i})`) } }),
  ),
  jsonNested.map((v) => `{"sandbox": ${v}}`),
  longString.map((s) => JSON.stringify({ sandbox: { enabled: true, filesystem: { allowWrite: [`/${s}`] } }, [s]: s })),
);

describe('every input gets an answer: the front end fuzzed by shape (depth, width, length), both dialect families', {
  concurrency: 1,
}, () => {
  it('Box TOML', async () => {
    await fc.assert(
      fc.asyncProperty(boxShapes, (text) => answer(text, 'shape.toml')),
      { numRuns: RUNS, seed: 3401 },
    );
  });

  it('TYBA TOML', async () => {
    await fc.assert(
      fc.asyncProperty(tybaShapes, (text) => answer(text, 'tyba.toml')),
      { numRuns: Math.ceil(RUNS / 2), seed: 3402 },
    );
  });

  it('sandbox-runtime settings (JSON)', async () => {
    await fc.assert(
      fc.asyncProperty(srtShapes, (text) => answer(text, '.srt-settings.json')),
      { numRuns: Math.ceil(RUNS / 2), seed: 3403 },
    );
  });

  it('Claude Code settings (JSON)', async () => {
    await fc.assert(
      fc.asyncProperty(claudeShapes, (text) => answer(text, '.claude/settings.json')),
      { numRuns: Math.ceil(RUNS / 2), seed: 3404 },
    );
  });

  it('the answers are positioned: a path longer than any platform takes is an error at the grant, and nesting past the parsers’ bounds a syntax error', async () => {
    const deep = `[agent.filesystem]\nread = ["/usr"]\nwrite = [${quoted(`~/${repeat('a', 20_000, '/')}`)}]\n`;
    const check = reader.check(Buffer.from(deep), 'deep.toml');
    const d = check.diagnostics.find((x) => x.ruleId === 'unrepresentable-path' && x.platforms.length === 3);
    assert.ok(d, JSON.stringify(check.diagnostics.map((x) => x.message.slice(0, 80))));
    assert.deepEqual([d.span.start.line, d.span.start.column], [3, 10]);
    const nestedToml = reader.check(Buffer.from(`x = ${repeat('[', 5_000)}${repeat(']', 5_000)}\n`), 'n.toml');
    assert.match(nestedToml.diagnostics[0]!.message, /nested deeper than/);
    const nestedJson = reader.check(Buffer.from(`{"sandbox": ${repeat('[', 5_000)}${repeat(']', 5_000)}}`), 'settings.json');
    assert.match(nestedJson.diagnostics[0]!.message, /nested more than/);
    await answer(deep, 'deep.toml');
  });
});
