import { PLATFORMS, type Platform } from '../compiler/diagnostic.js';
import type { Grant } from '../compiler/ir/types.js';
import { SEARCH_LIMIT, type TrustedSearch, type UnsearchedTree } from '../compiler/paths/index.js';
import type { Cell, PrincipalAccess, TrustedAccess, TrustedNamesAccess } from '../model/index.js';
import type { Fact } from '../model/facts.js';
import { defineRule } from './engine/engine.js';
import { listPaths, shown, thousands } from './util.js';
import { tool } from './runtime-util.js';
import type { HostTrustedPath } from '../compiler/paths/index.js';

type HostTrustedFact = Extract<Fact, { kind: 'host-trusted' }>;

const writes = (c: Cell): boolean => c.kind === 'access' && c.write;

/** A host-trusted path as a message names it: its path and what it is. */
const named = (ta: TrustedAccess): string => `${ta.trusted.path} (${ta.trusted.label})`;

/** What the platform does to keep a host-trusted path from being written (its model part's `hostTrusted`), in the footnote's words. */
function readOnlyText(f: HostTrustedFact): string {
  switch (f.held.readOnly) {
    case 'profile-rule':
      return f.existence === 'absent'
        ? `host-trusted, not there yet: the profile refuses its creation (\`file-write*\` denied at it${
            f.parents?.length
              ? `, and at its missing ${f.parents.length === 1 ? 'parent' : 'parents'} ${listPaths(f.parents)}, ` +
                `so that it cannot be made elsewhere and renamed into place`
              : ''
          })`
        : 'host-trusted: `file-write*` denied on it and below, `file-write-unlink` on its ancestors: it cannot be ' +
            'changed, removed or moved away';
    case 'read-only-bind':
      return (
        'host-trusted: bound read-only over itself, a mount point of its own: it cannot be written, renamed or ' +
        'removed, and its ancestors are pinned the same way'
      );
    case 'no-write-up-label':
      return (
        `host-trusted: a Medium no-write-up label on it and, file by file, on everything below it: the Low ` +
        `token cannot write it${f.existence === 'unknown' ? ' (apply.ps1 skips it where it does not exist)' : ''}; ` +
        `a label is the file's, so it holds for every principal`
      );
  }
}

/** Why a platform cannot refuse a host-trusted path, in the footnote's words. */
function creatableText(f: HostTrustedFact): string {
  switch (f.blocked) {
    case 'link':
      return (
        'host-trusted, but a symbolic link: nothing makes a link read-only over itself (a mount and a path ' +
        'rule follow it), so the workload can replace it'
      );
    case 'no-windows-spelling':
      return 'host-trusted, but it has no Windows spelling (outside the home): the plan labels nothing there';
    case 'unknown':
      return 'host-trusted: the filesystem view does not say whether it exists (--fs none), and only what exists can be made read-only here';
    default:
      return f.held.created === 'quarantined-after-run'
        ? 'host-trusted, not there yet: Linux cannot refuse its creation (a read-only mount needs an existing ' +
            'target, and Landlock only allows), so the launcher lists each write tree after the run and moves ' +
            'aside a host-trusted name the command made (exit 123)'
        : 'host-trusted, not there yet: Windows has nothing to label, so the workload can create it, and nothing ' +
            'checks it after the run (the user applies the plan)';
  }
}

export const hostTrustedPath = defineRule({
  meta: {
    id: 'host-trusted-path',
    dialects: ['box', 'tyba', 'srt', 'claude', 'codex'],
    seedRow: 'Our lowerings: what the host executes or trusts after a run (issue 21): read-only inside write grants on every platform',
    docs: {
      summary:
        'A write grant holds paths the host executes or trusts after the run (.git, shell start-up files, ' +
        "PATH directories in the home, editor and agent task configs, autostart, boxwright's own files): " +
        'they stay read-only unless a grant names them.',
      details:
        'A workload that may write what the host runs later gets out around the sandbox: `git config core.fsmonitor ' +
        '…` or a `.git/hooks/pre-commit` written inside `write = ["~/project"]` runs at the user\'s next ' +
        '`git status`; a `~/.bashrc` line at the next terminal; a `bwrap` in `~/.local/bin` at the next ' +
        '`boxwright run`. So every host-trusted path (compiler/paths/host-trusted.json, each entry with ' +
        'its reason and source: version-control metadata `.git`, `.hg`, `.svn` and what git runs from a ' +
        'git directory, a `.git` file and the git directories it names; shell start-up files; `~/.gitconfig` ' +
        'and `~/.config/git`; PATH directories in the home; `.vscode`, `.idea`, `.envrc`, `.claude`, `.codex`, ' +
        '`.cursor`, `.mcp.json`; autostart; `~/.config/boxwright`, the run cache, and the config, manifest ' +
        'and output directory of the command itself) inside a write grant is read-only by default: on Linux ' +
        'it is bound read-only over itself (a mount point: it cannot be renamed or removed, and its ancestors ' +
        "are pinned like a deny's), on macOS the profile denies `file-write*` on it and `file-write-unlink` " +
        'on its ancestors, on Windows it keeps a Medium no-write-up label, so the Low token cannot write ' +
        'it. One that does not exist yet cannot be created on macOS (a path rule needs no file); Linux cannot ' +
        'refuse it (a mount needs an existing target, and Landlock only allows), so the launcher lists every ' +
        'write tree before and after the run: one the compile did not know of is refused (exit 125), one ' +
        'the command made is moved aside (`NAME.boxwright-quarantine-HEX`, exit 123); Windows cannot refuse ' +
        'it either (nothing to label), and nothing checks it after the run. Home paths and the names at ' +
        "a write tree's root are looked for whether or not they exist; below the root, names are found where they exist, " +
        `at every depth: every directory of every write tree is listed once (nested trees once). A search ` +
        `that cannot finish (more than ${thousands(SEARCH_LIMIT)} directories for one config, or a directory ` +
        `it cannot list, as a workload makes one with \`chmod 000\` to hide a \`.git\` in it) is an error, ` +
        `so \`compile\` and \`run\` refuse rather than protect less. This info names them at the grant; ` +
        `\`explain\` shows each in every column. To let the workload write one, name it (or a path inside ` +
        `it) in a write grant: that lifts it for that grant's scope, visibly in review, with a warning, ` +
        `and \`diff --fail-on widen\` reports it as a widening, in what is asked for (on every machine, ` +
        `since a write tree asks for its host-trusted paths read-only) and in what a machine with the path ` +
        `grants. For a TYBA session, the worktree's \`.git\` file stays read-only, and of the git directories ` +
        `it names the session grants what the agent's commits need (README, "TYBA worktrees").`,
      bad: {
        toml: '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project/.git"]  # its config and hooks stay read-only',
        expect: ['3:10 warning macos,linux,windows', '3:10 info macos,linux,windows'],
      },
      good: { toml: '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project/output"]  # holds no host-trusted path', expect: [] },
    },
  },
  messages: {
    readOnly: {
      severity: 'info',
      platforms: PLATFORMS,
      text: (d: { tree: string; existing: readonly string[]; absent: readonly string[] }) =>
        `inside ${d.tree}, the host-trusted ${listPaths(d.existing, 4)} ${d.existing.length === 1 ? 'stays' : 'stay'} ` +
        `read-only (the host runs or trusts ${d.existing.length === 1 ? 'it' : 'them'} after the run)${
          d.absent.length
            ? `; ${listPaths(d.absent, 3)} ${d.absent.length === 1 ? 'does' : 'do'} not exist yet: macOS refuses ` +
              `${d.absent.length === 1 ? 'its' : 'their'} creation, Linux moves aside what the command creates, Windows cannot`
            : ''
        }; ` +
        `a write grant that names one lifts it`,
    },
    unknown: {
      severity: 'info',
      platforms: PLATFORMS,
      machineDependent: true,
      text: (d: { tree: string; paths: readonly string[] }) =>
        `depends on the machine: inside ${d.tree}, the host-trusted ${listPaths(d.paths, 4)} stay read-only ` +
        `where they exist (macOS refuses them whether or not they do); the filesystem view does not say which exist`,
    },
    lifted: {
      severity: 'warning',
      platforms: PLATFORMS,
      text: (d: { path: string; trusted: string; inside: boolean; why: string }) =>
        `${d.path} ${d.inside ? 'is inside' : 'is'} the host-trusted ${d.trusted}: the workload may write ` +
        `what the host runs or trusts after the run (${d.why})`,
      suggestion:
        'Grant a path outside it if the workload does not need to write there; if it does, review what the host runs from it after every run.',
    },
    unsearched: {
      severity: 'error',
      platforms: PLATFORMS,
      text: (d: { tree: string; search: UnsearchedTree }) =>
        d.search.why === 'limit'
          ? `the search for host-trusted paths inside ${d.tree} did not finish: it lists at most ${thousands(SEARCH_LIMIT)} ` +
            `directories for a config, and ${thousands(d.search.count)} were left unlisted ` +
            `(${listPaths(d.search.dirs, 3)}${d.search.count > d.search.dirs.length ? ', …' : ''}); ` +
            `a .git or other host-trusted name there would stay writable, so the config is refused`
          : `the search for host-trusted paths inside ${d.tree} could not list ${d.search.count === 1 ? 'a directory' : `${d.search.count} directories`} ` +
            `(${listPaths(d.search.dirs, 3)}${d.search.count > d.search.dirs.length ? ', …' : ''}); a .git or ` +
            `other host-trusted name there would stay writable, so the config is refused`,
      suggestion:
        'Grant a narrower write tree (the directories the workload writes), or make the tree listable by ' +
        'you: a workload can make a directory unreadable to hide a .git in it.',
    },
    writableInside: {
      severity: 'warning',
      platforms: ['macos', 'linux'],
      text: (d: { tree: string; paths: readonly string[]; tool: string }) =>
        `inside ${d.tree}, the host-trusted ${listPaths(d.paths, 4)} ${d.paths.length === 1 ? 'is' : 'are'} ` +
        `writable in the sandbox: ${d.tool} keeps only its mandatory denies read-only, so the command may ` +
        `write what the host runs or trusts after the run`,
      suggestion: 'Grant the directories the command writes, not a tree that holds these; or deny writing them (denyWrite).',
    },
    worktreeGit: {
      severity: 'warning',
      platforms: PLATFORMS,
      text: (d: { problem: string }) =>
        `the session worktree's .git is not followed: ${d.problem}; it stays read-only, and no git directory is granted, so git fails in the sandbox`,
      suggestion: 'Make the worktree with `git worktree add` (TYBA does), and leave its .git file as git wrote it.',
    },
  },
  explains: {
    'host-trusted': (f) => (f.state === 'read-only' ? readOnlyText(f) : creatableText(f)),
    'host-trusted-unreached': () => 'no write grant of this principal reaches it on this platform',
  },
  check(ctx) {
    const { ir } = ctx;
    if (ir.tyba?.git && 'problem' in ir.tyba.git) {
      const span = ir.principals[0]?.span;
      if (span) ctx.report('worktreeGit', { span }, { problem: ir.tyba.git.problem });
    }
  },
  principal(pa, ctx) {
    if (ctx.ir.runtime) return runtimeWritable(pa, ctx);
    // At each write tree: what it holds, by the platforms where it matters; a tree's absent names as one (their shared decision).
    const byTree = new Map<Grant, TreeHolds>();
    // The same, in the order made (a Map's order): sorted below without an entry pair per tree.
    const made: TreeHolds[] = [];
    const holds = (tree: Grant, first: string): TreeHolds => {
      let h = byTree.get(tree);
      if (!h) {
        byTree.set(tree, (h = { tree, first, singles: [], names: [] }));
        made.push(h);
      } else if (first < h.first) h.first = first;
      return h;
    };
    for (const ta of pa.trustedSingles)
      if (ta.under && !ta.trusted.parentOf && matters(ta)) holds(ta.under, ta.trusted.path).singles.push(ta);
    for (const n of pa.trustedNames) if (n.decided?.under && matters(n.decided)) holds(n.decided.under, firstPath(n)).names.push(n);
    // In the order of the paths they hold, as one list of every path by path gave them.
    for (const h of made.sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : 0))) {
      const tree = h.tree;
      const decisions = [...h.singles, ...h.names.map((n) => n.decided!)];
      const platforms = PLATFORMS.filter((p) => decisions.some((ta) => ta.state[p] === 'read-only' || ta.state[p] === 'creatable'));
      const existing = h.singles
        .filter((ta) => ta.trusted.facts.existence === 'exists' && PLATFORMS.some((p) => ta.state[p] === 'read-only'))
        .map(named);
      // Said where one exists; the names a tree's root may hold, not there yet, are said with them (and in explain's rows).
      if (existing.length)
        ctx.report('readOnly', { span: tree.span, platforms }, { tree: shown(tree), existing, absent: pathsOf(h, 'absent') });
      const unknown = pathsOf(h, 'unknown');
      if (unknown.length) ctx.report('unknown', { span: tree.span, platforms }, { tree: shown(tree), paths: unknown });
    }
  },
  anyGrant(g, ga, pa, ctx) {
    // A grant that names one (or a path inside it): one warning, naming the outermost, where it writes.
    const ta = liftedBy(pa).get(g);
    if (ta) {
      const platforms = PLATFORMS.filter((p: Platform) => ga.applies[p] && writes(ga.effective[p]));
      if (platforms.length)
        ctx.report(
          'lifted',
          { span: g.span, platforms },
          { path: shown(g), trusted: named(ta), inside: g.path !== ta.trusted.path, why: ta.trusted.why },
        );
    }
    // Where the search did not finish: once, at the write tree it walked (nested trees are walked with it).
    if (!g.path || g.scope !== 'tree' || (g.access !== 'write' && g.access !== 'read-write')) return;
    const search = unsearchedTree(ctx.ir.hostTrusted, g.path);
    if (!search) return;
    const platforms = PLATFORMS.filter((p) => ga.applies[p]);
    if (platforms.length) ctx.report('unsearched', { span: g.span, platforms }, { tree: shown(g), search });
  },
});

/** What a write tree holds: host-trusted paths one by one, and the absent names of trees at or inside it (the first path of all, for the order). */
interface TreeHolds {
  readonly tree: Grant;
  first: string;
  readonly singles: TrustedAccess[];
  readonly names: TrustedNamesAccess[];
}

const matters = (ta: TrustedAccess): boolean => PLATFORMS.some((p) => ta.state[p] === 'read-only' || ta.state[p] === 'creatable');

/** The first of a tree's shared names by path: the first name (one root before each), no path made for the others. */
function firstPath(n: TrustedNamesAccess): string {
  const shared = n.shared;
  let first = shared[0]!;
  for (let i = 1; i < shared.length; i++) if (shared[i]! < first) first = shared[i]!;
  return n.names.pathOf(first);
}

/** The paths a tree holds that are absent (or unknown), by path: made only where a message lists them. */
function pathsOf(h: TreeHolds, existence: 'absent' | 'unknown'): string[] {
  const out = h.singles.filter((ta) => ta.trusted.facts.existence === existence).map((ta) => ta.trusted.path);
  for (const n of h.names) if (n.names.facts.existence === existence) for (const name of n.shared) out.push(n.names.pathOf(name));
  return h.names.length ? out.sort() : out;
}

const atHome = (path: string, home: string): string =>
  path === home ? '~' : path.startsWith(home + '/') ? `~${path.slice(home.length)}` : path;

/**
 * sandbox-runtime and Claude Code settings: the host-trusted paths the
 * command may write (the model's cells: srt keeps only its mandatory denies
 * read-only), said at the authored write grant that reaches them: one that
 * names one (or a path inside it) is `lifted`, as in a Box config; the
 * others are listed once per grant.
 */
function runtimeWritable(pa: PrincipalAccess, ctx: Parameters<NonNullable<typeof hostTrustedPath.principal>>[1]): void {
  const grants = pa.grants.map((ga) => ga.grant).filter((g) => !g.implicit && g.path && g.access === 'read-write');
  const inside = new Map<Grant, HostTrustedPath[]>();
  const platformsOf = new Map<Grant, Set<Platform>>();
  // A tree's absent names are neither named by a write grant nor said where they do not exist: the singles are all there is to say.
  for (const t of ctx.ir.hostTrusted.singles) {
    if (t.parentOf) continue;
    // A grant at or inside it names it (what it makes writable is the grant's path); else the deepest grant above it holds it.
    const naming = grants.find((g) => g.path === t.path || g.path!.startsWith(t.path + '/'));
    // sandbox-runtime's own sandboxes, the platforms its message is declared for: srt keeps only its mandatory denies read-only there.
    const platforms = hostTrustedPath.messages.writableInside.platforms.filter((p) => writes(pa.effectiveAt(naming?.path ?? t.path, p)));
    if (!platforms.length) continue;
    if (naming) {
      ctx.report(
        'lifted',
        { span: naming.span, platforms },
        { path: shown(naming), trusted: `${atHome(t.path, ctx.ir.home)} (${t.label})`, inside: naming.path !== t.path, why: t.why },
      );
      continue;
    }
    // Held in a tree: said where it exists (a name a tree's root may hold, not there yet, would be said at every tree).
    if (t.facts.existence !== 'exists') continue;
    const holder = grants
      .filter((g) => t.path.startsWith(g.path === '/' ? '/' : g.path + '/'))
      .sort((a, b) => b.path!.length - a.path!.length)[0];
    if (!holder) continue;
    inside.set(holder, [...(inside.get(holder) ?? []), t]);
    const set = platformsOf.get(holder) ?? new Set<Platform>();
    for (const p of platforms) set.add(p);
    platformsOf.set(holder, set);
  }
  for (const [g, ts] of inside)
    ctx.report(
      'writableInside',
      { span: g.span, platforms: [...platformsOf.get(g)!].sort() },
      { tree: shown(g), paths: ts.map((t) => `${atHome(t.path, ctx.ir.home)} (${t.label})`), tool: tool(ctx.ir) },
    );
}

/** The authored grants of a principal that name a host-trusted path or one inside it, each with the outermost it names; once a principal. */
function liftedBy(pa: PrincipalAccess): ReadonlyMap<Grant, TrustedAccess> {
  let lifted = liftedOf.get(pa);
  if (lifted) return lifted;
  lifted = new Map();
  // A tree's shared names lift nothing (no write grant lies at or inside one): the singles hold every lift.
  for (const ta of pa.trustedSingles) for (const g of ta.lifts) if (!g.implicit && !lifted.has(g)) lifted.set(g, ta);
  liftedOf.set(pa, lifted);
  return lifted;
}
const liftedOf = new WeakMap<PrincipalAccess, Map<Grant, TrustedAccess>>();

/** The unfinished search of a tree, by its path (a lookup per write grant, not a scan of every unfinished tree). */
function unsearchedTree(search: TrustedSearch, tree: string): UnsearchedTree | undefined {
  let byTree = unsearchedOf.get(search);
  if (!byTree) {
    byTree = new Map();
    // The first of a path, as find gave it.
    for (const u of search.unsearched) if (!byTree.has(u.tree)) byTree.set(u.tree, u);
    unsearchedOf.set(search, byTree);
  }
  return byTree.get(tree);
}
const unsearchedOf = new WeakMap<TrustedSearch, Map<string, UnsearchedTree>>();
