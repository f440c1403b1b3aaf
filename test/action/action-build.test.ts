import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from '../helpers.js';
import { readYaml } from './composite.js';
import { pullRequest, step, why, widened } from './pull-request.js';

/**
 * The Action's build step from a checkout as `uses:` leaves it: the
 * repository's files without node_modules or dist. It installs the
 * devDependencies with `npm ci --ignore-scripts` (from the registry, through
 * npm's cache: what the fast tier's `npm ci` already fetched) and builds, and
 * the steps after it run the boxwright it built. A second use in the same
 * job finds it built.
 */
describe('the Action builds boxwright from its own checkout', () => {
  it('npm ci --ignore-scripts and the build, then lint and diff with what it built; a second run reuses the build', (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'boxwright-action-build-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const actionPath = join(dir, 'boxwright');
    const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: repoRoot, encoding: 'utf8' })
      .split('\0')
      .filter((f) => f && !f.startsWith('node_modules/') && !f.startsWith('dist/'));
    assert.ok(files.includes('action.yml') && files.includes('package-lock.json'));
    for (const f of files) {
      mkdirSync(dirname(join(actionPath, f)), { recursive: true });
      // A file deleted in the work tree but not yet in the index is listed and absent: it is not part of the checkout.
      try {
        cpSync(join(repoRoot, f), join(actionPath, f));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
    }
    const action = readYaml(readFileSync(join(actionPath, 'action.yml'), 'utf8'));
    const passed = Object.fromEntries(
      Object.entries(process.env).filter((e): e is [string, string] => /^(npm_config_|NODE_EXTRA_CA_CERTS$)/.test(e[0]) && !!e[1]),
    );
    const pr = pullRequest(t, action, { 'sandbox/agent.toml': widened }, actionPath, { ...passed, npm_config_prefer_offline: 'true' });
    const first = pr.run({ fs: 'sandbox/machine.json' });
    const build = step(first, 'Build boxwright');
    assert.equal(build.outcome, 'success', why(first));
    assert.match(build.stdout, /^added \d+ packages/m, 'npm ci installed the devDependencies');
    assert.match(build.stdout, /^0\.1\.0$/m, 'the built CLI answers');
    assert.equal(step(first, 'Lint the sandbox configs').outcome, 'success', why(first));
    assert.equal(step(first, 'Diff effective access against the base').status, 1, why(first));
    assert.equal(first.outputs.widened, 'true');
    assert.ok(first.summary.includes('- 🔓 macos, linux: the agent can now write ~/project (`r` → `rw`)'), first.summary);
    const again = pr.run({ fs: 'sandbox/machine.json' });
    assert.match(step(again, 'Build boxwright').stdout, /^boxwright: already built in /m, why(again));
    assert.equal(again.outputs.widened, 'true');
  });
});
