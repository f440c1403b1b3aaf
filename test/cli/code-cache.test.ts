/**
 * The real binary's V8 code cache (bin/boxwright.cjs): only a process of
 * its own shows it, so this runs bin/boxwright.cjs on purpose, from a copy
 * of the binary and its bundles with no cache yet. A first run of a command
 * writes one beside the bundle and records the command; a later run loads
 * it and prints the same; another command adds itself; with
 * BOXWRIGHT_CODE_CACHE=off nothing is read or written. What a command
 * prints is tested in process (test/cli-in-process.ts).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { plainEnv } from '../cli-in-process.js';
import { repoRoot } from '../helpers.js';
import { finished, WAIT_LIMIT_MS } from '../waits.js';

const install = mkdtempSync(join(tmpdir(), 'boxwright-code-cache-'));
after(() => rmSync(install, { recursive: true, force: true }));
mkdirSync(join(install, 'bin'));
mkdirSync(join(install, 'dist', 'cli'), { recursive: true });
copyFileSync(join(repoRoot, 'bin', 'boxwright.cjs'), join(install, 'bin', 'boxwright.cjs'));
for (const f of readdirSync(join(repoRoot, 'dist', 'cli')).filter((n) => n.endsWith('.cjs')))
  copyFileSync(join(repoRoot, 'dist', 'cli', f), join(install, 'dist', 'cli', f));

const config = '[agent.filesystem]\nread = ["~/project"]\n';
// NODE_OPTIONS turns the cache off (bin/boxwright.cjs): the test runner's must not decide for the test.
const env = (extra: Record<string, string | undefined> = {}) =>
  plainEnv({ NODE_OPTIONS: undefined, BOXWRIGHT_CODE_CACHE: undefined, ...extra });
const boxwright = (args: readonly string[], extra: Record<string, string | undefined> = {}) =>
  finished(
    spawnSync(process.execPath, [join(install, 'bin', 'boxwright.cjs'), ...args], {
      cwd: install,
      env: env(extra),
      input: config,
      encoding: 'utf8',
      timeout: WAIT_LIMIT_MS,
    }),
    `boxwright ${args.join(' ')}`,
  );
const cache = join(install, 'dist', 'cli', 'lint.cjs.cache');
const covered = (): unknown => (JSON.parse(readFileSync(`${cache}.json`, 'utf8')) as { commands: unknown }).commands;

describe("bin/boxwright.cjs's code cache", () => {
  it('off: neither read nor written', () => {
    const r = boxwright(['lint', '--fs', 'none', '-'], { BOXWRIGHT_CODE_CACHE: 'off' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(existsSync(cache), false);
  });
  it('a first run writes it and records its command; the next loads it and prints the same; another command adds itself', () => {
    const first = boxwright(['lint', '--fs', 'none', '-']);
    assert.equal(first.status, 0, first.stderr);
    assert.ok(existsSync(cache), 'the first lint wrote lint.cjs.cache');
    assert.deepEqual(covered(), ['lint']);
    const written = readFileSync(cache);
    const second = boxwright(['lint', '--fs', 'none', '-']);
    assert.deepEqual([second.status, second.stdout, second.stderr], [first.status, first.stdout, first.stderr]);
    assert.ok(readFileSync(cache).equals(written), 'a covered command leaves the cache as it was');
    const rules = boxwright(['rules']);
    assert.equal(rules.status, 0, rules.stderr);
    assert.deepEqual(covered(), ['lint', 'rules']);
    assert.deepEqual(
      readdirSync(join(install, 'dist', 'cli')).filter((f) => f.endsWith('.tmp')),
      [],
      'no file written aside is left',
    );
  });
});
