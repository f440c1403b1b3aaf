/**
 * Whether a program can start in a principal's Linux sandbox: each of its
 * needs (compiler/paths/exec-needs.ts: the interpreter, the libraries, a
 * `#!` interpreter, what it runs and reads) judged against the one model's
 * Linux cells. A candidate is met when the sandbox shows every link on its
 * way and its file with the right it needs: read for a library or a tree,
 * execute for what the kernel executes (Landlock checks a program's
 * interpreter as well as the program).
 *
 * A link's entry is shown where a mount shows its directory (its cell is
 * readable); the merged-/usr links at the root (/lib64, /lib, /bin, /sbin)
 * are the Linux lowering's own, made whenever their target is in the view
 * (compiler/paths/merged-usr.json), which a walk through one needs anyway.
 */
import type { Candidate, ExecNeeds, Need } from '../compiler/paths/exec-needs.js';
import mergedUsr from '../compiler/paths/merged-usr.json' with { type: 'json' };
import type { Cell } from './cell.js';
import type { MissingNeed } from './facts.js';

export type { MissingNeed } from './facts.js';

export const LIBRARY_CACHE = '/etc/ld.so.cache';

const ROOT_LINKS: ReadonlyMap<string, string> = new Map(mergedUsr.links.map((l) => [l.link, l.target]));

/**
 * A principal's Linux sandbox as the judgement needs it: the model's cells, and where a readable file is
 * executable by the confinement alone (a dynamic loader under Landlock; everything without it).
 */
export interface LinuxSandbox {
  at(path: string): Cell;
  executableOnceRead(path: string): boolean;
}

const readable = (c: Cell): boolean => c.kind === 'access' && c.read;

function judge(need: Need, c: Candidate, sandbox: LinuxSandbox): Omit<MissingNeed, 'need' | 'candidate'> | undefined {
  const at = (p: string): Cell => sandbox.at(p);
  const links = c.walk.links.filter((l) => !ROOT_LINKS.has(l) && !readable(at(l)));
  const cell = at(c.walk.target);
  // What the kernel must execute needs an exec grant (readable and executable), unless reading it would be enough (a loader under Landlock).
  const runnable = cell.kind === 'access' && cell.read && cell.exec;
  const target =
    need.right === 'exec' && !runnable
      ? !readable(cell) && sandbox.executableOnceRead(c.walk.target)
        ? 'read'
        : 'exec'
      : !readable(cell)
        ? 'read'
        : undefined;
  const cache = c.via === 'cache' && !readable(at(LIBRARY_CACHE));
  if (!links.length && !target && !cache) return undefined;
  const denied = [...c.walk.links, c.walk.target].find((p) => at(p).kind === 'empty');
  return { links, ...(target ? { target } : {}), ...(cache ? { cache: true as const } : {}), ...(denied ? { denied } : {}) };
}

/**
 * What keeps `needs` from being met in the sandbox `at` describes (a
 * principal's `effectiveAt(path, 'linux')`): one entry per need none of
 * whose candidates is met, in the order of the needs. Empty: it starts
 * (as far as the facts go: `needs.unknown` says what they left out).
 * PrincipalAccess.linuxMissing asks it for the principal's own sandbox.
 */
export function missingNeeds(needs: ExecNeeds, sandbox: LinuxSandbox): MissingNeed[] {
  const at = (p: string): Cell => sandbox.at(p);
  const out: MissingNeed[] = [];
  for (const need of needs.needs) {
    const first = need.candidates[0];
    if (!first) continue;
    // Needed where the sandbox shows it: a shown file it cannot execute fails.
    if (need.when === 'shown') {
      const shown = !first.walk.links.some((l) => !ROOT_LINKS.has(l) && !readable(at(l))) && readable(at(first.walk.target));
      const miss = shown ? judge(need, first, sandbox) : undefined;
      if (miss) out.push({ need, candidate: first, ...miss });
      continue;
    }
    if (need.candidates.some((c) => !judge(need, c, sandbox))) continue;
    out.push({ need, candidate: first, ...judge(need, first, sandbox)! });
  }
  return out;
}

/** The needs that keep the program itself from starting (exec-needs.ts: all but the `later` ones); the rest fail later, when it runs or reads them. */
export const startsWith = (m: MissingNeed): boolean => !m.need.later;

/** The grants that would meet the missing needs, in the Box lists' terms: read trees, one-file reads, exec files. */
export interface GrantsToAdd {
  readonly read: readonly string[];
  readonly read_file: readonly string[];
  readonly exec: readonly string[];
}

const dirname = (p: string): string => {
  const i = p.lastIndexOf('/');
  return i <= 0 ? '/' : p.slice(0, i);
};
const under = (p: string, dir: string): boolean => p === dir || (dir === '/' ? true : p.startsWith(dir + '/'));

/**
 * The grants to add for `missing` (what a denied piece needs is left out:
 * a deny wins over any grant): a read tree for the directory of each link
 * the sandbox must show (grants may not name links) and for each tree a
 * program reads; an exec grant for each file it must execute (an exec
 * grant is bound read-only, so it is readable too); a one-file read for
 * each other file no read tree above covers.
 */
export function grantsFor(missing: readonly MissingNeed[]): GrantsToAdd {
  const read = new Set<string>();
  const exec = new Set<string>();
  const files = new Set<string>();
  for (const m of missing) {
    if (m.denied) continue;
    for (const l of m.links) read.add(dirname(l));
    if (m.cache) files.add(LIBRARY_CACHE);
    if (m.target === 'exec') exec.add(m.candidate.walk.target);
    else if (m.target === 'read') (m.need.tree ? read : files).add(m.candidate.walk.target);
  }
  // A tree inside another adds nothing; nor does a file inside a tree, or an exec file (readable already) read again.
  const trees = [...read].sort().filter((t, _, all) => !all.some((o) => o !== t && under(t, o)));
  const coveredRead = (p: string): boolean => trees.some((t) => under(p, t));
  return {
    read: trees,
    read_file: [...files].filter((f) => !coveredRead(f) && !exec.has(f)).sort(),
    exec: [...exec].sort(),
  };
}
