/**
 * `boxwright parse --tagged` as a toml-test decoder: tagged JSON on stdout
 * and exit 0 for valid input, a positioned error on stderr and a non-zero
 * exit for invalid input, never a stack trace. (compliance.test.ts checks
 * the parser on the same cases; this checks the command around it.)
 *
 * How, and why: upstream's harness runs a decoder as one process per case,
 * with the bytes on standard input. Doing that for all 709 cases cost 709
 * process start-ups (about 100 s on this 2-core machine) to test the same
 * code 709 times over. So:
 *
 *  - every case goes through the CLI's own `main` (the code the bundle is
 *    built from) as `boxwright parse --tagged FILE`, argv parsing, command
 *    dispatch, file reading, parsing, tagged JSON and error printing
 *    included, in this process with its output in memory
 *    (test/cli-in-process.ts);
 *  - six cases (the spec's example, a BOM, CRLF, bad UTF-8, a misplaced BOM,
 *    a syntax error) still run the real way,
 *    one `bin/boxwright.cjs parse --tagged` process each with the bytes on
 *    standard input, and must give exactly what the in-process run gave.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cli } from '../cli-in-process.js';
import { repoRoot } from '../helpers.js';
import { tomlTestSuite } from '../toml/suite.js';
import { compareTagged } from '../toml/compare-tagged.js';

interface Decoded {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const { dir: suite, skipReason: skip } = tomlTestSuite();
const list = suite === undefined ? undefined : join(suite, 'files-toml-1.0.0');

/** Every case through `main(argv, io)` in this process (test/cli-in-process.ts), one after another. */
const decodeInProcess = async (paths: readonly string[]): Promise<Decoded[]> => {
  const results: Decoded[] = [];
  for (const path of paths) results.push(await cli(['parse', '--tagged', path]));
  return results;
};

/** The real command: one process, the bytes on standard input. */
const decodeProcess = (bytes: Buffer): Promise<Decoded> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, 'bin', 'boxwright.cjs'), 'parse', '--tagged'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() }));
    child.stdin.end(bytes);
  });

describe('boxwright parse --tagged: toml-test 1.0.0', { skip, timeout: 300_000 }, () => {
  const files =
    skip !== undefined
      ? []
      : readFileSync(list!, 'utf8')
          .split('\n')
          .map((l) => l.trim())
          .filter((l) => l.endsWith('.toml'));
  let decoded: Promise<Decoded[]> | undefined;
  const all = (): Promise<Decoded[]> => (decoded ??= decodeInProcess(files.map((f) => join(suite!, f))));

  it("210/210 valid cases give the expected tagged JSON, 499/499 invalid cases exit non-zero (every case through the CLI's main)", async () => {
    const results = await all();
    assert.equal(results.length, files.length);
    const failures: string[] = [];
    let valid = 0;
    let invalid = 0;
    files.forEach((f, i) => {
      const r = results[i]!;
      if (f.startsWith('valid/')) {
        const expected = JSON.parse(readFileSync(join(suite!, f.replace(/\.toml$/, '.json')), 'utf8')) as unknown;
        if (r.status !== 0) return void failures.push(`${f}: exit ${r.status}: ${r.stderr.split('\n')[0]}`);
        const diff = compareTagged(JSON.parse(r.stdout) as unknown, expected);
        if (diff) return void failures.push(`${f}: ${diff}`);
        valid++;
      } else {
        if (r.status === 0) return void failures.push(`${f}: accepted, but it is invalid`);
        if (!/:\d+:\d+ +error +toml-syntax/.test(r.stderr))
          return void failures.push(`${f}: no positioned error on stderr: ${r.stderr.slice(0, 200)}`);
        if (/\n\s+at .*:\d+:\d+\)?\n/.test(r.stderr)) return void failures.push(`${f}: a stack trace on stderr`);
        invalid++;
      }
    });
    assert.deepEqual(failures, []);
    assert.equal(valid, 210);
    assert.equal(invalid, 499);
  });

  it('a few cases as real processes (bytes on standard input) give exactly what the in-process run gave', async () => {
    const results = await all();
    const smoke = [
      'valid/spec-example-1.toml',
      'valid/utf8-bom-01.toml',
      'valid/string/multiline-escaped-crlf.toml',
      'invalid/encoding/bad-utf8-in-string.toml',
      'invalid/encoding/bom-not-at-start-01.toml',
      files.filter((f) => f.startsWith('invalid/')).at(-1)!,
    ];
    for (const f of smoke) assert.ok(files.includes(f), `${f} is not in the toml-test 1.0.0 list`);
    for (const f of smoke) {
      const path = join(suite!, f);
      const mine = results[files.indexOf(f)]!;
      const real = await decodeProcess(readFileSync(path));
      assert.equal(real.status, mine.status, f);
      assert.equal(real.stdout, mine.stdout, f);
      // the same messages; the process names its input <stdin>
      assert.equal(real.stderr, mine.stderr.split(path).join('<stdin>'), f);
    }
  });
});
