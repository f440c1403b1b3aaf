// Attack 4 of issue 21: `compile --out DIR` inside a write tree. The
// workload rewrote DIR/agent.bwrap.args (a writable bind of the home) and
// DIR/agent.launch (`landlock none`), and the next DIR/agent.run read
// outside every grant: the launcher checked only the config's digest. Now
// compile refuses a DIR any principal (or anyone else) could write, the
// launch file records the SHA-256 of every file the launcher hands on and
// the launcher holds each to it, and the launcher refuses a directory of
// its own that its mounts make writable. The control runs the tampered
// artifacts by hand: they read the secret.
import assert from 'node:assert/strict';
import { appendFileSync, chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { hostArch, parseArgsFile } from '../../../targets/linux/index.js';
import { boxwright } from '../support.js';
import { launch } from '../launcher-support.js';
import { bare, compiled, makeLab, skip, type Lab } from './support.js';

describe('hostile workload: the compiled directory inside a write tree (issue 21, attack 4)', { skip, concurrency: 1 }, () => {
  let lab: Lab;
  let config = '';
  let secret = '';
  let project = '';
  const compile = (out: string, extra: readonly string[] = []) =>
    boxwright(['compile', config, '--home', lab.home, '--fs', 'host', '--target', 'linux', '--out', out, ...extra]);
  const nul = (argv: readonly string[]): string => argv.map((a) => `${a}\0`).join('');
  before(() => {
    lab = makeLab('compile-out');
    project = join(lab.home, 'project');
    mkdirSync(project);
    secret = join(lab.home, 'secret.txt');
    writeFileSync(secret, 'TOP SECRET\n');
    config = lab.config(
      'c.toml',
      `[agent.filesystem]\n${lab.base.replace('read = ["/usr"]', 'read = ["/usr", "~/project"]')}write = ["~/project"]\n`,
    );
  });
  after(() => lab.cleanup());

  it('compile --out inside the write tree: refused (exit 1), nothing written', async () => {
    const out = join(project, '.sandbox');
    const r = await compile(out);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /trusted-file-writable .*the agent can write .*\/project\/\.sandbox, the directory `compile --out` writes the sandbox into/,
    );
    assert.ok(!existsSync(out), 'nothing was made');
  });

  it('compile --out into a directory others can write: refused (exit 1), nothing written', async () => {
    const out = mkdtempSync(join(tmpdir(), 'boxwright-open-out-'));
    try {
      chmodSync(out, 0o777);
      const r = await compile(out);
      assert.equal(r.status, 1, r.stdout + r.stderr);
      assert.match(
        r.stderr,
        /--out .*: .* can be written by others \(mode 0777\): whoever can write it decides what the launchers there run/,
      );
      assert.ok(!existsSync(join(out, 'agent.launch')));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  describe('DIR/agent.run', () => {
    let out = '';
    before(async () => {
      out = mkdtempSync(join(tmpdir(), 'boxwright-out-'));
      const r = await compile(out);
      assert.equal(r.status, 0, r.stderr);
    });
    after(() => rmSync(out, { recursive: true, force: true }));

    it('the workload cannot write DIR: it is not in the view', async () => {
      const r = await launch(join(out, 'agent.run'), ['sh', '-c', `echo x >> ${join(out, 'agent.launch')}; echo "rc=$?"`]);
      assert.match(r.stdout, /rc=[1-9]/, r.stderr);
    });

    it('a tampered .bwrap.args (a writable bind of the home added): 125, never started', async () => {
      const file = join(out, 'agent.bwrap.args');
      const before = readFileSync(file);
      try {
        writeFileSync(file, nul(['--bind', lab.home, lab.home, ...parseArgsFile(before)]));
        const r = await launch(join(out, 'agent.run'), ['cat', secret]);
        assert.equal(r.status, 125, r.stdout + r.stderr);
        assert.match(
          r.stderr,
          /agent\.bwrap\.args is not the file compile wrote \(sha256 [0-9a-f]{64}; the launch file says [0-9a-f]{64}\); the command did not run/,
        );
        assert.equal(r.stdout, '');
      } finally {
        writeFileSync(file, before);
      }
    });

    it('a tampered seccomp program or Landlock rules: 125', async () => {
      for (const name of [`seccomp.${hostArch()}.bpf`, 'agent.landlock']) {
        const file = join(out, name);
        const before = readFileSync(file);
        try {
          appendFileSync(file, Buffer.alloc(8));
          const r = await launch(join(out, 'agent.run'), ['true']);
          assert.equal(r.status, 125, `${name}: ${r.stderr}`);
          assert.match(r.stderr, new RegExp(`${name.replace(/\./g, '\\.')} is not the file compile wrote`));
        } finally {
          writeFileSync(file, before);
        }
      }
    });

    it('DIR moved under the write tree: the launcher refuses its own directory (125)', async () => {
      const moved = join(project, 'moved');
      renameSync(out, moved);
      try {
        const r = await launch(join(moved, 'agent.run'), ['true']);
        assert.equal(r.status, 125, r.stdout + r.stderr);
        assert.match(
          r.stderr,
          /agent's sandbox could change .*\/project\/moved, this launcher's directory \(what the next run reads\): .*\/project is mounted writable/,
        );
      } finally {
        renameSync(moved, out);
      }
      const r = await launch(join(out, 'agent.run'), ['true']);
      assert.equal(r.status, 0, r.stderr);
    });
  });

  it('control: the artifacts in a DIR inside the write tree, rewritten by run 1, read the secret in run 2 (as a launcher that checks no digest)', async () => {
    const out = join(project, '.sandbox');
    mkdirSync(out);
    try {
      const c = await compiled(lab, config);
      writeFileSync(join(out, 'agent.bwrap.args'), nul(c.argv));
      // Run 1: the workload rewrites the argv in DIR (written here beforehand, copied over by the workload).
      writeFileSync(join(project, 'tampered'), nul(['--bind', lab.home, lab.home, ...c.argv]));
      const run1 = await bare(c, ['sh', '-c', `cp ${join(project, 'tampered')} ${join(out, 'agent.bwrap.args')}; echo "rc=$?"`]);
      assert.match(run1.stdout, /rc=0/, run1.stderr);
      // Run 2: the rewritten argv.
      const run2 = await bare({ ...c, argv: parseArgsFile(readFileSync(join(out, 'agent.bwrap.args'))) }, ['cat', secret]);
      assert.equal(run2.stdout, 'TOP SECRET\n', run2.stderr);
    } finally {
      rmSync(out, { recursive: true, force: true });
      rmSync(join(project, 'tampered'), { force: true });
    }
  });
});
