/**
 * The CLI tests run `main(argv, io)` in process (test/cli-in-process.ts):
 * this holds that to the real binary. Representative command lines, each
 * run both ways with the same directory, environment and standard input,
 * give the same exit status and the same bytes on stdout and stderr. The
 * lines cover what a command takes from its io rather than from the
 * process: relative paths (another directory), standard input, the home
 * (HOME), colours (FORCE_COLOR, NO_COLOR), yargs' help (in English
 * whatever LANG says, as the bundle has it), and an exit status of each kind.
 *
 * Spawned on purpose (that is its point): one bin/boxwright.cjs per line.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cli, plainEnv } from '../cli-in-process.js';
import { repoRoot } from '../helpers.js';
import { finished, WAIT_LIMIT_MS } from '../waits.js';

const bin = join(repoRoot, 'bin', 'boxwright.cjs');
const scratch = mkdtempSync(join(tmpdir(), 'boxwright-in-process-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

interface Line {
  readonly argv: readonly string[];
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly stdin?: string;
}

/** This process's environment with colours forced on (and NO_COLOR, which would win, left out). */
const coloured = (): Record<string, string | undefined> => {
  const env: Record<string, string | undefined> = { ...process.env, FORCE_COLOR: '1' };
  delete env['NO_COLOR'];
  return env;
};

const machine = join(repoRoot, 'examples', 'machine.json');
const example = (name: string): string => join(repoRoot, 'examples', name);

const lines: Record<string, Line> = {
  'lint in colour (FORCE_COLOR from the environment given)': {
    argv: ['lint', '--fs', 'examples/machine.json', 'examples/write-only.toml'],
    env: coloured(),
  },
  'lint --format sarif (paths relative to the work tree)': {
    argv: ['lint', '--fs', 'examples/machine.json', '--format', 'sarif', 'examples/coding-agent.toml'],
  },
  'lint - with the home from HOME': {
    argv: ['lint', '--fs', 'none', '-'],
    env: plainEnv({ HOME: '/home/someone-else' }),
    stdin: '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project/out"]\n',
  },
  'lint of a directory, from another directory': {
    argv: ['lint', '--fs', 'machine.json', '--platform', 'linux', '.'],
    cwd: join(repoRoot, 'examples'),
  },
  'explain, relative paths from the examples directory': {
    argv: ['explain', '--fs', 'machine.json', 'coding-agent.toml'],
    cwd: join(repoRoot, 'examples'),
  },
  'diff with artifacts': {
    argv: ['diff', '--fs', 'examples/machine.json', 'examples/read-write-overlap.toml', 'examples/write-only.toml'],
  },
  'parse invalid standard input, exit 1': { argv: ['parse', '--tagged'], stdin: 'a = [1,\n' },
  'schema --dialect box': { argv: ['schema', '--dialect', 'box'] },
  'a missing file: exit 2': { argv: ['explain', '--fs', 'none', 'no-such.toml'] },
  'rules in markdown, one rule': { argv: ['rules', '--format', 'markdown', 'write-only'] },
  'lint --help': { argv: ['lint', '--help'] },
  'lint --help with LANG=de_DE: yargs in English, as the bundle has it': {
    argv: ['lint', '--help'],
    env: plainEnv({ LANG: 'de_DE.UTF-8' }),
  },
  'no command: exit 2': { argv: [] },
  'an unknown option: exit 2': { argv: ['lint', '--bogus-flag', 'examples/coding-agent.toml'] },
};

function spawned(line: Line): { status: number | null; stdout: string; stderr: string } {
  const r = finished(
    spawnSync(process.execPath, [bin, ...line.argv], {
      cwd: line.cwd ?? repoRoot,
      env: line.env ?? plainEnv(),
      input: line.stdin ?? '',
      encoding: 'utf8',
      timeout: WAIT_LIMIT_MS,
    }),
    `boxwright ${line.argv.join(' ')}`,
  );
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('main(argv, io) in process gives what bin/boxwright.cjs gives', () => {
  for (const [name, line] of Object.entries(lines))
    it(name, async () => {
      const inProcess = await cli(line.argv, {
        cwd: line.cwd ?? repoRoot,
        env: line.env ?? plainEnv(),
        stdin: line.stdin ?? '',
      });
      assert.deepEqual(inProcess, spawned(line));
    });

  it('compile into a relative --out: the same lines, the same files', async () => {
    // Outside any work tree, so that only the configs beside it are asked (none).
    const dir = mkdtempSync(join(scratch, 'compile-'));
    copyFileSync(example('coding-agent.toml'), join(dir, 'agent.toml'));
    const argv = ['compile', '--fs', machine, '--target', 'macos', '--out', 'out', 'agent.toml'];
    const inProcess = await cli(argv, { cwd: dir, env: plainEnv() });
    assert.equal(inProcess.status, 0, inProcess.stderr);
    const files = readdirSync(join(dir, 'out')).sort();
    const written = files.map((f) => readFileSync(join(dir, 'out', f)));
    rmSync(join(dir, 'out'), { recursive: true });
    assert.deepEqual(inProcess, spawned({ argv, cwd: dir }));
    assert.deepEqual(readdirSync(join(dir, 'out')).sort(), files);
    files.forEach((f, i) => assert.ok(readFileSync(join(dir, 'out', f)).equals(written[i]!), f));
  });

  it('the colours follow each call: in colour, then not', async () => {
    const argv = ['lint', '--fs', 'examples/machine.json', 'examples/write-only.toml'];
    assert.match((await cli(argv, { env: coloured() })).stdout, /\u001b\[/);
    assert.doesNotMatch((await cli(argv, { env: plainEnv() })).stdout, /\u001b\[/);
  });
});
