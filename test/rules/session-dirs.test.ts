/**
 * TYBA's session directories (`--worktree`, `--agent-dir`, the data
 * directory) are implicit grants, which the path rules leave alone, with
 * the facts the view finds. One that is, or holds, a listed secret location
 * exposes it on Linux (read-write): `secret-not-grantable` says so. One that
 * does not exist cannot be bound from the host: `missing-path` refuses it on
 * Linux (bubblewrap failed at start-up). An absent data directory has
 * nothing to hide: no cover, no error.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkConfig } from '../../app/check.js';
import { machine } from '../lint-helpers.js';

const lint = (session: { worktree: string; agentDirs?: string[] }) =>
  checkConfig(Buffer.from('[sandbox]\nread_allow = ["~/project"]\n'), { file: 't.toml', view: machine, ...session }).diagnostics.filter(
    (d) => d.ruleId === 'secret-not-grantable',
  );

describe('secret-not-grantable: the session directories', () => {
  it('--agent-dir ~/.ssh is a secret location, --worktree ~ holds them: a Linux warning each', () => {
    const ds = lint({ worktree: '/home/dev', agentDirs: ['/home/dev/.ssh'] });
    assert.deepEqual(
      ds.map((d) => `${d.severity} ${d.platforms.join(',')}`),
      ['warning linux', 'warning linux'],
    );
    const [agentDir, worktree] = [
      ds.find((d) => d.message.startsWith("the agent's directory"))!,
      ds.find((d) => d.message.startsWith('the session worktree'))!,
    ];
    assert.match(
      worktree.message,
      /^the session worktree \/home\/dev holds listed secret locations \(~\/\.ssh, .*\): on Linux the agent can read and write them; macOS and Windows keep them denied$/,
    );
    assert.match(
      agentDir.message,
      /^the agent's directory \/home\/dev\/\.ssh is a listed secret location: on Linux the agent can read and write it; macOS and Windows keep it denied$/,
    );
  });
  it('a worktree and an agent directory that hold no secret: nothing', () => {
    assert.deepEqual(lint({ worktree: '/home/dev/project', agentDirs: ['/home/dev/.claude'] }), []);
  });
});

describe('missing-path: the session directories', () => {
  const all = (session: { worktree: string; agentDirs?: string[]; tybaDataDir?: string }) =>
    checkConfig(Buffer.from('[sandbox]\nread_allow = ["~/project"]\n'), { file: 't.toml', view: machine, ...session });
  it('an absent worktree or agent directory is a Linux error, and Linux refuses', () => {
    const r = all({ worktree: '/home/dev/no-such-worktree', agentDirs: ['/home/dev/no-such-dir'] });
    const ds = r.diagnostics.filter((d) => d.ruleId === 'missing-path');
    assert.deepEqual(ds.map((d) => `${d.severity} ${d.platforms.join(',')} ${d.message}`).sort(), [
      "error linux the agent's directory /home/dev/no-such-dir does not exist: Linux mounts it from the host, so the sandbox could not start",
      'error linux the session worktree /home/dev/no-such-worktree does not exist: Linux mounts it from the host, so the sandbox could not start',
    ]);
    assert.equal(r.verdicts.linux, 'refused');
  });
  it('an absent data directory inside a read_allow tree: nothing to cover on Linux (the cover could not be made), no error', async () => {
    const r = checkConfig(Buffer.from('[sandbox]\nread_allow = ["~"]\n'), {
      file: 't.toml',
      view: machine,
      worktree: '/home/dev/work',
      tybaDataDir: '/home/dev/no-tyba-data',
    });
    assert.deepEqual(
      r.diagnostics.filter((d) => d.severity === 'error' && d.platforms.includes('linux')),
      [],
    );
    assert.notEqual(r.model!.principals[0]!.effectiveAt('/home/dev/no-tyba-data', 'linux').kind, 'empty');
    const { compileConfig } = await import('../../app/cli/compile.js');
    const out = await compileConfig(r, 'linux', {});
    assert.ok(out.ok);
    const args = out.artifacts.find((a) => a.name === 'agent.bwrap.args')!.content;
    assert.ok(!Buffer.from(args).toString('utf8').includes('/home/dev/no-tyba-data'), 'no cover of a directory that is not there');
  });
});
