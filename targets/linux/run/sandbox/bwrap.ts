/**
 * Which bubblewrap a sandbox runs with, resolved once, where the sandbox
 * is compiled (`compile`, the check of `run`), and recorded in the launch
 * file with its owner and mode; the launcher runs exactly that one and
 * never looks on PATH (targets/linux/launcher). A lookup on PATH at every
 * run executed whatever a principal that may write `~/.local/bin` planted
 * there, outside any sandbox.
 *
 * In this order: `--bwrap PATH`; `BOXWRIGHT_BWRAP` (a path, or a name
 * looked up as below); `bwrap` in the PATH directories that are absolute
 * and outside the home (a home directory is where principals get write
 * grants; a system directory is root's). Links are resolved: the launch
 * records the file itself. Whether it may be trusted (root's, in
 * directories only root can change, outside every write grant) is judged
 * by the caller (vet.ts and the model), and again by the launcher.
 */
import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { executable, lookOnPath } from '../../../../app/host-programs.js';

export { lookupHomes } from '../../../../app/host-programs.js';

export type BwrapSource = 'option' | 'env' | 'path';

export interface BwrapFound {
  readonly found: true;
  /** Absolute, links resolved. */
  readonly path: string;
  readonly uid: number;
  /** The permission bits (07777). */
  readonly mode: number;
  readonly source: BwrapSource;
  /** What was asked for: the option's or the variable's value, or `bwrap`. */
  readonly asked: string;
  /** Executable `bwrap`s passed over on PATH (a relative entry, or under a home): none is ever run. */
  readonly skipped: readonly string[];
}

export type BwrapLookup =
  | BwrapFound
  | {
      readonly found: false;
      readonly why: string;
      readonly source: BwrapSource;
      readonly asked: string;
      readonly skipped: readonly string[];
    };

export interface BwrapRequest {
  /** `--bwrap PATH`. */
  readonly option?: string | undefined;
  readonly env?: NodeJS.ProcessEnv;
  /** The homes the lookup stays out of: this user's, and `--home`. */
  readonly homes: readonly string[];
}

export function locateBwrap(req: BwrapRequest): BwrapLookup {
  const env = req.env ?? process.env;
  const fromEnv = env['BOXWRIGHT_BWRAP'] || undefined;
  const source: BwrapSource = req.option !== undefined ? 'option' : fromEnv !== undefined ? 'env' : 'path';
  const asked = req.option ?? fromEnv ?? 'bwrap';
  let skipped: readonly string[] = [];
  let candidate: string | undefined;
  if (source === 'option' || asked.includes('/')) {
    candidate = resolve(asked);
  } else {
    const hit = lookOnPath(asked, env, req.homes);
    skipped = hit.skipped;
    candidate = hit.path;
    if (!candidate)
      return {
        found: false,
        why: `no ${asked} in the PATH directories outside your home (${env['PATH'] ?? 'PATH unset'})`,
        source,
        asked,
        skipped,
      };
  }
  let path: string;
  try {
    path = realpathSync(candidate);
    const st = statSync(path);
    if (!st.isFile()) return { found: false, why: `${candidate} is not a file`, source, asked, skipped };
    if (!executable(path)) return { found: false, why: `${candidate} is not executable`, source, asked, skipped };
    return { found: true, path, uid: st.uid, mode: st.mode & 0o7777, source, asked, skipped };
  } catch (e) {
    return {
      found: false,
      why: `${candidate}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
      source,
      asked,
      skipped,
    };
  }
}

/** How the lookup came to its answer, in words (doctor, messages). */
export function bwrapOrigin(b: BwrapLookup): string {
  const how =
    b.source === 'option'
      ? `--bwrap ${b.asked}`
      : b.source === 'env'
        ? `BOXWRIGHT_BWRAP=${b.asked}`
        : 'the first `bwrap` in the PATH directories outside your home';
  return b.skipped.length
    ? `${how}; passed over: ${b.skipped.join(', ')} (on PATH, but relative or under a home, where a principal may write)`
    : how;
}
