// Where a run keeps its own files when it has no cache entry (issue 34,
// attack 5; targets/run/run-dir.ts): the macOS runner wrote its profile to
// mkdtemp($TMPDIR/boxwright-run-…), where another session's workload with a
// write grant there could replace it before sandbox-exec read it. Now it
// makes it under the protected cache root, else refuses; the Linux runner's
// choice (run-dir.ts) adds XDG_RUNTIME_DIR. sandbox-exec runs only on macOS, so this
// is a unit test (the Linux attack, end to end: test/linux/hostile/run-dir.test.ts).
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runDirParent } from '../../targets/run/run-dir.js';
import { runUnderSandboxExec } from '../../targets/macos/run/sandbox-exec.js';

describe("a run's own directory: never a shared temp directory (issue 34, attack 5)", () => {
  let shared = '';
  let cache = '';
  let runtime = '';
  const home = '/nonexistent-home';
  before(() => {
    shared = mkdtempSync(join(tmpdir(), 'boxwright-shared-tmp-'));
    chmodSync(shared, 0o1777);
    cache = mkdtempSync(join(tmpdir(), 'boxwright-run-dir-cache-'));
    runtime = mkdtempSync(join(tmpdir(), 'boxwright-run-dir-runtime-'));
  });
  after(() => {
    for (const d of [shared, cache, runtime]) rmSync(d, { recursive: true, force: true });
  });

  it('the cache root when it is private: its run/ made 0700', () => {
    const place = runDirParent(undefined, { XDG_CACHE_HOME: cache, TMPDIR: shared }, home);
    assert.deepEqual(place, { dir: join(cache, 'boxwright', 'run') });
    assert.equal(statSync(join(cache, 'boxwright', 'run')).mode & 0o777, 0o700);
  });

  it('a principal that reaches a candidate makes the next one be tried, and its reason is said', () => {
    const place = runDirParent(
      (c) => (c.startsWith(cache) ? 'agent may write it' : undefined),
      { XDG_CACHE_HOME: cache, XDG_RUNTIME_DIR: runtime },
      home,
    );
    assert.deepEqual(place, { dir: join(runtime, 'boxwright') });
  });

  describe('the cache root not private', () => {
    before(() => chmodSync(join(cache, 'boxwright'), 0o777));
    after(() => chmodSync(join(cache, 'boxwright'), 0o700));

    it('without XDG_RUNTIME_DIR: no place, with the remedy; never TMPDIR (control: TMPDIR is what tmpdir(), the old place, answers)', () => {
      const place = runDirParent(undefined, { XDG_CACHE_HOME: cache, TMPDIR: shared }, home);
      assert.ok('why' in place);
      assert.match(place.why, /can be written by others \(mode 777\); XDG_RUNTIME_DIR is not set\)/);
      assert.match(place.why, /chmod 700.*XDG_CACHE_HOME.*XDG_RUNTIME_DIR/);
      assert.deepEqual(readdirSync(shared), []);
      const saved = process.env.TMPDIR;
      process.env.TMPDIR = shared;
      try {
        assert.equal(tmpdir(), shared, 'the old code made its directory in the shared one');
      } finally {
        if (saved === undefined) delete process.env.TMPDIR;
        else process.env.TMPDIR = saved;
      }
    });

    it('XDG_RUNTIME_DIR world-writable or sticky, or relative: refused; private: used', () => {
      const bad = runDirParent(undefined, { XDG_CACHE_HOME: cache, XDG_RUNTIME_DIR: shared }, home);
      assert.ok('why' in bad);
      assert.match(bad.why, new RegExp(`${shared} can be written by others`));
      const relative = runDirParent(undefined, { XDG_CACHE_HOME: cache, XDG_RUNTIME_DIR: 'run' }, home);
      assert.ok('why' in relative);
      assert.match(relative.why, /XDG_RUNTIME_DIR \(run\) is not an absolute path/);
      assert.deepEqual(runDirParent(undefined, { XDG_CACHE_HOME: cache, XDG_RUNTIME_DIR: runtime }, home), {
        dir: join(runtime, 'boxwright'),
      });
      assert.equal(statSync(join(runtime, 'boxwright')).mode & 0o777, 0o700);
    });

    it('the macOS runner refuses before writing its profile anywhere', async () => {
      const saved = { ...process.env };
      Object.assign(process.env, { XDG_CACHE_HOME: cache, TMPDIR: shared });
      delete process.env.XDG_RUNTIME_DIR;
      try {
        const outcome = await runUnderSandboxExec({
          profile: '(version 1)',
          name: 'agent.sb',
          privateTemp: false,
          command: ['true'],
          env: {},
        });
        assert.equal(outcome.kind, 'no-private-dir');
        assert.deepEqual(readdirSync(shared), []);
      } finally {
        for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
        Object.assign(process.env, saved);
      }
    });
  });

  it('a cache root whose parent is the shared temp (XDG_CACHE_HOME=/tmp) is refused: its entry there could be renamed away', () => {
    const place = runDirParent(undefined, { XDG_CACHE_HOME: shared }, home);
    assert.ok('why' in place);
    assert.match(place.why, new RegExp(`${shared}/boxwright is in ${shared}, a directory others may write \\(mode 1777\\)`));
    assert.deepEqual(readdirSync(shared), []);
  });

  // macOS keeps its runs under the cache root alone (sandbox-exec.ts, runsRoot): the model closes a private_tmp directory there under a deny of the cache.
  it('the macOS runner writes its profile under the cache root, and removes it after', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, { XDG_CACHE_HOME: cache, TMPDIR: shared });
    try {
      const outcome = await runUnderSandboxExec({
        profile: '(version 1)',
        name: 'agent.sb',
        privateTemp: false,
        command: ['true'],
        env: {},
      });
      // Here (Linux) there is no sandbox-exec to start; on macOS it runs.
      assert.ok(outcome.kind === 'no-sandbox-exec' || outcome.kind === 'exited', outcome.kind);
      assert.deepEqual(readdirSync(join(cache, 'boxwright', 'macos-runs')), []);
      assert.deepEqual(readdirSync(shared), []);
    } finally {
      Object.assign(process.env, saved);
    }
  });
});
