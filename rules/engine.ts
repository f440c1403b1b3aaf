import type { Diagnostic, Platform, RelatedLocation, Severity } from '../compiler/diagnostic.js';
import type { PolicyIR } from '../compiler/ir/types.js';
import type { FsView } from '../compiler/paths/view.js';
import type { Span } from '../compiler/span.js';
import type { Dialect } from '../compiler/schema/validate.js';
import type { TomlComment } from '../compiler/toml/ast.js';
import type { AccessModel } from '../model/index.js';
import { allRules } from './registry.js';
import { applySuppressions } from './suppress.js';

export interface RuleDocs {
  /** One line, for `boxwright rules` and SARIF's shortDescription. */
  readonly summary: string;
  /** One paragraph: what happens on each platform and why. */
  readonly details: string;
  /** A config that triggers the rule, and one that does not. */
  readonly bad: string;
  readonly good: string;
}

export interface RuleMeta {
  readonly id: string;
  /** The seed row (or design row) the rule implements. */
  readonly seedRow: string;
  /** Default severity on each platform it can fire for. */
  readonly severity: Readonly<Partial<Record<Platform, Severity>>>;
  /** Dialects it applies to; both when absent. */
  readonly dialects?: readonly Dialect[];
  readonly docs: RuleDocs;
}

export interface Report {
  readonly severity: Severity;
  readonly platforms: readonly Platform[];
  readonly message: string;
  readonly span: Span;
  readonly related?: readonly RelatedLocation[];
  readonly suggestion?: string;
}

export interface RuleContext {
  readonly ir: PolicyIR;
  /** The one effective-access model; rules judge it, they never recompute access. */
  readonly access: AccessModel;
  readonly view: FsView;
  report(report: Report): void;
  /** Reports one diagnostic per severity, following the rule's per-platform severities. */
  reportByPlatform(message: (platform: Platform) => string, rest: Omit<Report, 'severity' | 'platforms' | 'message'>, only?: readonly Platform[]): void;
}

export interface Rule {
  readonly meta: RuleMeta;
  /** Absent for the front end's rules (`toml-syntax`, `schema`), which the parser and schema stage report. */
  readonly check?: (ctx: RuleContext) => void;
}

export interface EngineInput {
  /** The one effective-access model of the IR, built by the caller (app/check.ts), which hands the same one on to explain, diff and the targets. */
  readonly access: AccessModel;
  readonly view: FsView;
  readonly comments: readonly TomlComment[];
  readonly text: string;
}

/** Runs every registered rule over the IR; the engine knows no rule by name. */
export function runRules(ir: PolicyIR, input: EngineInput, rules: readonly Rule[] = allRules): Diagnostic[] {
  const model = input.access;
  const out: Diagnostic[] = [];
  for (const rule of rules) {
    if (!rule.check) continue;
    if (rule.meta.dialects && !rule.meta.dialects.includes(ir.dialect)) continue;
    const report = (r: Report): void => {
      out.push({ ruleId: rule.meta.id, file: ir.file, ...r });
    };
    const ctx: RuleContext = {
      ir,
      access: model,
      view: input.view,
      report,
      reportByPlatform(message, rest, only) {
        const bySeverity = new Map<Severity, Platform[]>();
        for (const [platform, severity] of Object.entries(rule.meta.severity) as [Platform, Severity][]) {
          if (only && !only.includes(platform)) continue;
          bySeverity.set(severity, [...(bySeverity.get(severity) ?? []), platform]);
        }
        for (const [severity, platforms] of bySeverity) report({ ...rest, severity, platforms, message: message(platforms[0]!) });
      },
    };
    rule.check(ctx);
  }
  return applySuppressions(out, input.comments, ir.file, new Set(rules.map((r) => r.meta.id)));
}
