import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { knownReadableLocations, secretLocations } from '../../compiler/paths/index.js';
import type { AclPlan, PlanStep } from '../../targets/windows/index.js';
import { compileExample, exampleNames } from '../compile-helpers.js';
import { parseSddl, SddlError } from './sddl.js';
import { assertSddlParses, assertValidPlan, schema, windowsExample, windowsText } from './support.js';

const secretPaths = secretLocations.map((s) => '%USERPROFILE%' + s.slice(1).replaceAll('/', '\\'));
const denied = (plan: AclPlan): string[] => plan.steps.filter((s) => s.action === 'deny-read').map((s) => s.path);
const stepsAt = (plan: AclPlan, path: string): PlanStep[] => plan.steps.filter((s) => s.path === path);

describe('windows plan: schema', () => {
  it('describes every property, draft-07', () => {
    assert.equal(schema.$schema, 'http://json-schema.org/draft-07/schema#');
    const definitions = schema.definitions as Record<string, Record<string, unknown>>;
    const missing: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (!node || typeof node !== 'object') return;
      const n = node as Record<string, unknown>;
      if (n.properties) {
        for (const [key, sub] of Object.entries(n.properties as Record<string, Record<string, unknown>>)) {
          const ref = typeof sub.$ref === 'string' ? definitions[sub.$ref.replace('#/definitions/', '')] : undefined;
          if (typeof (sub.description ?? ref?.description) !== 'string') missing.push(`${where}.${key}`);
          walk(sub, `${where}.${key}`);
        }
      }
      if (n.items) walk(n.items, `${where}[]`);
    };
    walk(schema, '$');
    assert.deepEqual(missing, []);
  });

  it('every example plan validates and every SDDL string parses', async () => {
    for (const name of exampleNames) {
      const o = await compileExample(name, 'windows', { force: true });
      if (!o.ok) continue; // errors before any IR: nothing to compile, even forced
      const json = o.artifacts.find((a) => a.name === 'acl-plan.json')!.content as string;
      const plan = JSON.parse(json) as AclPlan;
      assertValidPlan(plan, name);
      assertSddlParses(plan, name);
    }
  });

  it('rejects a plan with an unknown action or a missing undo', async () => {
    const { plan } = await windowsExample('coding-agent.toml');
    const bad = structuredClone(plan) as unknown as { steps: Record<string, unknown>[] };
    bad.steps[0]!.action = 'grant-read';
    assert.throws(() => assertValidPlan(bad, 'bad'), /action/);
    const noUndo = structuredClone(plan) as unknown as { steps: Record<string, unknown>[] };
    delete noUndo.steps[0]!.undo;
    assert.throws(() => assertValidPlan(noUndo, 'bad'), /undo/);
  });
});

describe('windows plan: the SDDL parser of the tests', () => {
  it('parses the forms the plan uses', () => {
    assert.deepEqual(parseSddl('S:(ML;OICI;NRNW;;;ME)').aces[0]!.rights, { codes: ['NR', 'NW'] });
    assert.deepEqual(parseSddl('(A;OICI;0x1301bf;;;*SESSION_SID_1*)').aces[0]!.rights, { mask: 0x1301bf });
    assert.equal(parseSddl('(A;;FA;;;S-1-5-21-1-2-3-4)').aces[0]!.sid, 'S-1-5-21-1-2-3-4');
    assert.equal(parseSddl('D:PAI(A;OICIID;FA;;;SY)(D;;FW;;;WD)').aces.length, 2);
    assert.equal(parseSddl('S:').aces.length, 0);
  });

  it('refuses what is malformed', () => {
    for (const bad of [
      'S:(ML;OICI;NR;;ME)', // five fields
      'S:(ML;OICI;NRNQ;;;ME)', // unknown policy
      'S:(ML;OICI;NR;;;S-1-5-21-1)', // a label needs an integrity level
      'S:(ML;OICI;;;;ME)', // no policy
      'S:(A;OICI;0x1;;;WD)', // an allow ACE in a label section
      'D:(ML;;NW;;;LW)', // a label in a DACL
      '(A;XX;0x1301bf;;;WD)', // unknown flag
      '(A;OIOI;0x1301bf;;;WD)', // repeated flag
      '(A;;0x0;;;WD)', // empty mask
      '(A;;ZZ;;;WD)', // unknown right
      '(A;;FA;;;LW)', // an integrity level in an access ACE
      '(A;;FA;;;nobody)', // not a SID
      '(A;;FA;;;*SESSION_SID*)', // the placeholder carries its principal's number
      '(X;;FA;;;WD)', // unknown type
      'A;;FA;;;WD', // not parenthesised
    ]) {
      assert.throws(() => parseSddl(bad), SddlError, bad);
    }
  });
});

describe('windows plan: lowering', () => {
  it('labels all twelve secrets and the existing config denies deny-read, recursively, file by file', async () => {
    const { plan } = await windowsExample('coding-agent.toml');
    assert.equal(secretPaths.length, 12);
    for (const p of secretPaths) assert.ok(denied(plan).includes(p), p);
    assert.ok(denied(plan).includes('%USERPROFILE%\\project\\.env'));
    for (const s of plan.steps.filter((x) => x.action === 'deny-read')) {
      assert.equal(s.sddl, 'S:(ML;OICI;NRNWNX;;;ME)');
      assert.equal(s.fileSddl, 'S:(ML;;NRNWNX;;;ME)');
      assert.equal(s.recursive, true);
      assert.equal(s.perFile, true);
      assert.match(s.why, /created later are covered only through inheritance/);
    }
    const env = plan.steps.find((s) => s.path === '%USERPROFILE%\\project\\.env')!;
    assert.equal(env.configLine, 10);
    assert.equal(env.principal, 'agent');
    const ssh = plan.steps.find((s) => s.path === '%USERPROFILE%\\.ssh')!;
    assert.equal(ssh.principal, '*');
    assert.equal(ssh.configLine, null);
    assert.match(ssh.implicit!, /secret list/);
  });

  it('a write tree gets an inheritable allow ACE for the session SID plus a Low label', async () => {
    const { plan } = await windowsExample('coding-agent.toml');
    const out = stepsAt(plan, '%USERPROFILE%\\project\\output');
    assert.deepEqual(
      out.map((s) => [s.action, s.sddl, s.configLine, s.principal]),
      [
        ['grant-write', '(A;OICI;0x1301bf;;;*SESSION_SID_1*)', 9, 'agent'],
        ['label-low', 'S:(ML;OICI;NW;;;LW)', 9, 'agent'],
      ],
    );
    assert.deepEqual(
      out.map((s) => s.undo),
      [
        { action: 'restore-sddl', section: 'dacl', backup: `${out[0]!.id}.clixml` },
        { action: 'restore-sddl', section: 'label', backup: `${out[1]!.id}.clixml` },
      ],
    );
  });

  it('a write_file gets an ACE and a label without inheritance', async () => {
    const { plan } = await windowsExample('read-write-file.toml');
    const file = stepsAt(plan, '%USERPROFILE%\\results\\output.txt');
    assert.deepEqual(
      file.map((s) => [s.action, s.sddl]),
      [
        ['grant-write', '(A;;0x12019f;;;*SESSION_SID_1*)'],
        ['label-low', 'S:(ML;;NW;;;LW)'],
      ],
    );
    assert.ok(plan.noEffect.some((n) => n.source === 'read_file' && n.ruleId === 'windows-open-reads'));
  });

  it('every principal has its own session SID placeholder, and its steps use it', async () => {
    const { plan } = await windowsExample('helper-execution.toml');
    assert.deepEqual(
      plan.principals.map((p) => [p.id, p.sessionSid]),
      [
        ['agent', '*SESSION_SID_1*'],
        ['tool.builder', '*SESSION_SID_2*'],
      ],
    );
    const write = plan.steps.find((s) => s.action === 'grant-write')!;
    assert.equal(write.principal, 'tool.builder');
    assert.equal(write.sddl, '(A;OICI;0x1301bf;;;*SESSION_SID_2*)');
    assert.equal(plan.token.sessionSid, '*SESSION_SID_<n>*');
    assert.deepEqual(plan.token.flags, ['DISABLE_MAX_PRIVILEGE', 'LUA_TOKEN', 'WRITE_RESTRICTED']);
    assert.equal(plan.token.integrityLevelSid, 'S-1-16-4096');
  });

  it('writes come first and denies last, so a deny label inside a write tree is the one that stays', async () => {
    const { plan } = await windowsText('[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project"]\ndeny = ["~/project/.env"]\n');
    const actions = plan.steps.map((s) => s.action);
    assert.ok(actions.lastIndexOf('label-low') < actions.indexOf('deny-read'));
    assert.deepEqual(
      plan.steps.map((s) => s.id),
      plan.steps.map((_, i) => `step-${String(i + 1).padStart(3, '0')}`),
    );
  });

  it('a write shut by a secret label is not a step: it has no effect', async () => {
    const { plan } = await windowsText('[agent.filesystem]\nwrite = ["~/.aws"]\n', { force: true });
    assert.deepEqual(
      stepsAt(plan, '%USERPROFILE%\\.aws').map((s) => s.action),
      ['deny-read'],
    );
    const n = plan.noEffect.find((x) => x.source === 'write')!;
    assert.match(n.reason, /deny-read label covers/);
  });

  it('reads, lists, metadata and exec are never steps: they are recorded under noEffect', async () => {
    const { plan } = await windowsText(
      '[agent.filesystem]\nread = ["~/project"]\nread_file = ["~/results/summary.txt"]\nlist = ["~/inbox"]\nmetadata = ["~/archive"]\nexec = ["/usr/bin/git"]\n',
      { force: true },
    );
    assert.deepEqual(
      plan.steps.filter((s) => s.principal !== '*'),
      [],
    );
    assert.deepEqual(
      plan.noEffect.map((n) => [n.source, n.configLine, n.ruleId]),
      [
        ['read', 2, 'windows-open-reads'],
        ['read_file', 3, 'windows-open-reads'],
        ['list', 4, 'windows-open-reads'],
        ['metadata', 5, 'windows-open-reads'],
        ['exec', 6, 'windows-open-reads'],
      ],
    );
    assert.equal(plan.readModel, 'open');
  });

  it('a deny of an absent path is left out with its reason, not labelled', async () => {
    const { plan } = await windowsExample('deny-absent-path.toml');
    assert.ok(!denied(plan).includes('%USERPROFILE%\\project\\.env.local'));
    assert.deepEqual(
      plan.leftOut.map((l) => [l.source, l.written, l.configLine, l.ruleId]),
      [['deny', '~/project/.env.local', 5, 'deny-absent-path']],
    );
    assert.match(plan.leftOut[0]!.reason, /nothing to label/);
  });

  it('a POSIX path outside the home is left out, never guessed', async () => {
    const { plan, apply } = await windowsExample('windows-path.toml');
    assert.deepEqual(
      plan.leftOut.map((l) => [l.source, l.posixPath, l.configLine, l.ruleId]),
      [['write', '/srv/out', 5, 'no-windows-path']],
    );
    assert.ok(!apply.includes('srv'));
    assert.deepEqual(
      plan.steps.filter((s) => s.principal !== '*'),
      [],
    );
  });

  it('a name Windows cannot hold is left out', async () => {
    const { plan } = await windowsText('[agent.filesystem]\nwrite = ["~/a:b", "~/NUL", "~/dots."]\n', { fs: 'none', force: true });
    assert.deepEqual(
      plan.leftOut.map((l) => l.written),
      ['~/a:b', '~/NUL', '~/dots.'],
    );
    for (const l of plan.leftOut) assert.match(l.reason, /no faithful Windows spelling/);
  });

  it('covers every grant of every principal exactly once', async () => {
    for (const name of [
      'coding-agent.toml',
      'helper-execution.toml',
      'read-write-overlap.toml',
      'windows-path.toml',
      'tyba-user-config.toml',
    ]) {
      const { plan } = await windowsExample(name);
      const seen = new Map<string, number>();
      const count = (e: { principal: string; source: string; written: string; configLine: number | null }): void => {
        if (e.principal === '*') return;
        const k = `${e.principal} ${e.source} ${e.written} ${e.configLine}`;
        seen.set(k, (seen.get(k) ?? 0) + 1);
      };
      plan.steps.filter((s) => s.action !== 'label-low').forEach(count);
      plan.leftOut.forEach(count);
      plan.noEffect.forEach(count);
      for (const [k, n] of seen) assert.equal(n, 1, `${name}: ${k}`);
      const principals = new Set([...seen.keys()].map((k) => k.split(' ')[0]));
      for (const p of plan.principals) assert.ok(principals.has(p.id), `${name}: ${p.id}`);
    }
  });
});

describe('windows plan: what stays readable', () => {
  it('lists the known credential files that exist under the home compiled against', async () => {
    const { plan } = await windowsExample('coding-agent.toml');
    assert.deepEqual(
      plan.readable.map((r) => [r.location, r.path, r.existence]),
      [
        ['~/.terraformrc', '%USERPROFILE%\\.terraformrc', 'exists'],
        ['~/.m2/settings.xml', '%USERPROFILE%\\.m2\\settings.xml', 'exists'],
        ['~/.kaggle', '%USERPROFILE%\\.kaggle', 'exists'],
        ['~/.databrickscfg', '%USERPROFILE%\\.databrickscfg', 'exists'],
      ],
    );
    assert.deepEqual(plan.readable[0]!.readableBy, ['agent', 'tool.formatter', 'mcp.search']);
    assert.equal(plan.home.compiledAgainst, '/home/dev');
    assert.match(plan.notes[0]!, /Reads are open on Windows/);
  });

  it('another home: nothing known exists there, and the secrets are those of that home', async () => {
    const { plan } = await windowsText('[tools.fmt]\ncommand = "fmt"\n', { home: '/home/other' });
    assert.deepEqual(plan.readable, []);
    assert.equal(plan.home.compiledAgainst, '/home/other');
    assert.equal(plan.steps.find((s) => s.written === '~/.ssh')!.posixPath, '/home/other/.ssh');
    assert.equal(plan.steps.find((s) => s.written === '~/.ssh')!.path, '%USERPROFILE%\\.ssh');
  });

  it('with --fs none every known location may exist: listed as unknown', async () => {
    const { plan } = await windowsText('[tools.fmt]\ncommand = "fmt"\n', { fs: 'none', home: '/home/dev' });
    assert.equal(plan.facts, 'unknown');
    assert.deepEqual(
      plan.readable.map((r) => [r.location, r.existence]),
      knownReadableLocations.map((l) => [l, 'unknown']),
    );
  });

  it('a credential file the config denies is labelled, not listed as readable', async () => {
    const { plan } = await windowsText('[agent.filesystem]\ndeny = ["~/.terraformrc"]\n');
    assert.ok(denied(plan).includes('%USERPROFILE%\\.terraformrc'));
    assert.ok(!plan.readable.some((r) => r.location === '~/.terraformrc'));
  });

  it('a config without principals plans nothing', async () => {
    const { plan } = await windowsExample('native-filesystem-policy.toml');
    assert.deepEqual([plan.principals, plan.steps, plan.readable], [[], [], []]);
  });
});

describe('windows plan: TYBA end to end', () => {
  for (const name of ['tyba-user-config.toml', 'tyba-read-allow-secret.toml']) {
    it(`${name}: read_allow inert, secrets and data dir labelled, worktree and temp writable`, async () => {
      const { plan } = await windowsExample(name);
      assertValidPlan(plan, name);
      assert.equal(plan.dialect, 'tyba');
      for (const n of plan.noEffect.filter((x) => x.source === 'read_allow')) assert.equal(n.ruleId, 'read-allow-inert');
      assert.ok(plan.noEffect.some((x) => x.source === 'read_allow' && x.written === '~/datasets'));
      for (const p of [...secretPaths, '%USERPROFILE%\\.tyba']) assert.ok(denied(plan).includes(p), p);
      const tyba = plan.steps.find((s) => s.path === '%USERPROFILE%\\.tyba')!;
      assert.deepEqual([tyba.principal, tyba.configLine, tyba.source], ['agent', null, 'implicit']);
      assert.match(tyba.implicit!, /TYBA's data directory/);
      for (const path of ['%USERPROFILE%\\project', '%TEMP%']) {
        const steps = stepsAt(plan, path);
        assert.deepEqual(
          steps.map((s) => [s.action, s.sddl, s.configLine]),
          [
            ['grant-write', '(A;OICI;0x1301bf;;;*SESSION_SID_1*)', null],
            ['label-low', 'S:(ML;OICI;NW;;;LW)', null],
          ],
          path,
        );
        assert.ok(steps.every((s) => typeof s.implicit === 'string'));
      }
      // The Linux and macOS spellings of the temp directory are not Windows grants.
      assert.ok(!JSON.stringify(plan).includes('/private/tmp'));
    });
  }

  it('read_allow of a listed secret stays labelled', async () => {
    const { plan } = await windowsExample('tyba-read-allow-secret.toml');
    const aws = plan.noEffect.find((x) => x.written === '~/.aws')!;
    assert.match(aws.reason, /stays labelled deny-read/);
    assert.ok(denied(plan).includes('%USERPROFILE%\\.aws'));
  });

  it('a worktree outside the home is left out; --tyba-data-dir and --agent-dir map like any path', async () => {
    const { plan } = await windowsExample('tyba-user-config.toml', {
      worktree: '/srv/work',
      'tyba-data-dir': '~/archive',
      'agent-dir': '~/.agent',
    });
    assert.deepEqual(
      plan.leftOut.map((l) => [l.source, l.posixPath, l.ruleId, l.implicit]),
      [['implicit', '/srv/work', null, 'the session worktree (--worktree)']],
    );
    assert.ok(denied(plan).includes('%USERPROFILE%\\archive'));
    // A data directory that does not exist has nothing to label: left out, as an absent deny is.
    const absent = (await windowsExample('tyba-user-config.toml', { worktree: '/srv/work', 'tyba-data-dir': '~/tyba-data' })).plan;
    assert.deepEqual(
      absent.leftOut.map((l) => [l.posixPath, l.ruleId]).find(([p]) => p === '/home/dev/tyba-data'),
      ['/home/dev/tyba-data', 'deny-absent-path'],
    );
    assert.ok(!denied(plan).includes('%USERPROFILE%\\.tyba'));
    assert.deepEqual(
      stepsAt(plan, '%USERPROFILE%\\.agent').map((s) => s.action),
      ['grant-write', 'label-low'],
    );
  });
});

describe('windows plan: header', () => {
  it('carries the version, the config, its SHA-256 and the forced flag', async () => {
    const { plan } = await windowsExample('coding-agent.toml');
    assert.equal(plan.header.config, 'examples/coding-agent.toml');
    assert.match(plan.header.configSha256, /^[0-9a-f]{64}$/);
    assert.equal(plan.header.forced, false);
    const forced = await windowsExample('write-only.toml', { force: true });
    assert.equal(forced.plan.header.forced, false, 'write-only is a warning on Windows, not refused');
    const refused = await windowsExample('metadata-tool.toml', { force: true });
    assert.equal(refused.plan.header.forced, true);
    assert.equal(refused.plan.verdict, 'refused');
    assert.match(refused.apply.split('\n').slice(0, 5).join('\n'), /WARNING: compiled with --force/);
  });
});
