import type { Artifact, CompileInput, Target } from '../target.js';
import { buildPlan } from './plan.js';
import { renderApply, renderUndo } from './powershell.js';

export type { AclPlan, PlanStep, LeftOut, NoEffect, Readable, PlanPrincipal, StepAction } from './plan.js';
export { buildPlan } from './plan.js';

/** JSON as every plan is written: key order as built, 2-space indent, LF, trailing newline. */
export function planJson(plan: unknown): string {
  return JSON.stringify(plan, null, 2) + '\n';
}

/**
 * Windows: one ACL plan covering every principal (`acl-plan.json`, described
 * by acl-plan.schema.json), and its PowerShell rendering: `apply.ps1`, which
 * saves each descriptor it changes, and `undo.ps1`, which puts them back.
 */
export const target: Target = {
  platform: 'windows',
  compile(input: CompileInput): Artifact[] {
    const plan = buildPlan(input);
    return [
      { name: 'acl-plan.json', content: planJson(plan) },
      { name: 'apply.ps1', content: renderApply(plan) },
      { name: 'undo.ps1', content: renderUndo(plan) },
    ];
  },
};
