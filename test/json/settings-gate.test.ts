/**
 * `diff --fail-on widen` on sandbox-runtime and Claude Code settings fails
 * on every class of widening the settings hold beyond files (issue 36):
 * network (domains and wildcards, sockets, local binding, external
 * proxies), the sandbox's strength, commands outside the sandbox (excluded
 * and unsandboxed commands, hooks, helpers), programs run on the host, and
 * permission allow rules; a change to a setting boxwright does not model
 * fails as "cannot judge". The controls: the same changes the other way
 * round (narrowings) and a pure reordering pass. Each class is checked in
 * process (the exact sentence and gate failure), then through the CLI, by
 * direct path and by `--git` in a repository with two commits.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PLATFORMS } from '../../compiler/diagnostic.js';
import { diffChecks } from '../../app/cli/diff.js';
import { configReader } from '../../app/cli/options.js';
import { gateFailures } from '../../app/views/delta.js';
import { repoRoot } from '../helpers.js';

const worktree = '/home/dev/project';
const machine = join(repoRoot, 'examples', 'machine.json');
type Json = Record<string, unknown>;

const srtBase = (): Json => ({
  network: { allowedDomains: ['github.com', '*.npmjs.org'], deniedDomains: ['evil.example'] },
  filesystem: { denyRead: ['~/.ssh'], allowWrite: ['.'], denyWrite: [] },
});
const claudeBase = (): Json => ({
  sandbox: {
    enabled: true,
    failIfUnavailable: true,
    allowUnsandboxedCommands: false,
    network: { allowedDomains: ['github.com'] },
    filesystem: { denyRead: ['~/.ssh', '/secrets'] },
  },
  permissions: { allow: ['Bash(npm test)'], deny: ['Read(./.env)'] },
});

interface Case {
  readonly name: string;
  readonly dialect: 'srt' | 'claude';
  readonly change: (j: Json) => void;
  /** The sentence the widening is said in (requested, the same on every machine). */
  readonly line: string;
  /** The gate's failure for it. */
  readonly gate: string;
}

const net = (j: Json): Json => j.network as Json;
const sb = (j: Json): Json => j.sandbox as Json;
const sbNet = (j: Json): Json => sb(j).network as Json;
const domains = (o: Json): string[] => o.allowedDomains as string[];

const cases: readonly Case[] = [
  // srt: network
  {
    name: 'srt: a domain added',
    dialect: 'srt',
    change: (j) => domains(net(j)).push('api.example.com'),
    line: 'network: `network.allowedDomains` now allows `api.example.com`',
    gate: 'the settings widen: `network.allowedDomains`',
  },
  {
    name: 'srt: "*"',
    dialect: 'srt',
    change: (j) => domains(net(j)).push('*'),
    line: 'network: `network.allowedDomains` now allows `*` (every host)',
    gate: 'the settings widen: `network.allowedDomains`',
  },
  {
    name: 'srt: "*.ngrok.io"',
    dialect: 'srt',
    change: (j) => domains(net(j)).push('*.ngrok.io'),
    line: 'network: `network.allowedDomains` now allows `*.ngrok.io` (every host under ngrok.io)',
    gate: 'the settings widen: `network.allowedDomains`',
  },
  {
    name: 'srt: a wildcard that covers more',
    dialect: 'srt',
    change: (j) => {
      net(j).allowedDomains = ['github.com', '*.org'];
    },
    line: 'network: `network.allowedDomains` now allows `*.org` (every host under org)',
    gate: 'the settings widen: `network.allowedDomains`',
  },
  {
    name: 'srt: a denied domain dropped',
    dialect: 'srt',
    change: (j) => {
      net(j).deniedDomains = [];
    },
    line: 'network: `network.deniedDomains` no longer denies `evil.example`',
    gate: 'the settings widen: `network.deniedDomains`',
  },
  {
    name: 'srt: docker.sock',
    dialect: 'srt',
    change: (j) => {
      net(j).allowUnixSockets = ['/var/run/docker.sock'];
    },
    line: 'network: `network.allowUnixSockets` now allows `/var/run/docker.sock`',
    gate: 'the settings widen: `network.allowUnixSockets`',
  },
  {
    name: 'srt: allowAllUnixSockets',
    dialect: 'srt',
    change: (j) => {
      net(j).allowAllUnixSockets = true;
    },
    line: 'network: `network.allowAllUnixSockets` is now true',
    gate: 'the settings widen: `network.allowAllUnixSockets`',
  },
  {
    name: 'srt: allowLocalBinding',
    dialect: 'srt',
    change: (j) => {
      net(j).allowLocalBinding = true;
    },
    line: 'network: `network.allowLocalBinding` is now true',
    gate: 'the settings widen: `network.allowLocalBinding`',
  },
  {
    name: 'srt: httpProxyPort',
    dialect: 'srt',
    change: (j) => {
      net(j).httpProxyPort = 8080;
    },
    line: 'network: `network.httpProxyPort` now hands the network to the proxy at port `8080`',
    gate: 'the settings widen: `network.httpProxyPort`',
  },
  {
    name: 'srt: socksProxyPort',
    dialect: 'srt',
    change: (j) => {
      net(j).socksProxyPort = 1080;
    },
    line: 'network: `network.socksProxyPort` now hands the network to the proxy at port `1080`',
    gate: 'the settings widen: `network.socksProxyPort`',
  },
  // srt: strength
  {
    name: 'srt: enableWeakerNestedSandbox',
    dialect: 'srt',
    change: (j) => {
      j.enableWeakerNestedSandbox = true;
    },
    line: "the sandbox's strength: `enableWeakerNestedSandbox` is now true",
    gate: 'the settings widen: `enableWeakerNestedSandbox`',
  },
  {
    name: 'srt: allowNestedUserNamespaces',
    dialect: 'srt',
    change: (j) => {
      j.allowNestedUserNamespaces = true;
    },
    line: "the sandbox's strength: `allowNestedUserNamespaces` is now true",
    gate: 'the settings widen: `allowNestedUserNamespaces`',
  },
  // srt: programs run on the host (outside the project and every write grant: a change of the program is a widening
  // whoever can write it; lint's error for one in the project is settings-reach-lint.test.ts's)
  {
    name: 'srt: bwrapPath',
    dialect: 'srt',
    change: (j) => {
      j.bwrapPath = '/opt/sandbox/bin/bwrap';
    },
    line: 'programs run on the host: `bwrapPath` now runs `/opt/sandbox/bin/bwrap` on the host',
    gate: 'the settings widen: `bwrapPath`',
  },
  {
    name: 'srt: ripgrep.command',
    dialect: 'srt',
    change: (j) => {
      j.ripgrep = { command: '/opt/ripgrep/rg' };
    },
    line: 'programs run on the host: `ripgrep.command` now runs `/opt/ripgrep/rg` on the host',
    gate: 'the settings widen: `ripgrep.command`',
  },
  {
    name: 'srt: seccomp.applyPath',
    dialect: 'srt',
    change: (j) => {
      j.seccomp = { applyPath: '/opt/sandbox/bin/apply-seccomp' };
    },
    line: 'programs run on the host: `seccomp.applyPath` now runs `/opt/sandbox/bin/apply-seccomp` on the host',
    gate: 'the settings widen: `seccomp.applyPath`',
  },
  // srt: not modelled
  {
    name: 'srt: a setting boxwright does not model',
    dialect: 'srt',
    change: (j) => {
      j.mandatoryDenySearchDepth = 1;
    },
    line: 'cannot judge: `mandatoryDenySearchDepth` changed (boxwright does not model this setting, so it may widen)',
    gate: 'cannot judge: `mandatoryDenySearchDepth` changed',
  },
  // Claude Code
  {
    name: 'claude: the sandbox off',
    dialect: 'claude',
    change: (j) => {
      sb(j).enabled = false;
    },
    line: "the sandbox's strength: `sandbox.enabled` is now false",
    gate: 'the settings widen: `sandbox.enabled`',
  },
  {
    name: 'claude: failIfUnavailable dropped (its default is false)',
    dialect: 'claude',
    change: (j) => {
      delete sb(j).failIfUnavailable;
    },
    line: "the sandbox's strength: `sandbox.failIfUnavailable` is now false (its default)",
    gate: 'the settings widen: `sandbox.failIfUnavailable`',
  },
  {
    name: 'claude: enableWeakerNestedSandbox',
    dialect: 'claude',
    change: (j) => {
      sb(j).enableWeakerNestedSandbox = true;
    },
    line: "the sandbox's strength: `sandbox.enableWeakerNestedSandbox` is now true",
    gate: 'the settings widen: `sandbox.enableWeakerNestedSandbox`',
  },
  {
    name: 'claude: an excluded command',
    dialect: 'claude',
    change: (j) => {
      sb(j).excludedCommands = ['npm'];
    },
    line: 'outside the sandbox: `sandbox.excludedCommands` now runs `npm` outside the sandbox, with all your access',
    gate: 'the settings widen: `sandbox.excludedCommands`',
  },
  {
    name: 'claude: allowUnsandboxedCommands',
    dialect: 'claude',
    change: (j) => {
      sb(j).allowUnsandboxedCommands = true;
    },
    line: 'outside the sandbox: `sandbox.allowUnsandboxedCommands` is now true',
    gate: 'the settings widen: `sandbox.allowUnsandboxedCommands`',
  },
  {
    name: 'claude: a SessionStart hook',
    dialect: 'claude',
    change: (j) => {
      j.hooks = { SessionStart: [{ hooks: [{ type: 'command', command: './scripts/setup.sh' }] }] };
    },
    line: 'outside the sandbox: `hooks.SessionStart` now runs `./scripts/setup.sh` outside the sandbox, with all your access',
    gate: 'the settings widen: `hooks.SessionStart`',
  },
  {
    name: 'claude: apiKeyHelper',
    dialect: 'claude',
    change: (j) => {
      j.apiKeyHelper = './bin/key.sh';
    },
    line: 'outside the sandbox: `apiKeyHelper` now runs `./bin/key.sh` outside the sandbox, with all your access',
    gate: 'the settings widen: `apiKeyHelper`',
  },
  {
    name: 'claude: a permission allow rule',
    dialect: 'claude',
    change: (j) => {
      ((j.permissions as Json).allow as string[]).push('Bash(curl:*)');
    },
    line: 'permissions: `permissions.allow` now allows `Bash(curl:*)`',
    gate: 'the settings widen: `permissions.allow`',
  },
  {
    name: 'claude: a domain wildcard',
    dialect: 'claude',
    change: (j) => domains(sbNet(j)).push('*.ngrok.io'),
    line: 'network: `sandbox.network.allowedDomains` now allows `*.ngrok.io` (every host under ngrok.io)',
    gate: 'the settings widen: `sandbox.network.allowedDomains`',
  },
  {
    name: 'claude: docker.sock',
    dialect: 'claude',
    change: (j) => {
      sbNet(j).allowUnixSockets = ['/var/run/docker.sock'];
    },
    line: 'network: `sandbox.network.allowUnixSockets` now allows `/var/run/docker.sock`',
    gate: 'the settings widen: `sandbox.network.allowUnixSockets`',
  },
  {
    name: 'claude: bwrapPath',
    dialect: 'claude',
    change: (j) => {
      sb(j).bwrapPath = '/opt/bwrap/bwrap';
    },
    line: 'programs run on the host: `sandbox.bwrapPath` now runs `/opt/bwrap/bwrap` on the host',
    gate: 'the settings widen: `sandbox.bwrapPath`',
  },
  {
    name: 'claude: ripgrep.command',
    dialect: 'claude',
    change: (j) => {
      sb(j).ripgrep = { command: '/opt/rg/rg' };
    },
    line: 'programs run on the host: `sandbox.ripgrep.command` now runs `/opt/rg/rg` on the host',
    gate: 'the settings widen: `sandbox.ripgrep.command`',
  },
  {
    name: 'claude: env, which boxwright does not model',
    dialect: 'claude',
    change: (j) => {
      j.env = { PATH: '/home/dev/project/bin:/usr/bin' };
    },
    line: 'cannot judge: `env.PATH` changed (boxwright does not model this setting, so it may widen)',
    gate: 'cannot judge: `env.PATH` changed',
  },
];

const headOf = (c: Case): Json => {
  const j = c.dialect === 'srt' ? srtBase() : claudeBase();
  c.change(j);
  return j;
};
const baseOf = (c: Case): Json => (c.dialect === 'srt' ? srtBase() : claudeBase());
const fileOf = (c: Case): string => (c.dialect === 'srt' ? 'srt-settings.json' : '.claude/settings.json');
const bytes = (j: Json): Uint8Array => Buffer.from(JSON.stringify(j, null, 2) + '\n');

async function gate(c: Case, base: Json, head: Json) {
  const reader = configReader({ fs: machine, worktree });
  const b = reader.check(bytes(base), fileOf(c), PLATFORMS);
  const h = reader.check(bytes(head), fileOf(c), PLATFORMS);
  const d = await diffChecks(b, h, PLATFORMS, { artifacts: false });
  assert.ok('delta' in d, JSON.stringify(d));
  return { delta: d.delta, failures: gateFailures(d.delta) };
}

describe('the gate, in process: each class of widening, and its narrowing', () => {
  for (const c of cases) {
    it(`${c.name}: widens`, async () => {
      const { delta, failures } = await gate(c, baseOf(c), headOf(c));
      const sentences = delta.requested.map((r) => r.sentence);
      assert.ok(sentences.includes(c.line), sentences.join('\n'));
      assert.ok(failures.includes(c.gate), failures.join('\n'));
    });
    if (!c.line.startsWith('cannot judge'))
      it(`${c.name}: the other way round passes`, async () => {
        const { failures } = await gate(c, headOf(c), baseOf(c));
        // Turning the sandbox off also grants every file: taking it back narrows those too.
        assert.deepEqual(failures, []);
      });
    else
      it(`${c.name}: the other way round cannot be judged either`, async () => {
        const { failures } = await gate(c, headOf(c), baseOf(c));
        assert.ok(failures.includes(c.gate), failures.join('\n'));
      });
  }
  it('a reordering (lists and keys) is no change', async () => {
    const srt = srtBase();
    const reordered: Json = {
      filesystem: { denyWrite: [], allowWrite: ['.'], denyRead: ['~/.ssh'] },
      network: { deniedDomains: ['evil.example'], allowedDomains: ['*.npmjs.org', 'github.com'] },
    };
    const c = cases[0]!;
    const r = await gate(c, srt, reordered);
    assert.deepEqual(r.delta.requested, []);
    assert.deepEqual(r.failures, []);
    const claude = claudeBase();
    const cc = cases.find((x) => x.dialect === 'claude')!;
    const r2 = await gate(cc, claude, { permissions: { deny: ['Read(./.env)'], allow: ['Bash(npm test)'] }, sandbox: claude.sandbox });
    assert.deepEqual(r2.delta.requested, []);
    assert.deepEqual(r2.failures, []);
  });
  it('a narrower wildcard, or a domain a wildcard already covers, is no widening', async () => {
    const c = cases[0]!;
    const head = srtBase();
    net(head).allowedDomains = ['github.com', 'registry.npmjs.org', '*.eu.npmjs.org'];
    const r = await gate(c, srtBase(), head);
    assert.deepEqual(r.failures, []);
    assert.deepEqual(
      r.delta.requested.map((x) => x.sentence),
      ['network: `network.allowedDomains` no longer allows `*.npmjs.org`'],
    );
  });
});

const bin = join(repoRoot, 'bin', 'boxwright.cjs');
const scratch = mkdtempSync(join(tmpdir(), 'boxwright-settings-gate-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '', GIT_CONFIG_NOSYSTEM: '1', HOME: scratch };
const boxwright = (cwd: string, args: readonly string[]) =>
  spawnSync(process.execPath, [bin, ...args], {
    cwd,
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=ci@boxwright.test', '-c', 'user.name=ci', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
    env,
  });
const diffArgs = ['diff', '--fs', machine, '--worktree', worktree, '--fail-on', 'widen'];

/** Each case in a directory of its own: `case-N/srt-settings.json` or `case-N/.claude/settings.json`. */
const place = (root: string, i: number, c: Case, j: Json): string => {
  const rel = join(`case-${i}`, fileOf(c));
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), bytes(j));
  return rel;
};

describe('the gate, through the CLI: by direct path', () => {
  const dir = join(scratch, 'direct');
  it('exits 1 on a widening of each dialect and says what widened; 0 the other way round', () => {
    for (const c of [cases.find((x) => x.name === 'srt: "*.ngrok.io"')!, cases.find((x) => x.name === 'claude: a SessionStart hook')!]) {
      // Two files in two places: a one-slash entry of each resolves in its own directory, so none here.
      const alone = (j: Json): Json => {
        if (c.dialect === 'claude') (sb(j).filesystem as Json).denyRead = ['~/.ssh'];
        return j;
      };
      const base = place(join(dir, 'base'), 0, c, alone(baseOf(c)));
      const head = place(join(dir, 'head'), 0, c, alone(headOf(c)));
      const widen = boxwright(dir, [...diffArgs, join('base', base), join('head', head)]);
      assert.equal(widen.status, 1, widen.stdout + widen.stderr);
      assert.ok(widen.stdout.includes(c.line), widen.stdout);
      assert.ok(widen.stderr.includes(c.gate), widen.stderr);
      const narrow = boxwright(dir, [...diffArgs, join('head', head), join('base', base)]);
      assert.equal(narrow.status, 0, narrow.stdout + narrow.stderr);
    }
  });
});

describe('the gate, through the CLI: by --git, in a repository with two commits', () => {
  const widened = join(scratch, 'widened');
  const narrowed = join(scratch, 'narrowed');
  before(() => {
    for (const [repo, first, second] of [
      [widened, baseOf, headOf],
      [narrowed, headOf, baseOf],
    ] as const) {
      mkdirSync(repo, { recursive: true });
      git(repo, 'init', '-q');
      cases.forEach((c, i) => place(repo, i, c, first(c)));
      git(repo, 'add', '-A');
      git(repo, 'commit', '-qm', 'base');
      cases.forEach((c, i) => place(repo, i, c, second(c)));
      git(repo, 'commit', '-qam', 'head');
    }
  });
  it('every widened file fails, each for what widened in it, and no path resolves under HEAD:', () => {
    const r = boxwright(widened, [...diffArgs, '--git', 'HEAD~1']);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.doesNotMatch(r.stdout, /HEAD[~1]*:\.claude\/|HEAD~1:case-\d+\/\.claude\/(?!settings\.json)/);
    assert.doesNotMatch(r.stdout, /\/HEAD/);
    cases.forEach((c, i) => {
      assert.ok(r.stderr.includes(`case-${i}/${fileOf(c)}: ${c.gate}`), `${c.name}\n${r.stderr}`);
      assert.ok(r.stdout.includes(c.line), `${c.name}\n${r.stdout}`);
    });
  });
  it('one file by name: the same', () => {
    const i = cases.findIndex((c) => c.name === 'claude: a permission allow rule');
    const r = boxwright(widened, [...diffArgs, '--git', 'HEAD~1', `case-${i}/.claude/settings.json`]);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /the settings widen: `permissions\.allow`/);
  });
  it('the narrowings pass, but for the settings boxwright does not model', () => {
    const r = boxwright(narrowed, [...diffArgs, '--git', 'HEAD~1']);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    const failed = r.stderr
      .replace(/^boxwright diff: --fail-on widen fails: /, '')
      .trim()
      .split('; ');
    const unjudged = cases.flatMap((c, i) => (c.gate.startsWith('cannot judge') ? [`case-${i}/${fileOf(c)}: ${c.gate}`] : []));
    assert.deepEqual(failed, unjudged);
  });
});
