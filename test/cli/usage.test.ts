/**
 * A new user's first hour at the command line (issue 14 items 4, 6-10, 12):
 * the built `bin/boxwright.cjs` run as a user runs it, with what they type
 * wrong, and what they can rely on when they type it right.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cli } from '../cli-in-process.js';
import { repoRoot } from '../helpers.js';
import { finished, WAIT_LIMIT_MS } from '../waits.js';

const bin = join(repoRoot, 'bin', 'boxwright.cjs');
const scratch = mkdtempSync(join(tmpdir(), 'boxwright-usage-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '' };

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** In process (test/cli-in-process.ts), with standard input from `input`. */
const boxwright = (args: readonly string[], input = ''): Promise<Run> => cli(args, { env, stdin: input });

/** The real binary, for what only a process shows (each use says why). */
function spawned(args: readonly string[], input = ''): Run {
  const r = finished(
    spawnSync(process.execPath, [bin, ...args], { cwd: repoRoot, input, env, encoding: 'utf8', timeout: WAIT_LIMIT_MS }),
    `boxwright ${args.join(' ')}`,
  );
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * The command with a terminal for standard input (util-linux `script` makes the pseudo-terminal): spawned on purpose, for the
 * real binary's own look at its standard input (entry.ts); in process, `stdinIsTTY` is what a test says.
 */
function onTerminal(args: readonly string[]): Run {
  const line = [process.execPath, bin, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const r = finished(
    spawnSync('script', ['-qec', line, '/dev/null'], { cwd: repoRoot, env, encoding: 'utf8', timeout: WAIT_LIMIT_MS }),
    `boxwright ${args.join(' ')} on a terminal`,
  );
  assert.ok(!r.error, `script: ${r.error?.message}`);
  return { status: r.status, stdout: r.stdout.replace(/\r\n/g, '\n'), stderr: r.stderr };
}

const manifest = ['--fs', 'examples/machine.json'];
const packageVersion = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

describe('item 8: --version, -V, -h', () => {
  it('--version and -V print the version, exit 0', async () => {
    for (const flag of ['--version', '-V']) {
      const r = await boxwright([flag]);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, `${packageVersion}\n`);
    }
  });
  it('-h is --help, for the overview and for a command', async () => {
    const top = await boxwright(['-h']);
    assert.equal(top.status, 0, top.stderr);
    assert.match(top.stdout, /boxwright lint \[files\.\.\]/);
    const lint = await boxwright(['lint', '-h']);
    assert.equal(lint.status, 0, lint.stderr);
    assert.match(lint.stdout, /--max-warnings/);
  });
});

describe('item 9: help texts and what a mistyped command line gets', () => {
  it('every -f/--format is described, rules has -f, and positionals are described', async () => {
    for (const command of ['lint', 'explain', 'diff', 'doctor', 'rules']) {
      const help = (await boxwright([command, '--help'])).stdout.replace(/\s+/g, ' ');
      assert.match(help, /-f, --format output format \[choices:/, `${command} --help:\n${help}`);
    }
    for (const [command, positional] of [
      ['compile', 'config'],
      ['explain', 'config'],
      ['run', 'config'],
      ['diff', 'base'],
      ['diff', 'head'],
      ['rules', 'id'],
      ['lint', 'files'],
    ] as const) {
      const help = (await boxwright([command, '--help'])).stdout;
      assert.match(
        help,
        new RegExp(`Positionals:[\\s\\S]*\\n {2}${positional} +\\S`),
        `${command} --help describes ${positional}:\n${help}`,
      );
    }
    assert.equal((await boxwright(['rules', '-f', 'markdown', 'write-only'])).stdout.split('\n')[0], '## `write-only`');
  });
  it('compile and explain without a config are usage errors, whatever standard input holds', async () => {
    const explain = await boxwright(['explain', ...manifest]);
    assert.equal(explain.status, 2, explain.stdout + explain.stderr);
    assert.match(explain.stderr, /name the config to explain/);
    const compile = await boxwright(['compile', '-t', 'linux', '-o', join(scratch, 'out'), ...manifest], '[agent.filesystem]\n');
    assert.equal(compile.status, 2, compile.stdout + compile.stderr);
    assert.match(compile.stderr, /name the config to compile/);
    // `-` reads it from standard input, on purpose.
    const stdin = await boxwright(['explain', ...manifest, '-'], '[agent.filesystem]\nread = ["~/project"]\n');
    assert.equal(stdin.status, 0, stdin.stderr);
    assert.match(stdin.stdout, /<stdin> \(box\)/);
  });
  it('lint with no files on a terminal is a usage error, not a silent wait', async () => {
    const r = onTerminal(['lint', ...manifest]);
    assert.equal(r.status, 2, r.stdout);
    assert.match(r.stdout, /name the config files to lint, or - to read one from standard input/);
  });
  it('a misspelt command gets a did-you-mean; an unknown option is named once, as typed', async () => {
    const cmd = await boxwright(['lnit', 'examples/coding-agent.toml']);
    assert.equal(cmd.status, 2);
    assert.match(cmd.stderr, /unknown command `lnit`; did you mean `lint`\?/);
    const flag = await boxwright(['lint', '--bogus-flag', 'examples/coding-agent.toml']);
    assert.equal(flag.status, 2);
    assert.match(flag.stderr, /unknown option --bogus-flag\n/);
    assert.doesNotMatch(flag.stderr, /bogusFlag/);
    const near = await boxwright(['lint', '--max-warning', '0', 'examples/coding-agent.toml']);
    assert.match(near.stderr, /unknown option --max-warning; did you mean --max-warnings\?/);
    assert.equal(
      (await boxwright(['diff', '--no-artifacts', ...manifest, 'examples/coding-agent.toml', 'examples/coding-agent.toml'])).status,
      0,
      'a --no- boolean is known',
    );
  });
  it('run CONFIG CMD without -- says where the command goes', async () => {
    const r = await boxwright(['run', 'examples/coding-agent.toml', 'ls', '-l']);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /put the command to run after --: boxwright run examples\/coding-agent\.toml -- ls -l/);
  });
});

describe('item 10: option values are checked', () => {
  it('--max-warnings takes a whole number', async () => {
    for (const bad of ['abc', '-1', '1.5', '']) {
      const r = await boxwright(['lint', ...manifest, '--max-warnings', bad, 'examples/coding-agent.toml']);
      assert.equal(r.status, 2, `--max-warnings ${JSON.stringify(bad)}: ${r.stderr}`);
      assert.match(r.stderr, /--max-warnings takes a whole number/);
    }
    assert.equal(
      (await boxwright(['lint', ...manifest, '--max-warnings', '0', 'examples/coding-agent.toml'])).status,
      1,
      'two warnings exceed 0',
    );
  });
  it('--landlock on with a TYBA config is refused (TYBA has no Landlock), never ignored; off, or no option, is accepted', async () => {
    const tyba = 'examples/tyba-user-config.toml';
    for (const command of [['lint'], ['explain'], ['compile', '--target', 'linux', '--out', join(scratch, 'tyba-out')]]) {
      const r = await boxwright([...command, ...manifest, '--landlock', 'on', tyba]);
      assert.equal(r.status, 2, `${command[0]}: ${r.stdout}${r.stderr}`);
      assert.match(
        r.stderr,
        /--landlock on: examples\/tyba-user-config\.toml is a TYBA config, and TYBA's platform document gives its Linux sandbox as bubblewrap \+ seccomp, without Landlock/,
      );
      assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    }
    for (const extra of [['--landlock', 'off'], []])
      assert.notEqual((await boxwright(['lint', ...manifest, ...extra, tyba])).status, 2, extra.join(' '));
    assert.notEqual(
      (await boxwright(['lint', ...manifest, '--landlock', 'on', 'examples/coding-agent.toml'])).status,
      2,
      'a Box config takes it',
    );
  });
  it('--home must be an absolute directory', async () => {
    for (const bad of ['relative/dir', '']) {
      const r = await boxwright(['lint', '--fs', 'none', '--home', bad, 'examples/coding-agent.toml']);
      assert.equal(r.status, 2, `--home ${JSON.stringify(bad)}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, /--home must be an absolute directory/);
    }
  });
  it('--fs names its choices when the value is none of them', async () => {
    const r = await boxwright(['lint', '--fs', 'bogus', 'examples/coding-agent.toml']);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--fs takes `host` \(the real disk\), `none` \(facts unknown\) or a manifest FILE\.json: bogus is neither/);
    assert.doesNotMatch(r.stderr, /ENOENT/);
  });
});

describe('item 4: --platform never prints a verdict for a platform it did not check', () => {
  const refusedOnMacosToo = (): string => {
    const p = join(scratch, 'refused-everywhere.toml');
    writeFileSync(p, '[tools.fmt.filesystem]\nmetadata = ["~/project"]\n');
    return p;
  };
  it('text, json, github, markdown and sarif: only the checked platform', async () => {
    const cfg = refusedOnMacosToo();
    const text = await boxwright(['lint', ...manifest, '--platform', 'linux', cfg]);
    assert.equal(text.status, 1);
    assert.match(text.stdout, /: linux refused \(not checked: macos, windows\)\n/);
    assert.doesNotMatch(text.stdout, /macos (accepted|refused)|windows (accepted|refused)/);
    const json = JSON.parse((await boxwright(['lint', ...manifest, '--platform', 'linux', '--format', 'json', cfg])).stdout) as {
      version: number;
      platforms: string[];
      files: { verdicts: Record<string, string> }[];
    };
    assert.equal(json.version, 2);
    assert.deepEqual(json.platforms, ['linux']);
    assert.deepEqual(json.files[0]!.verdicts, { linux: 'refused' });
    const github = (await boxwright(['lint', ...manifest, '--platform', 'linux', '--format', 'github', cfg])).stdout;
    assert.match(github, /: linux refused\n$/);
    assert.doesNotMatch(github, /macos (accepted|refused)|windows (accepted|refused)/);
    const md = (await boxwright(['lint', ...manifest, '--platform', 'linux', '--format', 'markdown', cfg])).stdout;
    assert.match(md, /\| linux \|\n\|---\|\n\| ⛔ refused \|/);
    assert.doesNotMatch(md, /\| macos/);
    const sarif = JSON.parse((await boxwright(['lint', ...manifest, '--platform', 'linux', '--format', 'sarif', cfg])).stdout) as {
      runs: { properties: { platforms: string[] }; results: { properties: { platforms: string[] } }[] }[];
    };
    assert.deepEqual(sarif.runs[0]!.properties.platforms, ['linux']);
    for (const r of sarif.runs[0]!.results) assert.deepEqual(r.properties.platforms, ['linux']);
  });
  it('an empty or unknown platform is a usage error, not a check of nothing', async () => {
    for (const bad of ['', ',', 'bsd']) {
      const r = await boxwright(['lint', ...manifest, '--platform', bad, 'examples/list-without-content.toml']);
      assert.equal(r.status, 2, `--platform ${JSON.stringify(bad)}: ${r.stdout}`);
      assert.equal(r.stdout, '');
    }
  });
  it('explain and diff show the checked platforms only', async () => {
    const explain = (await boxwright(['explain', ...manifest, '--platform', 'linux', 'examples/coding-agent.toml'])).stdout;
    assert.match(explain, /verdicts: Linux accepted \(warnings\)\n/);
    assert.doesNotMatch(explain, /macOS|Windows/);
    const diff = (
      await boxwright([
        'diff',
        ...manifest,
        '--platform',
        'linux',
        '--no-artifacts',
        'examples/read-write-overlap.toml',
        'examples/write-only.toml',
      ])
    ).stdout;
    assert.match(diff, /\[linux\]/);
    assert.doesNotMatch(diff, /macos|windows/);
  });
});

describe('item 12: a missing file or a directory is reported in the output', () => {
  it('text names each file that was not read, and the totals count it; exit 2', async () => {
    const empty = mkdtempSync(join(scratch, 'empty-'));
    const r = await boxwright(['lint', ...manifest, 'no-such.toml', empty, 'examples/coding-agent.toml']);
    assert.equal(r.status, 2);
    assert.ok(
      r.stdout.startsWith(`no-such.toml: not read: no such file\n${empty}: not read: is a directory that holds no .toml or .json file\n`),
      r.stdout,
    );
    assert.match(r.stdout, /examples\/coding-agent\.toml \(box\): macos accepted/);
    assert.match(r.stdout, /, 2 files not read\n$/);
  });
  it('json has the file in its place with the error', async () => {
    const r = await boxwright(['lint', ...manifest, '--format', 'json', 'no-such.toml', 'examples/coding-agent.toml']);
    assert.equal(r.status, 2);
    const json = JSON.parse(r.stdout) as { files: ({ path: string; error: string } | { path: string; verdicts: object })[] };
    assert.deepEqual(json.files[0], { path: 'no-such.toml', error: 'no such file' });
    assert.equal(json.files[1]!.path, 'examples/coding-agent.toml');
  });
  it('sarif, github and markdown name it too', async () => {
    const sarif = JSON.parse((await boxwright(['lint', ...manifest, '--format', 'sarif', 'no-such.toml'])).stdout) as {
      runs: { invocations: { executionSuccessful: boolean; toolExecutionNotifications: { message: { text: string } }[] }[] }[];
    };
    assert.equal(sarif.runs[0]!.invocations[0]!.executionSuccessful, false);
    assert.match(sarif.runs[0]!.invocations[0]!.toolExecutionNotifications[0]!.message.text, /cannot read no-such\.toml: no such file/);
    assert.match(
      (await boxwright(['lint', ...manifest, '--format', 'github', 'no-such.toml'])).stdout,
      /^::error file=no-such\.toml,title=boxwright%3A file not read::cannot read no-such\.toml: no such file\n/,
    );
    assert.match(
      (await boxwright(['lint', ...manifest, '--format', 'markdown', 'no-such.toml'])).stdout,
      /### `no-such\.toml`\n\n⛔ not read: no such file/,
    );
  });
});

// Spawned on purpose: a closed pipe (EPIPE) is the real process's standard output's, handled in entry.ts.
describe('item 6: a closed pipe ends the command quietly', () => {
  it('lint --format sarif … | head -c 1: no EPIPE trace, the lint exit status', async () => {
    const examples = [
      'examples/coding-agent.toml',
      'examples/write-only.toml',
      'examples/direct-network.toml',
      'examples/protected-path.toml',
      'examples/tyba-user-config.toml',
    ];
    // More than a pipe's buffer, so that the write meets the closed pipe.
    const script = `${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} lint --fs examples/machine.json --format sarif ${examples.join(' ')} | head -c 1 >/dev/null; echo "status=\${PIPESTATUS[0]}" >&2`;
    const r = finished(
      spawnSync('bash', ['-c', script], { cwd: repoRoot, env, encoding: 'utf8', timeout: WAIT_LIMIT_MS }),
      'lint --format sarif | head -c 1',
    );
    assert.doesNotMatch(r.stderr, /EPIPE|Unhandled|internal error|at /);
    assert.match(r.stderr, /^status=1\n$/, 'write-only.toml is refused: exit 1, as without the pipe');
  });
});

describe('item 7: compile --out that cannot be written', () => {
  const compile = (out: string): Promise<Run> =>
    boxwright(['compile', ...manifest, '-t', 'linux', '-o', out, 'examples/coding-agent.toml']);
  it('an existing file: a clear message naming it, exit 2', async () => {
    const file = join(scratch, 'a-file');
    writeFileSync(file, '');
    const r = await compile(file);
    assert.equal(r.status, 2);
    assert.equal(r.stderr, `boxwright compile: --out ${file} exists and is not a directory: name a directory for the artifacts\n`);
    const below = await compile(join(file, 'sub'));
    assert.equal(below.status, 2);
    assert.match(below.stderr, /a component of the path is not a directory/);
  });
  it('an unwritable place: the path and the reason, exit 2', async () => {
    const r = await compile('/sys/boxwright-out');
    assert.equal(r.status, 2);
    assert.match(
      r.stderr,
      /^boxwright compile: cannot make --out \/sys\/boxwright-out: \/sys\/boxwright-out: (operation not permitted|permission denied|read-only file system)\n$/,
    );
  });
  // Spawned on purpose: what it guards against is a hang (mkdir retried for ever), which spawnSync's timeout ends and a call in process would not.
  it('under /proc: a message at once, never a hang', async () => {
    const r = spawned(['compile', ...manifest, '-t', 'linux', '-o', '/proc/self/boxwright-out', 'examples/coding-agent.toml']);
    assert.notEqual(r.status, null, 'it ended within the timeout');
    assert.equal(r.status, 2);
    assert.match(
      r.stderr,
      /^boxwright compile: cannot make --out \/proc\/self\/boxwright-out: \/proc\/self\/boxwright-out: no such file or directory\n$/,
    );
  });
});
