// The rule catalog holds together: every rule file is registered, every
// model fact is explained by exactly one rule, no rule id lives in the model,
// every rule id the code names is registered, and the engine refuses a
// report its rule's message table does not declare — and what every example
// reports is what its rule's table declares.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { FACT_KINDS, effectiveAccess } from '../../model/index.js';
import { defineRule, runRules, UndeclaredReportError, type Rule } from '../../rules/engine/engine.js';
import { allRules, explainedKinds, isRuleId } from '../../rules/engine/registry.js';
import { repoRoot } from '../helpers.js';
import { lintDocExample, lintExample, lintText } from '../lint-helpers.js';
import { exampleNames } from '../compile-helpers.js';

const rules = allRules as readonly Rule[];
const sourceFiles = (dir: string): string[] =>
  readdirSync(join(repoRoot, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : []));

describe('rule registry', () => {
  it('every rule module under rules/ is registered, exactly once', async () => {
    const registered = new Set<unknown>(rules);
    for (const file of readdirSync(join(repoRoot, 'dist', 'rules')).filter((f) => f.endsWith('.js'))) {
      const mod = (await import(pathToFileURL(join(repoRoot, 'dist', 'rules', file)).href)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(mod)) {
        const looksLikeRule = typeof value === 'object' && value !== null && 'meta' in value && 'messages' in value;
        if (looksLikeRule) assert.ok(registered.has(value), `rules/${file} exports ${name}, a rule the registry does not list`);
      }
    }
    assert.equal(new Set(rules.map((r) => r.meta.id)).size, rules.length);
  });

  it('every model fact is explained by exactly one rule, and no rule explains anything else', () => {
    assert.deepEqual([...explainedKinds()].sort(), [...FACT_KINDS].sort());
  });

  it('the model names no rule: rule decisions live in rules/', () => {
    const ids = rules.map((r) => r.meta.id);
    for (const file of sourceFiles('model')) {
      const text = readFileSync(join(repoRoot, file), 'utf8');
      for (const id of ids) assert.ok(!new RegExp(`['"\`]${id}['"\`]`).test(text), `${file} names the rule ${id}`);
    }
  });

  it('every rule id the code names is registered', () => {
    const named = /(?:ruleId\s*(?::|===|!==)\s*|:\s*RuleId\s*=\s*)'([a-z0-9]+(?:-[a-z0-9]+)*)'/g;
    let seen = 0;
    for (const dir of ['compiler', 'model', 'rules', 'targets', 'app']) {
      for (const file of sourceFiles(dir)) {
        for (const m of readFileSync(join(repoRoot, file), 'utf8').matchAll(named)) {
          seen++;
          assert.ok(isRuleId(m[1]!), `${relative(repoRoot, join(repoRoot, file))} names ${m[1]}, which is no registered rule`);
        }
      }
    }
    assert.ok(seen > 0, 'the scan finds the typed references (targets/windows/plan.ts)');
  });

  it('what every example and doc example reports is declared by its rule: severity and platforms', () => {
    const byId = new Map(rules.map((r) => [r.meta.id, r]));
    const results = [...exampleNames.map(lintExample), ...rules.flatMap((r) => [lintDocExample(r.meta.docs.bad), lintDocExample(r.meta.docs.good)])];
    let checked = 0;
    for (const res of results) {
      for (const d of res.diagnostics) {
        const rule = byId.get(d.ruleId);
        assert.ok(rule, `${d.ruleId} is not registered`);
        const fits = Object.values(rule.messages).some((m) => m.severity === d.severity && d.platforms.every((p) => m.platforms.includes(p)));
        assert.ok(fits, `${d.ruleId} reported ${d.severity} for ${d.platforms.join(',')}, which no message of its table declares`);
        checked++;
      }
    }
    assert.ok(checked > 100);
  });
});

describe('rule engine: a report must be declared', () => {
  const ir = lintText('[agent.filesystem]\nread = ["~/project"]\n').ir!;
  const model = effectiveAccess(ir);
  const input = { view: { description: 'test' } as never, comments: [], text: '' };
  const span = ir.principals[0]!.span;
  const run = (check: (report: (id: string, platforms?: readonly ('macos' | 'linux' | 'windows')[]) => void) => void): unknown => {
    const rule = defineRule({
      meta: { id: 'test-rule', seedRow: 'test', docs: { summary: 's', details: 'd', bad: { toml: '', expect: [] }, good: { toml: '', expect: [] } } },
      messages: { only: { severity: 'warning', platforms: ['linux'], text: () => 'declared' } },
      check(ctx) {
        check((id, platforms) => (ctx.report as (id: string, at: object) => void)(id, { span, ...(platforms ? { platforms } : {}) }));
      },
    });
    return runRules(ir, model, input, [rule as Rule]);
  };

  it('a declared message is reported with its own severity and platforms', () => {
    assert.deepEqual(
      (run((report) => report('only')) as { severity: string; platforms: string[]; message: string }[]).map((d) => [d.severity, d.platforms, d.message]),
      [['warning', ['linux'], 'declared']],
    );
  });

  it('an undeclared message id, or a platform its message is not declared for, is an error of the rule', () => {
    assert.throws(() => run((report) => report('other')), UndeclaredReportError);
    assert.throws(() => run((report) => report('only', ['windows'])), /declared for linux, not for windows/);
    assert.throws(() => run((report) => report('only', [])), UndeclaredReportError);
  });

  it('meta.severity is read off the message table: the worst severity per platform', () => {
    const byId = new Map(rules.map((r) => [r.meta.id, r]));
    assert.deepEqual(byId.get('protected-path')!.meta.severity, { macos: 'error', linux: 'error', windows: 'error' });
    assert.deepEqual(byId.get('deny-absent-path')!.meta.severity, { linux: 'error', windows: 'warning' });
    assert.deepEqual(byId.get('secret-not-grantable')!.meta.severity, { macos: 'warning', linux: 'warning', windows: 'info' });
  });
});
