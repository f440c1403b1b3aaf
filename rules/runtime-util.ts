/** What the sandbox-runtime and Claude Code rules share: the settings as written, and the tool's name. */
import type { PolicyIR, WrittenSetting } from '../compiler/ir/types.js';
import type { Span } from '../compiler/span.js';

export const tool = (ir: PolicyIR): string =>
  ir.dialect === 'claude' ? 'Claude Code' : ir.dialect === 'codex' ? 'Codex' : 'sandbox-runtime';

/** A setting by its dotted path; Claude Code's sandbox keys live under `sandbox.`. */
export function setting(ir: PolicyIR, key: string): WrittenSetting | undefined {
  const s = ir.runtime?.settings;
  return s?.get(ir.dialect === 'claude' ? `sandbox.${key}` : key);
}

/** Where a rule about the whole file points when no key says it: the file's first character. */
export const top: Span = { start: { offset: 0, line: 1, column: 1 }, end: { offset: 1, line: 1, column: 2 } };

/** An entry's path as written: a Claude Code permission rule's argument (`Edit(./src)` → `./src`), or the entry itself. */
export const writtenPath = (written: string): string => written.replace(/^(Edit|Read)\((.*)\)$/, '$2');
