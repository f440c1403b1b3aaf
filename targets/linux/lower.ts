/**
 * The Linux mount view of one principal: its effective access (the one
 * model, model/) lowered to bubblewrap operations, then to an argv
 * where every argument carries the config line it came from.
 *
 * Nothing here recomputes access from the IR: a grant is mounted when, and
 * as, the model's Linux cell at its path says (`r` → `--ro-bind`, `rw` →
 * `--bind`, `empty` → covered by a deny, `refused` → nothing). The IR is
 * read only for what the model does not hold: spellings and lines for the
 * origins, the workspace, and the principal's direct network exception.
 */
import type { Grant, Principal } from '../../compiler/ir/types.js';
import { isStrictlyUnder, isUnder as isUnderOrAt } from '../../compiler/paths/index.js';
import type { Span } from '../../compiler/span.js';
import { tomlString } from '../../compiler/toml/write.js';
import type { GrantAccess, PrincipalAccess } from '../../model/index.js';
import { explanation } from '../../rules/index.js';
import { SANDBOX_EXEC_PATH } from './launcher/index.js';
import mergedUsr from '../../compiler/paths/merged-usr.json' with { type: 'json' };
import procReadonly from './proc-readonly.json' with { type: 'json' };

/** Where an argument comes from: a config entry, or one of boxwright's own reasons. */
export type Origin = { readonly line: number; readonly entry: string } | 'baseline' | 'seccomp' | `implicit: ${string}`;

export interface Arg {
  readonly arg: string;
  readonly origin: Origin;
}

/** File descriptors the argv refers to; the launcher (or a shell) must supply them. */
export const ARGS_FD = 3;
export const SECCOMP_FD = 4;
/** boxwright-sandbox, the in-sandbox step bubblewrap executes (launcher/: Landlock or none, descriptors closed, exec). */
export const EXEC_FD = 5;
export const FIRST_EMPTY_FD = 6;

export { SANDBOX_EXEC_PATH };

/** One step of the view, in the order bubblewrap performs them. */
export type MountOp =
  | { readonly kind: 'proc' | 'dev'; readonly path: string; readonly origin: Origin }
  /** A host-global /proc entry made read-only (proc-readonly.json), where the kernel has it. */
  | { readonly kind: 'proc-readonly'; readonly path: string; readonly origin: Origin }
  | { readonly kind: 'bind'; readonly path: string; readonly write: boolean; readonly origin: Origin }
  /** A private, writable tmpfs: TYBA's temp directory on Linux, never the host's /tmp. */
  | { readonly kind: 'tmpfs'; readonly path: string; readonly origin: Origin }
  /** A denied file: an empty read-only file from `fd` (reads succeed empty, writes fail). */
  | { readonly kind: 'empty-file'; readonly path: string; readonly fd: number; readonly origin: Origin }
  /** A denied directory: an empty tmpfs, remounted read-only. */
  | { readonly kind: 'empty-dir'; readonly path: string; readonly origin: Origin }
  | { readonly kind: 'symlink'; readonly path: string; readonly target: string; readonly origin: Origin }
  | { readonly kind: 'dir'; readonly path: string; readonly origin: Origin };

/** A grant that became no mount, and why: for reviewers (bwrap.json `notes`). */
export interface Note {
  readonly origin: Origin;
  readonly path: string;
  readonly text: string;
}

export interface LinuxView {
  readonly principal: Principal;
  /** Mount operations, parents before children (depth, then path). */
  readonly ops: readonly MountOp[];
  readonly chdir?: { readonly path: string; readonly origin: Origin };
  readonly shareNet?: Origin;
  /** The gateway socket bound in (`--gateway-socket`), for a principal without direct network. */
  readonly gatewaySocket?: string;
  /** `fd → denied path`, for each `--ro-bind-data FD`: the fd must read as empty. */
  readonly emptyFds: readonly { readonly fd: number; readonly path: string }[];
  readonly notes: readonly Note[];
  /** The whole argv for `bwrap --args FD` (no command). */
  readonly argv: readonly Arg[];
}

export interface LowerOptions {
  /** `--gateway-socket PATH`: the host product's gateway socket, bound in for principals without direct network. */
  readonly gatewaySocket?: string;
  /** TYBA: the session worktree, entered with `--chdir`. */
  readonly worktree?: string;
}

const LINKS: readonly { readonly link: string; readonly target: string }[] = mergedUsr.links;

/** The origin of an authored entry: its line and the entry as TOML (`read = "~/project"`). */
export function grantOrigin(g: Pick<Grant, 'span' | 'written' | 'list' | 'implicit'>): Origin {
  if (g.implicit) return `implicit: ${g.implicit.reason}`;
  return entryOrigin(g.span, g.list, g.written);
}

export function entryOrigin(span: Span, key: string, written: string): Origin {
  return { line: span.start.line, entry: `${key} = ${tomlString(written)}` };
}


export const depth = (p: string): number => (p === '/' ? 0 : p.split('/').length - 1);
const isUnder = isStrictlyUnder;
const underOrAt = isUnderOrAt;

const kindRank: Record<MountOp['kind'], number> = { proc: 0, dev: 0, 'proc-readonly': 1, bind: 1, tmpfs: 1, dir: 2, 'empty-file': 3, 'empty-dir': 3, symlink: 4 };

/** Host-global /proc entries, read-only inside: see proc-readonly.json for each one's reason. */
export const PROC_READONLY: readonly string[] = Object.keys(procReadonly.paths);

/** Parents before children: by depth, then path (UTF-16 order, as every target sorts), then kind. */
export function compareOps(a: MountOp, b: MountOp): number {
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

/** Lowers one principal's effective Linux access to a bubblewrap view. Pure. */
export function lowerPrincipal(pa: PrincipalAccess, options: LowerOptions = {}): LinuxView {
  const p = pa.principal;
  const notes: Note[] = [];
  const binds = new Map<string, { write: boolean; origin: Origin }>();
  const tmpfs = new Map<string, Origin>();
  const denies: GrantAccess[] = [];

  for (const ga of pa.grants) {
    const g = ga.grant;
    if (!g.path || !ga.applies.linux) continue;
    const cell = ga.effective.linux;
    const origin = grantOrigin(g);
    if (g.access === 'deny') {
      if (cell.kind === 'empty') denies.push(ga);
      else notes.push({ origin, path: g.path, text: cell.kind === 'refused' ? `refused (${explanation(cell.because).ruleId}): no mount` : 'not in the view' });
      continue;
    }
    if (!contentAccess.has(g.access)) {
      notes.push({ origin, path: g.path, text: g.access === 'metadata' ? 'Linux supplies no metadata-only tree: no mount' : `no Linux lowering for \`${g.list}\`: no mount` });
      continue;
    }
    if (cell.kind === 'refused') {
      notes.push({ origin, path: g.path, text: `refused (${explanation(cell.because).ruleId}): no mount` });
      continue;
    }
    // A content grant is empty or absent only under a deny: at the denied
    // path (its cover), or below it (inside its cover, or with no mount above).
    if (cell.kind === 'empty' || cell.kind === 'absent') {
      notes.push({ origin, path: g.path, text: cell.kind === 'empty' ? 'under a deny: covered, not mounted' : 'under a deny: not in the view, not mounted' });
      continue;
    }
    if (cell.kind !== 'access' || !cell.read) {
      notes.push({ origin, path: g.path, text: 'no content access on Linux: no mount' });
      continue;
    }
    if (g.implicit?.privateTmpfs) {
      tmpfs.set(g.path, origin);
      continue;
    }
    if (underOrAt(g.path, '/proc')) {
      notes.push({ origin, path: g.path, text: "served by the sandbox's own /proc (--proc /proc), never the host's" });
      continue;
    }
    // One mount per path; a writable mount wins, with the grant that makes it writable as its origin.
    const prev = binds.get(g.path);
    if (!prev || (cell.write && !prev.write)) binds.set(g.path, { write: cell.write, origin });
  }

  const gateway = options.gatewaySocket && !p.directNetwork ? options.gatewaySocket : undefined;
  if (gateway && !binds.has(gateway)) binds.set(gateway, { write: false, origin: 'implicit: --gateway-socket (the host product gateway)' });

  // A host-trusted path inside a write tree (an existing .git, .bashrc,
  // ~/.local/bin) is bound read-only over itself: not written, and, a mount
  // point of its own, not renamed or removed (EBUSY); its ancestors whose
  // parent is writable are pinned the same way, so that it cannot be moved
  // away and replaced. Before the denies' pins: a deny inside it must not
  // make it a writable mount.
  for (const ta of pa.hostTrusted) {
    if (ta.state.linux !== 'read-only') continue;
    const path = ta.trusted.path;
    const origin = trustedOrigin(ta.under, path);
    if (!binds.has(path)) binds.set(path, { write: false, origin });
    for (const a of ta.pinnedAncestors?.linux ?? []) if (!binds.has(a) && !tmpfs.has(a)) binds.set(a, { write: true, origin: pinOrigin(origin, path, 'the host-trusted') });
  }

  // The ancestors of each covered deny inside a write tree become mount
  // points of their own (bound onto themselves): a mount point cannot be
  // renamed or removed (EBUSY), so `mv a a2` cannot carry the denied path
  // out from under its cover, in this run or for the next one.
  for (const ga of denies) {
    for (const a of ga.pinnedAncestors?.linux ?? []) if (!binds.has(a) && !tmpfs.has(a)) binds.set(a, { write: true, origin: pinOrigin(grantOrigin(ga.grant), ga.grant.path!) });
  }

  const ops: MountOp[] = [
    { kind: 'proc', path: '/proc', origin: 'baseline' },
    ...PROC_READONLY.map((path): MountOp => ({ kind: 'proc-readonly', path, origin: 'baseline' })),
    { kind: 'dev', path: '/dev', origin: 'baseline' },
  ];
  for (const [path, b] of binds) ops.push({ kind: 'bind', path, write: b.write, origin: b.origin });
  for (const [path, origin] of tmpfs) ops.push({ kind: 'tmpfs', path, origin });
  const shown = (path: string): boolean => hasAncestorIn(binds, path) || hasAncestorIn(tmpfs, path);

  // Denied paths: covered only where a mount would show them. A deny no mount
  // reaches is simply absent, and one below another deny is hidden by it.
  const emitted = new Set<string>();
  const emptyFds: { fd: number; path: string }[] = [];
  const sortedDenies = [...denies].sort((a, b) => depth(a.grant.path!) - depth(b.grant.path!) || (a.grant.path! < b.grant.path! ? -1 : 1));
  for (const ga of sortedDenies) {
    const g = ga.grant;
    const path = g.path!;
    const origin = grantOrigin(g);
    if (emitted.has(path) || hasAncestorIn(emitted, path)) {
      notes.push({ origin, path, text: 'inside a denied directory: already hidden' });
      continue;
    }
    if (!shown(path)) {
      notes.push({ origin, path, text: 'no mount shows it: absent from the view' });
      continue;
    }
    emitted.add(path);
    // The model decides the cover (its empty-cover fact), and explain says the same.
    const cover = ga.notes.linux;
    if (cover?.kind !== 'empty-cover') throw new Error(`the model covers ${path} without saying how`);
    if (cover.of === 'file') {
      const fd = FIRST_EMPTY_FD + emptyFds.length;
      emptyFds.push({ fd, path });
      ops.push({ kind: 'empty-file', path, fd, origin });
    } else {
      ops.push({ kind: 'empty-dir', path, origin });
      // --fs none: the kind is unknown. A tmpfs on a file fails bubblewrap's
      // set-up, so a wrong guess fails closed rather than exposing the file.
      if (g.facts.kind !== 'dir') notes.push({ origin, path, text: 'kind unknown (no filesystem facts): covered as a directory; bubblewrap fails if it is a file' });
    }
  }

  // The workspace: entered with --chdir, created with --dir when no mount holds it.
  let chdir: LinuxView['chdir'];
  if (p.workspace?.path) {
    const origin = entryOrigin(p.workspace.span, 'workspace', p.workspace.written);
    const w = p.workspace.path;
    const held = (set: { has(p: string): boolean }): boolean => set.has(w) || hasAncestorIn(set, w);
    if (!held(binds) && !held(tmpfs) && !held(emitted)) ops.push({ kind: 'dir', path: w, origin });
    chdir = { path: w, origin };
  } else if (options.worktree && p.kind === 'agent') {
    const wt = pa.grants.find((ga) => ga.grant.implicit && ga.grant.path === options.worktree && ga.applies.linux);
    if (wt) chdir = { path: options.worktree, origin: grantOrigin(wt.grant) };
  }

  // The merged-/usr links, when their target is in the view and nothing else is at the link.
  for (const { link, target } of LINKS) {
    if (ops.some((o) => underOrAt(o.path, link))) continue; // something else is at the link
    if (hasAncestorIn(binds, link)) continue; // a mount already shows the host's own link
    const t = '/' + target;
    if (ops.some((o) => (o.kind === 'bind' && underOrAt(t, o.path)) || isUnder(o.path, t)))
      ops.push({ kind: 'symlink', path: link, target, origin: `implicit: merged-/usr link ${link} -> ${target} (its target is in the view)` });
  }

  ops.sort(compareOps);

  const shareNet: Origin | undefined = p.directNetwork
    ? { line: p.directNetwork.span.start.line, entry: p.directNetwork.how === 'contain_egress' ? 'contain_egress = false' : `[tools.${p.name}.network]` }
    : undefined;

  const argv: Arg[] = [];
  const push = (origin: Origin, ...args: string[]): void => {
    for (const arg of args) argv.push({ arg, origin });
  };
  push('baseline', '--unshare-all');
  if (shareNet) push(shareNet, '--share-net');
  push('baseline', '--cap-drop', 'ALL');
  push('baseline', '--die-with-parent');
  push('baseline', '--new-session');
  for (const [path, origin] of tmpfs) if (path === '/tmp') push(origin, '--setenv', 'TMPDIR', path);
  for (const op of ops) {
    switch (op.kind) {
      case 'proc':
        push(op.origin, '--proc', op.path);
        break;
      case 'proc-readonly':
        // The host's entry (the same kernel objects: sysctls answer for the
        // reader's namespaces), bound read-only; -try: where the kernel has it.
        push(op.origin, '--ro-bind-try', op.path, op.path);
        break;
      case 'tmpfs':
        push(op.origin, '--tmpfs', op.path);
        break;
      case 'dev':
        push(op.origin, '--dev', op.path);
        break;
      case 'bind':
        push(op.origin, op.write ? '--bind' : '--ro-bind', op.path, op.path);
        break;
      case 'empty-file':
        push(op.origin, '--perms', '0444', '--ro-bind-data', String(op.fd), op.path);
        break;
      case 'empty-dir':
        push(op.origin, '--tmpfs', op.path, '--remount-ro', op.path);
        break;
      case 'symlink':
        push(op.origin, '--symlink', op.target, op.path);
        break;
      case 'dir':
        push(op.origin, '--dir', op.path);
        break;
    }
  }
  // The in-sandbox step, read-only and executable, outside every grant:
  // bubblewrap runs it, it applies the Landlock rules (or none) and closes
  // what it was not told to keep, then execs the command. It runs before
  // Landlock, so no rule needs to name it, and the command cannot exec it.
  push('implicit: the in-sandbox step (boxwright-sandbox: Landlock, descriptors closed, then the command)', '--perms', '0555', '--ro-bind-data', String(EXEC_FD), SANDBOX_EXEC_PATH);
  // The sandbox's own root (a tmpfs holding the mount points) becomes
  // read-only last: a write outside the write grants fails instead of
  // landing in a scratch file system that vanishes with the sandbox.
  push('baseline', '--remount-ro', '/');
  if (chdir) push(chdir.origin, '--chdir', chdir.path);
  push('seccomp', '--seccomp', String(SECCOMP_FD));

  return { principal: p, ops, ...(chdir ? { chdir } : {}), ...(shareNet ? { shareNet } : {}), ...(gateway ? { gatewaySocket: gateway } : {}), emptyFds, notes, argv };
}

/** The origin of a pinned ancestor: the deny (or host-trusted path) that needs it, said so. */
function pinOrigin(o: Origin, path: string, what = 'the denied'): Origin {
  const why = `an ancestor of ${what} ${path}, pinned as a mount point: it cannot be renamed`;
  return typeof o === 'string' ? `implicit: ${why}` : { line: o.line, entry: `${o.entry} (${why})` };
}

/** The origin of a host-trusted path's read-only bind: the write tree it is carved out of, said so. */
function trustedOrigin(under: Grant | undefined, path: string): Origin {
  const why = `the host-trusted ${path}, bound read-only inside it (host-trusted-path)`;
  const o = under ? grantOrigin(under) : 'baseline';
  return typeof o === 'string' ? `implicit: ${why}` : { line: o.line, entry: `${o.entry} (${why})` };
}

/** The `.bwrap.args` bytes: each argument followed by a NUL, what `bwrap --args FD` reads. */
export function argsFile(argv: readonly Arg[]): Uint8Array {
  for (const a of argv) if (a.arg.includes('\u0000')) throw new Error(`an argument holds a NUL character and cannot be passed to bubblewrap: ${JSON.stringify(a.arg)}`);
  return Buffer.from(argv.map((a) => a.arg + '\u0000').join(''), 'utf8');
}

/** The inverse of argsFile, for tests and for reading an artifact back. */
export function parseArgsFile(bytes: Uint8Array): string[] {
  const text = Buffer.from(bytes).toString('utf8');
  if (text === '') return [];
  if (!text.endsWith('\u0000')) throw new Error('a .bwrap.args file ends with a NUL');
  return text.slice(0, -1).split('\u0000');
}
