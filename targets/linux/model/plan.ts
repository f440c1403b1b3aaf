/**
 * The Linux plan of one principal: every decision of its bubblewrap sandbox,
 * made here once from the model's Linux cells — what is mounted and how,
 * which denies get an empty cover (of which kind), which ancestors are
 * pinned as mount points, what links and directories the view holds, and
 * which grants became no mount, and why. Each entry carries its source (the
 * grant, host-trusted path or baseline it comes from) and its facts typed.
 *
 * targets/linux/lower.ts only spells the plan as bwrap argv (and origins);
 * `run`'s view of the sandbox (targets/linux/view.ts) and the Landlock rules
 * read the same plan. Nothing here re-derives what is shown at a path: a
 * deny is covered exactly where its Linux cell is `empty` (linuxAt).
 */
import type { Grant, Principal } from '../../../compiler/ir/types.js';
import { isStrictlyUnder, isUnder } from '../../../compiler/paths/index.js';
import mergedUsr from '../../../compiler/paths/merged-usr.json' with { type: 'json' };
import type { LinuxNoMount, Mechanism, Refusal } from '../../../model/facts.js';
import type { GrantAccess, PrincipalAccess } from '../../../model/access.js';
import procReadonly from './proc-readonly.json' with { type: 'json' };

/** Where a plan entry comes from; targets/linux/lower.ts spells it as the argument's origin. */
export type PlanSource =
  | { readonly kind: 'baseline' }
  /** An authored or implicit grant of the principal. */
  | { readonly kind: 'grant'; readonly grant: Grant }
  /** The host product's gateway socket (`--gateway-socket`). */
  | { readonly kind: 'gateway' }
  /** A host-trusted path bound read-only over itself, inside the write tree `under` (if any). */
  | { readonly kind: 'host-trusted'; readonly path: string; readonly under?: Grant }
  /** An ancestor of a covered deny (`of` a grant) or of a host-trusted path, pinned as a mount point. */
  | { readonly kind: 'pin'; readonly of: Extract<PlanSource, { kind: 'grant' | 'host-trusted' }>; readonly path: string }
  /** The principal's workspace, made as a directory where no mount holds it. */
  | { readonly kind: 'workspace'; readonly workspace: NonNullable<Principal['workspace']> }
  /** A merged-/usr link whose target is in the view (compiler/paths/merged-usr.json). */
  | { readonly kind: 'merged-usr'; readonly link: string; readonly target: string };

/** One mount of the view, in the order bubblewrap performs them (parents before children). */
export type PlanMount =
  | { readonly kind: 'proc' | 'dev'; readonly path: string; readonly source: PlanSource }
  /** A host-global /proc entry made read-only (linux-proc-readonly.json), where the kernel has it. */
  | { readonly kind: 'proc-readonly'; readonly path: string; readonly source: PlanSource }
  | { readonly kind: 'bind'; readonly path: string; readonly write: boolean; readonly shape: PlanShape; readonly source: PlanSource }
  /** A private, writable tmpfs: TYBA's temp directory on Linux, never the host's /tmp. */
  | { readonly kind: 'tmpfs'; readonly path: string; readonly source: PlanSource }
  /** A denied file (or socket): an empty read-only file (the model's `empty-cover` of `file`). */
  | { readonly kind: 'empty-file'; readonly path: string; readonly source: PlanSource }
  /** A denied directory: an empty tmpfs, remounted read-only (the model's `empty-cover` of `dir`). */
  | { readonly kind: 'empty-dir'; readonly path: string; readonly source: PlanSource }
  | { readonly kind: 'symlink'; readonly path: string; readonly target: string; readonly source: PlanSource }
  | { readonly kind: 'dir'; readonly path: string; readonly source: PlanSource };

/**
 * What a path of the plan holds: a file (or a socket, a device: anything but
 * a directory) or a directory tree. Decided here, once, for the binds and the
 * executables: Landlock gives a file a file's rights and a tree a tree's. The
 * kernel refuses a directory's rights on anything else (landlock_add_rule(2):
 * EINVAL) and the helper keeps a file's rights there, so a wrong shape is a
 * .landlock.json that says more than the sandbox does.
 */
export type PlanShape = 'file' | 'tree';

/** Where the model's Linux cell says x (Landlock's execute rules), with what the path holds. */
export interface PlanExec {
  readonly path: string;
  readonly shape: PlanShape;
  readonly source: Extract<PlanSource, { kind: 'grant' }>;
}

/** A grant that became no mount (or a cover said with a caveat), and the fact that says why: the platform's refusal, or the plan's own. */
export type PlanNote =
  | { readonly source: PlanSource; readonly path: string; readonly refused: Refusal }
  | { readonly source: PlanSource; readonly path: string; readonly fact: Extract<Mechanism, { kind: 'linux-no-mount' }> };

export interface LinuxPlan {
  readonly principal: Principal;
  /** Mount operations, parents before children (depth, then path, then kind). */
  readonly mounts: readonly PlanMount[];
  /** TYBA's private /tmp: TMPDIR names it. */
  readonly tmpdir?: { readonly path: string; readonly source: PlanSource };
  readonly chdir?: { readonly path: string; readonly source: PlanSource };
  /** The principal's direct network exception: the host's network namespace. */
  readonly shareNet?: NonNullable<Principal['directNetwork']>;
  /** The gateway socket bound in, for a principal without direct network. */
  readonly gatewaySocket?: string;
  /** Where the model's Linux cell says x, in the order of the grants. */
  readonly exec: readonly PlanExec[];
  readonly notes: readonly PlanNote[];
}

export interface LinuxPlanOptions {
  /** `--gateway-socket PATH`: the host product's gateway socket, bound in for principals without direct network. */
  readonly gatewaySocket?: string;
  /** TYBA: the session worktree, entered with `--chdir`. */
  readonly worktree?: string;
}

/** Host-global /proc entries, read-only inside: see linux-proc-readonly.json for each one's reason. */
export const PROC_READONLY: readonly string[] = Object.keys(procReadonly.paths);

const LINKS: readonly { readonly link: string; readonly target: string }[] = mergedUsr.links;

export const depth = (p: string): number => (p === '/' ? 0 : p.split('/').length - 1);

const kindRank: Record<PlanMount['kind'], number> = {
  proc: 0,
  dev: 0,
  'proc-readonly': 1,
  bind: 1,
  tmpfs: 1,
  dir: 2,
  'empty-file': 3,
  'empty-dir': 3,
  symlink: 4,
};

/** Parents before children: by depth, then path (UTF-16 order, as every target sorts), then kind. */
export function compareMounts(a: Pick<PlanMount, 'kind' | 'path'>, b: Pick<PlanMount, 'kind' | 'path'>): number {
  return depth(a.path) - depth(b.path) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || kindRank[a.kind] - kindRank[b.kind];
}

const contentAccess = new Set(['read', 'write', 'read-write', 'exec']);

/** Whether a strict ancestor of `path` is in `set`: O(depth), whatever the size of the set. */
function hasAncestorIn(set: { has(p: string): boolean }, path: string): boolean {
  for (let i = path.lastIndexOf('/'); i >= 0; i = path.lastIndexOf('/', i - 1)) {
    if (set.has(i === 0 ? '/' : path.slice(0, i))) return true;
    if (i === 0) return false;
  }
  return false;
}

/** A grant's shape: a file when it is written as one (`read_file`, `write_file`) or the host holds anything but a directory there. */
export function grantShape(g: Grant): PlanShape {
  return g.scope === 'file' || g.facts.kind === 'file' || g.facts.kind === 'other' ? 'file' : 'tree';
}

const noMount = (why: LinuxNoMount): Extract<Mechanism, { kind: 'linux-no-mount' }> => ({ kind: 'linux-no-mount', why });

/** Each principal's plans, by options: the compile and the run that follows it read one plan, not two equal ones. */
const plans = new WeakMap<PrincipalAccess, Map<string, LinuxPlan>>();

/** The Linux plan of one principal, from its effective access: made once per principal and options. */
export function linuxPlan(pa: PrincipalAccess, options: LinuxPlanOptions = {}): LinuxPlan {
  let byOptions = plans.get(pa);
  if (!byOptions) plans.set(pa, (byOptions = new Map()));
  const key = JSON.stringify([options.gatewaySocket ?? null, options.worktree ?? null]);
  let plan = byOptions.get(key);
  if (!plan) byOptions.set(key, (plan = makePlan(pa, options)));
  return plan;
}

function makePlan(pa: PrincipalAccess, options: LinuxPlanOptions): LinuxPlan {
  const p = pa.principal;
  const notes: PlanNote[] = [];
  const binds = new Map<string, { write: boolean; shape: PlanShape; source: PlanSource }>();
  const exec: PlanExec[] = [];
  const tmpfs = new Map<string, PlanSource>();
  const denies: GrantAccess[] = [];
  const note = (source: PlanSource, path: string, why: LinuxNoMount): void => void notes.push({ source, path, fact: noMount(why) });

  for (const ga of pa.grants) {
    const g = ga.grant;
    if (!g.path || !ga.applies.linux) continue;
    const cell = ga.effective.linux;
    const source = { kind: 'grant', grant: g } as const;
    if (g.access !== 'deny' && cell.kind === 'access' && cell.exec) exec.push({ path: g.path, shape: grantShape(g), source });
    if (g.access === 'deny') {
      // Covered exactly where the model's cell is empty: a mount above shows it (linuxAt).
      if (cell.kind === 'empty') denies.push(ga);
      else if (cell.kind === 'refused') notes.push({ source, path: g.path, refused: cell.because });
      else note(source, g.path, { kind: 'not-in-view' });
      continue;
    }
    if (!contentAccess.has(g.access)) {
      note(source, g.path, g.access === 'metadata' ? { kind: 'no-metadata-tree' } : { kind: 'no-lowering', list: g.list });
      continue;
    }
    if (cell.kind === 'refused') {
      notes.push({ source, path: g.path, refused: cell.because });
      continue;
    }
    // A content grant is empty or absent only under a deny: at the denied
    // path (its cover), or below it (inside its cover, or with no mount above).
    if (cell.kind === 'empty' || cell.kind === 'absent') {
      note(source, g.path, { kind: cell.kind === 'empty' ? 'under-deny-covered' : 'under-deny-absent' });
      continue;
    }
    if (cell.kind !== 'access' || !cell.read) {
      note(source, g.path, { kind: 'no-content' });
      continue;
    }
    if (g.implicit?.privateTmpfs) {
      tmpfs.set(g.path, source);
      continue;
    }
    if (isUnder(g.path, '/proc')) {
      note(source, g.path, { kind: 'own-proc' });
      continue;
    }
    // One mount per path; a writable mount wins, with the grant that makes it writable as its source.
    const prev = binds.get(g.path);
    if (!prev || (cell.write && !prev.write)) binds.set(g.path, { write: cell.write, shape: grantShape(g), source });
  }

  const gateway = options.gatewaySocket && !p.directNetwork ? options.gatewaySocket : undefined;
  if (gateway && !binds.has(gateway)) binds.set(gateway, { write: false, shape: 'file', source: { kind: 'gateway' } });

  // A host-trusted path inside a write tree (an existing .git, .bashrc,
  // ~/.local/bin) is bound read-only over itself: not written, and, a mount
  // point of its own, not renamed or removed (EBUSY); its ancestors whose
  // parent is writable are pinned the same way, so that it cannot be moved
  // away and replaced. Before the denies' pins: a deny inside it must not
  // make it a writable mount.
  for (const ta of pa.hostTrusted) {
    if (ta.state.linux !== 'read-only') continue;
    const path = ta.trusted.path;
    const source = { kind: 'host-trusted', path, ...(ta.under ? { under: ta.under } : {}) } as const;
    if (!binds.has(path)) binds.set(path, { write: false, shape: ta.trusted.facts.kind === 'dir' ? 'tree' : 'file', source });
    for (const a of ta.pinnedAncestors?.linux ?? [])
      if (!binds.has(a) && !tmpfs.has(a)) binds.set(a, { write: true, shape: 'tree', source: { kind: 'pin', of: source, path } });
  }

  // The ancestors of each covered deny inside a write tree become mount
  // points of their own (bound onto themselves): a mount point cannot be
  // renamed or removed (EBUSY), so `mv a a2` cannot carry the denied path
  // out from under its cover, in this run or for the next one.
  for (const ga of denies) {
    const of = { kind: 'grant', grant: ga.grant } as const;
    for (const a of ga.pinnedAncestors?.linux ?? [])
      if (!binds.has(a) && !tmpfs.has(a)) binds.set(a, { write: true, shape: 'tree', source: { kind: 'pin', of, path: ga.grant.path! } });
  }

  const baseline: PlanSource = { kind: 'baseline' };
  const mounts: PlanMount[] = [
    { kind: 'proc', path: '/proc', source: baseline },
    ...PROC_READONLY.map((path): PlanMount => ({ kind: 'proc-readonly', path, source: baseline })),
    { kind: 'dev', path: '/dev', source: baseline },
  ];
  for (const [path, b] of binds) mounts.push({ kind: 'bind', path, write: b.write, shape: b.shape, source: b.source });
  for (const [path, source] of tmpfs) mounts.push({ kind: 'tmpfs', path, source });

  // Denied paths: covered where the model says (their cell is empty), with
  // the cover the model decides (its empty-cover fact). A deny inside one
  // already covered is hidden by that cover.
  const covered = new Set<string>();
  const sortedDenies = [...denies].sort((a, b) => depth(a.grant.path!) - depth(b.grant.path!) || (a.grant.path! < b.grant.path! ? -1 : 1));
  for (const ga of sortedDenies) {
    const g = ga.grant;
    const path = g.path!;
    const source: PlanSource = { kind: 'grant', grant: g };
    if (covered.has(path) || hasAncestorIn(covered, path)) {
      note(source, path, { kind: 'inside-denied-directory' });
      continue;
    }
    covered.add(path);
    const cover = ga.notes.linux;
    if (cover?.kind !== 'empty-cover') throw new Error(`the model covers ${path} without saying how`);
    if (cover.of === 'file') mounts.push({ kind: 'empty-file', path, source });
    else {
      mounts.push({ kind: 'empty-dir', path, source });
      // --fs none: the kind is unknown. A tmpfs on a file fails bubblewrap's
      // set-up, so a wrong guess fails closed rather than exposing the file.
      if (g.facts.kind !== 'dir') note(source, path, { kind: 'cover-kind-unknown' });
    }
  }

  // The workspace: entered with --chdir, created with --dir when no mount holds it.
  let chdir: LinuxPlan['chdir'];
  if (p.workspace?.path) {
    const source: PlanSource = { kind: 'workspace', workspace: p.workspace };
    const w = p.workspace.path;
    const held = (set: { has(p: string): boolean }): boolean => set.has(w) || hasAncestorIn(set, w);
    if (!held(binds) && !held(tmpfs) && !held(covered)) mounts.push({ kind: 'dir', path: w, source });
    chdir = { path: w, source };
  } else if (options.worktree && p.kind === 'agent') {
    const wt = pa.grants.find((ga) => ga.grant.implicit && ga.grant.path === options.worktree && ga.applies.linux);
    if (wt) chdir = { path: options.worktree, source: { kind: 'grant', grant: wt.grant } };
  }

  // The merged-/usr links, when their target is in the view and nothing else is at the link.
  for (const { link, target } of LINKS) {
    if (mounts.some((o) => isUnder(o.path, link))) continue; // something else is at the link
    if (hasAncestorIn(binds, link)) continue; // a mount already shows the host's own link
    const t = '/' + target;
    if (mounts.some((o) => (o.kind === 'bind' && isUnder(t, o.path)) || isStrictlyUnder(o.path, t)))
      mounts.push({ kind: 'symlink', path: link, target, source: { kind: 'merged-usr', link, target } });
  }

  mounts.sort(compareMounts);
  const tmp = tmpfs.get('/tmp');
  return {
    principal: p,
    mounts,
    ...(tmp ? { tmpdir: { path: '/tmp', source: tmp } } : {}),
    ...(chdir ? { chdir } : {}),
    ...(p.directNetwork ? { shareNet: p.directNetwork } : {}),
    ...(gateway ? { gatewaySocket: gateway } : {}),
    exec,
    notes,
  };
}
