// The runner's pure parts: the environment policy and --principal.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { principalId } from '../../compiler/cli/run.js';
import { isCredentialName, sandboxEnv } from '../../targets/runner/env.js';

describe('runner environment policy', () => {
  it('withholds credential variables by name, prefix and suffix, case-insensitively', () => {
    for (const n of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AZURE_CLIENT_SECRET', 'GOOGLE_APPLICATION_CREDENTIALS', 'GITHUB_TOKEN', 'GH_TOKEN', 'NPM_TOKEN', 'SSH_AUTH_SOCK', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'DB_PASSWORD', 'stripe_secret', 'MY_PRIVATE_KEY'])
      assert.ok(isCredentialName(n), n);
    for (const n of ['PATH', 'HOME', 'LANG', 'TERM', 'TOKENIZERS_PARALLELISM', 'EDITOR', 'NODE_OPTIONS', 'SECRETARY'])
      assert.ok(!isCredentialName(n), n);
  });

  it('--pass-env lets exactly the named variables through', () => {
    const { env, withheld } = sandboxEnv({ PATH: '/usr/bin', GITHUB_TOKEN: 'a', AWS_PROFILE: 'b', NPM_TOKEN: 'c', UNSET: undefined }, ['GITHUB_TOKEN']);
    assert.deepEqual(env, { PATH: '/usr/bin', GITHUB_TOKEN: 'a' });
    assert.deepEqual(withheld, ['AWS_PROFILE', 'NPM_TOKEN']);
  });
});

describe('--principal', () => {
  it('agent, tool:NAME, mcp:NAME (and the artifact spelling tool.NAME)', () => {
    assert.equal(principalId(undefined), 'agent');
    assert.equal(principalId('agent'), 'agent');
    assert.equal(principalId('tool:formatter'), 'tool.formatter');
    assert.equal(principalId('mcp:search'), 'mcp.search');
    assert.equal(principalId('tool.formatter'), 'tool.formatter');
    assert.throws(() => principalId('server:x'), /--principal must be/);
  });
});
