/**
 * The Windows spelling of paths comes from the front end's one mapping
 * (compiler/paths/windows.ts), which the `no-windows-path` rule uses too;
 * here it is only worded for the plan.
 */
import { toWindows as mapToWindows, type WindowsPath, type WindowsUnmapped } from '../../compiler/paths/index.js';

export { windowsNameProblem } from '../../compiler/paths/index.js';
export type { WindowsPath };

export type Mapping =
  | { readonly ok: true; readonly path: WindowsPath }
  | { readonly ok: false; readonly reason: string; readonly why: WindowsUnmapped };

/** The plan's words for a path left out. */
export function unmappedReason(why: WindowsUnmapped): string {
  return why.kind === 'outside-home'
    ? `outside the home ${why.home}: a POSIX path with no Windows meaning (only paths under ~ map to %USERPROFILE%)`
    : `no faithful Windows spelling: ${why.problem}`;
}

export function toWindows(path: string, home: string, implicit = false): Mapping {
  const m = mapToWindows(path, home, implicit);
  return m.ok ? m : { ok: false, reason: unmappedReason(m.why), why: m.why };
}
