// The runner's pure parts: the environment policy and --principal.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { principalId } from '../../targets/linux/run/sandbox/run-request.js';
import { isAllowedName, sandboxEnv } from '../../targets/run/env.js';

describe('runner environment policy: an allowlist', () => {
  it('passes the few variables every program needs, exactly as named', () => {
    for (const n of [
      'PATH',
      'HOME',
      'USER',
      'LOGNAME',
      'SHELL',
      'LANG',
      'LC_ALL',
      'LC_CTYPE',
      'TERM',
      'COLORTERM',
      'TZ',
      'TMPDIR',
      'NO_COLOR',
    ])
      assert.ok(isAllowedName(n), n);
  });

  it('withholds everything else, credentials in names no denylist anticipates included', () => {
    // The variables a denylist missed (the hardening issue's list), and some that look harmless.
    for (const n of [
      'PGPASSWORD',
      'MYSQL_PWD',
      'npm_config__authToken',
      'GITHUB_PAT',
      'REDIS_URL',
      'TF_TOKEN_app_terraform_io',
      'BW_SESSION',
      'KAGGLE_KEY',
      'SENTRY_DSN',
      'SLACK_WEBHOOK_URL',
      'VAULT_TOKEN',
      'AWS_SECRET_ACCESS_KEY',
      'SSH_AUTH_SOCK',
      'DISPLAY',
      'NODE_OPTIONS',
      'path',
      'lc_all',
    ])
      assert.ok(!isAllowedName(n), n);
  });

  it('--pass-env lets exactly the named variables through; the rest is reported as withheld', () => {
    const { env, withheld } = sandboxEnv(
      { PATH: '/usr/bin', GITHUB_TOKEN: 'a', AWS_PROFILE: 'b', PGPASSWORD: 'c', LC_ALL: 'C', UNSET: undefined },
      ['GITHUB_TOKEN'],
    );
    assert.deepEqual(env, { PATH: '/usr/bin', GITHUB_TOKEN: 'a', LC_ALL: 'C' });
    assert.deepEqual(withheld, ['AWS_PROFILE', 'PGPASSWORD']);
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
