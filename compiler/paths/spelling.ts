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
  if (written === '~' || written.startsWith('~/')) return { path: expandTilde(written, home) };
  if (written.startsWith('~')) return { problem: `\`${written}\` names another user's home; only \`~\` and \`~/\` are expanded` };
  if (written === '') return { problem: 'an empty path' };
  if (/^[A-Za-z]:([\\/]|$)|^\\\\/.test(written))
    return { problem: `\`${written}\` is a Windows path: grants are POSIX paths, absolute or under \`~/\` (which the Windows plan maps to %USERPROFILE%)` };
  if (!written.startsWith('/')) return { problem: `\`${written}\` is a relative path; write it absolute or starting with \`~/\`` };
  return { path: written };
}

/** Spelling problems that make a path non-canonical on every platform. */
export function spellingProblems(path: string): string[] {
  const problems: string[] = [];
  if (path.length > 1 && path.endsWith('/')) problems.push('a trailing slash');
  if (path.includes('//')) problems.push('an empty component (`//`)');
  const parts = path.split('/');
  if (parts.includes('.')) problems.push('a `.` component');
  if (parts.includes('..')) problems.push('a `..` component');
  return problems;
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
    if (path === link || path.startsWith(link + '/')) return '/private' + path;
  }
  return undefined;
}

export function isUnder(path: string, ancestor: string): boolean {
  return ancestor === '/' ? path.startsWith('/') : path === ancestor || path.startsWith(ancestor + '/');
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
