import { controlCharacter, isUnder } from './spelling.js';

// The superscript digits written as escapes: a regular-expression literal is the one place esbuild keeps
// non-ASCII as it is, and one such character makes the whole CLI bundle a two-byte
// string when it is read (scripts/bundles.mjs refuses a bundle that is not ASCII).
const reservedNames = /^(con|prn|aux|nul|com[1-9\u00b9\u00b2\u00b3]|lpt[1-9\u00b9\u00b2\u00b3])(\.[^.]*)?$/i;
const forbidden = /[<>:"|?*\\]/;

/**
 * Why a path component has no faithful Windows spelling, or undefined when it
 * has one. Windows file names cannot hold `< > : " | ? * \`, lose a trailing
 * dot or space, and `NUL`, `COM1`… name devices: mapping such a name would
 * label or grant some other object, so it is left out, never guessed.
 */
export function windowsNameProblem(component: string): string | undefined {
  const control = controlCharacter(component);
  if (control) return `a path component holds the control character ${control}`;
  const bad = forbidden.exec(component);
  if (bad) return `a path component holds \`${bad[0]}\`, which Windows file names cannot hold`;
  if (/[ .]$/.test(component)) return 'a path component ends with a dot or a space, which Windows strips from file names';
  if (reservedNames.test(component)) return `\`${component}\` is a reserved device name on Windows`;
  return undefined;
}

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

/** Why a path has no Windows spelling: outside the home, or a component Windows cannot name. */
export type WindowsUnmapped =
  | { readonly kind: 'outside-home'; readonly home: string }
  | { readonly kind: 'name'; readonly problem: string };

export type WindowsMapping = { readonly ok: true; readonly path: WindowsPath } | { readonly ok: false; readonly why: WindowsUnmapped };

/** The roots implicit TYBA grants already spell the Windows way (`%TEMP%`). */
const windowsRoots = ['%TEMP%', '%USERPROFILE%'];

/**
 * The one mapping of a POSIX path onto Windows, for the `no-windows-path`
 * rule and the Windows plan alike: `~` → `%USERPROFILE%`, so a path under
 * the home the config was compiled against becomes `%USERPROFILE%\…`. A
 * path outside the home has no Windows meaning, and a component Windows
 * cannot name has no faithful spelling: both are left out, never guessed.
 * Implicit grants that already carry a Windows spelling (`%TEMP%`) keep it.
 */
export function toWindows(path: string, home: string, implicit = false): WindowsMapping {
  for (const root of implicit ? windowsRoots : []) {
    if (path === root || path.startsWith(root + '\\'))
      return components(
        root,
        path
          .slice(root.length)
          .split('\\')
          .filter((c) => c !== ''),
      );
  }
  const why = windowsUnmapped(path, home);
  if (why) return { ok: false, why };
  const h = homeOf(home);
  const rest = h === '/' ? path : path.slice(h.length);
  return components(
    '%USERPROFILE%',
    rest.split('/').filter((c) => c !== ''),
  );
}

/**
 * Why toWindows leaves an authored path out, or undefined when it maps:
 * its answer without building the spelling. The model asks it of every
 * grant, so the components are read in place and only one that a quick
 * look cannot clear goes through windowsNameProblem.
 */
export function windowsUnmapped(path: string, home: string): WindowsUnmapped | undefined {
  const h = homeOf(home);
  if (!path.startsWith('/') || !isUnder(path, h)) return { kind: 'outside-home', home: h };
  const n = path.length;
  for (let start = h === '/' ? 0 : h.length; start < n; ) {
    let end = path.indexOf('/', start);
    if (end < 0) end = n;
    if (end > start && !plainName(path, start, end)) {
      const problem = windowsNameProblem(path.slice(start, end));
      if (problem) return { kind: 'name', problem };
    }
    start = end + 1;
  }
  return undefined;
}

function homeOf(home: string): string {
  return home.length > 1 && home.charCodeAt(home.length - 1) === 47 ? home.replace(/\/+$/, '') : home;
}

/**
 * A component windowsNameProblem has nothing to say about, told by its
 * characters alone: printable ASCII without `< > : " | ? * \\`, not ending
 * in a dot or a space, and not a possible device name (three or four
 * characters before the first dot, starting as con, prn, aux, nul, com1…,
 * lpt1… start). Anything else is asked of windowsNameProblem itself.
 */
function plainName(s: string, start: number, end: number): boolean {
  let stem = end - start;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (
      c < 0x20 ||
      c >= 0x7f ||
      c === 0x3c ||
      c === 0x3e ||
      c === 0x3a ||
      c === 0x22 ||
      c === 0x7c ||
      c === 0x3f ||
      c === 0x2a ||
      c === 0x5c
    )
      return false;
    if (c === 0x2e && stem === end - start) stem = i - start;
  }
  const last = s.charCodeAt(end - 1);
  if (last === 0x20 || last === 0x2e) return false;
  const first = s.charCodeAt(start) | 0x20;
  return !((stem === 3 || stem === 4) && (first === 0x63 || first === 0x70 || first === 0x61 || first === 0x6e || first === 0x6c));
}

function components(root: string, parts: readonly string[]): WindowsMapping {
  for (const part of parts) {
    const problem = windowsNameProblem(part);
    if (problem) return { ok: false, why: { kind: 'name', problem } };
  }
  const rest = parts.map((p) => '\\' + p).join('');
  return { ok: true, path: { root, rest, spelled: root + rest } };
}
