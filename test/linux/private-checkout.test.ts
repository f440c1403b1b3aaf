// The tests that switch to another user pass from a checkout that user
// cannot enter, as a new user's clone is: under a 0700 directory (root's
// home /root, a `mktemp -d`). The checkout's build (package.json, bin/,
// dist/, and the probes' C sources that the labs compile) is copied under
// a fresh 0700 directory, and every test named "as an unprivileged user"
// runs from there; the control shows that this user cannot run the copy's
// own bin/, so that those tests pass only because they do not need to.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { copyBuild, repoRoot, requireOrSkip } from '../helpers.js';
import { finished, WAIT_LIMIT_MS, within } from '../waits.js';
import { isRoot, NOBODY, skip as skipLab } from './hostile/support.js';

const PATTERN = 'as an unprivileged user';
const skip = skipLab ?? requireOrSkip(isRoot, 'root (uid 0), to switch to uid 65534');

/** The test files that hold a test named PATTERN (this one aside), as dist/test/… paths. */
const files = readdirSync(join(repoRoot, 'test'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.test.ts') && f !== join('linux', 'private-checkout.test.ts'))
  .filter((f) => readFileSync(join(repoRoot, 'test', f), 'utf8').includes(PATTERN))
  .map((f) => join('dist', 'test', f.replace(/\.ts$/, '.js')))
  .sort();

describe('the tests that run as another user, from a checkout under a 0700 directory', { skip }, () => {
  let parent = '';
  let checkout = '';
  before(() => {
    parent = mkdtempSync(join(tmpdir(), 'boxwright-private-'));
    checkout = join(parent, 'boxwright');
    for (const f of ['package.json', 'bin', join('test', 'linux', 'hostile', 'probes')])
      cpSync(join(repoRoot, f), join(checkout, f), { recursive: true });
    copyBuild(join(checkout, 'dist'));
    mkdirSync(join(checkout, 'node_modules'));
    // The packages the compiled tests import, as in the checkout (Node resolves through the links).
    for (const e of readdirSync(join(repoRoot, 'node_modules')))
      symlinkSync(join(repoRoot, 'node_modules', e), join(checkout, 'node_modules', e));
  });
  after(() => rmSync(parent, { recursive: true, force: true }));

  it("control: the directory is 0700, and uid 65534 cannot run the checkout's own bin/boxwright.cjs", () => {
    assert.equal(statSync(parent).mode & 0o777, 0o700);
    const r = finished(
      spawnSync(process.execPath, [join(checkout, 'bin', 'boxwright.cjs'), '--version'], {
        cwd: '/',
        uid: NOBODY,
        gid: NOBODY,
        encoding: 'utf8',
        timeout: WAIT_LIMIT_MS,
      }),
      "uid 65534 running the copy's bin/boxwright.cjs",
    );
    assert.notEqual(r.status, 0, r.stdout);
    assert.match(r.stderr, /Cannot find module|EACCES|permission denied/i);
  });

  it(`every test named "${PATTERN}" runs there and passes`, { timeout: 900_000 }, async () => {
    assert.ok(files.length >= 6, `only ${files.length} test files run something as another user: ${files.join(', ')}`);
    // Without NODE_TEST_CONTEXT, which makes a nested `node --test` decline to run files.
    const env = { ...process.env, NODE_TEST_CONTEXT: undefined };
    const child = spawn(process.execPath, ['--test', '--test-reporter=tap', `--test-name-pattern=${PATTERN}`, ...files], {
      cwd: checkout,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const status = await within(
      new Promise<number | null>((resolve) => child.on('close', resolve)),
      600_000,
      `the unprivileged-user tests in ${checkout}`,
      () => child.kill('SIGKILL'),
    );
    const passed = [...out.matchAll(/^\s*ok \d+ - (.*)$/gm)].map((m) => m[1]!).filter((n) => n.includes(PATTERN) && !/# SKIP/.test(n));
    const skippedOtherwise = [...out.matchAll(/^\s*ok \d+ - .*# SKIP(.*)$/gm)]
      .map((m) => m[1]!.trim())
      .filter((why) => why !== 'test name does not match pattern');
    assert.deepEqual(skippedOtherwise, [], out);
    assert.match(out, /^# fail 0$/m, out);
    assert.equal(status, 0, out);
    assert.ok(passed.length >= files.length, `${passed.length} passed in ${files.length} files:\n${out}`);
    const failed = [...out.matchAll(/^\s*not ok \d+ - (.*)$/gm)].map((m) => m[1]);
    assert.deepEqual(failed, []);
  });
});
