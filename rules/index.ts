/**
 * The rules stage of the pipeline: every registered rule over one model,
 * then the inline suppressions. What the application calls; the engine
 * (engine.ts) knows no rule by name, the registry (registry.ts) lists them.
 */
import type { Diagnostic } from '../compiler/diagnostic.js';
import type { PolicyIR } from '../compiler/ir/types.js';
import type { AccessModel } from '../model/index.js';
import { runRules, type EngineInput, type Rule } from './engine.js';
import { allRules } from './registry.js';
import { applySuppressions } from './suppress.js';

export function checkRules(ir: PolicyIR, model: AccessModel, input: EngineInput): Diagnostic[] {
  const rules: readonly Rule[] = allRules;
  return applySuppressions(runRules(ir, model, input, rules), input.comments, ir.file, new Set(rules.map((r) => r.meta.id)));
}

export { allRules, explanation, isRuleId, ruleById, type RuleId } from './registry.js';
export type { Rule } from './engine.js';
