// Fix applicability (issue 40): the engine, not the rule, says whether a fix
// is safe, by checking the fixed text and comparing the access before and
// after with the one decision `diff --fail-on widen` makes. Exact outcomes
// for a safe fix, unsafe ones (a widening, a key renamed, an unparseable
// result, overlapping edits), the JSON and SARIF that carry them, and a
// property over generated configs: a fix judged safe never widens any cell
// that explain shows, at any path of the generated tree, for any principal,
// on any platform.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { configReader } from '../../app/cli/options.js';
import { checkConfig, type CheckResult } from '../../app/check.js';
import { judgeFixes, unsafeBecause } from '../../app/fix-applicability.js';
import { formatJson } from '../../app/format/json.js';
import { formatSarif } from '../../app/format/sarif.js';
import { exposureKind } from '../../app/format/security-severity.js';
import type { Fix } from '../../compiler/diagnostic.js';
import { manifestView } from '../../compiler/paths/index.js';
import { version } from '../../compiler/version.js';
import { applicabilityOfFix, applyFix } from '../../rules/engine/fix.js';
import { allRules } from '../../rules/engine/registry.js';
import { runs } from '../budget.js';
import { cli, plainEnv } from '../cli-in-process.js';
import { gains } from '../fix-oracle.js';
import { generateConfig, manifestOf, reproduction } from '../generated-configs.js';
import { repoRoot } from '../helpers.js';
import { lintText, machine } from '../lint-helpers.js';

const recheckAs =
  (file: string) =>
  (text: string): CheckResult =>
    checkConfig(Buffer.from(text, 'utf8'), { file, view: machine, worktree: '/home/dev/project' });

function fixOf(r: CheckResult, ruleId: string): Fix {
  const d = r.diagnostics.find((x) => x.ruleId === ruleId && x.fix);
  assert.ok(d, `${ruleId} offers a fix: ${r.diagnostics.map((x) => x.ruleId).join(', ')}`);
  return d.fix!;
}

const secret = '[sandbox]\nread_allow = ["~/.aws"]\n';
const execGit = '[agent.filesystem]\nexec = ["/usr/bin/git"]\n';

describe('fix applicability: decided by comparing the access before and after', () => {
  it('a secret grant removed is safe: nothing widens', () => {
    const before = lintText(secret);
    const fix = fixOf(before, 'secret-not-grantable');
    assert.deepEqual(fix.edits, [{ start: 24, end: 32, text: '' }]);
    assert.equal(applyFix(secret, fix), '[sandbox]\nread_allow = []\n');
    assert.equal(unsafeBecause(before, fix, recheckAs('config.toml')), undefined);
  });
  it('execution dependencies added are unsafe: the request and the grants widen', () => {
    const before = lintText(execGit);
    const fix = fixOf(before, 'exec-dependencies');
    assert.equal(
      unsafeBecause(before, fix, recheckAs('config.toml')),
      'what is asked for widens (on every machine); what this machine grants widens on macos, linux',
    );
  });
  it('a misspelt settings key renamed is unsafe: the key starts to grant', () => {
    const text =
      '{\n  "filesystem": {"denyRead": ["~/.ssh"], "allowRaed": ["~/.ssh"], "allowWrite": [], "denyWrite": []},\n  "network": {"allowedDomains": [], "deniedDomains": []}\n}\n';
    const before = lintText(text, 'srt-settings.json');
    const fix = fixOf(before, 'unknown-setting');
    assert.equal(applyFix(text, fix).includes('"allowRead": ["~/.ssh"]'), true);
    assert.equal(
      unsafeBecause(before, fix, recheckAs('srt-settings.json')),
      'what is asked for widens (on every machine); cannot judge: `filesystem.allowRaed` changed; what this machine grants widens on macos, linux, windows',
    );
  });
  it('a fix whose result does not parse is unsafe', () => {
    const before = lintText(secret);
    const broken: Fix = { edits: [{ start: 0, end: 9, text: '[[sandbox' }] };
    assert.equal(unsafeBecause(before, broken, recheckAs('config.toml')), 'the fixed text does not parse or fit the schema');
    // A real one: ipv6-socket's example has only the header its direct-network fix removes, and an empty file is no config.
    const header = '[tools.fetcher.network]  # the fetcher talks to an IPv6-only host\n';
    const lone = lintText(header);
    assert.equal(
      unsafeBecause(lone, fixOf(lone, 'direct-network'), recheckAs('config.toml')),
      'the fixed text does not parse or fit the schema',
    );
  });
  it('past the limit of fixes judged per file, the rest are unsafe unjudged: the work stays bounded', () => {
    const two = lintText('[sandbox]\nread_allow = ["~/.aws", "~/.ssh"]\n');
    const applicabilities = (limit?: number) =>
      judgeFixes(two, recheckAs('config.toml'), limit)
        .filter((d) => d.ruleId === 'secret-not-grantable' && d.fix)
        .map((d) => applicabilityOfFix(d.fix!));
    assert.deepEqual(applicabilities(), ['safe', 'safe']);
    assert.deepEqual(applicabilities(1), ['safe', 'unsafe']);
    assert.deepEqual(applicabilities(0), ['unsafe', 'unsafe']);
  });
  it('overlapping edits, no edits, and a config with no model to compare with are unsafe', () => {
    const before = lintText(secret);
    const overlap: Fix = {
      edits: [
        { start: 24, end: 30, text: '' },
        { start: 26, end: 32, text: '' },
      ],
    };
    assert.equal(unsafeBecause(before, overlap, recheckAs('config.toml')), 'its edits overlap');
    assert.equal(unsafeBecause(before, { edits: [] }, recheckAs('config.toml')), 'it has no edits');
    const schema = lintText('[agent.filesystem]\nreed = ["~/project"]\n');
    assert.equal(schema.model, undefined);
    assert.equal(
      unsafeBecause(schema, { edits: [{ start: 19, end: 23, text: 'read' }] }, recheckAs('config.toml')),
      'the config it fixes has no access model to compare with',
    );
  });
});

describe('JSON and SARIF carry the fixes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bw-fixes-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'tyba.toml'), secret);
  writeFileSync(join(dir, 'box.toml'), execGit);
  const args = ['--fs', join(repoRoot, 'examples/machine.json'), '--worktree', '/home/dev/project', 'tyba.toml', 'box.toml'];

  it('lint --format json: each fix with its applicability and its edits as ranges', async () => {
    const r = await cli(['lint', '--format', 'json', ...args], { cwd: dir, env: plainEnv() });
    const out = JSON.parse(r.stdout) as { version: number; files: { path: string; diagnostics: { ruleId: string; fix?: unknown }[] }[] };
    assert.equal(out.version, 2);
    const fixes = out.files.flatMap((f) => f.diagnostics.filter((d) => d.fix).map((d) => [f.path, d.ruleId, d.fix]));
    assert.deepEqual(fixes, [
      [
        'tyba.toml',
        'secret-not-grantable',
        { applicability: 'safe', edits: [{ range: { start: { line: 2, column: 15 }, end: { line: 2, column: 23 } }, newText: '' }] },
      ],
      [
        'box.toml',
        'windows-open-reads',
        {
          applicability: 'safe',
          edits: [
            {
              range: { start: { line: 1, column: 19 }, end: { line: 1, column: 19 } },
              newText: '\ndeny = ["~/.terraformrc", "~/.m2/settings.xml", "~/.kaggle", "~/.databrickscfg"]',
            },
          ],
        },
      ],
      [
        'box.toml',
        'exec-dependencies',
        {
          applicability: 'unsafe',
          edits: [
            {
              range: { start: { line: 1, column: 19 }, end: { line: 1, column: 19 } },
              newText: '\nread = ["/usr/lib/x86_64-linux-gnu", "/usr/lib64"]',
            },
          ],
        },
      ],
    ]);
  });
  it('lint --format sarif: results[].fixes with replacements, and security-severity with the security tag on each rule', async () => {
    const r = await cli(['lint', '--format', 'sarif', ...args], { cwd: dir, env: plainEnv() });
    const log = JSON.parse(r.stdout) as {
      runs: {
        tool: { driver: { rules: { id: string; properties: { tags: string[]; 'security-severity': string } }[] } };
        results: { ruleId: string; fixes?: unknown[] }[];
      }[];
    };
    const run = log.runs[0]!;
    const secretFix = run.results.find((x) => x.ruleId === 'secret-not-grantable' && x.fixes)?.fixes;
    assert.deepEqual(secretFix, [
      {
        description: {
          text: 'safe fix (access stays the same or narrows): Remove the entry: a secret the agent needs should reach it through a mediated request, not a read.',
        },
        artifactChanges: [
          {
            artifactLocation: { uri: 'tyba.toml', uriBaseId: '%SRCROOT%' },
            replacements: [{ deletedRegion: { startLine: 2, startColumn: 15, endLine: 2, endColumn: 23 } }],
          },
        ],
        properties: { applicability: 'safe' },
      },
    ]);
    const execFix = run.results.find((x) => x.ruleId === 'exec-dependencies' && x.fixes)!.fixes as {
      properties: unknown;
      artifactChanges: unknown;
    }[];
    assert.deepEqual(execFix[0]!.properties, { applicability: 'unsafe' });
    assert.deepEqual(execFix[0]!.artifactChanges, [
      {
        artifactLocation: { uri: 'box.toml', uriBaseId: '%SRCROOT%' },
        replacements: [
          {
            deletedRegion: { startLine: 1, startColumn: 19, endLine: 1, endColumn: 19 },
            insertedContent: { text: '\nread = ["/usr/lib/x86_64-linux-gnu", "/usr/lib64"]' },
          },
        ],
      },
    ]);
    const rule = (id: string) => run.tool.driver.rules.find((x) => x.id === id)!.properties;
    assert.deepEqual(rule('host-command'), { ...rule('host-command'), 'security-severity': '6.9' });
    assert.equal(rule('trusted-file-writable')['security-severity'], '9.0');
    assert.equal(rule('secret-not-grantable')['security-severity'], '5.5');
    assert.equal(rule('toml-syntax')['security-severity'], '7.0');
    assert.equal(rule('workspace-no-content')['security-severity'], '1.0');
    for (const x of run.tool.driver.rules) {
      assert.ok(x.properties.tags.includes('security'), x.id);
      assert.match(x.properties['security-severity'], /^\d\.\d$/, x.id);
    }
  });
  it('lint --format text judges nothing, and a fix never judged is shown unsafe', async () => {
    const before = lintText(secret);
    const d = before.diagnostics.find((x) => x.fix)!;
    const json = JSON.parse(formatJson([{ path: 'c.toml', text: before.text, verdicts: before.verdicts, diagnostics: [d] }])) as {
      files: { diagnostics: { fix: { applicability: string } }[] }[];
    };
    assert.equal(json.files[0]!.diagnostics[0]!.fix.applicability, 'unsafe');
    const sarif = formatSarif([{ path: 'c.toml', text: before.text, verdicts: before.verdicts, diagnostics: [d] }], allRules, version, {
      cwd: dir,
      root: dir,
    });
    assert.match(sarif, /"applicability": "unsafe"/);
    const judged = judgeFixes(before, recheckAs('config.toml'));
    const judgedJson = JSON.parse(formatJson([{ path: 'c.toml', text: before.text, verdicts: before.verdicts, diagnostics: judged }])) as {
      files: { diagnostics: { ruleId: string; fix?: { applicability: string } }[] }[];
    };
    assert.equal(judgedJson.files[0]!.diagnostics.find((x) => x.ruleId === 'secret-not-grantable' && x.fix)!.fix!.applicability, 'safe');
  });
  it('every rule has a kind of exposure for its security-severity', () => {
    assert.deepEqual(
      allRules.map((r) => r.meta.id).filter((id) => exposureKind(id) === undefined),
      [],
    );
  });
});

describe('property: a fix judged safe never widens a cell explain shows', () => {
  it(`over generated configs (${runs(80)} of them)`, () => {
    let judgedSafe = 0;
    let unsafeThatWiden = 0;
    for (let seed = 1; seed <= runs(80); seed++) {
      const c = generateConfig(seed);
      if (!c.check.model) continue;
      const manifest = manifestOf(c.nodes);
      // The reader generateConfig checked it with: the same options and tree.
      const reader = configReader({ fs: 'none', ...c.options, landlock: c.dialect === 'tyba' ? 'off' : 'on' }, () =>
        manifestView(manifest, `seed-${seed}.json`),
      );
      const recheck = (text: string) => reader.check(Buffer.from(text, 'utf8'), `seed-${seed}.toml`);
      for (const d of judgeFixes(c.check, recheck)) {
        if (!d.fix) continue;
        const fixed = applyFix(c.check.text, d.fix);
        const after = recheck(fixed);
        const safe = applicabilityOfFix(d.fix) === 'safe';
        if (!safe) {
          if (
            after.model &&
            gains(
              c.check,
              after,
              c.nodes.map((n) => n.path),
            ).length
          )
            unsafeThatWiden++;
          continue;
        }
        judgedSafe++;
        assert.ok(after.model, `a safe fix of ${d.ruleId} leaves a config with a model\n${reproduction(c)}`);
        assert.deepEqual(
          gains(
            c.check,
            after,
            c.nodes.map((n) => n.path),
          ),
          [],
          `${d.ruleId}'s safe fix widens:\n${fixed}\n${reproduction(c)}`,
        );
      }
    }
    // The property is about something: the configs offer fixes judged safe, and the oracle does see the widenings of
    // fixes judged unsafe (an engine that called every fix safe would fail here).
    assert.ok(judgedSafe > 0, 'no generated config offered a fix judged safe');
    assert.ok(unsafeThatWiden > 0, 'the oracle saw no widening in any fix judged unsafe');
  });
});
