/**
 * TYBA's session directories (`--worktree`, `--agent-dir`) are read-write
 * implicit grants, which the path rules leave alone. One that is, or holds,
 * a listed secret location exposes it on Linux (read-write): the
 * `secret-not-grantable` rule says so, and says nothing for a session that
 * holds none.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkConfig } from '../../app/check.js';
import { machine } from '../lint-helpers.js';

const lint = (session: { worktree: string; agentDirs?: string[] }) =>
  checkConfig(Buffer.from('[sandbox]\nread_allow = ["~/project"]\n'), { file: 't.toml', view: machine, ...session }).diagnostics.filter((d) => d.ruleId === 'secret-not-grantable');

describe('secret-not-grantable: the session directories', () => {
  it('--agent-dir ~/.ssh is a secret location, --worktree ~ holds them: a Linux warning each', () => {
    const ds = lint({ worktree: '/home/dev', agentDirs: ['/home/dev/.ssh'] });
    assert.deepEqual(ds.map((d) => `${d.severity} ${d.platforms.join(',')}`), ['warning linux', 'warning linux']);
    const [agentDir, worktree] = [ds.find((d) => d.message.startsWith("the agent's directory"))!, ds.find((d) => d.message.startsWith('the session worktree'))!];
    assert.match(worktree.message, /^the session worktree \/home\/dev holds listed secret locations \(~\/\.ssh, .*\): on Linux the agent can read and write them; macOS and Windows keep them denied$/);
    assert.match(agentDir.message, /^the agent's directory \/home\/dev\/\.ssh is a listed secret location: on Linux the agent can read and write it; macOS and Windows keep it denied$/);
  });
  it('a worktree and an agent directory that hold no secret: nothing', () => {
    assert.deepEqual(lint({ worktree: '/home/dev/project', agentDirs: ['/home/dev/.claude'] }), []);
  });
});
