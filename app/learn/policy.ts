/**
 * The collapse policy: from what a run needed (needs.ts) to the grants of
 * a config, in the dialect asked for. Every decision is here, and each
 * grant keeps the needs it answers, for its comment. README.md beside this
 * file states the policy; policy.json holds its data.
 *
 * 1. Exact by default: a file read is `read_file`, a file written
 *    `write_file` with the `read_file` Linux needs beside it (a write-only
 *    grant is refused there), a directory whose entries were made or removed
 *    `write` with its `read`, a program or interpreter `exec`.
 * 2. Reads collapse into a directory only below a collapse level: in a
 *    package tree, the package (`/usr/lib/node_modules/npm`); in a system
 *    tree (policy.json: `/usr/lib/python3.11`), and in the workspace's
 *    subdirectories (`src/`). A collapse never names a directory that is,
 *    is inside or holds a boundary (boundaries.ts), nor one that holds a
 *    project secret or host-trusted path the run did not read
 *    (exposure.ts): it narrows around them, else stays exact; a tree the
 *    run needed whole (listed, a link's, written) denies such secrets.
 *    Writes and execs never collapse; a directory the run made and kept
 *    is written by its own name, not its parent's.
 * 3. A symbolic link the run went through is visible only through its
 *    directory: the directory is granted `read` when no boundary is in it.
 * 4. Names of a directory: in a collapsible place its collapse; elsewhere
 *    `read` of the directory (Linux has no names-only grant, and Landlock
 *    lists no directory outside a read tree), or `list` where a read would
 *    reach a boundary or the home (macOS gives names only; Linux refuses
 *    `list`: the user decides).
 * 5. Nothing at or inside a boundary is granted, except a write of a
 *    host-trusted path itself, which is granted exactly and flagged (the
 *    host-trust rules warn at it); the sandbox's own /proc and /dev never.
 */
import type { ListName } from '../../compiler/ir/types.js';
import { isStrictlyUnder, isUnder, trustedByName, type FsView } from '../../compiler/paths/index.js';
import { boundariesInside, boundaryAt, type Boundary } from './boundaries.js';
import { Exposure, secretName, type Exposed } from './exposure.js';
import type { Need, NeedSet, Unmet } from './needs.js';
import policy from './policy.json' with { type: 'json' };

export type LearnDialect = 'box' | 'tyba';

export interface PolicyContext {
  readonly dialect: LearnDialect;
  readonly home: string;
  /** The directory the command ran in. */
  readonly workspace: string;
  readonly boundaries: readonly Boundary[];
  /** The filesystem the run ran on (the host): searched for project secrets in what a read tree would grant (exposure.ts). */
  readonly view: FsView;
  /** TYBA's implicit grants: the worktree, the private temp directory, the agent's directories (read-write). */
  readonly implicit?: readonly string[];
}

export interface LearnedGrant {
  readonly list: ListName;
  readonly path: string;
  /** The needs it answers (the first few say what in the trace needed it). */
  readonly needs: Need[];
  /** Why this grant and not the needs' own paths: a collapse, a link's directory, Linux's read beside a write, a flag. */
  readonly notes: string[];
}

export interface Decision {
  readonly grants: readonly LearnedGrant[];
  readonly unmet: readonly Unmet[];
}

interface SystemTree {
  readonly root: string;
  readonly depth: number;
  readonly reason: string;
}

const SYSTEM_TREES: readonly SystemTree[] = Object.entries(policy.systemTrees)
  .map(([root, t]) => ({ root, depth: t.depth, reason: t.reason }))
  .sort((a, b) => b.root.length - a.root.length);

/** Package directories inside the system trees (policy.json `packageTrees`): a `*` matches one component's characters. */
const PACKAGE_TREES = Object.entries(policy.packageTrees).map(([root, t]) => ({
  parts: root
    .split('/')
    .slice(1)
    .map((c) => new RegExp(`^${c.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`)),
  depth: t.depth,
  reason: t.reason,
}));

/** The package tree a path is at or below: its root as this path spells it. */
function packageTreeOf(path: string): { root: string; depth: number; reason: string } | undefined {
  const parts = path.split('/').slice(1);
  for (const t of PACKAGE_TREES)
    if (parts.length >= t.parts.length && t.parts.every((re, i) => re.test(parts[i]!)))
      return { root: `/${parts.slice(0, t.parts.length).join('/')}`, depth: t.depth, reason: t.reason };
  return undefined;
}

/** The ancestor `depth` levels below `root` that holds `path`, or `path` itself when it is a directory at that level. */
function levelDir(path: string, root: string, depth: number, isDir: boolean): string | undefined {
  if (!isStrictlyUnder(path, root)) return undefined;
  const parts = path.slice(root === '/' ? 1 : root.length + 1).split('/');
  if (parts.length > depth) return `${root === '/' ? '' : root}/${parts.slice(0, depth).join('/')}`;
  return parts.length === depth && isDir ? path : undefined;
}

export function systemTreeOf(path: string): SystemTree | undefined {
  return SYSTEM_TREES.find((t) => isUnder(path, t.root));
}

/** Whether reads below the workspace may collapse (not /, the home or above it, a system tree, or a boundary). */
function collapsibleWorkspace(ctx: PolicyContext): boolean {
  const w = ctx.workspace;
  return w !== '/' && !isUnder(ctx.home, w) && !systemTreeOf(w) && !boundaryAt(w, ctx.boundaries, false);
}

/** The level a read of `path` would collapse into, before anything in it is looked at. */
function levelOf(path: string, isDir: boolean, ctx: PolicyContext): { dir: string; why: string } | undefined {
  const pkg = packageTreeOf(path);
  if (pkg) {
    // A scoped npm package (`@scope/name`) is one level deeper.
    const scoped = path.slice(pkg.root.length + 1).startsWith('@') ? 1 : 0;
    const dir = levelDir(path, pkg.root, pkg.depth + scoped, isDir);
    return dir ? { dir, why: `collapsed into its package (${pkg.reason}), not the whole ${pkg.root}` } : undefined;
  }
  const tree = systemTreeOf(path);
  if (tree) {
    const dir = levelDir(path, tree.root, tree.depth, isDir);
    return dir
      ? { dir, why: `collapsed into its directory ${tree.depth} level${tree.depth > 1 ? 's' : ''} below ${tree.root} (${tree.reason})` }
      : undefined;
  }
  if (!collapsibleWorkspace(ctx)) return undefined;
  const dir = levelDir(path, ctx.workspace, policy.workspaceDepth, isDir);
  return dir ? { dir, why: 'collapsed into its subdirectory of the workspace' } : undefined;
}

/**
 * Where a read of `path` collapses to, and why; undefined: it stays exact.
 * A collapse never names a directory that is, is inside or holds a
 * boundary, nor one that holds a project secret or a host-trusted path the
 * run did not read (exposure.ts): it goes around them, into the shallowest
 * directory between its level and the path that holds none.
 */
export function collapseOf(path: string, isDir: boolean, ctx: PolicyContext, exposure: Exposure): { dir: string; why: string } | undefined {
  const level = levelOf(path, isDir, ctx);
  if (!level) return undefined;
  // The directories from the level down to the path's own (a file's directory, or the directory itself).
  const deepest = isDir ? path : path.slice(0, path.lastIndexOf('/'));
  const steps = [level.dir];
  for (const part of deepest
    .slice(level.dir.length + 1)
    .split('/')
    .filter(Boolean))
    steps.push(`${steps.at(-1)}/${part}`);
  let first: Exposed | undefined;
  for (const dir of steps) {
    // Inside a boundary: nothing below is granted either (decide refuses the need itself).
    if (boundaryAt(dir, ctx.boundaries, false)) return undefined;
    const exposed = exposure.of(dir, { hostTrusted: true });
    if (!exposed)
      return dir === level.dir
        ? level
        : {
            dir,
            why: `${level.why}, narrowed to this directory: ${level.dir} holds ${spell(first!.path)} (${first!.reason}), which the run did not read`,
          };
    first ??= exposed;
  }
  return undefined;
}

const spell = (p: string): string => JSON.stringify(p);

/** The note of a directory granted for the links in it (config-text.ts names the links). */
export const LINK_NOTE = 'a link is visible only through its directory';

/** What the run did, for a refusal's words. */
const done: Record<Need['kind'], string> = {
  read: 'read',
  stat: 'looked at',
  list: 'listed',
  link: 'gone through (a link)',
  'write-file': 'written',
  'write-dir': 'written (entries made or removed)',
  exec: 'executed',
};

const READ_LISTS: readonly ListName[] = ['read', 'read_file', 'list', 'read_allow'];

export function decide(set: NeedSet, ctx: PolicyContext): Decision {
  const grants = new Map<string, LearnedGrant>();
  const unmet: Unmet[] = [...set.unmet];
  const listLater: Need[] = [];
  const tyba = ctx.dialect === 'tyba';
  const readPaths = new Set(set.needs.filter((n) => n.kind === 'read').map((n) => n.path));
  // Project secrets are searched for where users and projects keep files: the home and the workspace (the system's own are
  // policy.json's systemSecrets, by path; a system tree holds packages' public files, /etc/ssl/certs public *.pem certificates).
  const searched = (d: string): boolean => (isUnder(d, ctx.home) || isUnder(d, ctx.workspace)) && !systemTreeOf(d);
  const exposure = new Exposure({ view: ctx.view, boundaries: ctx.boundaries, needs: set.needs, unsearched: (d) => !searched(d) });

  const give = (list: ListName, path: string, need: Need, note?: string): void => {
    const key = `${list}\0${path}`;
    let g = grants.get(key);
    if (!g) grants.set(key, (g = { list, path, needs: [], notes: [] }));
    if (!g.needs.includes(need)) g.needs.push(need);
    if (note && !g.notes.includes(note)) g.notes.push(note);
  };
  const refuse = (need: Need, what: string): void => void unmet.push({ path: need.path, what, first: need.first });
  const read = (need: Need, path: string, isDir: boolean, note?: string): void => {
    const c = collapseOf(path, isDir, ctx, exposure);
    if (c) return give(tyba ? 'read_allow' : 'read', c.dir, need, c.why);
    const secret = isDir ? undefined : secretName(path.slice(path.lastIndexOf('/') + 1));
    const flag = secret && need.kind === 'read' ? `a project secret (${secret}): granted because the run read it; review it` : undefined;
    give(tyba ? 'read_allow' : isDir ? 'read' : 'read_file', path, need, note ?? flag);
  };
  /**
   * A directory the run needed whole (listed, a link's, written) whose tree holds project secrets it did not read:
   * a Box config keeps each out with a `deny` (Linux binds an empty file over it); nothing else in it is denied.
   * Undefined: it may be granted; else why not (a boundary in it, a search that did not finish, TYBA, which has no deny).
   */
  const carveOut = (need: Need, dir: string, why: string): Exposed | undefined => {
    const exposed = exposure.of(dir, { hostTrusted: false });
    if (exposed?.kind !== 'project-secret' || tyba) return exposed;
    const secrets = exposure.unreadSecretsIn(dir);
    if (secrets === 'unsearched') return exposed;
    for (const s of secrets)
      give(
        'deny',
        s.path,
        need,
        `a project secret (${s.reason}) in ${spell(dir)}, which ${why}; the run did not read it: denied, so that the grant of its directory does not give it`,
      );
    return undefined;
  };

  for (const need of set.needs) {
    if (tyba && (ctx.implicit ?? []).some((d) => isUnder(need.path, d))) continue;
    // A directory's properties need no grant (it is in the view when anything below it is): nothing to refuse either.
    if (need.kind === 'stat' && need.is === 'dir') continue;
    const write = need.kind === 'write-file' || need.kind === 'write-dir';
    const b = boundaryAt(need.path, ctx.boundaries, write);
    if (b && b.why !== 'host-trusted') {
      refuse(need, `${done[need.kind]}, but it is ${b.path === need.path ? '' : `inside ${b.path}, `}${b.reason}: not granted`);
      continue;
    }
    const trusted = b ? `host-trusted (${b.reason}): granted because the run wrote it; review it` : undefined;
    switch (need.kind) {
      case 'exec':
        if (tyba) read(need, need.path, false, 'executed (TYBA on Linux: what is readable is executable)');
        else give('exec', need.path, need);
        break;
      case 'read':
        read(need, need.path, need.is === 'dir');
        break;
      case 'stat':
        read(
          need,
          need.path,
          false,
          readPaths.has(need.path) ? undefined : "looked at only: on Linux a path's properties are visible only with its content",
        );
        break;
      case 'list': {
        const c = collapseOf(need.path, true, ctx, exposure);
        if (c) give(tyba ? 'read_allow' : 'read', c.dir, need, c.why);
        else listLater.push(need);
        break;
      }
      case 'link': {
        const dir = need.path.slice(0, Math.max(need.path.lastIndexOf('/'), 1));
        const c = collapseOf(dir, true, ctx, exposure);
        if (c) {
          give(tyba ? 'read_allow' : 'read', c.dir, need, c.why);
          break;
        }
        const blocked = isUnder(ctx.home, dir) ? undefined : carveOut(need, dir, 'holds a link the run went through');
        if (!blocked && !isUnder(ctx.home, dir)) give(tyba ? 'read_allow' : 'read', dir, need, LINK_NOTE);
        else
          refuse(
            need,
            `went through this link, which is visible only through its directory ${dir}; that directory is not ` +
              `granted (${blocked ? `it holds ${blocked.path}: ${blocked.reason}` : 'the home or above it'}), ` +
              `so the link is not in the view: name its target instead`,
          );
        break;
      }
      case 'write-file':
        if (tyba) {
          refuse(need, 'written: TYBA grants writes only in the worktree, the temp directory and the agent directories');
          break;
        }
        give('write_file', need.path, need, trusted);
        give('read_file', need.path, need, 'Linux refuses a write grant without a read of the same scope (write-only)');
        break;
      case 'write-dir': {
        if (tyba) {
          refuse(need, 'entries made or removed: TYBA grants writes only in the worktree, the temp directory and the agent directories');
          break;
        }
        const inside = boundariesInside(need.path, ctx.boundaries);
        const blocked = inside.length
          ? { path: inside.map((x) => x.path).join(', '), reason: inside[0]!.reason }
          : need.created
            ? undefined
            : carveOut(need, need.path, 'the run made or removed entries in');
        if (blocked) {
          refuse(
            need,
            `entries made or removed in it, but a write grant of it would expose ${blocked.path} (${blocked.reason}): not granted`,
          );
          break;
        }
        give('write', need.path, need, need.created ? CREATED_NOTE : trusted);
        give('read', need.path, need, 'Linux refuses a write grant without a read of the same scope (write-only)');
        break;
      }
    }
  }

  // Names: Linux has no grant of names without contents (`list` is refused there) and Landlock lets no
  // directory outside a read tree be listed, so a directory the policy may grant is granted `read`.
  for (const need of listLater) {
    const aboveHome = isUnder(ctx.home, need.path);
    const blocked = aboveHome ? undefined : carveOut(need, need.path, 'the run listed');
    if (!blocked && !aboveHome)
      give(
        tyba ? 'read_allow' : 'read',
        need.path,
        need,
        'its names were read: Linux has no names-only grant (`list` is refused there), so this read gives its contents too',
      );
    else if (tyba)
      refuse(
        need,
        `its names were read, but ${blocked ? `it holds ${blocked.path} (${blocked.reason})` : 'it is the home or above it'} ` +
          `and TYBA has no grant of names without contents`,
      );
    else
      give(
        'list',
        need.path,
        need,
        `only its names were read, and a read of it would reach ${blocked ? `${blocked.path} (${blocked.reason})` : 'the whole home'}: ` +
          `\`list\` gives names only on macOS; Linux refuses it (list-without-content)`,
      );
  }
  return { grants: withoutCovered([...grants.values()], ctx.home), unmet };
}

/** The note of a write grant of a directory the run made (needs.ts: `created`). */
export const CREATED_NOTE =
  'the run made this directory, and a grant names it, not its parent: Linux binds only a path that exists ' +
  '(bubblewrap --bind, Landlock opens it), so create it (mkdir -p) before running under this config';

/** The directories the run made that the grants name (CREATED_NOTE): each must exist before a run under the config. */
export function madeDirectories(grants: readonly LearnedGrant[]): string[] {
  return grants.filter((g) => g.list === 'write' && g.notes.includes(CREATED_NOTE)).map((g) => g.path);
}

/** Why `--check` cannot run the config yet: it would be refused (missing-path) as `run` refuses it, which learn says first. */
export function checkWaitsFor(made: readonly string[], home: string): string {
  const shown = made.map((p) => JSON.stringify(isUnder(p, home) ? `~${p.slice(home.length)}` : p));
  return (
    `the config names ${made.length === 1 ? 'a directory' : `${made.length} directories`} the run made ` +
    `(${shown.join(', ')}), which Linux binds only once ${made.length === 1 ? 'it exists' : 'they exist'}, ` +
    `and learn does not change the host: make ${made.length === 1 ? 'it' : 'them'} (mkdir -p), then ` +
    `run the command under the config with boxwright run`
  );
}

/** Whether `outer` gives what `inner` asks, for the lists learn writes. */
function coversIn(outer: LearnedGrant, inner: LearnedGrant, home: string): boolean {
  if (outer === inner || !isUnder(inner.path, outer.path)) return false;
  // A write tree keeps the host-trusted paths strictly inside it read-only: a write at or inside one is a grant of its own (it lifts it), never covered.
  if (outer.list === 'write' && trustedByName(inner.path, home).some((t) => isStrictlyUnder(t, outer.path))) return false;
  const tree = outer.list === 'read' || outer.list === 'write' || outer.list === 'read_allow' || outer.path === inner.path;
  if (!tree) return false;
  if (outer.list === 'read') return READ_LISTS.includes(inner.list) && inner.list !== 'read_allow';
  if (outer.list === 'write') return inner.list === 'write' || inner.list === 'write_file';
  if (outer.list === 'read_allow') return inner.list === 'read_allow';
  return false;
}

/** The grants no other one covers, each holding the needs of those it covers; sorted by list, then path. */
function withoutCovered(all: LearnedGrant[], home: string): LearnedGrant[] {
  const covers = (outer: LearnedGrant, inner: LearnedGrant): boolean => coversIn(outer, inner, home);
  const covered = (g: LearnedGrant): boolean => all.some((o) => covers(o, g) && !covers(g, o));
  const kept = all.filter((g) => !covered(g));
  // Covering is transitive: an outermost grant covers whatever a dropped one covered.
  for (const g of all) {
    if (kept.includes(g)) continue;
    const cover = kept.find((k) => covers(k, g))!;
    for (const n of g.needs) if (!cover.needs.includes(n)) cover.needs.push(n);
  }
  const order: ListName[] = ['read', 'read_file', 'write', 'write_file', 'list', 'exec', 'read_allow', 'deny'];
  return kept.sort((a, b) => order.indexOf(a.list) - order.indexOf(b.list) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
