/**
 * `boxwright run` reads its command line twice over: the fast path
 * (targets/linux/run/run-fast.ts `parseFast`, no yargs) and the full CLI (yargs with
 * run's option definitions in app/cli/main.ts, then `runRequest` of
 * app/cli/run-common.ts). The fast path may decline any spelling (the full
 * CLI then runs), but a request it does read must be exactly the one the
 * full CLI would use: else a cached run and an uncached one of the same
 * command line would run different sandboxes, or one would refuse what the
 * other runs.
 *
 * The oracle is the full CLI's own parse (parseCommandLine, the function
 * main() runs), not expectations written out by hand; a table pins which
 * spellings the fast path takes, and generated command lines cover the
 * rest.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { CliIo } from '../../app/cli/io.js';
import { parseCommandLine } from '../../app/cli/main.js';
import { UsageError } from '../../app/cli/options.js';
import { runRequest, type RunArgs } from '../../app/cli/run-common.js';
import { parseFast } from '../../targets/linux/run/run-fast.js';
import type { RunRequest } from '../../targets/linux/run/sandbox/run-request.js';
import { runs } from '../budget.js';

/** An io that keeps nothing: only the parse's answer is compared (`--help` writes its text here). */
const quiet: CliIo = {
  stdout: { write: () => true },
  stderr: { write: () => true },
  stdin: { bytes: new Uint8Array() },
  env: process.env,
  cwd: process.cwd(),
  stdinIsTTY: false,
  stdoutIsTTY: false,
};

/** What the full CLI makes of `argv`: the request runCommand gets, or `usage: …` / `done`. */
async function fullParse(argv: readonly string[]): Promise<RunRequest | string> {
  const line = await parseCommandLine(argv, quiet);
  if (line.kind === 'usage') return `usage: ${line.message}`;
  if (line.kind === 'done') return `done ${line.status}`;
  if (line.name !== 'run') return `command ${line.name}`;
  try {
    return runRequest(line.args as RunArgs);
  } catch (e) {
    if (e instanceof UsageError) return `usage: ${e.message}`;
    throw e;
  }
}

async function agree(argv: readonly string[]): Promise<{ fast: RunRequest | undefined; full: RunRequest | string }> {
  const fast = parseFast(argv);
  const full = await fullParse(argv);
  if (fast !== undefined) assert.deepEqual(fast, full, `parseFast read ${JSON.stringify(argv)} otherwise than the full CLI`);
  return { fast, full };
}

const C = 'c.toml';
const T = ['--', '/usr/bin/true'];

/** Spellings the fast path takes: the full CLI must read each the same way (and read it at all). */
const TAKEN: readonly (readonly string[])[] = [
  ['run', C, ...T],
  ['run', C, '-v', ...T],
  ['run', '-v', C, ...T],
  ['run', '--verbose', C, '--', 'sh', '-c', 'echo -v'],
  ['run', '--pass-env', 'FOO', C, ...T],
  ['run', '--pass-fd', '5', C, ...T],
  ['run', '--pass-env', 'A', '--pass-env', 'B,C', C, ...T],
  ['run', C, '--pass-env', 'A', '--pass-env=B', ...T],
  ['run', '--pass-fd=7', '--pass-fd', '5', '--pass-fd', '5', C, '--pass-fd', '9', ...T],
  ['run', '--pass-env=', C, ...T],
  ['run', '-p', 'tool:fmt', C, ...T],
  ['run', '--principal', 'mcp.fs', C, ...T],
  ['run', '--principal=agent', C, ...T],
  ['run', '--landlock', 'off', C, ...T],
  ['run', C, '--landlock=on', ...T],
  ['run', '--home', '/h', C, ...T],
  ['run', '--home=/h/x', '--fs', 'host', C, ...T],
  ['run', '--dialect', 'tyba', '--worktree', '/w', '--tyba-data-dir', '/d', '--agent-dir', '/a', '--agent-dir', '/b', C, ...T],
  ['run', '--gateway-socket', '/run/g.sock', C, ...T],
  ['run', '007', '--', 'printf', '007'],
  ['run', C, '--', '--', '-v', '-0'],
];

/** Spellings it leaves to the full CLI (usage errors, options it does not read, values it does not judge). */
const DECLINED: readonly (readonly string[])[] = [
  ['run', C, 'ls'],
  ['run', C, '--'],
  ['run', ...T],
  ['run', C, 'd.toml', ...T],
  ['run', '-', ...T],
  ['run', '--bogus', C, ...T],
  ['run', '--no-verbose', C, ...T],
  ['run', '-vp', 'agent', C, ...T],
  ['run', '--principal', 'bogus', C, ...T],
  ['run', '--principal=', C, ...T],
  ['run', '-p', 'agent', '-p', 'tool:x', C, ...T],
  ['run', '--p', 'agent', C, ...T],
  ['run', '-principal', 'agent', C, ...T],
  ['run', '--pass-fd', '2', C, ...T],
  ['run', '--pass-fd', 'abc', C, ...T],
  ['run', '--pass-fd', C, ...T],
  ['run', '--pass-env', '-x', C, ...T],
  ['run', '--home', '-x', C, ...T],
  ['run', '--home', 'relative/dir', C, ...T],
  ['run', '--home=', C, ...T],
  ['run', '--fs', 'none', C, ...T],
  ['run', '--fs', 'bogus', C, ...T],
  ['run', '--dialect', 'bogus', C, ...T],
  ['run', '--landlock', 'maybe', C, ...T],
  ['run', '--gateway-socket', 'relative.sock', C, ...T],
  ['run', '--home', '/a', '--home', '/b', C, ...T],
  ['lint', C, ...T],
];

describe("run's fast path reads its command line exactly as the full CLI does", () => {
  it('every spelling it takes, the full CLI reads to the same request', async () => {
    for (const argv of TAKEN) {
      const { fast, full } = await agree(argv);
      assert.ok(fast, `the fast path takes ${JSON.stringify(argv)}`);
      assert.equal(typeof full, 'object', `the full CLI reads ${JSON.stringify(argv)}: ${String(full)}`);
    }
  });

  it('options before CONFIG are one value each (--pass-env, --pass-fd): the full CLI names the config as the fast path does', async () => {
    const env = await fullParse(['run', '--pass-env', 'FOO', C, ...T]);
    assert.equal(typeof env === 'object' && env.config, C);
    assert.deepEqual(typeof env === 'object' && env.passEnv, ['FOO']);
    const fd = await fullParse(['run', '--pass-fd', '5', C, ...T]);
    assert.deepEqual(typeof fd === 'object' && fd.passFds, [5]);
    const both = await fullParse(['run', '--pass-env', 'A', '--pass-env', 'B', C, ...T]);
    assert.deepEqual(typeof both === 'object' && both.passEnv, ['A', 'B']);
    // A name looks like a number: it is still the file's name, as typed.
    const numeric = await fullParse(['run', '007', ...T]);
    assert.equal(typeof numeric === 'object' && numeric.config, '007');
  });

  it('the spellings it declines are declined (the full CLI words their errors)', async () => {
    for (const argv of DECLINED) {
      const { fast } = await agree(argv);
      assert.equal(fast, undefined, `the fast path declines ${JSON.stringify(argv)}`);
    }
  });

  it('generated command lines: the fast path declines or agrees', async () => {
    const word = fc.constantFrom(
      C,
      'd.toml',
      '-',
      '007',
      '/h',
      'rel',
      '',
      'FOO',
      'A,B',
      '5',
      '2',
      'abc',
      'agent',
      'tool:fmt',
      'mcp.x',
      'on',
      'off',
      'host',
      'none',
      'box',
      'tyba',
      '/run/g.sock',
      '-v',
      '--verbose',
      '-p',
      '--principal',
      '--pass-env',
      '--pass-fd',
      '--home',
      '--fs',
      '--landlock',
      '--dialect',
      '--worktree',
      '--tyba-data-dir',
      '--agent-dir',
      '--gateway-socket',
      '--bogus',
      '--principal=tool:x',
      '--pass-env=B',
      '--pass-fd=7',
      '--home=/x',
      '-p=agent',
      '--landlock=off',
      '--no-verbose',
      '-x',
      '--',
    );
    const count = runs(400);
    let taken = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(word, { maxLength: 8 }),
        fc.array(fc.constantFrom('true', '-v', '--', '007', '--pass-env'), { minLength: 0, maxLength: 3 }),
        async (options, command) => {
          const { fast } = await agree(['run', ...options, '--', ...command]);
          if (fast) taken++;
        },
      ),
      { numRuns: count, seed: 15 },
    );
    // More than one in twenty (20 of the full budget's 400).
    assert.ok(taken > count / 20, `the generated lines reach the fast path (${taken} of ${count} did)`);
  });
});
