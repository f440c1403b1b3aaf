// The fix loop of `lint --fix` (issue 40, app/fix-apply.ts) over configs no
// one wrote: everything `--fix` applies, over every pass, never widens what
// explain shows (its matrix row by row, and the model's cells at every path
// of the generated tree, on every platform), and every fix it applied is
// judged safe again by a fresh judge on the text it was applied to. With
// --unsafe-fixes the same oracles do see widenings: they can fail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configReader } from '../../app/cli/options.js';
import type { CheckResult } from '../../app/check.js';
import { applyFixes, editsConflict, MAX_FIX_PASSES } from '../../app/fix-apply.js';
import { judgeFixes } from '../../app/fix-applicability.js';
import { manifestView } from '../../compiler/paths/index.js';
import { applicabilityOfFix } from '../../rules/engine/fix.js';
import { runs } from '../budget.js';
import { explainGains, gains } from '../fix-oracle.js';
import { generateConfig, manifestOf, reproduction } from '../generated-configs.js';
import { lintText, machine } from '../lint-helpers.js';
import { checkConfig } from '../../app/check.js';

const recheckAs =
  (file: string) =>
  (text: string): CheckResult =>
    checkConfig(Buffer.from(text, 'utf8'), { file, view: machine, worktree: '/home/dev/project' });

describe('the fix loop', () => {
  it('edits conflict when they overlap or one inserts where the other begins or ends; adjacent replacements do not', () => {
    const e = (start: number, end: number) => ({ start, end, text: 'x' });
    assert.equal(editsConflict(e(0, 3), e(3, 5)), false);
    assert.equal(editsConflict(e(0, 3), e(2, 5)), true);
    assert.equal(editsConflict(e(3, 3), e(3, 3)), true);
    assert.equal(editsConflict(e(3, 3), e(0, 3)), true);
    assert.equal(editsConflict(e(3, 3), e(3, 6)), true);
    assert.equal(editsConflict(e(0, 2), e(4, 4)), false);
  });
  it('two fixes inserting at one place take two passes, and a loop that would need more than it may fails closed', () => {
    // windows-open-reads (safe) and exec-dependencies (unsafe) both insert after the `[agent.filesystem]` header.
    const text = '[agent.filesystem]\nexec = ["/usr/bin/git"]\n';
    const before = lintText(text);
    const all = applyFixes(before, recheckAs('config.toml'), { unsafe: true });
    assert.equal(all.failure, undefined);
    assert.deepEqual([all.applied, all.passes], [2, 2]);
    assert.equal(
      all.text,
      '[agent.filesystem]\nread = ["/usr/lib/x86_64-linux-gnu", "/usr/lib64"]\n' +
        'deny = ["~/.terraformrc", "~/.m2/settings.xml", "~/.kaggle", "~/.databrickscfg"]\nexec = ["/usr/bin/git"]\n',
    );
    assert.deepEqual(
      all.log.map((p) => p.fixes.map(applicabilityOfFix)),
      [['safe'], ['unsafe']],
    );
    const bounded = applyFixes(before, recheckAs('config.toml'), { unsafe: true, maxPasses: 1 });
    assert.equal(bounded.failure, "the fixes did not settle after 1 passes (each pass's fixes made more): nothing was written");
    assert.equal(bounded.text, text);
    assert.equal(bounded.applied, 0);
    assert.ok(MAX_FIX_PASSES >= 2);
  });
  it('without --unsafe-fixes, only the safe one: the unsafe one is counted as hidden', () => {
    const text = '[agent.filesystem]\nexec = ["/usr/bin/git"]\n';
    const safe = applyFixes(lintText(text), recheckAs('config.toml'), { unsafe: false });
    assert.deepEqual([safe.applied, safe.passes, safe.hidden], [1, 1, 1]);
    assert.equal(
      safe.text,
      '[agent.filesystem]\ndeny = ["~/.terraformrc", "~/.m2/settings.xml", "~/.kaggle", "~/.databrickscfg"]\nexec = ["/usr/bin/git"]\n',
    );
  });
  it('a TOML did-you-mean rename is unsafe (no model to judge it by): --fix leaves it, --unsafe-fixes applies it', () => {
    for (const [text, renamed] of [
      ['[agent.filesystem]\nreed = ["~/project"]  # sources\n', '[agent.filesystem]\nread = ["~/project"]  # sources\n'],
      // An unknown table one typo from a known one, at its segment of the header.
      [
        '[agent.filesystem]\nread = ["~/project"]\n[tools.t.filesytem]\nread = []\n',
        '[agent.filesystem]\nread = ["~/project"]\n[tools.t.filesystem]\nread = []\n',
      ],
    ] as const) {
      const before = lintText(text);
      assert.equal(before.model, undefined);
      const judged = judgeFixes(before, recheckAs('config.toml')).filter((d) => d.fix);
      assert.deepEqual(
        judged.map((d) => [d.ruleId, applicabilityOfFix(d.fix!)]),
        [['schema', 'unsafe']],
        text,
      );
      const safe = applyFixes(before, recheckAs('config.toml'), { unsafe: false });
      assert.deepEqual([safe.applied, safe.hidden, safe.text], [0, 1, text]);
      const all = applyFixes(before, recheckAs('config.toml'), { unsafe: true });
      // The first pass renames; the next ones apply what the renamed config's findings offer (Windows' denies).
      assert.equal(all.log[1]?.text ?? all.text, renamed);
      assert.ok(all.result.model, 'the renamed config has a model');
    }
  });
  it('a JSON key written twice: its removal is a fix only when the ignored definition says nothing the kept one does not', () => {
    const srt = (first: string, second: string) =>
      `{\n  "filesystem": {"denyRead": ${first}, "allowWrite": [], "denyWrite": [], "denyRead": ${second}},\n` +
      '  "network": {"allowedDomains": [], "deniedDomains": []}\n}\n';
    const fixOf = (text: string) => lintText(text, 'srt-settings.json').diagnostics.find((d) => d.ruleId === 'duplicate-key')?.fix;
    // Each item of the ignored list is in the kept one: removing it loses nothing.
    const subset = srt('["~/.ssh"]', '["~/.aws", "~/.ssh"]');
    const fixed = applyFixes(lintText(subset, 'srt-settings.json'), recheckAs('srt-settings.json'), { unsafe: false });
    assert.equal(
      fixed.text,
      '{\n  "filesystem": {"allowWrite": [], "denyWrite": [], "denyRead": ["~/.aws", "~/.ssh"]},\n' +
        '  "network": {"allowedDomains": [], "deniedDomains": []}\n}\n',
    );
    assert.equal(fixed.applied, 1);
    // The ignored list denies what the kept one does not: which was meant is the author's to say.
    assert.equal(fixOf(srt('["~/.ssh"]', '[]')), undefined);
    assert.equal(fixOf(srt('["~/.ssh", "~/.aws"]', '["~/.ssh"]')), undefined);
  });
  it('a rename that would write a TOML key twice is not offered, and one whose result would not parse is never applied', () => {
    // `reed` beside `read`: the rename would define `read` twice (a TOML error); no fix, only the suggestion.
    const twice = lintText('[agent.filesystem]\nread = ["~/project"]\nreed = ["~/.ssh"]\n');
    const d = twice.diagnostics.find((x) => x.ruleId === 'schema')!;
    assert.equal(d.suggestion, 'rename `reed` to `read`');
    assert.equal(d.fix, undefined);
    // A fix (made by hand) whose result does not parse: --unsafe-fixes refuses it, and says so.
    const start = lintText('[agent.filesystem]\nreed = ["~/project"]\n');
    const broken: CheckResult = {
      ...start,
      diagnostics: start.diagnostics.map((x) => (x.fix ? { ...x, fix: { edits: [{ start: 0, end: 1, text: '[[' }] } } : x)),
    };
    const r = applyFixes(broken, recheckAs('config.toml'), { unsafe: true });
    assert.deepEqual([r.applied, r.refused, r.text], [0, 1, start.text]);
  });
});

describe('property: --fix never widens, and applies only fixes judged safe', () => {
  it(`over generated configs (${runs(60)} of them)`, () => {
    let applied = 0;
    let hidden = 0;
    let unsafeWidened = 0;
    for (let seed = 1; seed <= runs(60); seed++) {
      const c = generateConfig(seed);
      if (!c.check.model) continue;
      const manifest = manifestOf(c.nodes);
      const reader = configReader({ fs: 'none', ...c.options, landlock: c.dialect === 'tyba' ? 'off' : 'on' }, () =>
        manifestView(manifest, `seed-${seed}.json`),
      );
      const recheck = (text: string) => reader.check(Buffer.from(text, 'utf8'), `seed-${seed}.toml`);
      const tree = c.nodes.map((n) => n.path);
      const outcome = applyFixes(c.check, recheck, { unsafe: false });
      if (outcome.failure) {
        assert.equal(outcome.text, c.text, `a failed run writes nothing\n${reproduction(c)}`);
        continue;
      }
      applied += outcome.applied;
      hidden += outcome.hidden;
      const after = recheck(outcome.text);
      assert.ok(after.model, `the fixed config has a model\n${outcome.text}\n${reproduction(c)}`);
      assert.deepEqual(gains(c.check, after, tree), [], `--fix widens a cell:\n${outcome.text}\n${reproduction(c)}`);
      assert.deepEqual(explainGains(c.check, after), [], `--fix widens a row of explain:\n${outcome.text}\n${reproduction(c)}`);
      // Each pass's fixes, judged again from scratch on the text they were applied to: safe, every one.
      for (const pass of outcome.log) {
        const fresh = new Map(
          judgeFixes(recheck(pass.text), recheck, Number.POSITIVE_INFINITY)
            .filter((d) => d.fix)
            .map((d) => [JSON.stringify(d.fix!.edits), applicabilityOfFix(d.fix!)]),
        );
        for (const f of pass.fixes)
          assert.equal(
            fresh.get(JSON.stringify(f.edits)),
            'safe',
            `--fix applied a fix not judged safe:\n${pass.text}\n${reproduction(c)}`,
          );
      }
      // The oracles can fail: with --unsafe-fixes they see what the unsafe fixes widen.
      const all = applyFixes(c.check, recheck, { unsafe: true });
      const allAfter = all.failure ? undefined : recheck(all.text);
      if (allAfter?.model && (gains(c.check, allAfter, tree).length || explainGains(c.check, allAfter).length)) unsafeWidened++;
    }
    assert.ok(applied > 0, 'no generated config had a safe fix to apply');
    assert.ok(hidden > 0, 'no generated config had an unsafe fix that --fix left alone');
    assert.ok(unsafeWidened > 0, 'the oracles saw no widening even with --unsafe-fixes');
  });
});
