/**
 * The paths learn never grants and no collapse may reach: the protected
 * paths (compiler/paths/protected.ts: the secret list, TYBA's data
 * directory, boxwright's own directories, the root), the system secrets of
 * policy.json, boxwright's own files of this run (the config it writes),
 * and the host-trusted paths — content the host later runs or trusts, which
 * a write grant must not reach (an input list: app/learn/host-trusted.ts is
 * the one place learn reads them from, and the one import to switch when
 * issue 21 part A's compiler/paths/host-trusted.json lands).
 */
import { expandTilde, isUnder, protectedPaths, type ProtectedPath } from '../../compiler/paths/index.js';
import policy from './policy.json' with { type: 'json' };

export type BoundaryWhy = ProtectedPath['why'] | 'system-secret' | 'host-trusted' | 'own-output';

export interface Boundary {
  readonly path: string;
  readonly why: BoundaryWhy;
  /** Said in the config's comments and learn's report. */
  readonly reason: string;
}

const protectedReasons: Record<ProtectedPath['why'], string> = {
  secret: 'a secret location (secrets.json)',
  'tyba-data': "TYBA's data directory",
  boxwright: "boxwright's own configuration directory",
  'boxwright-cache': "boxwright's run cache",
  root: 'the filesystem root',
};

export interface BoundaryInputs {
  readonly home: string;
  readonly tybaDataDir?: string;
  /** Host-trusted paths (absolute), each with why the host trusts it. */
  readonly hostTrusted?: readonly { readonly path: string; readonly reason: string }[];
  /** boxwright's own outputs of this run (the learned config). */
  readonly own?: readonly string[];
}

export function learnBoundaries(inputs: BoundaryInputs): Boundary[] {
  const out: Boundary[] = protectedPaths(inputs.home, inputs.tybaDataDir ?? '~/.tyba').map((p) => ({
    path: p.path,
    why: p.why,
    reason: `${protectedReasons[p.why]}: ${p.written}`,
  }));
  for (const [path, reason] of Object.entries(policy.systemSecrets)) {
    // The superuser's home is a secret to others; to the superuser it is the home, whose secrets the list above names.
    if (isUnder(inputs.home, path)) continue;
    out.push({ path, why: 'system-secret', reason });
  }
  for (const t of inputs.hostTrusted ?? []) out.push({ path: expandTilde(t.path, inputs.home), why: 'host-trusted', reason: t.reason });
  for (const o of inputs.own ?? []) out.push({ path: o, why: 'own-output', reason: "boxwright's own output (the learned config)" });
  return out;
}

/** Boundaries that nothing may read: all but the host-trusted ones, which only a write must not reach. */
export const keepsReadsOut = (b: Boundary): boolean => b.why !== 'host-trusted';

/** The boundary a path is at or inside, for this kind of access; the root only when named itself. */
export function boundaryAt(path: string, list: readonly Boundary[], write: boolean): Boundary | undefined {
  return list.find((b) => (write || keepsReadsOut(b)) && (b.why === 'root' ? path === '/' : isUnder(path, b.path)));
}

/**
 * The boundaries strictly inside a directory a grant would name, which
 * keep it from being granted: not the root (everything is inside it), and
 * not a host-trusted path, which stays read-only inside a write grant.
 */
export function boundariesInside(dir: string, list: readonly Boundary[]): Boundary[] {
  return list.filter((b) => keepsReadsOut(b) && b.why !== 'root' && b.path !== dir && isUnder(b.path, dir));
}
