import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { type CliRun, cli, plainEnv } from '../cli-in-process.js';
import { repoRoot } from '../helpers.js';
import { finished, WAIT_LIMIT_MS } from '../waits.js';

const bin = join(repoRoot, 'bin', 'boxwright.cjs');
const scratch = mkdtempSync(join(tmpdir(), 'boxwright-cli-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** In process (test/cli-in-process.ts); the tests below that need the real process start bin/boxwright.cjs, each saying why. */
const boxwright = (args: string[], input?: string | Buffer): Promise<CliRun> =>
  cli(args, { env: plainEnv(), ...(input !== undefined ? { stdin: input } : {}) });

function file(name: string, content: string | Buffer): string {
  const p = join(scratch, name);
  writeFileSync(p, content);
  return p;
}

describe('boxwright lint', () => {
  it('lints a bundled example with the manifest: diagnostics, verdicts, exit 1 on a refusal', async () => {
    const r = await boxwright(['lint', '--fs', 'examples/machine.json', 'examples/write-only.toml']);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /examples\/write-only\.toml:4:10 {2}error {2}write-only {2}\[linux\] {2}Linux cannot enforce write-only access/);
    assert.match(r.stdout, /macos accepted · linux refused · windows accepted-with-warnings/);
  });
  it('`--` ends the options: what follows is files, even one whose name starts with a dash (it read standard input instead)', async () => {
    file('-dashed.toml', '[agent.filesystem]\nread = ["~/p"]\n');
    const plain = await boxwright(['lint', '--fs', 'examples/machine.json', 'examples/write-only.toml'], '');
    const r = await boxwright(['lint', '--fs', 'examples/machine.json', '--', 'examples/write-only.toml'], '');
    assert.deepEqual([r.status, r.stdout], [plain.status, plain.stdout]);
    const d = await cli(['lint', '--', '-dashed.toml'], { cwd: scratch, env: plainEnv(), stdin: '' });
    assert.match(d.stdout, /-dashed\.toml \(box\)/);
    assert.doesNotMatch(d.stdout, /<stdin>/);
  });
  it('exit 0 when nothing is refused and warnings are allowed; --max-warnings turns them into exit 1', async () => {
    assert.equal((await boxwright(['lint', '--fs', 'examples/machine.json', 'examples/coding-agent.toml'])).status, 0);
    assert.equal(
      (await boxwright(['lint', '--fs', 'examples/machine.json', '--max-warnings', '0', 'examples/coding-agent.toml'])).status,
      1,
    );
  });
  it('--platform keeps only those platforms, and the exit follows them', async () => {
    const r = await boxwright(['lint', '--fs', 'examples/machine.json', '--platform', 'macos', 'examples/write-only.toml']);
    assert.equal(r.status, 0);
    assert.doesNotMatch(r.stdout, /\[linux\]/);
  });
  it('a misspelt key: a schema error at its exact line and column with a did-you-mean, exit 1, in the JSON shape', async () => {
    const cfg = file('typo.toml', '[agent.filesystem]\nread = ["~/project"]\nwirte = ["~/project/output"]\n');
    const r = await boxwright(['lint', '--fs', 'examples/machine.json', '--format', 'json', cfg]);
    assert.equal(r.status, 1);
    const json = JSON.parse(r.stdout) as {
      version: number;
      files: {
        path: string;
        dialect: string;
        verdicts: Record<string, string>;
        diagnostics: {
          ruleId: string;
          severity: string;
          platforms: string[];
          message: string;
          file: string;
          range: { start: { line: number; column: number }; end: { line: number; column: number } };
          related: unknown[];
          suggestion?: string;
        }[];
      }[];
    };
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
  it('a value of the wrong type is an error at the value', async () => {
    const cfg = file('type.toml', '[agent.filesystem]\nread = "~/project"\n');
    const r = await boxwright(['lint', '--format', 'json', '--fs', 'none', cfg]);
    const d = (
      JSON.parse(r.stdout) as { files: { diagnostics: { message: string; range: { start: { line: number; column: number } } }[] }[] }
    ).files[0]!.diagnostics[0]!;
    assert.equal(d.message, '`agent.filesystem.read` must be an array, found a string');
    assert.deepEqual(d.range.start, { line: 2, column: 8 });
  });
  it('text output has a code frame with a caret under the exact value', async () => {
    const cfg = file('frame.toml', '[agent.filesystem]\nlist = ["~/inbox"]\n');
    const r = await boxwright(['lint', '--fs', 'examples/machine.json', cfg]);
    assert.ok(r.stdout.includes('  2 | list = ["~/inbox"]\n    |         ^^^^^^^^^\n'), r.stdout);
  });
  it('a TOML syntax error is positioned on its own line, exit 1', async () => {
    const cfg = file('syntax.toml', '[agent.filesystem\nread = ["~/project"]\n');
    const r = await boxwright(['lint', '--fs', 'none', cfg]);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /syntax\.toml:1:\d+ {2}error {2}toml-syntax/);
  });
  it('a file that is neither dialect, or both, says so', async () => {
    assert.match((await boxwright(['lint', '--fs', 'none', file('neither.toml', 'x = 1\n')])).stdout, /not a sandbox configuration/);
    assert.match(
      (await boxwright(['lint', '--fs', 'none', file('both.toml', '[sandbox]\n[agent]\n')])).stdout,
      /both dialects in one file/,
    );
  });
  it('unreadable or missing files: exit 2 with the path and the reason', async () => {
    const r = await boxwright(['lint', join(scratch, 'missing.toml')]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /cannot read .*missing\.toml: no such file/);
    const dir = await boxwright(['lint', mkdtempSync(join(scratch, 'empty-'))]);
    assert.equal(dir.status, 2);
    assert.match(dir.stderr, /is a directory that holds no \.toml or \.json file/);
  });
  it('usage errors: exit 2', async () => {
    assert.equal((await boxwright(['lint', '--format', 'yaml', 'x.toml'])).status, 2);
    assert.equal((await boxwright(['lint', '--platform', 'bsd', 'examples/write-only.toml'])).status, 2);
    assert.equal((await boxwright(['frobnicate'])).status, 2);
    assert.equal((await boxwright(['lint', '--fs', join(scratch, 'nope.json'), 'examples/write-only.toml'])).status, 2);
  });
  it('reads standard input when no file is named', async () => {
    const r = await boxwright(['lint', '--fs', 'examples/machine.json'], '[agent.filesystem]\nlist = ["~/inbox"]\n');
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
    it(name, async () => {
      const r = await boxwright(['lint', '--fs', 'none', file(`bad-${name.replace(/\W+/g, '-')}.toml`, content)]);
      assert.equal(r.status, 1, r.stderr);
      assert.doesNotMatch(r.stderr + r.stdout, /\n\s+at .*\(.*:\d+:\d+\)/, 'a stack trace');
      assert.match(r.stdout, /:\d+:\d+ {2}error {2}(toml-syntax|schema)/);
    });
  }
});

describe('other commands', () => {
  it('rules lists every rule and prints one', async () => {
    const list = await boxwright(['rules']);
    assert.equal(list.status, 0);
    assert.match(list.stdout, /^write-only +A write or write_file grant/m);
    const one = await boxwright(['rules', 'list-without-content']);
    assert.match(one.stdout, /fails:\n {4}\[agent\.filesystem\]\n {4}list = \["~\/inbox"\]/);
    assert.equal((await boxwright(['rules', 'no-such-rule'])).status, 2);
  });
  it('schema prints a JSON Schema with descriptions', async () => {
    const s = JSON.parse((await boxwright(['schema'])).stdout) as { $schema: string; properties: Record<string, { description?: string }> };
    assert.match(s.$schema, /json-schema\.org/);
    assert.ok(s.properties['agent']?.description && s.properties['sandbox']?.description);
  });
});

describe('principal names name artifact files', () => {
  it('a tool or server name that could escape --out is a schema error at the key', async () => {
    const cfg = file('names.toml', '[tools."x/../../y".filesystem]\nread = ["~/a"]\n\n[mcp_servers.".."]\n');
    const r = await boxwright(['lint', '--fs', 'none', '--format', 'json', cfg]);
    const ds = (
      JSON.parse(r.stdout) as {
        files: { diagnostics: { ruleId: string; message: string; range: { start: { line: number; column: number } } }[] }[];
      }
    ).files[0]!.diagnostics;
    assert.deepEqual(
      ds.map((d) => [d.ruleId, d.range.start.line, d.range.start.column]),
      [
        ['schema', 1, 8],
        ['schema', 4, 14],
      ],
    );
    assert.match(ds[0]!.message, /"x\/\.\.\/\.\.\/y" cannot name a principal in \[tools\]/);
  });
});

describe('issue 22: a quieter, kinder lint', () => {
  const six =
    '[agent.filesystem]\nread = ["~/ncproj"]\nwrite = ["~/ncproj/output", "~/other"]\ndeny = ["~/ncproj/.env"]\nexec = ["/usr/bin/git"]\n';
  it('--fs none: the "depends on the machine" infos are one line per file; -v lists them; JSON keeps every one', async () => {
    const cfg = file('six.toml', six);
    const r = await boxwright(['lint', '--fs', 'none', '--home', '/home/dev', cfg]);
    assert.equal(r.status, 1, 'the error is still an error');
    const findings = r.stdout.split('\n').filter((l) => l.startsWith(cfg));
    assert.deepEqual(
      findings.map((l) => l.slice(cfg.length).split('  ').slice(0, 3).join('  ')),
      [
        ':2:9  info  exec-not-confined',
        ':3:10  info  low-label-exposure',
        ':3:29  error  write-only',
        ':3:29  warning  write-only',
        '  info  10 findings depend on the machine, which the view does not know (windows-open-reads, missing-path ×4, socket-in-read-grant, host-trusted-path ×2, deny-absent-path, exec-dependencies; lines 1, 2, 3, 4, 5): -v lists them, --fs host or --fs FILE.json decides them',
        ' (box): macos accepted · linux refused · windows accepted-with-warnings',
      ],
    );
    assert.match(r.stdout, /\n1 error, 1 warning, 12 info\n$/);
    const verbose = await boxwright(['lint', '--fs', 'none', '--home', '/home/dev', '-v', cfg]);
    assert.equal(verbose.stdout.split('\n').filter((l) => l.startsWith(cfg) && l.includes('depends on the machine')).length, 10);
    const json = JSON.parse((await boxwright(['lint', '--fs', 'none', '--home', '/home/dev', '--format', 'json', cfg])).stdout) as {
      files: { diagnostics: { message: string }[] }[];
    };
    assert.equal(json.files[0]!.diagnostics.filter((d) => d.message.startsWith('depends on the machine')).length, 10);
  });
  it('--quiet reports errors only; verdicts, the exit status and --max-warnings still count the rest', async () => {
    const cfg = file('quiet.toml', '[agent.filesystem]\nread = ["~/project"]\ndeny = ["~/project/.env"]\n');
    const q = await boxwright(['lint', '--fs', 'examples/machine.json', '-q', cfg]);
    assert.equal(
      q.stdout,
      `${cfg} (box): macos accepted · linux accepted-with-warnings · windows accepted-with-warnings\n0 errors, 0 warnings, 0 info\n`,
    );
    assert.equal(q.status, 0);
    const gate = await boxwright(['lint', '--fs', 'examples/machine.json', '--quiet', '--max-warnings', '0', cfg]);
    assert.equal(gate.status, 1);
    assert.equal(gate.stderr, 'boxwright: 2 warnings exceed --max-warnings 0\n');
    const refused = await boxwright(['lint', '--fs', 'examples/machine.json', '--quiet', '--format', 'json', 'examples/write-only.toml']);
    const ds = (JSON.parse(refused.stdout) as { files: { diagnostics: { severity: string }[] }[] }).files[0]!.diagnostics;
    assert.ok(ds.length > 0 && ds.every((d) => d.severity === 'error'));
  });
  it('"1 warning exceeds", not "1 warnings exceed"', async () => {
    const cfg = file(
      'one-warning.toml',
      '[agent.filesystem]\nread = ["~/project"]\ndeny = ["~/.terraformrc", "~/.m2/settings.xml", "~/.kaggle", "~/.databrickscfg"]\n[tools.fetch.network]\n',
    );
    const r = await boxwright(['lint', '--fs', 'examples/machine.json', '--platform', 'macos', '--max-warnings', '0', cfg]);
    assert.equal(r.stderr, 'boxwright: 1 warning exceeds --max-warnings 0\n');
    assert.match(r.stdout, /\n0 errors, 1 warning, /);
  });
  it('windows-open-reads: once per config, and a config that denies the credential files that exist passes --max-warnings 0', async () => {
    const cfg = file(
      'denies.toml',
      '[agent.filesystem]\nread = ["~/project"]\ndeny = ["~/.terraformrc", "~/.m2/settings.xml", "~/.kaggle", "~/.databrickscfg"]\n\n[mcp_servers.search.filesystem]\nread = ["~/index"]\n',
    );
    const r = await boxwright(['lint', '--fs', 'examples/machine.json', '--max-warnings', '0', cfg]);
    assert.equal(r.status, 0, r.stdout);
    assert.doesNotMatch(r.stdout, /windows-open-reads/);
    const open = await boxwright(['lint', '--fs', 'examples/machine.json', '--format', 'json', 'examples/coding-agent.toml']);
    const ids = (JSON.parse(open.stdout) as { files: { diagnostics: { ruleId: string }[] }[] }).files[0]!.diagnostics.map((d) => d.ruleId);
    assert.equal(ids.filter((id) => id === 'windows-open-reads').length, 1, 'a config of three principals: one report');
  });
  it('a directory or a glob finds the sandbox configs in it (--only-configs semantics); none found is exit 2', async (t) => {
    const dir = mkdtempSync(join(scratch, 'tree-'));
    mkdirSync(join(dir, 'sandbox', 'deep'), { recursive: true });
    mkdirSync(join(dir, '.hidden'));
    mkdirSync(join(dir, 'node_modules'));
    writeFileSync(join(dir, 'sandbox', 'a.toml'), '[agent.filesystem]\nread = ["~/project"]\n');
    writeFileSync(join(dir, 'sandbox', 'deep', 'b.toml'), '[agent.filesystem]\nwrite = ["~/project/output"]\n');
    writeFileSync(join(dir, 'sandbox', 'pyproject.toml'), '[project]\nname = "x"\n');
    writeFileSync(join(dir, 'sandbox', 'notes.txt'), '[agent.filesystem]\n');
    writeFileSync(join(dir, '.hidden', 'c.toml'), '[agent]\n');
    writeFileSync(join(dir, 'node_modules', 'd.toml'), '[agent]\n');
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const verdictLines = (out: string) => out.split('\n').filter((l) => l.includes(' (box): '));
    // In `dir`: relative paths (the manifest's, the globs') are read from the command's directory, not the process's.
    const inDir = await cli(['lint', '--fs', 'examples/machine.json', '--platform', 'linux', '.'], { cwd: dir, env: plainEnv() });
    // Run from `dir`, the manifest path is relative to the repository: give it absolutely.
    const run = (...a: string[]) =>
      cli(['lint', '--fs', join(repoRoot, 'examples/machine.json'), '--platform', 'linux', ...a], { cwd: dir, env: plainEnv() });
    assert.equal(inDir.status, 2, 'the relative manifest is not found from there: a usage error');
    const all = await run('.');
    assert.deepEqual(verdictLines(all.stdout), [
      'sandbox/a.toml (box): linux accepted (not checked: macos, windows)',
      'sandbox/deep/b.toml (box): linux refused (not checked: macos, windows)',
    ]);
    assert.equal(all.status, 1);
    assert.deepEqual(verdictLines((await run('sandbox/')).stdout), [
      'sandbox/a.toml (box): linux accepted (not checked: macos, windows)',
      'sandbox/deep/b.toml (box): linux refused (not checked: macos, windows)',
    ]);
    assert.deepEqual(verdictLines((await run('sandbox/*.toml')).stdout), [
      'sandbox/a.toml (box): linux accepted (not checked: macos, windows)',
    ]);
    assert.deepEqual(verdictLines((await run('./sandbox/**/*.toml')).stdout), [
      'sandbox/a.toml (box): linux accepted (not checked: macos, windows)',
      'sandbox/deep/b.toml (box): linux refused (not checked: macos, windows)',
    ]);
    const none = await run('nothing/*.toml');
    assert.equal(none.status, 2);
    assert.equal(none.stderr, 'boxwright: cannot read nothing/*.toml: matches no file\n');
    // A file named explicitly is linted whatever it is.
    assert.match((await run('sandbox/pyproject.toml')).stdout, /not a sandbox configuration/);
  });
  // Spawned on purpose: a read that never ends would hang this process; the real binary's is bounded by spawnSync's timeout.
  it('a FIFO, /dev/zero, an oversized file or an endless standard input is refused at once (exit 2), never read forever', async (t) => {
    const dir = mkdtempSync(join(scratch, 'special-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const fifo = join(dir, 'pipe.toml');
    spawnSync('mkfifo', [fifo]);
    const big = join(dir, 'big.toml');
    writeFileSync(big, '');
    truncateSync(big, 17 * 1024 * 1024);
    const cases: [string[], string][] = [
      [[fifo], `boxwright: cannot read ${fifo}: is a FIFO, not a regular file\n`],
      [['/dev/zero'], 'boxwright: cannot read /dev/zero: is a character device, not a regular file\n'],
      [[big], `boxwright: cannot read ${big}: is larger than 16 MiB (17825792 bytes), the most boxwright reads\n`],
    ];
    for (const [a, stderr] of cases) {
      const r = finished(
        spawnSync(process.execPath, [bin, 'lint', '--fs', 'none', ...a], {
          encoding: 'utf8',
          timeout: WAIT_LIMIT_MS,
          env: { ...process.env, NO_COLOR: '1' },
        }),
        `boxwright lint ${a.join(' ')} (refused, or a hang)`,
      );
      assert.equal(r.error, undefined, `${a.join(' ')}: ${String(r.error)}`);
      assert.deepEqual([r.status, r.stderr], [2, stderr]);
    }
    const zero = finished(
      spawnSync('bash', ['-c', `${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} lint --fs none - < /dev/zero`], {
        encoding: 'utf8',
        timeout: WAIT_LIMIT_MS,
      }),
      'boxwright lint - < /dev/zero (refused past 16 MiB, or a hang)',
    );
    assert.deepEqual([zero.status, zero.stderr], [2, 'boxwright: cannot read <stdin>: runs on past 16 MiB, the most boxwright reads\n']);
    const explain = finished(
      spawnSync(process.execPath, [bin, 'explain', '--fs', 'none', fifo], { encoding: 'utf8', timeout: WAIT_LIMIT_MS }),
      'boxwright explain FIFO (refused, or a hang)',
    );
    assert.equal(explain.status, 2, explain.stderr);
    assert.match(explain.stderr, /is a FIFO, not a regular file/);
  });
});
