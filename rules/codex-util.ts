/** What the Codex rules share: the resolved sandbox and a setting as written. */
import type { CodexSandbox, PolicyIR, WrittenSetting } from '../compiler/ir/types.js';

export const codexOf = (ir: PolicyIR): CodexSandbox | undefined => ir.runtime?.codex;
export const codexSetting = (ir: PolicyIR, key: string): WrittenSetting | undefined => ir.runtime?.settings.get(key);
/** The profile keys of a config, `permissions.NAME.…`, with the names of its profiles. */
export function profileNames(ir: PolicyIR): string[] {
  const names = new Set<string>();
  for (const key of ir.runtime?.settings.keys() ?? []) {
    const m = /^permissions\.([^.]+)/.exec(key);
    if (m) names.add(m[1]!);
  }
  return [...names];
}
