/**
 * Questions about a principal's sandbox, answered from its plan's mounts
 * (targets/linux/model/plan.ts: the one reader of bubblewrap semantics here is the
 * plan, never the argv read back) and the host disk behind its binds: "does /usr/bin/python3 exist in the sandbox,
 * and what is it on the host?". The runner asks them before it starts
 * anything, so that a command missing from the view is a clear error rather
 * than bubblewrap's `execvp: No such file or directory`.
 *
 * The sandbox is itself a filesystem view (compiler/paths FsView) laid over
 * the command's host view: its mounts answer each path, a bind hands the
 * question to the host view (the same view, and cache, the rules used).
 * The walk through it, links followed, is compiler/paths' resolvePath: the
 * one walk, not a second one here.
 */
import { posix } from 'node:path';
// compiler/paths' modules, not its index (which loads the manifest reader and the schema's validators):
// the view is part of run's fast path (dist/cli/run-fast.cjs).
import { resolvePath } from '../../compiler/paths/inspect.js';
import { isStrictlyUnder, isUnder } from '../../compiler/paths/spelling.js';
import type { FsView, Lookup as ViewLookup } from '../../compiler/paths/view.js';
import type { LinuxPlan, PlanMount } from './model/plan.js';

/** A mount as the view needs it: the plan's, without its source (what the run cache keeps). */
export type ViewMount =
  | { readonly kind: Exclude<PlanMount['kind'], 'bind' | 'symlink'>; readonly path: string }
  | { readonly kind: 'bind'; readonly path: string; readonly write: boolean }
  | { readonly kind: 'symlink'; readonly path: string; readonly target: string };

/** What `run` asks of a sandbox before it starts: the plan's mounts, in bubblewrap's order, and where the command starts. */
export interface RunView {
  readonly mounts: readonly ViewMount[];
  readonly chdir?: string;
}

/** A plan's run view. */
export function runView(plan: LinuxPlan): RunView {
  const mounts = plan.mounts.map(
    (m): ViewMount =>
      m.kind === 'bind'
        ? { kind: m.kind, path: m.path, write: m.write }
        : m.kind === 'symlink'
          ? { kind: m.kind, path: m.path, target: m.target }
          : { kind: m.kind, path: m.path },
  );
  return { mounts, ...(plan.chdir ? { chdir: plan.chdir.path } : {}) };
}

const VIEW_KINDS: ReadonlySet<string> = new Set<PlanMount['kind']>([
  'proc',
  'dev',
  'proc-readonly',
  'bind',
  'tmpfs',
  'empty-file',
  'empty-dir',
  'symlink',
  'dir',
]);

/** The run cache's file of a principal's run view. */
export const runViewName = (stem: string): string => `${stem}.view.json`;

/** `<stem>.view.json`, the run view the run cache keeps beside the argv for the fast path. */
export function runViewFile(view: RunView): string {
  return JSON.stringify(view) + '\n';
}

/** The inverse of runViewFile; throws on anything it did not write. */
export function parseRunView(text: string): RunView {
  const v = JSON.parse(text) as unknown;
  const ok = (m: unknown): m is ViewMount => {
    if (typeof m !== 'object' || m === null) return false;
    const o = m as Record<string, unknown>;
    if (typeof o['kind'] !== 'string' || !VIEW_KINDS.has(o['kind']) || typeof o['path'] !== 'string') return false;
    return o['kind'] === 'bind' ? typeof o['write'] === 'boolean' : o['kind'] === 'symlink' ? typeof o['target'] === 'string' : true;
  };
  if (typeof v !== 'object' || v === null) throw new Error('a run view is an object');
  const { mounts, chdir } = v as Record<string, unknown>;
  if (!Array.isArray(mounts) || !mounts.every(ok)) throw new Error('a run view holds its mounts');
  if (chdir !== undefined && typeof chdir !== 'string') throw new Error("a run view's chdir is a path");
  return { mounts, ...(chdir !== undefined ? { chdir } : {}) };
}

export type Lookup =
  | { readonly found: true; readonly hostPath: string; readonly sandboxPath: string }
  | { readonly found: false; readonly reason: string };

type Node =
  | { readonly kind: 'dir' }
  | { readonly kind: 'file' }
  | { readonly kind: 'link'; readonly target: string }
  | { readonly kind: 'absent'; readonly why: string }
  | { readonly kind: 'blocked'; readonly why: string };

/** What is at one sandbox path, without following a final link; inside a bind, what the host view says. */
function nodeAt(ops: readonly ViewMount[], host: FsView, path: string): Node {
  let governing: ViewMount | undefined;
  for (const op of ops) if (isUnder(path, op.path)) governing = op; // sorted: the last is the deepest, or the later at one path
  if (!governing) return ops.some((o) => isStrictlyUnder(o.path, path)) ? { kind: 'dir' } : { kind: 'absent', why: 'not in the view' };
  const exact = governing.path === path;
  switch (governing.kind) {
    case 'bind':
      return hostNode(ops, host, path);
    case 'symlink':
      return exact ? { kind: 'link', target: governing.target } : { kind: 'absent', why: 'not in the view' };
    case 'empty-file':
      return { kind: 'blocked', why: `${governing.path} is denied: an empty read-only file covers it` };
    case 'empty-dir':
      return exact ? { kind: 'dir' } : { kind: 'blocked', why: `${governing.path} is denied: an empty directory covers it` };
    case 'dir':
      return exact || ops.some((o) => isStrictlyUnder(o.path, path))
        ? { kind: 'dir' }
        : { kind: 'absent', why: `${governing.path} is an empty directory in the view` };
    case 'tmpfs':
      return exact || ops.some((o) => isStrictlyUnder(o.path, path))
        ? { kind: 'dir' }
        : { kind: 'absent', why: `${governing.path} is a private tmpfs, empty when the command starts` };
    case 'proc-readonly':
    case 'proc':
    case 'dev':
      return { kind: 'blocked', why: `${governing.path} is the sandbox's own ${governing.path}` };
  }
}

/** Inside a bind, what the host view says; binds mount each path onto itself, so the sandbox path is the host path. */
function hostNode(ops: readonly ViewMount[], host: FsView, path: string): Node {
  const found = host.lookup(path);
  switch (found.kind) {
    case 'symlink':
      return { kind: 'link', target: found.target };
    case 'dir':
      return { kind: 'dir' };
    case 'file':
    case 'other':
      return { kind: 'file' };
    case 'absent':
    case 'unknown':
      return ops.some((o) => isStrictlyUnder(o.path, path))
        ? { kind: 'dir' }
        : { kind: 'absent', why: `${path} does not exist on this machine` };
  }
}

/** The sandbox as a filesystem view; its nodes are kept, so the reasons after a walk cost no second look. */
function sandboxView(ops: readonly ViewMount[], host: FsView): FsView & { node(path: string): Node } {
  const nodes = new Map<string, Node>();
  const node = (path: string): Node => {
    let n = nodes.get(path);
    if (!n) nodes.set(path, (n = nodeAt(ops, host, path)));
    return n;
  };
  const asLookup = (n: Node): ViewLookup =>
    n.kind === 'link'
      ? { kind: 'symlink', target: n.target }
      : n.kind === 'absent'
        ? { kind: 'absent' }
        : n.kind === 'blocked'
          ? { kind: 'other' }
          : { kind: n.kind };
  return {
    description: `a sandbox over ${host.description}`,
    knowsFacts: true,
    home: host.home,
    lookup: (path) => asLookup(node(path)),
    executable: (path) => host.executable(path),
    // The command lookup asks no socket question; the host's answer holds for the paths the view shows.
    sockets: () => host.sockets(),
    landlockAbi: () => host.landlockAbi(),
    // The command lookup lists no directory and reads no file.
    children: () => 'unknown',
    text: () => null,
    // Inside a bind the file is the host's; the command lookup asks none of these.
    program: (path) => host.program(path),
    cachedLibrary: (soname) => host.cachedLibrary(soname),
    commandPath: () => host.commandPath(),
    node,
  };
}

/**
 * Resolves a sandbox path through the view's links (and the host's, inside
 * binds, as `host` sees them) to a host file.
 */
export function lookupFile(ops: readonly ViewMount[], path: string, host: FsView): Lookup {
  return lookupIn(sandboxView(ops, host), path);
}

function lookupIn(sandbox: ReturnType<typeof sandboxView>, path: string): Lookup {
  const r = resolvePath(sandbox, path);
  const n = sandbox.node(r.at);
  switch (r.stop) {
    case 'too-many-links':
      return { found: false, reason: `${path}: too many levels of symbolic links` };
    case 'absent':
    case 'unknown':
      return { found: false, reason: `${path}: ${'why' in n ? n.why : 'not in the view'}` };
    case 'not-a-directory':
      return { found: false, reason: n.kind === 'blocked' ? `${path}: ${n.why}` : `${path}: ${r.at} is not a directory` };
    case undefined:
      if (n.kind === 'blocked') return { found: false, reason: `${path}: ${n.why}` };
      if (r.facts.kind === 'dir') return { found: false, reason: `${path} is a directory` };
      return { found: true, hostPath: r.at, sandboxPath: r.at };
  }
  return { found: false, reason: `${path}: not in the view` };
}

/**
 * Finds a command as execvp inside the sandbox would: a name with a `/` is a
 * path (relative to `cwd`), any other name is looked up along PATH; what it
 * finds must be executable, as `host` says.
 */
export function findCommand(
  ops: readonly ViewMount[],
  command: string,
  env: { PATH?: string | undefined },
  cwd: string,
  host: FsView,
): Lookup {
  if (command === '') return { found: false, reason: 'the command name is empty' };
  const sandbox = sandboxView(ops, host);
  const executable = (r: Lookup): boolean => r.found && sandbox.executable(r.hostPath) === 'yes';
  if (command.includes('/')) {
    const abs = posix.resolve(cwd, command);
    const r = lookupIn(sandbox, abs);
    if (r.found && !executable(r)) return { found: false, reason: `${command} is not an executable file` };
    return r;
  }
  const dirs = (env.PATH ?? '/bin:/usr/bin').split(':');
  const reasons: string[] = [];
  for (const dir of dirs) {
    const abs = posix.resolve(cwd, dir || '.', command);
    const r = lookupIn(sandbox, abs);
    if (executable(r)) return r;
    if (r.found) reasons.push(`${abs}: not executable`);
  }
  return {
    found: false,
    reason: `${command} is not on PATH inside the sandbox (${dirs.filter(Boolean).join(':')})${reasons.length ? `; ${reasons.join('; ')}` : ''}`,
  };
}
