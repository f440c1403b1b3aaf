/**
 * The Windows spelling of paths comes from the front end's one mapping
 * (compiler/paths/windows.ts), which the `no-windows-path` rule uses too;
 * its words for a path left out are in messages.ts (`unmappedText`).
 */
import { toWindows as mapToWindows, type WindowsPath, type WindowsUnmapped } from '../../compiler/paths/index.js';

export { windowsNameProblem } from '../../compiler/paths/index.js';
export type { WindowsPath };

export type Mapping = { readonly ok: true; readonly path: WindowsPath } | { readonly ok: false; readonly why: WindowsUnmapped };

export function toWindows(path: string, home: string, implicit = false): Mapping {
  return mapToWindows(path, home, implicit);
}
