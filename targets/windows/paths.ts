import { isUnder, windowsNameProblem } from '../../compiler/paths/index.js';

export { windowsNameProblem };

/**
 * A path as the Windows plan spells it: an environment-variable root that
 * apply.ps1 expands at run time (`%USERPROFILE%`, `%TEMP%`) and the rest,
 * backslash-separated, which the script keeps as data (a single-quoted
 * literal appended to the expanded root, never passed through expansion).
 */
export interface WindowsPath {
  /** `%USERPROFILE%` or `%TEMP%`. */
  readonly root: string;
  /** `''` or `\a\b`: everything after the root, exactly as Windows will see it. */
  readonly rest: string;
  /** `root + rest`, what the plan shows. */
  readonly spelled: string;
}

export type Mapping = { readonly ok: true; readonly path: WindowsPath } | { readonly ok: false; readonly reason: string; readonly ruleId: string | null };

/** The roots implicit TYBA grants already spell the Windows way (`%TEMP%`). */
const windowsRoots = ['%TEMP%', '%USERPROFILE%'];

/**
 * `~` → `%USERPROFILE%`: a POSIX path under the home the config was compiled
 * against becomes `%USERPROFILE%\…`. A path outside the home has no Windows
 * meaning and is left out (the `no-windows-path` rule warns). Implicit grants
 * that already carry a Windows spelling (`%TEMP%`) keep it.
 */
export function toWindows(path: string, home: string, implicit = false): Mapping {
  for (const root of implicit ? windowsRoots : []) {
    if (path === root || path.startsWith(root + '\\')) return components(root, path.slice(root.length).split('\\').filter((c) => c !== ''));
  }
  const h = home.length > 1 ? home.replace(/\/+$/, '') : home;
  if (!path.startsWith('/') || !isUnder(path, h)) {
    return { ok: false, reason: `outside the home ${h}: a POSIX path with no Windows meaning (only paths under ~ map to %USERPROFILE%)`, ruleId: 'no-windows-path' };
  }
  const rest = h === '/' ? path : path.slice(h.length);
  return components('%USERPROFILE%', rest.split('/').filter((c) => c !== ''));
}

function components(root: string, parts: string[]): Mapping {
  for (const part of parts) {
    const problem = windowsNameProblem(part);
    if (problem) return { ok: false, reason: `no faithful Windows spelling: ${problem}`, ruleId: null };
  }
  const rest = parts.map((p) => '\\' + p).join('');
  return { ok: true, path: { root, rest, spelled: root + rest } };
}
