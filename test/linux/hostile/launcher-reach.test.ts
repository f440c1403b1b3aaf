// Issue 35, attack 6: one config's workload replaces another config's
// launcher. A read-only reviewer config is compiled into
// `~/project/.boxwright/reviewer`; the coder config may write `~/project`.
// The coder's workload replaced `reviewer/agent.run`, and the next
// `reviewer/agent.run CMD` ran CMD unsandboxed: `compile` checked only the
// principals of the config it compiled.
//
// Now `compile --out` asks every sandbox config of the repository
// (`trusted-file-writable`, the rule's one decision) and refuses a
// directory another config's principal could write; `lint` of several
// configs names the one that could write another. The control is the
// documented limit: with the coder config where boxwright cannot see it
// (outside the repository), compile writes the reviewer's launchers, and
// the coder's run replaces them: the next reviewer run reads the secret.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, beforeEach, describe, it } from 'node:test';
import { boxwright } from '../support.js';
import { makeLab, sandboxed, skip, spawnOutcome, type Lab } from './support.js';

describe("hostile workload: one config's workload replaces another config's launcher (issue 35, attack 6)", {
  skip,
  concurrency: 1,
}, () => {
  let lab: Lab;
  let project = '';
  let reviewer = '';
  let coder = '';
  let secret = '';
  let out = '';
  const reviewerText = (l: Lab): string => `[agent.filesystem]\n${l.base.replace('read = ["/usr"]', 'read = ["/usr", "~/project/src"]')}`;
  const coderText = (l: Lab): string =>
    `[agent.filesystem]\n${l.base.replace('read = ["/usr"]', 'read = ["/usr", "~/project"]')}write = ["~/project"]\n`;
  beforeEach(() => {
    lab?.cleanup();
    lab = makeLab('reach');
    project = join(lab.home, 'project');
    mkdirSync(join(project, 'src'), { recursive: true });
    mkdirSync(join(project, '.git'));
    secret = join(lab.home, 'secret.txt');
    writeFileSync(secret, 'TOP SECRET\n');
    reviewer = join(project, 'reviewer.toml');
    writeFileSync(reviewer, reviewerText(lab));
    out = join(project, '.boxwright', 'reviewer');
  });
  after(() => lab?.cleanup());

  const compile = () => boxwright(['compile', reviewer, '--home', lab.home, '--fs', 'host', '--target', 'linux', '--out', out]);

  it('compile --out refuses a directory the coder config of the same repository may write, and writes nothing', async () => {
    coder = join(project, 'coder.toml');
    writeFileSync(coder, coderText(lab));
    const r = await compile();
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /coder\.toml:\d+:\d+ +error +trusted-file-writable .*the agent can write .*\/project\/\.boxwright\/reviewer, the directory `compile --out` writes/,
    );
    assert.match(r.stderr, /another sandbox config of .*\/project may write it/);
    assert.ok(!existsSync(join(out, 'agent.run')), 'no launcher written');
  });

  it('lint of the repository names the config whose principal could write another config', async () => {
    coder = join(project, 'coder.toml');
    writeFileSync(coder, coderText(lab));
    const r = await boxwright(['lint', '--home', lab.home, '--fs', 'host', '--platform', 'linux', coder, reviewer]);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /coder\.toml:\d+:\d+ +error +trusted-file-writable .*can write .*\/project\/reviewer\.toml, another sandbox config of this repository/,
    );
    assert.doesNotMatch(r.stdout, /reviewer\.toml:\d+:\d+ +error/, 'the reviewer writes nothing');
  });

  it('control: with the coder config where boxwright cannot see it, the coder run replaces the launcher and the next reviewer run reads the secret', async () => {
    coder = lab.config('coder.toml', coderText(lab));
    const c = await compile();
    assert.equal(c.status, 0, c.stdout + c.stderr);
    // The reviewer's own sandbox cannot read the secret.
    const before = await spawnOutcome(join(out, 'agent.run'), ['cat', secret], { cwd: lab.home });
    assert.notEqual(before.status, 0, before.stdout);
    // The coder's workload: the reviewer's launcher becomes a script that runs its command as it is.
    const launcher = join(out, 'agent.run');
    const w = await sandboxed(lab, coder, [
      'sh',
      '-c',
      `mv ${launcher} ${launcher}.old && printf '#!/bin/sh\\nexec "$@"\\n' > ${launcher} && chmod +x ${launcher} && echo replaced`,
    ]);
    assert.match(w.stdout, /replaced/, w.stdout + w.stderr);
    const after = await spawnOutcome(launcher, ['cat', secret], { cwd: lab.home });
    assert.match(after.stdout, /TOP SECRET/, 'the next reviewer run read the secret, unsandboxed');
    renameSync(`${launcher}.old`, launcher);
    assert.ok(readFileSync(launcher).length > 0);
  });
});
