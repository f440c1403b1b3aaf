import AjvModule from 'ajv';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompileArgs } from '../../app/cli/compile.js';
import type { Artifact } from '../../targets/target.js';
import type { AclPlan } from '../../targets/windows/index.js';
import { compileExample, compileText } from '../compile-helpers.js';
import { repoRoot } from '../helpers.js';
import { POWERSHELL_RUNTIME, runtimeOf } from '../../targets/windows/powershell.js';
import { parseSddl } from './sddl.js';

export const schema = JSON.parse(readFileSync(join(repoRoot, 'targets/windows/acl-plan.schema.json'), 'utf8')) as Record<string, unknown>;

// ajv's CommonJS export, seen from ESM: the class is `default`.
const Ajv = AjvModule.default;
const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
const validate = ajv.compile(schema);

/** Throws with ajv's errors when the plan does not match acl-plan.schema.json. */
export function assertValidPlan(plan: unknown, what: string): void {
  if (!validate(plan))
    throw new Error(`${what}: acl-plan.json does not match its schema:\n${ajv.errorsText(validate.errors, { separator: '\n' })}`);
}

/** Every SDDL string a plan holds parses with the tests' own parser. */
export function assertSddlParses(plan: AclPlan, what: string): void {
  for (const s of plan.steps) {
    for (const text of [s.sddl, ...(s.fileSddl ? [s.fileSddl] : [])]) {
      try {
        parseSddl(text);
      } catch (e) {
        throw new Error(`${what} ${s.id}: ${(e as Error).message}`);
      }
    }
  }
}

export interface Compiled {
  readonly plan: AclPlan;
  readonly json: string;
  readonly apply: string;
  readonly undo: string;
  readonly artifacts: Artifact[];
}

function unpack(artifacts: Artifact[], what: string): Compiled {
  const get = (name: string): string => {
    const a = artifacts.find((x) => x.name === name);
    if (!a || typeof a.content !== 'string') throw new Error(`${what}: no text artifact ${name}`);
    return a.content;
  };
  const json = get('acl-plan.json');
  return { plan: JSON.parse(json) as AclPlan, json, apply: get('apply.ps1'), undo: get('undo.ps1'), artifacts };
}

export async function windowsExample(name: string, extra: Partial<CompileArgs> = {}): Promise<Compiled> {
  const o = await compileExample(name, 'windows', extra);
  if (!o.ok) throw new Error(`${name}: ${o.reason}`);
  return unpack(o.artifacts, name);
}

export async function windowsText(text: string, extra: Partial<CompileArgs> = {}): Promise<Compiled> {
  const o = await compileText(text, 'windows', extra);
  if (!o.ok) throw new Error(`config.toml: ${o.reason}\n${o.check.diagnostics.map((d) => d.message).join('\n')}`);
  return unpack(o.artifacts, 'config.toml');
}

/** A TOML basic string holding `value`. */
export function tomlString(value: string): string {
  return JSON.stringify(value);
}

/**
 * The PowerShell runtime (targets/windows/powershell.ts) held once: every
 * apply.ps1 and undo.ps1 carries it verbatim, the goldens and the grammar
 * test do not. snapshots/windows/runtime.ps1 is its one golden (the shared
 * helpers, then apply.ps1's, then undo.ps1's); each example's golden holds
 * this marker where its script holds the runtime.
 */
export const runtimeGolden = POWERSHELL_RUNTIME.shared + POWERSHELL_RUNTIME.apply + POWERSHELL_RUNTIME.undo;

export function runtimeMarker(script: 'apply' | 'undo'): string {
  return `# ---- runtime: the shared and the ${script}.ps1 helpers, verbatim (snapshots/windows/runtime.ps1 holds them once) ----\n`;
}

/** A script with its runtime cut out, the marker in its place; throws unless it holds the runtime exactly once, verbatim. */
export function withoutRuntime(text: string, script: 'apply' | 'undo', what: string): string {
  const runtime = runtimeOf(script);
  const at = text.indexOf(runtime);
  if (at < 0) throw new Error(`${what}: ${script}.ps1 does not hold the PowerShell runtime verbatim`);
  if (text.indexOf(runtime, at + 1) >= 0) throw new Error(`${what}: ${script}.ps1 holds the PowerShell runtime twice`);
  return text.slice(0, at) + runtimeMarker(script) + text.slice(at + runtime.length);
}
