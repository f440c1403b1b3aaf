import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { repoRoot } from '../helpers.js';

const bin = join(repoRoot, 'bin', 'boxwright.cjs');
const scratch = mkdtempSync(join(tmpdir(), 'boxwright-cli-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

function boxwright(args: string[], input?: string | Buffer): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: repoRoot, input, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '' } });
  return { status: r.status, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

function file(name: string, content: string | Buffer): string {
  const p = join(scratch, name);
  writeFileSync(p, content);
  return p;
}

describe('boxwright lint', () => {
  it('lints a bundled example with the manifest: diagnostics, verdicts, exit 1 on a refusal', () => {
    const r = boxwright(['lint', '--fs', 'examples/machine.json', 'examples/write-only.toml']);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /examples\/write-only\.toml:4:10 {2}error {2}write-only {2}\[linux\] {2}Linux cannot enforce write-only access/);
    assert.match(r.stdout, /macos accepted · linux refused · windows accepted-with-warnings/);
  });
  it('exit 0 when nothing is refused and warnings are allowed; --max-warnings turns them into exit 1', () => {
    assert.equal(boxwright(['lint', '--fs', 'examples/machine.json', 'examples/coding-agent.toml']).status, 0);
    assert.equal(boxwright(['lint', '--fs', 'examples/machine.json', '--max-warnings', '0', 'examples/coding-agent.toml']).status, 1);
  });
  it('--platform keeps only those platforms, and the exit follows them', () => {
    const r = boxwright(['lint', '--fs', 'examples/machine.json', '--platform', 'macos', 'examples/write-only.toml']);
    assert.equal(r.status, 0);
    assert.doesNotMatch(r.stdout, /\[linux\]/);
  });
  it('a misspelt key: a schema error at its exact line and column with a did-you-mean, exit 1, in the JSON shape', () => {
    const cfg = file('typo.toml', '[agent.filesystem]\nread = ["~/project"]\nwirte = ["~/project/output"]\n');
    const r = boxwright(['lint', '--fs', 'examples/machine.json', '--format', 'json', cfg]);
    assert.equal(r.status, 1);
    const json = JSON.parse(r.stdout) as { version: number; files: { path: string; dialect: string; verdicts: Record<string, string>; diagnostics: { ruleId: string; severity: string; platforms: string[]; message: string; file: string; range: { start: { line: number; column: number }; end: { line: number; column: number } }; related: unknown[]; suggestion?: string }[] }[] };
    assert.equal(json.version, 2);
    const f = json.files[0]!;
    assert.equal(f.dialect, 'box');
    assert.deepEqual(f.verdicts, { macos: 'refused', linux: 'refused', windows: 'refused' });
    const d = f.diagnostics[0]!;
    assert.equal(d.ruleId, 'schema');
    assert.equal(d.severity, 'error');
    assert.deepEqual(d.platforms, ['macos', 'linux', 'windows']);
    assert.equal(d.message, 'unknown key `wirte` in [agent.filesystem]; did you mean `write`?');
    assert.deepEqual(d.range, { start: { line: 3, column: 1 }, end: { line: 3, column: 6 } });
    assert.equal(d.file, cfg);
    assert.deepEqual(d.related, []);
  });
  it('a value of the wrong type is an error at the value', () => {
    const cfg = file('type.toml', '[agent.filesystem]\nread = "~/project"\n');
    const r = boxwright(['lint', '--format', 'json', '--fs', 'none', cfg]);
    const d = (JSON.parse(r.stdout) as { files: { diagnostics: { message: string; range: { start: { line: number; column: number } } }[] }[] }).files[0]!.diagnostics[0]!;
    assert.equal(d.message, '`agent.filesystem.read` must be an array, found a string');
    assert.deepEqual(d.range.start, { line: 2, column: 8 });
  });
  it('text output has a code frame with a caret under the exact value', () => {
    const cfg = file('frame.toml', '[agent.filesystem]\nlist = ["~/inbox"]\n');
    const r = boxwright(['lint', '--fs', 'examples/machine.json', cfg]);
    assert.ok(r.stdout.includes('  2 | list = ["~/inbox"]\n    |         ^^^^^^^^^\n'), r.stdout);
  });
  it('a TOML syntax error is positioned on its own line, exit 1', () => {
    const cfg = file('syntax.toml', '[agent.filesystem\nread = ["~/project"]\n');
    const r = boxwright(['lint', '--fs', 'none', cfg]);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /syntax\.toml:1:\d+ {2}error {2}toml-syntax/);
  });
  it('a file that is neither dialect, or both, says so', () => {
    assert.match(boxwright(['lint', '--fs', 'none', file('neither.toml', 'x = 1\n')]).stdout, /not a sandbox configuration/);
    assert.match(boxwright(['lint', '--fs', 'none', file('both.toml', '[sandbox]\n[agent]\n')]).stdout, /both dialects in one file/);
  });
  it('unreadable or missing files: exit 2 with the path and the reason', () => {
    const r = boxwright(['lint', join(scratch, 'missing.toml')]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /cannot read .*missing\.toml: no such file/);
    const dir = boxwright(['lint', scratch]);
    assert.equal(dir.status, 2);
    assert.match(dir.stderr, /is a directory/);
  });
  it('usage errors: exit 2', () => {
    assert.equal(boxwright(['lint', '--format', 'yaml', 'x.toml']).status, 2);
    assert.equal(boxwright(['lint', '--platform', 'bsd', 'examples/write-only.toml']).status, 2);
    assert.equal(boxwright(['frobnicate']).status, 2);
    assert.equal(boxwright(['lint', '--fs', join(scratch, 'nope.json'), 'examples/write-only.toml']).status, 2);
  });
  it('reads standard input when no file is named', () => {
    const r = boxwright(['lint', '--fs', 'examples/machine.json'], '[agent.filesystem]\nlist = ["~/inbox"]\n');
    assert.equal(r.status, 1);
    assert.match(r.stdout, /<stdin>:2:9/);
  });
});

describe('bad input never ends in a stack trace', () => {
  const cases: [string, Buffer | string][] = [
    ['invalid UTF-8', Buffer.from([0x5b, 0x61, 0x5d, 0x0a, 0x62, 0x20, 0x3d, 0x20, 0x22, 0xff, 0xfe, 0x22, 0x0a])],
    ['a truncated file', '[agent.filesystem]\nread = ["~/pro'],
    ['a 1 MB single line', 'x = "' + 'a'.repeat(1 << 20)],
    ['10,000 nested arrays', 'x = ' + '['.repeat(10000) + ']'.repeat(10000) + '\n'],
    ['keys with every escape', '"\\b\\t\\n\\f\\r\\"\\\\\\u00e9\\U0001F600" = 1\n"\\q" = 2\n'],
  ];
  for (const [name, content] of cases) {
    it(name, () => {
      const r = boxwright(['lint', '--fs', 'none', file(`bad-${name.replace(/\W+/g, '-')}.toml`, content)]);
      assert.equal(r.status, 1, r.stderr);
      assert.doesNotMatch(r.stderr + r.stdout, /\n\s+at .*\(.*:\d+:\d+\)/, 'a stack trace');
      assert.match(r.stdout, /:\d+:\d+ {2}error {2}(toml-syntax|schema)/);
    });
  }
});

describe('other commands', () => {
  it('rules lists every rule and prints one', () => {
    const list = boxwright(['rules']);
    assert.equal(list.status, 0);
    assert.match(list.stdout, /^write-only +A write or write_file grant/m);
    const one = boxwright(['rules', 'list-without-content']);
    assert.match(one.stdout, /fails:\n {4}\[agent\.filesystem\]\n {4}list = \["~\/inbox"\]/);
    assert.equal(boxwright(['rules', 'no-such-rule']).status, 2);
  });
  it('schema prints a JSON Schema with descriptions', () => {
    const s = JSON.parse(boxwright(['schema']).stdout) as { $schema: string; properties: Record<string, { description?: string }> };
    assert.match(s.$schema, /json-schema\.org/);
    assert.ok(s.properties['agent']?.description && s.properties['sandbox']?.description);
  });
});

describe('principal names name artifact files', () => {
  it('a tool or server name that could escape --out is a schema error at the key', () => {
    const cfg = file('names.toml', '[tools."x/../../y".filesystem]\nread = ["~/a"]\n\n[mcp_servers.".."]\n');
    const r = boxwright(['lint', '--fs', 'none', '--format', 'json', cfg]);
    const ds = (JSON.parse(r.stdout) as { files: { diagnostics: { ruleId: string; message: string; range: { start: { line: number; column: number } } }[] }[] }).files[0]!.diagnostics;
    assert.deepEqual(ds.map((d) => [d.ruleId, d.range.start.line, d.range.start.column]), [['schema', 1, 8], ['schema', 4, 14]]);
    assert.match(ds[0]!.message, /"x\/\.\.\/\.\.\/y" cannot name a principal in \[tools\]/);
  });
});
