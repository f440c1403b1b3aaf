/**
 * The Landlock ruleset of one principal, lowered from the same two things
 * the bubblewrap argv is: the model's Linux cells (model/) and the mount
 * plan they became (targets/linux/model/plan.ts, spelled by ../lower.ts). Nothing here decides access anew:
 *
 * - every mount gets the rights the mount already gives (read; read and
 *   write for a writable one), a file's or a tree's as the plan's shape
 *   says: Landlock mirrors the view, so a way around a mount (a bind that
 *   went wrong, a kernel bug) still meets a rule;
 * - `execute` goes exactly where the plan's exec entries are (the model's
 *   Linux cell says `x`: the agent's exec grants, a tool's content grants,
 *   granted loader directories), and to the dynamic loaders (the kernel
 *   checks execute on a program's interpreter too);
 * - the sandbox's own /proc and /dev get what programs need of them;
 * - the scopes (abstract unix sockets, signals) for every principal,
 *   applied where the kernel has them (ABI 6+).
 *
 * Whatever no rule grants is denied, since the helper handles every right
 * its ABI knows: a directory bwrap made only to hold mount points cannot be
 * listed, which hides nothing the model shows.
 */
import type { Grant } from '../../../compiler/ir/types.js';
import { isStrictlyUnder, isUnder, normalise } from '../../../compiler/paths/index.js';
import type { PrincipalAccess } from '../../../model/index.js';
import { grantOrigin, originOf, type LinuxView, type Origin } from '../lower.js';
import { LANDLOCK_RIGHTS, type LandlockFsRule, type LandlockRight, type LandlockRuleset, type LandlockScope } from './rules.js';
import baseline from './baseline.json' with { type: 'json' };

/** The rights of a readable directory tree, and of a readable file. */
const READ_TREE: readonly LandlockRight[] = ['read_file', 'read_dir'];
const READ_FILE: readonly LandlockRight[] = ['read_file'];
/**
 * A writable tree: what a writable mount lets a program do with files and
 * directories. Not make_char or make_block: the sandbox has no capability
 * to make a device, and a rule does not grant what the kernel would refuse.
 */
const WRITE_TREE: readonly LandlockRight[] = [
  'write_file',
  'truncate',
  'remove_dir',
  'remove_file',
  'make_dir',
  'make_reg',
  'make_sock',
  'make_fifo',
  'make_sym',
  'refer',
];
/** A writable file: write and truncate it (`>` opens with O_TRUNC). */
const WRITE_FILE: readonly LandlockRight[] = ['write_file', 'truncate'];

const SCOPES: readonly LandlockScope[] = ['abstract-unix-socket', 'signal'];

/** Execute is ABI 1: any kernel with Landlock can hold this ruleset; newer rights are best effort. */
export const REQUIRED_ABI = 1;

/** A rule the lowering would have written but did not, and why: for reviewers (landlock.json `notes`). */
export interface LandlockNote {
  readonly origin: Origin;
  readonly path: string;
  readonly text: string;
}

export interface LandlockPlan {
  readonly ruleset: LandlockRuleset;
  readonly notes: readonly LandlockNote[];
}

const LOADER_ORIGIN: Origin = 'implicit: the dynamic loader (the kernel checks execute on a program\u2019s interpreter)';

/** Lowers one principal's Linux cells and mount view to its Landlock ruleset. Pure. */
export function lowerLandlock(pa: PrincipalAccess, view: LinuxView, loaders: readonly string[]): LandlockPlan {
  const notes: LandlockNote[] = [];
  // One rule per path and origin, rights merged; the kernel ORs rules on one path anyway.
  const rules = new Map<string, { path: string; origin: Origin; rights: Set<LandlockRight> }>();
  const add = (written: string, origin: Origin, rights: readonly LandlockRight[]): void => {
    // `~/project/` and `~/project` are one directory to bwrap; the helper takes only the canonical spelling.
    const path = normalise(written);
    const key = `${path}\0${JSON.stringify(origin)}`;
    let r = rules.get(key);
    if (!r) rules.set(key, (r = { path, origin, rights: new Set() }));
    for (const right of rights) r.rights.add(right);
  };

  for (const b of baseline.rules) add(b.path, 'baseline', b.rights as LandlockRight[]);

  const binds = view.plan.mounts.filter((o) => o.kind === 'bind').map((o) => normalise(o.path));

  // Where a path is, inside the sandbox, without a symbolic link on the way
  // (the helper refuses one): a mount point bwrap made is itself; a path
  // inside a bind is the host's, links and all, so it is where the host's
  // links lead, which must still be inside a mount to be in the view.
  const inSandbox = (written: string, g: Grant | undefined): string | undefined => {
    const path = normalise(written);
    // The link first: only a link needs the search of every bind (a config's thousands of grants made it quadratic).
    if (!g?.facts.symlink || !binds.some((b) => isStrictlyUnder(path, b))) return path;
    if (g.facts.symlink.loop) return undefined;
    const resolved = normalise(g.facts.symlink.resolved);
    return binds.some((b) => isUnder(resolved, b)) ? resolved : undefined;
  };

  for (const op of view.plan.mounts) {
    if (op.kind !== 'bind' && op.kind !== 'tmpfs') continue;
    // The grant the plan made this mount for: its path facts say whether a link is on the way.
    const g = op.source.kind === 'grant' ? op.source.grant : undefined;
    // A socket (the gateway's) needs no right to be connected to; a bound file is read as a file.
    if (op.source.kind === 'gateway') continue;
    const origin = originOf(op.source);
    // The plan decides what the path holds (targets/linux/model/plan.ts PlanShape); a tmpfs is a tree.
    const file = op.kind === 'bind' && op.shape === 'file';
    const path = inSandbox(op.path, g);
    if (path === undefined) {
      notes.push({ origin, path: op.path, text: `a link to ${g!.facts.symlink!.resolved}, which no mount shows: no rule` });
      continue;
    }
    const write = op.kind === 'tmpfs' || op.write;
    add(path, origin, [...(file ? READ_FILE : READ_TREE), ...(write ? (file ? WRITE_FILE : WRITE_TREE) : [])]);
  }

  // Execute where the model's Linux cell says x, and nowhere else: the plan's exec entries.
  for (const e of view.plan.exec) {
    const g = e.source.grant;
    const path = inSandbox(e.path, g);
    if (path === undefined) {
      notes.push({
        origin: grantOrigin(g),
        path: e.path,
        text: `a link to ${g.facts.symlink!.resolved}, which no mount shows: not executable`,
      });
      continue;
    }
    add(path, grantOrigin(g), ['execute', ...(e.shape === 'file' ? READ_FILE : READ_TREE)]);
  }
  for (const loader of loaders) {
    const cell = pa.effectiveAt(loader, 'linux');
    if (cell.kind === 'access' && cell.exec) add(loader, LOADER_ORIGIN, ['execute', 'read_file']);
  }

  const fs: LandlockFsRule[] = [...rules.values()]
    .sort(
      (a, b) =>
        (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
        originRank(a.origin) - originRank(b.origin) ||
        cmp(JSON.stringify(a.origin), JSON.stringify(b.origin)),
    )
    .map((r) => ({ path: r.path, origin: r.origin, rights: LANDLOCK_RIGHTS.filter((x) => r.rights.has(x.name)).map((x) => x.name) }));
  return { ruleset: { requireAbi: REQUIRED_ABI, fs, scopes: SCOPES }, notes };
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
/** Within one path: the baseline first, then boxwright's own reasons, then the config's lines. */
const originRank = (o: Origin): number => (o === 'baseline' ? 0 : typeof o === 'string' ? 1 : 2);
