/**
 * What a new user reads (issue 14 items 5, 11, 13, 14): misspelt tables,
 * manifest errors, messages and code frames, `run`'s exit statuses and
 * hints, through bin/ as a user runs it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { type CliRun, cli } from '../cli-in-process.js';
import { repoRoot } from '../helpers.js';
import { finished, WAIT_LIMIT_MS } from '../waits.js';

const bin = join(repoRoot, 'bin', 'boxwright.cjs');
const scratch = mkdtempSync(join(tmpdir(), 'boxwright-messages-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '' };

/** In process (test/cli-in-process.ts): what a command prints does not need a process of its own. */
const boxwright = (args: readonly string[], cwd = repoRoot): Promise<CliRun> => cli(args, { cwd, env });

/** `run` starts a sandbox with the process's own streams: spawned, as a user runs it. */
function spawned(args: readonly string[], cwd = repoRoot): { status: number | null; stdout: string; stderr: string } {
  const r = finished(
    spawnSync(process.execPath, [bin, ...args], { cwd, env, encoding: 'utf8', timeout: WAIT_LIMIT_MS }),
    `boxwright ${args.join(' ')}`,
  );
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function file(name: string, content: string): string {
  const p = join(scratch, name);
  writeFileSync(p, content);
  return p;
}

interface JsonDiagnostic {
  ruleId: string;
  message: string;
  range: { start: { line: number; column: number } };
  suggestion?: string;
}
const diagnostics = async (args: readonly string[]): Promise<JsonDiagnostic[]> =>
  (JSON.parse((await boxwright(['lint', '--format', 'json', ...args])).stdout) as { files: { diagnostics: JsonDiagnostic[] }[] }).files[0]!
    .diagnostics;

describe('item 5: a misspelt table is an error at the key, with a did-you-mean', () => {
  it('[agent.filesytem], [agent.netwrok], contain_egres, [experimental-feature]', async () => {
    const cfg = file(
      'typos.toml',
      '[agent.filesytem]\nread = ["~/project"]\n\n[agent.netwrok]\n\n[mcp_servers.search]\ncontain_egres = false\n\n[experimental-feature]\nnative-filesystem-policy = true\n',
    );
    const r = await boxwright(['lint', '--fs', 'none', cfg]);
    assert.equal(r.status, 1, r.stdout);
    const schema = (await diagnostics(['--fs', 'none', cfg]))
      .filter((d) => d.ruleId === 'schema')
      .map((d) => `${d.range.start.line}:${d.range.start.column} ${d.message}`);
    assert.deepEqual(schema, [
      '1:8 unknown table `filesytem` in [agent]; did you mean `filesystem`?',
      '4:8 unknown table `netwrok` in [agent]; did you mean `network`?',
      '7:1 unknown key `contain_egres` in [mcp_servers.search]; did you mean `contain_egress`?',
      '9:2 unknown table `experimental-feature` at the top level; did you mean `experimental-features`?',
    ]);
  });
  it("an unknown table under a tool or a server is an error; the host product's own keys are passed over", async () => {
    const cfg = file(
      'tables.toml',
      '[tools.fmt]\ncommand = "black"\nargs = ["-q"]\n\n[tools.fmt.filesytem]\nread = ["~/project"]\n\n[mcp_servers.search.fs]\nread = ["~/index"]\n',
    );
    const schema = (await diagnostics(['--fs', 'none', cfg]))
      .filter((d) => d.ruleId === 'schema')
      .map((d) => `${d.range.start.line}:${d.range.start.column} ${d.message}`);
    assert.deepEqual(schema, [
      '5:12 unknown table `filesytem` in [tools.fmt]; did you mean `filesystem`?',
      "8:21 unknown table `fs` in [mcp_servers.search]; the tables boxwright reads here: `filesystem` (the host product's own keys are passed over, but not a table)",
    ]);
    const fine = file(
      'host-keys.toml',
      '[tools.fmt]\ncommand = "black"\nargs = ["-q"]\n[tools.fmt.filesystem]\nread = ["~/project"]\n[other-product]\nsetting = 1\n',
    );
    assert.deepEqual(
      (await diagnostics(['--fs', 'none', fine])).filter((d) => d.ruleId === 'schema'),
      [],
    );
  });
});

describe('item 11: manifest errors say where and what, in words', () => {
  const lintWith = async (manifest: string): Promise<string> =>
    (await boxwright(['lint', '--fs', file('m.json', manifest), 'examples/coding-agent.toml'])).stderr;
  it('a JSON syntax error at line:column', async () => {
    const err = await lintWith('{\n  "home": "/home/dev",\n  "entries": {,}\n}\n');
    assert.match(err, /m\.json:3:15: not valid JSON: /);
    assert.doesNotMatch(err, /position/);
  });
  it('schema errors name the entry and the key, not JSON pointers', async () => {
    assert.match(
      await lintWith('{"home": "/home/dev", "entries": {"/home/dev/project": "folder"}}'),
      /the entry "\/home\/dev\/project" is "folder": an entry's kind is "file", "dir", "socket", \{ "symlink": "TARGET" \}, \{ "text": "CONTENT" \}, \{ "elf": \{ … \} \} or \{ "script": "INTERPRETER \[ARG\]" \}/,
    );
    assert.match(await lintWith('{"home": "/home/dev", "entries": {}, "extra": 1}'), /unknown key "extra" at the top level/);
    assert.match(await lintWith('{"entries": {}}'), /the key "home" is missing/);
    assert.match(await lintWith('{"home": "home/dev", "entries": {}}'), /"home" must be an absolute path/);
    assert.match(await lintWith('{"home": "/h", "entries": {"rel/x": "file"}}'), /the entry "rel\/x" is not an absolute path/);
    assert.match(
      await lintWith('{"home": "/h", "entries": {"/x": {"symlink": 3}}}'),
      /the entry "\/x": a symlink's target must be a string/,
    );
    const all = ['{"home": "/home/dev", "entries": {"/home/dev/project": "folder"}}', '{"home": "/home/dev", "entries": {}, "extra": 1}']
      .map(lintWith)
      .join('');
    assert.doesNotMatch(all, /~1|must NOT have|allowed values|instancePath/);
  });
});

describe('item 13: messages and frames', () => {
  it('a newline in a path is shown escaped, never raw', async () => {
    const cfg = file('newline.toml', '[agent.filesystem]\nread = ["/usr/./bin\\nx"]\n');
    const r = await boxwright(['lint', '--fs', 'none', cfg]);
    const line = r.stdout.split('\n').find((l) => l.includes('noncanonical-path'));
    assert.ok(line, r.stdout);
    assert.match(line, /`\/usr\/\.\/bin\\nx` is not canonical: it has a `\.` component; write \/usr\/bin\\nx$/);
    for (const d of await diagnostics(['--fs', 'none', cfg]))
      assert.doesNotMatch(d.message + (d.suggestion ?? ''), /[\u0000-\u001f]/, d.ruleId);
  });
  it('carets stand under wide (CJK) characters', async () => {
    const cfg = file('wide.toml', '[agent.filesystem]\nread = ["/数据/./x"]\n');
    const r = await boxwright(['lint', '--fs', 'none', cfg]);
    assert.ok(r.stdout.includes('  2 | read = ["/数据/./x"]\n    |         ^^^^^^^^^^^\n'), r.stdout);
    const after = file('wide-after.toml', '[agent.filesystem]\nread = ["/数据", "/srv/./y"]\n');
    // `read = [` is 8 cells, `"/数据", ` 9 (each CJK character takes two): the carets start at cell 18.
    const frame = (await boxwright(['lint', '--fs', 'none', after])).stdout;
    assert.ok(frame.includes(`  2 | read = ["/数据", "/srv/./y"]\n    | ${' '.repeat(17)}${'^'.repeat(10)}\n`), frame);
  });
  it('C:\\Users\\x is called a Windows path, not a relative one', async () => {
    const cfg = file('windows.toml', '[agent.filesystem]\nread = ["C:\\\\Users\\\\x", "D:/data"]\n');
    const messages = (await diagnostics(['--fs', 'none', cfg])).filter((d) => d.ruleId === 'noncanonical-path').map((d) => d.message);
    assert.deepEqual(messages, [
      '`C:\\Users\\x` is a Windows path: grants are POSIX paths, absolute or under `~/` (which the Windows plan maps to %USERPROFILE%)',
      '`D:/data` is a Windows path: grants are POSIX paths, absolute or under `~/` (which the Windows plan maps to %USERPROFILE%)',
    ]);
    assert.deepEqual(
      (await diagnostics(['--fs', 'none', file('relative.toml', '[agent.filesystem]\nread = ["project"]\n')]))
        .filter((d) => d.ruleId === 'noncanonical-path')
        .map((d) => d.message),
      ['`project` is a relative path; write it absolute or starting with `~/`'],
    );
  });
  it('a symbolic-link loop in a manifest says it is a loop, not "name the resolved target" as the same path', async () => {
    const manifest = file(
      'loop.json',
      JSON.stringify({ home: '/home/dev', entries: { '/home/dev/a': { symlink: 'b' }, '/home/dev/b': { symlink: 'a' } } }),
    );
    const cfg = file('loop.toml', '[agent.filesystem]\nread = ["~/a"]\n');
    const d = (await diagnostics(['--fs', manifest, cfg])).find((x) => x.ruleId === 'symlink-entry');
    assert.ok(d);
    assert.equal(
      d.message,
      '`~/a` goes through the symbolic link /home/dev/a, and following the links never ends (a loop): it names no file',
    );
    assert.doesNotMatch(d.suggestion ?? '', /resolved target/);
  });
});

describe('item 14: run, when the command cannot run', () => {
  const dir = join(scratch, 'bin-dir');
  mkdirSync(dir, { recursive: true });
  const script = join(dir, 'script.sh');
  writeFileSync(script, '#!/bin/sh\necho hi\n');
  chmodSync(script, 0o644);
  const run = (cfg: string, command: string, cwd = scratch) => spawned(['run', '--fs', 'host', cfg, '--', command], cwd);
  it('a file that is not executable: 126, as the README says, with what to do', async () => {
    const cfg = file('run-126.toml', `[agent.filesystem]\nread = ["/usr", "${dir}"]\n`);
    const r = run(cfg, script);
    assert.equal(r.status, 126, r.stderr);
    assert.match(
      r.stderr,
      /is not an executable file\. It exists inside the view but cannot be executed: make it executable \(chmod \+x\)/,
    );
    assert.doesNotMatch(r.stderr, /read = \["\/usr"\]/);
    assert.equal(run(cfg, dir).status, 126, 'a directory');
  });
  it('not found: 127; no hint to grant /usr when /usr is granted', async () => {
    const cfg = file('run-127.toml', '[agent.filesystem]\nread = ["/usr"]\n');
    const r = run(cfg, 'no-such-command-anywhere');
    assert.equal(r.status, 127, r.stderr);
    assert.doesNotMatch(r.stderr, /read = \["\/usr"\]/);
    assert.match(r.stderr, /It is not on this machine either/);
  });
  it("the hint names the grant in the config's dialect: read and exec in Box, read_allow in TYBA, with what the program needs to start", async () => {
    const box = run(file('run-box.toml', `[agent.filesystem]\nread = ["${dir}"]\n`), 'ls');
    assert.equal(box.status, 127, box.stderr);
    assert.match(box.stderr, /It is at \/usr\/bin\/ls on this machine\. Add to \[agent\.filesystem\]: .*exec = \[[^\]]*"\/usr\/bin\/ls"/);
    const tool = spawned(
      [
        'run',
        '--fs',
        'host',
        '--principal',
        'tool:fmt',
        file('run-tool.toml', `[agent.filesystem]\nread = ["/usr"]\n[tools.fmt.filesystem]\nread = ["${dir}"]\n`),
        '--',
        'ls',
      ],
      scratch,
    );
    // A tool runs what its content grants hold: a read of the file is enough.
    assert.match(tool.stderr, /Add to \[tools\.fmt\.filesystem\]: .*read_file = \["\/usr\/bin\/ls"\]/);
    // The session's worktree (the current directory) elsewhere than the config: a config the session could write is refused (trusted-file-writable).
    const tyba = run(file('run-tyba.toml', `[sandbox]\nread_allow = ["${dir}"]\n`), 'ls', dir);
    assert.equal(tyba.status, 127, tyba.stderr);
    assert.match(tyba.stderr, /Add to \[sandbox\]: read_allow = \[[^\]]*"\/usr\/bin\/ls"/);
    assert.doesNotMatch(tyba.stderr, /\bread = /);
  });
});
