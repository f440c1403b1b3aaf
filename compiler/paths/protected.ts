import secrets from './secrets.json' with { type: 'json' };
import { expandTilde, isUnder } from './spelling.js';

export interface ProtectedPath {
  readonly path: string;
  /** `secret`: one of the twelve of TYBA's platforms page; `tyba-data`: TYBA's own data; `boxwright`: our config; `boxwright-cache`: the sandboxes `run` compiled; `root`: `/`. */
  readonly why: 'secret' | 'tyba-data' | 'boxwright' | 'boxwright-cache' | 'root';
  readonly written: string;
}

const expand = expandTilde;

export const secretLocations: readonly string[] = secrets.secrets;
export const knownReadableLocations: readonly string[] = secrets.knownReadable;

/** Every protected path for this home, most specific reasons first. */
export function protectedPaths(home: string, tybaDataDir: string): ProtectedPath[] {
  const out: ProtectedPath[] = secrets.secrets.map((w) => ({ path: expand(w, home), why: 'secret' as const, written: w }));
  out.push({ path: expand(tybaDataDir, home), why: 'tyba-data', written: tybaDataDir });
  out.push({ path: expand('~/.config/boxwright', home), why: 'boxwright', written: '~/.config/boxwright' });
  // Whoever writes it decides what the next `boxwright run` executes (app/sandbox/run-cache.ts).
  out.push({ path: expand('~/.cache/boxwright', home), why: 'boxwright-cache', written: '~/.cache/boxwright' });
  out.push({ path: '/', why: 'root', written: '/' });
  return out;
}

export interface ProtectedHit {
  /** The grant names the protected path itself, or a path inside it. */
  readonly inside: readonly ProtectedPath[];
  /** The grant covers protected paths below it (`read = ["~"]` exposes `~/.ssh`). */
  readonly exposes: readonly ProtectedPath[];
}

/** How a granted path meets the protected list. `/` counts only when named exactly. */
export function protectedHit(path: string, list: readonly ProtectedPath[]): ProtectedHit {
  if (screenOf(list).clears(path)) return noHit;
  let inside: ProtectedPath[] | undefined;
  let exposes: ProtectedPath[] | undefined;
  for (const p of list) {
    if (p.why === 'root') {
      if (path === '/') (inside ??= []).push(p);
      continue;
    }
    if (isUnder(path, p.path)) (inside ??= []).push(p);
    else if (isUnder(p.path, path)) (exposes ??= []).push(p);
  }
  // Most grants meet no protected path: they share one answer.
  return inside || exposes ? { inside: inside ?? [], exposes: exposes ?? [] } : noHit;
}

const noHit: ProtectedHit = Object.freeze({ inside: Object.freeze([]), exposes: Object.freeze([]) });

/**
 * A quick answer for the paths that meet no listed one (nearly every grant
 * of a large config), asked before the scan of the whole list. By
 * spelling, as isUnder: a listed path is at or above `path` when it is
 * `path` or `path` up to one of its slashes, and below it when `path` is a
 * listed path up to one of its slashes. So a path is clear when it is
 * neither listed nor above a listed one, and its parent (`path` up to its
 * last slash) is clear of listed paths at or above it: that is memoised,
 * so grants in one directory ask it once.
 */
class Screen {
  private readonly listed = new Set<string>();
  private readonly above = new Set<string>();
  /** isUnder's `/` (every path is under it) and relative paths are left to the scan. */
  private readonly usable: boolean = true;
  private readonly clearParents = new Map<string, boolean>();

  constructor(list: readonly ProtectedPath[]) {
    for (const p of list) {
      if (p.why === 'root') continue;
      if (p.path.charCodeAt(0) !== 47 || p.path === '/') this.usable = false;
      this.listed.add(p.path);
      for (let i = p.path.indexOf('/', 1); i > 0; i = p.path.indexOf('/', i + 1)) this.above.add(p.path.slice(0, i));
    }
  }

  clears(path: string): boolean {
    if (!this.usable || path === '/' || path.charCodeAt(0) !== 47 || this.listed.has(path) || this.above.has(path)) return false;
    const slash = path.lastIndexOf('/');
    return slash === 0 || this.clearOfListed(path.slice(0, slash));
  }

  /** No listed path is `dir` or `dir` up to one of its slashes. */
  private clearOfListed(dir: string): boolean {
    let clear = this.clearParents.get(dir);
    if (clear === undefined) {
      const slash = dir.lastIndexOf('/');
      clear = !this.listed.has(dir) && (slash <= 0 || this.clearOfListed(dir.slice(0, slash)));
      this.clearParents.set(dir, clear);
    }
    return clear;
  }
}

const screens = new WeakMap<readonly ProtectedPath[], Screen>();
function screenOf(list: readonly ProtectedPath[]): Screen {
  let screen = screens.get(list);
  if (!screen) screens.set(list, (screen = new Screen(list)));
  return screen;
}
