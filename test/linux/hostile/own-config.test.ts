// Attack 3 of issue 21: the config in its own write tree. A repository
// keeps its sandbox config at its root, and the agent may write the
// repository: run 1 rewrites the config, run 2 of the same command line
// compiles what run 1 wrote and reads what run 1 could not. Nothing warned
// at either step. Now the config being checked is a host-trusted path
// (issue 21 part A): read-only inside every write grant, so run 1's
// rewrite fails. A grant that lifts that (one naming the config) is
// refused by the check (`trusted-file-writable`, over the model) — lint
// and compile report it, run exits 125 before anything starts — and the
// launcher refuses a config its own mounts make writable. The control runs
// the lifted config's artifacts by hand (compile --force, past the
// refusal): the rewrite succeeds, and the rewritten config grants the
// secret.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeLaunchFile, encodeLaunchFile } from '../../../targets/linux/launcher/index.js';
import { boxwright } from '../support.js';
import { launch } from '../launcher-support.js';
import { bare, compiled, makeLab, sandboxed, skip, type Lab } from './support.js';

describe('hostile workload: the config in its own write tree (issue 21, attack 3)', { skip, concurrency: 1 }, () => {
  let lab: Lab;
  let project = '';
  let inside = '';
  let outside = '';
  let secret = '';
  const text = (): string =>
    `[agent.filesystem]\n${lab.base.replace('read = ["/usr"]', 'read = ["/usr", "~/project"]')}write = ["~/project"]\n`;
  // The same config with a grant that names the config itself: the host-trusted carve-out lifted.
  const lifted = (): string => `${text()}write_file = ["~/project/sandbox.toml"]\n`;
  // The workload of run 1: give the next run the secret.
  // Written in place (the file itself: a grant that names the file binds it, and a rename over a mount point fails).
  const rewrite = (config: string): string[] => [
    'sh',
    '-c',
    `c=$(sed 's|read = \\["/usr", "~/project"\\]|read = ["/usr", "~/project", "~/secret.txt"]|' ${config}) && printf '%s\\n' "$c" > ${config}; echo "rc=$?"`,
  ];
  before(() => {
    lab = makeLab('own-config');
    project = join(lab.home, 'project');
    mkdirSync(project);
    secret = join(lab.home, 'secret.txt');
    writeFileSync(secret, 'TOP SECRET\n');
    inside = join(project, 'sandbox.toml');
    outside = lab.config('sandbox.toml', text());
  });
  after(() => lab.cleanup());

  it('by default the config in its write tree is read-only (host-trusted): run 1 runs, its rewrite fails, the config is unchanged', async () => {
    writeFileSync(inside, text());
    const r = await sandboxed(lab, inside, rewrite(inside));
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /rc=[1-9]/, 'the rewrite fails');
    assert.equal(readFileSync(inside, 'utf8'), text(), 'run 1 wrote nothing');
  });

  it('a grant that lifts it: run refuses (125) before anything starts, the config is unchanged', async () => {
    writeFileSync(inside, lifted());
    const r = await sandboxed(lab, inside, rewrite(inside));
    assert.equal(r.status, 125, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /error {2}trusted-file-writable {2}\[macos,linux,windows\] {2}the agent can write .*\/project\/sandbox\.toml, the config this sandbox is compiled from/,
    );
    assert.match(r.stderr, /the command did not run/);
    assert.equal(r.stdout, '');
    assert.equal(readFileSync(inside, 'utf8'), lifted(), 'run 1 wrote nothing');
  });

  it('lint reports the lift (exit 1), and compile writes nothing (exit 1)', async () => {
    writeFileSync(inside, lifted());
    const l = await boxwright(['lint', inside, '--home', lab.home, '--fs', 'host']);
    assert.equal(l.status, 1, l.stdout + l.stderr);
    assert.match(l.stdout, /trusted-file-writable/);
    const out = mkdtempSync(join(tmpdir(), 'boxwright-own-config-out-'));
    try {
      const c = await boxwright(['compile', inside, '--home', lab.home, '--fs', 'host', '--target', 'linux', '--out', out]);
      assert.equal(c.status, 1, c.stderr);
      assert.match(c.stderr, /trusted-file-writable/);
      assert.deepEqual(readdirSync(out), []);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('the same config outside the write tree runs, and a deny of it inside the tree keeps it from the workload', async () => {
    const r = await sandboxed(lab, outside, ['sh', '-c', 'echo ran']);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'ran\n');
    writeFileSync(inside, text().replace('write = ["~/project"]', 'write = ["~/project"]\ndeny = ["~/project/sandbox.toml"]'));
    const denied = await sandboxed(lab, inside, rewrite(inside));
    assert.equal(denied.status, 0, denied.stderr);
    assert.match(denied.stdout, /rc=[1-9]/, 'the rewrite fails');
    assert.doesNotMatch(readFileSync(inside, 'utf8'), /secret/);
  });

  it('the launcher refuses (125) a config its mounts make writable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'boxwright-own-config-dir-'));
    try {
      const c = await boxwright(['compile', outside, '--home', lab.home, '--fs', 'host', '--target', 'linux', '--out', dir]);
      assert.equal(c.status, 0, c.stderr);
      // The same bytes inside the write tree, and the launch file pointing there (what a compile before this check wrote).
      writeFileSync(inside, readFileSync(outside));
      const launchFile = join(dir, 'agent.launch');
      writeFileSync(launchFile, encodeLaunchFile({ ...decodeLaunchFile(readFileSync(launchFile)), config: inside }));
      const r = await launch(join(dir, 'agent.run'), rewrite(inside));
      assert.equal(r.status, 125, r.stdout + r.stderr);
      assert.match(
        r.stderr,
        /agent's sandbox could change .*\/project\/sandbox\.toml, the config it was compiled from \(what the next compile reads\): .*\/project is mounted writable/,
      );
      assert.equal(readFileSync(inside, 'utf8'), readFileSync(outside, 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('control: without the refusal (the lifted config compiled with --force, run by hand) run 1 rewrites the config, and run 2 of it reads the secret', async () => {
    writeFileSync(inside, lifted());
    const run1 = await bare(await compiled(lab, inside, 'agent', ['--force']), rewrite(inside));
    assert.match(run1.stdout, /rc=0/, run1.stderr);
    assert.match(readFileSync(inside, 'utf8'), /secret\.txt/, 'run 1 rewrote the config');
    const run2 = await bare(await compiled(lab, inside, 'agent', ['--force']), ['cat', secret]);
    assert.equal(run2.stdout, 'TOP SECRET\n', run2.stderr);
  });
});
