// Hole 5: credentials in the environment. A denylist misses names no list
// anticipates; the runner passes an allowlist (targets/run/env-allowlist.json)
// plus what --pass-env names, and -v names what it withheld.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bare, compiled, makeLab, sandboxed, skip, type Lab } from './support.js';

/** The variables the hardening review found a denylist missing, with values as a real machine has them. */
const LEAKS: Record<string, string> = {
  PGPASSWORD: 'pg-secret',
  MYSQL_PWD: 'mysql-secret',
  npm_config__authToken: 'npm-secret',
  GITHUB_PAT: 'ghp_secret',
  REDIS_URL: 'redis://:pw@cache.internal:6379',
  TF_TOKEN_app_terraform_io: 'tf-secret',
  BW_SESSION: 'bw-secret',
  KAGGLE_KEY: 'kaggle-secret',
  SENTRY_DSN: 'https://key@sentry.example/1',
  SLACK_WEBHOOK_URL: 'https://hooks.slack.example/T/B/x',
  VAULT_TOKEN: 'hvs.secret',
};
const KEPT: Record<string, string> = {
  PATH: '/usr/bin:/bin',
  HOME: '/nonexistent-home',
  LANG: 'C.UTF-8',
  LC_ALL: 'C.UTF-8',
  TZ: 'UTC',
  TERM: 'xterm-256color',
  NO_COLOR: '1',
};

describe('hostile workload: the environment', { skip, concurrency: 3 }, () => {
  let lab: Lab;
  let config = '';
  const env = (): Record<string, string> => {
    // Start from nothing of the test runner's own, so the assertion is exact.
    const r: Record<string, string> = {};
    for (const k of Object.keys(process.env)) r[k] = '';
    return r;
  };
  const seen = (stdout: string): Map<string, string> =>
    new Map(
      stdout
        .split('\0')
        .filter(Boolean)
        .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
    );
  before(() => {
    lab = makeLab('env');
    mkdirSync(join(lab.home, 'work'));
    config = lab.config('c.toml', `[agent.filesystem]\n${lab.base}workspace = "~/work"\n`);
  });
  after(() => lab.cleanup());

  it('the command sees the allowlisted variables and none of the credentials', async () => {
    const r = await sandboxed(lab, config, ['/usr/bin/env', '-0'], [], { env: { ...env(), ...LEAKS, ...KEPT } });
    assert.equal(r.status, 0, r.stderr);
    const vars = seen(r.stdout);
    for (const k of Object.keys(LEAKS)) assert.ok(!vars.has(k), `${k} leaked into the sandbox`);
    for (const [k, v] of Object.entries(KEPT)) assert.equal(vars.get(k), v, k);
    for (const v of Object.values(LEAKS)) assert.ok(!r.stdout.includes(v), `a secret value leaked: ${v}`);
  });

  it('--pass-env NAME lets exactly that one through; -v names what was withheld', async () => {
    const r = await sandboxed(lab, config, ['/usr/bin/env', '-0'], ['--pass-env', 'PGPASSWORD', '-v'], {
      env: { ...env(), ...LEAKS, ...KEPT },
    });
    const vars = seen(r.stdout);
    assert.equal(vars.get('PGPASSWORD'), 'pg-secret');
    assert.ok(!vars.has('MYSQL_PWD'));
    const line = /withholding \d+ environment variables?: (.*) \(--pass-env/.exec(r.stderr)?.[1] ?? '';
    for (const k of Object.keys(LEAKS).filter((k) => k !== 'PGPASSWORD')) assert.ok(line.split(', ').includes(k), `-v names ${k}: ${line}`);
    assert.ok(!line.split(', ').includes('PGPASSWORD'));
  });

  it('control: bare bubblewrap with the same artifacts hands every variable to the command', async () => {
    const c = await compiled(lab, config);
    const r = await bare(c, ['/usr/bin/env', '-0'], { env: { ...LEAKS, ...KEPT } });
    const vars = seen(r.stdout);
    for (const [k, v] of Object.entries(LEAKS)) assert.equal(vars.get(k), v, `${k} reaches the command without the policy`);
  });
});
