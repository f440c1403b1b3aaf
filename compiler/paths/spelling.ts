import type { Platform } from '../diagnostic.js';

/** The result of reading a path as written in a config. */
export type Expanded = { readonly path: string } | { readonly problem: string };

/**
 * `~` and `~/…` expand to the home; anything else must be absolute. `~user`
 * is refused rather than guessed: boxwright does not read the password
 * database.
 */
/** `~` and `~/…` under `home`; anything else unchanged. The one tilde expansion. */
export function expandTilde(p: string, home: string): string {
  return p === '~' ? home : p.startsWith('~/') ? home.replace(/\/+$/, '') + p.slice(1) : p;
}

export function expandHome(written: string, home: string): Expanded {
  // The common case first: an absolute path is itself (none of the checks below can refuse it).
  if (written.charCodeAt(0) === 47) return { path: written };
  if (written === '~' || written.startsWith('~/')) return { path: expandTilde(written, home) };
  if (written.startsWith('~')) return { problem: `\`${written}\` names another user's home; only \`~\` and \`~/\` are expanded` };
  if (written === '') return { problem: 'an empty path' };
  if (/^[A-Za-z]:([\\/]|$)|^\\\\/.test(written))
    return {
      problem: `\`${written}\` is a Windows path: grants are POSIX paths, absolute or under \`~/\` (which the Windows plan maps to %USERPROFILE%)`,
    };
  if (!written.startsWith('/')) return { problem: `\`${written}\` is a relative path; write it absolute or starting with \`~/\`` };
  return { path: written };
}

/** Spelling problems that make a path non-canonical on every platform. */
export function spellingProblems(path: string): string[] {
  const problems: string[] = [];
  if (path.length > 1 && path.endsWith('/')) problems.push('a trailing slash');
  if (path.includes('//')) problems.push('an empty component (`//`)');
  if (hasComponent(path, '.')) problems.push('a `.` component');
  if (hasComponent(path, '..')) problems.push('a `..` component');
  return problems;
}

/** Whether `part` is one of the path's `/`-separated components, found without splitting the path. */
function hasComponent(path: string, part: string): boolean {
  for (let at = path.indexOf(part); at >= 0; at = path.indexOf(part, at + 1)) {
    const end = at + part.length;
    if ((at === 0 || path.charCodeAt(at - 1) === 47) && (end === path.length || path.charCodeAt(end) === 47)) return true;
  }
  return false;
}

/** The canonical spelling of a path with spelling problems, when one exists. */
export function normalise(path: string): string {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return '/' + out.join('/');
}

/** On macOS these top-level directories are links into /private. */
const macosPrivateLinks = ['/tmp', '/var', '/etc'];

/** The macOS canonical spelling of a path, or undefined when it is already canonical there. */
export function macosCanonical(path: string): string | undefined {
  for (const link of macosPrivateLinks) {
    if (isUnder(path, link)) return '/private' + path;
  }
  return undefined;
}

/**
 * `path` is `ancestor` or below it, by spelling. Called for every grant
 * against every protected location, so it compares in place: no
 * `ancestor + '/'` string for each question.
 */
export function isUnder(path: string, ancestor: string): boolean {
  if (ancestor === '/') return path.charCodeAt(0) === 47;
  const n = ancestor.length;
  if (path.length === n) return path === ancestor;
  return path.length > n && path.charCodeAt(n) === 47 && path.startsWith(ancestor);
}

/** Below `ancestor`, not `ancestor` itself. */
export function isStrictlyUnder(path: string, ancestor: string): boolean {
  return path !== ancestor && isUnder(path, ancestor);
}

/** Characters no artifact may hold: they would end a line or a string in SBPL, argv files or PowerShell. */
export function controlCharacter(path: string): string | undefined {
  const m = /[\u0000-\u001f\u007f]/.exec(path);
  return m ? `U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : undefined;
}

export type { Platform };
