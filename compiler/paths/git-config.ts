/**
 * What a git config file makes git read or run from elsewhere, read as git
 * reads it (git-config(1): SYNTAX, includes; config.c): `core.hooksPath`
 * (the hooks git runs instead of `.git/hooks`, husky's and lefthook's
 * `.husky/_`, `.githooks`) and the files `include.path` and
 * `includeIf.<condition>.path` pull in. Every includeIf is followed
 * whatever its condition: the condition is a fact of where git runs later
 * (which repository, which branch), and a file that any of them includes
 * is one the host's git may read.
 *
 * The text is data: only these three keys are read, their values unquoted
 * as git unquotes them, and a line git would refuse is passed over (git
 * refuses the whole file then, and runs nothing from it).
 */
import { posix } from 'node:path';
import type { FsView } from './view.js';

export interface GitConfigRefs {
  /** Each `core.hooksPath` value, as written (`~/` not yet expanded). */
  readonly hooksPaths: readonly string[];
  /** Each `include.path` and `includeIf.*.path` value, as written. */
  readonly includes: readonly string[];
}

/** The section a header names, lower-cased (`includeif` for `[includeIf "gitdir:~/w/"]`), or undefined for a line that is no header. */
function sectionOf(line: string): string | undefined {
  const m = /^\s*\[\s*([A-Za-z0-9.-]+)(?:\s+"(?:[^"\\]|\\.)*")?\s*\]/.exec(line);
  if (!m) return undefined;
  // `[section.subsection]`, the deprecated spelling: the section is the part before the first dot.
  return m[1]!.split('.')[0]!.toLowerCase();
}

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', b: '\b' };

/** A value as git reads it: surrounding blanks dropped, quotes removed, `\"`, `\\`, `\n`, `\t`, `\b` unescaped, a comment ended. */
function unquote(raw: string): string {
  let out = '';
  let quoted = false;
  let pending = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (!quoted && (c === '#' || c === ';')) break;
    if (c === '"') {
      quoted = !quoted;
      out += pending;
      pending = '';
      continue;
    }
    if (c === '\\' && i + 1 < raw.length) {
      const n = raw[++i]!;
      out += pending + (ESCAPES[n] ?? n);
      pending = '';
      continue;
    }
    // Blanks outside quotes are kept only between words (git trims them at the ends).
    if (!quoted && (c === ' ' || c === '\t')) {
      if (out !== '') pending += c;
      continue;
    }
    out += pending + c;
    pending = '';
  }
  return out;
}

/** The lines of a config, with git's backslash-newline continuations joined. */
function logicalLines(text: string): string[] {
  return text.replace(/\\\r?\n/g, '').split(/\r?\n/);
}

export function gitConfigRefs(text: string): GitConfigRefs {
  const hooksPaths: string[] = [];
  const includes: string[] = [];
  let section: string | undefined;
  for (const line of logicalLines(text)) {
    const header = sectionOf(line);
    if (header !== undefined) {
      section = header;
      // A key may follow the header on the same line: `[core] hooksPath = x`.
      const rest = line.slice(line.indexOf(']') + 1);
      if (!/^\s*([#;].*)?$/.test(rest)) readKey(rest);
      continue;
    }
    readKey(line);
  }
  return { hooksPaths, includes };

  function readKey(line: string): void {
    const m = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$/.exec(line);
    if (!m || m[2] === undefined || section === undefined) return;
    const key = m[1]!.toLowerCase();
    const value = unquote(m[2]);
    if (value === '') return;
    if (section === 'core' && key === 'hookspath') hooksPaths.push(value);
    else if ((section === 'include' || section === 'includeif') && key === 'path') includes.push(value);
  }
}

/**
 * Where a path value of a config leads, as git resolves it: `~/` is the
 * home, an absolute path is itself, and a relative one is relative to
 * `base` (the including file's directory for an include, the work tree's
 * top for a hooks path). undefined for `~user/` (another user's home, not
 * this view's to know).
 */
export function configPath(value: string, base: string, home: string): string | undefined {
  if (value === '~') return home;
  if (value.startsWith('~/')) return posix.join(home, value.slice(2));
  if (value.startsWith('~')) return undefined;
  return posix.resolve(base, value);
}

/** How deep git follows includes (config.c: MAX_INCLUDE_DEPTH). */
const MAX_INCLUDE_DEPTH = 10;

/** A path git reads or runs because a config names it, and which config and key. */
export interface GitConfigTarget {
  readonly path: string;
  readonly why: string;
}

/**
 * Every path the configs git reads make it read (includes, followed as git
 * follows them) or run (hooks paths): the system's and the user's, and each
 * git directory's `config` and `config.worktree`. `worktrees` gives each git
 * directory the work trees it serves (where a relative hooks path lands);
 * a hooks path in the user's or the system's config lands in every one.
 */
export function gitConfigTargets(view: FsView, worktrees: ReadonlyMap<string, readonly string[]>): GitConfigTarget[] {
  const out: GitConfigTarget[] = [];
  const home = view.home;
  const everyWorktree = [...new Set([...worktrees.values()].flat())];
  const seen = new Set<string>();
  const read = (file: string, hooksBases: readonly string[], depth: number): void => {
    // Each file once: an include cycle, or a fan of includes, reads no file twice.
    if (seen.has(file)) return;
    seen.add(file);
    const text = view.text(file);
    if (text === null) return;
    const refs = gitConfigRefs(text);
    for (const value of refs.hooksPaths)
      for (const base of value.startsWith('/') || value.startsWith('~') ? [home] : hooksBases) {
        const path = configPath(value, base, home);
        if (path) out.push({ path, why: `core.hooksPath in ${file}: git runs the hooks there instead of .git/hooks` });
      }
    for (const value of refs.includes) {
      const path = configPath(value, posix.dirname(file), home);
      if (!path) continue;
      out.push({ path, why: `included by ${file}: git reads it as part of that config` });
      if (depth < MAX_INCLUDE_DEPTH) read(path, hooksBases, depth + 1);
    }
  };
  for (const file of ['/etc/gitconfig', `${home}/.gitconfig`, `${home}/.config/git/config`]) read(file, everyWorktree, 1);
  for (const [gitdir, trees] of worktrees) for (const file of [`${gitdir}/config`, `${gitdir}/config.worktree`]) read(file, trees, 1);
  return out;
}
