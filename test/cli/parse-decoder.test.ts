/**
 * `boxwright parse --tagged` as a toml-test decoder, the way upstream's
 * harness runs one: one process per case, the bytes on standard input,
 * tagged JSON on stdout and exit 0 for valid input, a non-zero exit for
 * invalid input. (compliance.test.ts checks the same cases in process.)
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot, requireOrSkip, sharedDir } from '../helpers.js';
import { compareTagged } from '../toml/compare-tagged.js';

const shared = sharedDir();
const suite = shared === undefined ? undefined : join(shared, 'toml-test');
const list = suite === undefined ? undefined : join(suite, 'files-toml-1.0.0');
const skip = requireOrSkip(list !== undefined && existsSync(list), 'the toml-test suite (../shared/toml-test/files-toml-1.0.0)');

function decode(bytes: Buffer): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, 'bin', 'boxwright.cjs'), 'parse', '--tagged'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() }));
    child.stdin.end(bytes);
  });
}

/** Runs `work` over `items` with at most `limit` in flight (the machine has two cores). */
async function pool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: limit }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  });
  await Promise.all(lanes);
  return results;
}

describe('boxwright parse --tagged: toml-test 1.0.0, one process per case', { skip, timeout: 600_000 }, () => {
  it('210/210 valid cases give the expected tagged JSON, 499/499 invalid cases exit non-zero', async () => {
    const files = readFileSync(list!, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l.endsWith('.toml'));
    const failures: string[] = [];
    let valid = 0;
    let invalid = 0;
    await pool(files, 3, async (f) => {
      const r = await decode(readFileSync(join(suite!, f)));
      if (f.startsWith('valid/')) {
        const expected = JSON.parse(readFileSync(join(suite!, f.replace(/\.toml$/, '.json')), 'utf8')) as unknown;
        if (r.status !== 0) return void failures.push(`${f}: exit ${r.status}: ${r.stderr.split('\n')[0]}`);
        const diff = compareTagged(JSON.parse(r.stdout) as unknown, expected);
        if (diff) return void failures.push(`${f}: ${diff}`);
        valid++;
      } else {
        if (r.status === 0) return void failures.push(`${f}: accepted, but it is invalid`);
        if (!/:\d+:\d+ +error +toml-syntax/.test(r.stderr)) return void failures.push(`${f}: no positioned error on stderr: ${r.stderr.slice(0, 200)}`);
        if (/\n\s+at .*:\d+:\d+\)?\n/.test(r.stderr)) return void failures.push(`${f}: a stack trace on stderr`);
        invalid++;
      }
    });
    assert.deepEqual(failures, []);
    assert.equal(valid, 210);
    assert.equal(invalid, 499);
  });
});
