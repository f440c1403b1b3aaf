/**
 * The host-trusted paths learn takes into its boundaries (boundaries.ts):
 * the one place learn learns them, from the model's own data file
 * (compiler/paths/host-trusted.json), so that learn and the carve-outs
 * of every compiled sandbox name the same paths.
 *
 * Of that format learn reads two kinds: `home` paths, and `project` names,
 * looked for in the workspace and each of its ancestors up to the home (a
 * repository's `.git` is at its root, wherever in it the command ran). The
 * others (inside a git directory, what a `.git` file names) lie inside a
 * `.git` path already, and boxwright's own inputs are learn's own outputs.
 */
import { dirname } from 'node:path';
import { expandTilde, isUnder } from '../../compiler/paths/index.js';
import data from '../../compiler/paths/host-trusted.json' with { type: 'json' };

interface TrustedEntryData {
  readonly where: string;
  readonly label: string;
  readonly reason: string;
  readonly paths?: readonly string[];
  readonly names?: readonly string[];
}

export interface HostTrusted {
  /** Absolute. */
  readonly path: string;
  readonly reason: string;
}

export function hostTrustedFor(home: string, workspace: string): HostTrusted[] {
  const entries = data.entries as readonly TrustedEntryData[];
  const out: HostTrusted[] = [];
  const dirs: string[] = [];
  // The workspace and its ancestors inside the home (or the workspace alone, outside it).
  for (let d = workspace; ; d = dirname(d)) {
    dirs.push(d);
    if (d === home || !isUnder(d, home) || d === dirname(d)) break;
  }
  for (const e of entries) {
    if (e.where === 'home') for (const p of e.paths ?? []) out.push({ path: expandTilde(p, home), reason: e.reason });
    if (e.where === 'project')
      for (const d of dirs) for (const n of e.names ?? []) out.push({ path: d === '/' ? `/${n}` : `${d}/${n}`, reason: e.reason });
  }
  return out;
}
