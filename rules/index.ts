/**
 * The rules stage of the pipeline: every registered rule over one model,
 * then the inline suppressions. What the application calls; the engine
 * (engine/engine.ts) knows no rule by name, the registry
 * (engine/registry.ts) lists them, and the suppressions
 * (engine/apply-suppressions.ts) report as the `suppression` rule, given
 * here.
 */
import type { Diagnostic } from '../compiler/diagnostic.js';
import type { PolicyIR } from '../compiler/ir/types.js';
import type { AccessModel } from '../model/index.js';
import { runRules, type EngineInput, type Rule } from './engine/engine.js';
import { allRules } from './engine/registry.js';
import { suppression } from './suppression.js';
import { applySuppressions } from './engine/apply-suppressions.js';

export function checkRules(ir: PolicyIR, model: AccessModel, input: EngineInput): Diagnostic[] {
  const rules: readonly Rule[] = allRules;
  return applySuppressions(runRules(ir, model, input, rules), input.comments, ir.file, new Set(rules.map((r) => r.meta.id)), suppression);
}

export { allRules, explanation, isRuleId, ruleById, type RuleId } from './engine/registry.js';
export type { Rule } from './engine/engine.js';
