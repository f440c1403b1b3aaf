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
import { platformModels } from '../../targets/units.js';
import { defineRule, runRules, UndeclaredReportError, type Rule, type Visitors } from '../../rules/engine/engine.js';
import { allRules, explainedKinds, isRuleId } from '../../rules/engine/registry.js';
import { repoRoot } from '../helpers.js';
import { lintDocExample, lintExample, lintText } from '../lint-helpers.js';
import { exampleNames } from '../compile-helpers.js';

const rules = allRules as readonly Rule[];
const sourceFiles = (dir: string): string[] =>
  readdirSync(join(repoRoot, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : [],
  );

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
    const results = [
      ...exampleNames.map(lintExample),
      ...rules.flatMap((r) => [lintDocExample(r.meta.docs.bad), lintDocExample(r.meta.docs.good)]),
    ];
    let checked = 0;
    for (const res of results) {
      for (const d of res.diagnostics) {
        const rule = byId.get(d.ruleId);
        assert.ok(rule, `${d.ruleId} is not registered`);
        const fits = Object.values(rule.messages).some(
          (m) => m.severity === d.severity && d.platforms.every((p) => m.platforms.includes(p)),
        );
        assert.ok(fits, `${d.ruleId} reported ${d.severity} for ${d.platforms.join(',')}, which no message of its table declares`);
        checked++;
      }
    }
    assert.ok(checked > 100);
  });
});

describe('rule engine: a report must be declared', () => {
  const ir = lintText('[agent.filesystem]\nread = ["~/project"]\n').ir!;
  const model = effectiveAccess(ir, platformModels);
  const input = { view: { description: 'test' } as never, comments: [], text: '' };
  const span = ir.principals[0]!.span;
  const run = (check: (report: (id: string, platforms?: readonly ('macos' | 'linux' | 'windows')[]) => void) => void): unknown => {
    const rule = defineRule({
      meta: {
        id: 'test-rule',
        seedRow: 'test',
        docs: { summary: 's', details: 'd', bad: { toml: '', expect: [] }, good: { toml: '', expect: [] } },
      },
      messages: { only: { severity: 'warning', platforms: ['linux'], text: () => 'declared' } },
      check(ctx) {
        check((id, platforms) => (ctx.report as (id: string, at: object) => void)(id, { span, ...(platforms ? { platforms } : {}) }));
      },
    });
    return runRules(ir, model, input, [rule as Rule]);
  };

  it('a declared message is reported with its own severity and platforms', () => {
    assert.deepEqual(
      (run((report) => report('only')) as { severity: string; platforms: string[]; message: string }[]).map((d) => [
        d.severity,
        d.platforms,
        d.message,
      ]),
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

describe('rule engine: one walk, the guards applied once', () => {
  // A TYBA config: the session's implicit grants (the worktree), an authored grant whose path does not expand, and a workspace.
  const tyba = lintText('[sandbox]\nread_allow = ["~/datasets", "relative/path"]\n', 'config.toml').ir!;
  const box = lintText(
    '[agent.filesystem]\nworkspace = "~/project"\nread = ["~/project", "relative/path"]\ndeny = ["~/project/.env"]\n[tools.fmt.filesystem]\nread = ["~/project"]\n',
  ).ir!;
  const input = { view: { description: 'test' } as never, comments: [], text: '' };
  const meta = {
    id: 'test-walk',
    seedRow: 'test',
    docs: { summary: 's', details: 'd', bad: { toml: '', expect: [] }, good: { toml: '', expect: [] } },
  };
  /** What each visitor of a rule was called with, in order. */
  const visits = (ir: typeof box): string[] => {
    const seen: string[] = [];
    const visitors: Visitors = {
      principal: (pa) => void seen.push(`principal ${pa.principal.id}`),
      grant: (g) => void seen.push(`grant ${g.written}`),
      authoredGrant: (g) => void seen.push(`authored ${g.written}`),
      implicitGrant: (g) => void seen.push(`implicit ${g.list}`),
      anyGrant: (g) => void seen.push(`any ${g.written}`),
      entry: (e) => void seen.push(`entry ${e.written}`),
      principalExit: (pa) => void seen.push(`exit ${pa.principal.id}`),
    };
    runRules(ir, effectiveAccess(ir, platformModels), input, [defineRule({ meta, messages: {}, ...visitors }) as Rule]);
    return seen;
  };

  it('grant sees the authored grants whose path resolved; authoredGrant and entry all authored ones; the principal brackets its grants', () => {
    const seen = visits(box);
    const agent = seen.slice(0, seen.indexOf(`exit ${box.principals[0]!.id}`) + 1);
    assert.deepEqual(agent, [
      `principal ${box.principals[0]!.id}`,
      'any ~/project',
      'authored ~/project',
      'entry ~/project',
      'grant ~/project',
      'any relative/path',
      'authored relative/path',
      'entry relative/path',
      'any ~/project/.env',
      'authored ~/project/.env',
      'entry ~/project/.env',
      'grant ~/project/.env',
      'entry ~/project',
      `exit ${box.principals[0]!.id}`,
    ]);
    assert.equal(seen.filter((v) => v.startsWith('principal ')).length, box.principals.length);
  });

  it("implicitGrant sees only boxwright's own grants, and grant and authoredGrant never do", () => {
    const ir = tyba;
    const implicit = ir.principals.flatMap((p) => p.grants.filter((g) => g.implicit));
    assert.ok(implicit.length > 0, 'a TYBA session makes grants of its own');
    const seen = visits(ir);
    assert.equal(seen.filter((v) => v.startsWith('implicit ')).length, implicit.length);
    const authored = ir.principals.flatMap((p) => p.grants.filter((g) => !g.implicit));
    assert.deepEqual(
      seen.filter((v) => v.startsWith('authored ')),
      authored.map((g) => `authored ${g.written}`),
    );
    assert.deepEqual(
      seen.filter((v) => v.startsWith('grant ')),
      authored.filter((g) => g.path).map((g) => `grant ${g.written}`),
    );
    assert.ok(
      authored.some((g) => !g.path),
      'the relative path does not resolve',
    );
  });

  it('the diagnostics come out rule by rule, in the order the rules are given', () => {
    const one = (id: string) =>
      defineRule({
        meta: { ...meta, id },
        messages: { m: { severity: 'info', platforms: ['linux'], text: () => id } },
        grant: (g, _ga, _pa, ctx) => ctx.report('m', { span: g.span }),
      }) as Rule;
    const ids = runRules(box, effectiveAccess(box, platformModels), input, [one('b'), one('a')]).map((d) => d.ruleId);
    assert.deepEqual(ids, [...ids.filter((i) => i === 'b'), ...ids.filter((i) => i === 'a')]);
    assert.ok(ids.includes('a') && ids.includes('b'));
  });

  it('no rule walks the principals itself: the engine does, once', () => {
    const walk =
      /for\s*\(\s*const\s+\w+\s+of\s+ctx\.(?:access|ir)\.principals\b|ctx\.(?:access|ir)\.principals\.(?:forEach|map|flatMap|filter)\(/;
    for (const file of readdirSync(join(repoRoot, 'rules')).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(join(repoRoot, 'rules', file), 'utf8');
      assert.ok(!walk.test(text), `rules/${file} walks the principals itself: declare a visitor (rules/engine/engine.ts, Visitors)`);
    }
  });

  it('the engine imports no rule: only the registry lists them', () => {
    const importFrom = /(?:import|export)\s[^;]*?from\s+'([^']+)'/g;
    for (const file of readdirSync(join(repoRoot, 'rules', 'engine')).filter((f) => f.endsWith('.ts'))) {
      if (file === 'registry.ts') continue;
      const text = readFileSync(join(repoRoot, 'rules', 'engine', file), 'utf8');
      for (const m of text.matchAll(importFrom))
        assert.ok(!/^\.\.\/[^./][^/]*\.js$/.test(m[1]!), `rules/engine/${file} imports the rule ${m[1]}`);
    }
  });
});
