import secrets from './secrets.json' with { type: 'json' };
import { expandTilde, isUnder } from './spelling.js';

export interface ProtectedPath {
  readonly path: string;
  /**
   * `secret`: one of the twelve of TYBA's platforms page; `tyba-data`: TYBA's own data;
   * `boxwright`: our config; `boxwright-cache`: the sandboxes `run` compiled; `root`: `/`.
   */
  readonly why: 'secret' | 'tyba-data' | 'boxwright' | 'boxwright-cache' | 'root';
  readonly written: string;
}

const expand = expandTilde;

export const secretLocations: readonly string[] = secrets.secrets;
export const knownReadableLocations: readonly string[] = secrets.knownReadable;

/** Another place a Windows tool keeps one of the listed secrets (secrets.json, `windows`), labelled deny-read on Windows too. */
export interface WindowsSecretSpelling {
  /** The secret of TYBA's list it is the Windows place of (`~/.gnupg`). */
  readonly of: string;
  /** Its Windows spelling: `%APPDATA%\gnupg`, `%USERPROFILE%\_netrc`. */
  readonly windows: string;
  /** The same place under the home, `~`-spelled (%APPDATA% at its default, AppData/Roaming): what the model denies. */
  readonly posix: string;
  readonly tool: string;
  readonly source: string;
}

export const windowsSecretSpellings: readonly WindowsSecretSpelling[] = Object.entries(
  secrets.windows as Record<string, { also?: Omit<WindowsSecretSpelling, 'of'>[] }>,
).flatMap(([of, w]) => (w.also ?? []).map((a) => ({ of, ...a })));

/** Every protected path for this home, most specific reasons first. */
export function protectedPaths(home: string, tybaDataDir: string): ProtectedPath[] {
  const out: ProtectedPath[] = secrets.secrets.map((w) => ({ path: expand(w, home), why: 'secret' as const, written: w }));
  out.push({ path: expand(tybaDataDir, home), why: 'tyba-data', written: tybaDataDir });
  out.push({ path: expand('~/.config/boxwright', home), why: 'boxwright', written: '~/.config/boxwright' });
  // Whoever writes it decides what the next `boxwright run` executes (targets/linux/run/sandbox/run-cache.ts).
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
