/**
 * The Linux plan of one principal (targets/linux/model/plan.ts: its mounts, the
 * covers of its denies, its pinned ancestors, its links, and the grants
 * that became no mount) spelled as bubblewrap operations, then as an argv
 * where every argument carries the config line it came from.
 *
 * Nothing is decided here: the plan says what is mounted and how, this
 * file says it in bubblewrap's words (`--ro-bind`, `--bind`, `--perms 0444
 * --ro-bind-data FD`, `--tmpfs D --remount-ro D`), numbers the descriptors,
 * words the origins, and has the notes worded by the rules that explain
 * their facts.
 */
import type { Grant, Principal } from '../../compiler/ir/types.js';
import type { Span } from '../../compiler/span.js';
import { tomlString } from '../../compiler/toml/write.js';
import type { PrincipalAccess } from '../../model/index.js';
import { linuxPlan, type LinuxPlan, type LinuxPlanOptions, type PlanMount, type PlanNote, type PlanSource } from './model/plan.js';
import { explanation } from '../../rules/index.js';
import { SANDBOX_EXEC_PATH } from './launcher/index.js';

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
  /** A host-global /proc entry made read-only (targets/linux/model/proc-readonly.json), where the kernel has it. */
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
  /** The plan this view spells (targets/linux/model/plan.ts). */
  readonly plan: LinuxPlan;
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

export type LowerOptions = LinuxPlanOptions;

/** The origin of an authored entry: its line and the entry as TOML (`read = "~/project"`). */
export function grantOrigin(g: Pick<Grant, 'span' | 'written' | 'list' | 'implicit'>): Origin {
  if (g.implicit) return `implicit: ${g.implicit.reason}`;
  return entryOrigin(g.span, g.list, g.written);
}

export function entryOrigin(span: Span, key: string, written: string): Origin {
  return { line: span.start.line, entry: `${key} = ${tomlString(written)}` };
}

export { compareMounts as compareOps, depth, PROC_READONLY } from './model/plan.js';

/** Spells a plan entry's source as the origin its arguments carry. */
export function originOf(s: PlanSource): Origin {
  switch (s.kind) {
    case 'baseline':
      return 'baseline';
    case 'grant':
      return grantOrigin(s.grant);
    case 'gateway':
      return 'implicit: --gateway-socket (the host product gateway)';
    case 'host-trusted':
      return trustedOrigin(s.under, s.path);
    case 'pin':
      return pinOrigin(originOf(s.of), s.path, s.of.kind === 'grant' ? 'the denied' : 'the host-trusted');
    case 'workspace':
      return entryOrigin(s.workspace.span, 'workspace', s.workspace.written);
    case 'merged-usr':
      return `implicit: merged-/usr link ${s.link} -> ${s.target} (its target is in the view)`;
  }
}

/** The plan's mount, spelled: its origin, and for an empty file the descriptor it reads. */
function spellMount(m: PlanMount, fd: () => number): MountOp {
  const origin = originOf(m.source);
  switch (m.kind) {
    case 'bind':
      return { kind: 'bind', path: m.path, write: m.write, origin };
    case 'symlink':
      return { kind: 'symlink', path: m.path, target: m.target, origin };
    case 'empty-file':
      return { kind: 'empty-file', path: m.path, fd: fd(), origin };
    default:
      return { kind: m.kind, path: m.path, origin };
  }
}

/**
 * Spells one principal's Linux plan (targets/linux/model/plan.ts: every decision
 * of the sandbox) as a bubblewrap view: its argv, each argument with its
 * origin, and the notes worded by the rules that explain their facts. Pure.
 */
export function lowerPrincipal(pa: PrincipalAccess, options: LowerOptions = {}): LinuxView {
  return spellPlan(linuxPlan(pa, options));
}

export function spellPlan(plan: LinuxPlan): LinuxView {
  const p = plan.principal;
  // Empty files read their descriptors in mount order, from FIRST_EMPTY_FD.
  const emptyFds: { fd: number; path: string }[] = [];
  const ops = plan.mounts.map((m) =>
    spellMount(m, () => {
      const fd = FIRST_EMPTY_FD + emptyFds.length;
      emptyFds.push({ fd, path: m.path });
      return fd;
    }),
  );
  const notes: Note[] = plan.notes.map((n) => ({ origin: originOf(n.source), path: n.path, text: noteText(n) }));
  const chdir = plan.chdir ? { path: plan.chdir.path, origin: originOf(plan.chdir.source) } : undefined;
  const net = plan.shareNet;
  const shareNet: Origin | undefined = net
    ? { line: net.span.start.line, entry: net.how === 'contain_egress' ? 'contain_egress = false' : `[tools.${p.name}.network]` }
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
  if (plan.tmpdir) push(originOf(plan.tmpdir.source), '--setenv', 'TMPDIR', plan.tmpdir.path);
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
  push(
    'implicit: the in-sandbox step (boxwright-sandbox: Landlock, descriptors closed, then the command)',
    '--perms',
    '0555',
    '--ro-bind-data',
    String(EXEC_FD),
    SANDBOX_EXEC_PATH,
  );
  // The sandbox's own root (a tmpfs holding the mount points) becomes
  // read-only last: a write outside the write grants fails instead of
  // landing in a scratch file system that vanishes with the sandbox.
  push('baseline', '--remount-ro', '/');
  if (chdir) push(chdir.origin, '--chdir', chdir.path);
  push('seccomp', '--seccomp', String(SECCOMP_FD));

  return {
    principal: p,
    plan,
    ops,
    ...(chdir ? { chdir } : {}),
    ...(shareNet ? { shareNet } : {}),
    ...(plan.gatewaySocket ? { gatewaySocket: plan.gatewaySocket } : {}),
    emptyFds,
    notes,
    argv,
  };
}

/** A note in the words of the rule that explains its fact; a refusal names that rule (its diagnostic is the refusal). */
function noteText(n: PlanNote): string {
  if (!('refused' in n)) return explanation(n.fact).text;
  const e = explanation(n.refused);
  return `refused (${e.ruleId}): ${e.text}; no mount`;
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
  for (const a of argv)
    if (a.arg.includes('\u0000'))
      throw new Error(`an argument holds a NUL character and cannot be passed to bubblewrap: ${JSON.stringify(a.arg)}`);
  return Buffer.from(argv.map((a) => a.arg + '\u0000').join(''), 'utf8');
}

/** The inverse of argsFile, for tests and for reading an artifact back. */
export function parseArgsFile(bytes: Uint8Array): string[] {
  const text = Buffer.from(bytes).toString('utf8');
  if (text === '') return [];
  if (!text.endsWith('\u0000')) throw new Error('a .bwrap.args file ends with a NUL');
  return text.slice(0, -1).split('\u0000');
}
