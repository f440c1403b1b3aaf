import { PLATFORMS } from '../diagnostic.js';
import { execNeeds, type ExecNeeds } from '../paths/exec-needs.js';
import {
  expandHome,
  expandTilde,
  findHostTrusted,
  inspectPath,
  knownReadableLocations,
  linkedWorktree,
  type FsView,
  type HostTrustedInput,
  type PathFacts,
} from '../paths/index.js';
import type { Span } from '../span.js';
import type { Dialect } from '../schema/validate.js';
import type { TomlTable, TomlValue } from '../toml/ast.js';
import type {
  Access,
  CredentialFact,
  Grant,
  LinuxFacts,
  ListName,
  Location,
  PolicyIR,
  Principal,
  PrincipalKind,
  TrustedFile,
  SandboxHolds,
  TybaSession,
  WrittenTable,
} from './types.js';
import loaderData from '../paths/loaders.json' with { type: 'json' };
import { implicit, privateTempGrants, tybaTempGrants } from './implicit.js';

export interface BuildOptions {
  readonly file: string;
  readonly dialect: Dialect;
  readonly view: FsView;
  /** TYBA session facts; defaults are the design's. */
  readonly worktree: string;
  readonly tybaDataDir?: string;
  readonly agentDirs?: readonly string[];
  /** Confine a Box config's execution on Linux with Landlock (true), or with mounts alone (false, `--landlock off`). */
  readonly landlock?: boolean;
  /** boxwright's own files the command trusts after a run (the app layer knows them). */
  readonly trustedFiles?: readonly TrustedFile[];
  /** boxwright's own inputs and outputs for this command (the config, a manifest, an output directory, the run cache): host-trusted paths. */
  readonly hostTrusted?: readonly HostTrustedInput[];
}

const listShapes: Record<
  Exclude<
    ListName,
    'denyRead' | 'allowRead' | 'allowWrite' | 'denyWrite' | 'permissions.allow' | 'permissions.deny' | 'writable_roots' | 'filesystem'
  >,
  { access: Access; scope: 'tree' | 'file' }
> = {
  read: { access: 'read', scope: 'tree' },
  write: { access: 'write', scope: 'tree' },
  read_file: { access: 'read', scope: 'file' },
  write_file: { access: 'write', scope: 'file' },
  list: { access: 'list', scope: 'tree' },
  deny: { access: 'deny', scope: 'tree' },
  metadata: { access: 'metadata', scope: 'tree' },
  exec: { access: 'exec', scope: 'file' },
  read_allow: { access: 'read', scope: 'tree' },
};
const boxLists: readonly TomlList[] = ['read', 'write', 'read_file', 'write_file', 'list', 'deny', 'metadata', 'exec'];

function table(v: TomlValue | undefined): TomlTable | undefined {
  return v?.kind === 'table' ? v : undefined;
}

const unknownFacts: PathFacts = { existence: 'unknown' };

function pathFacts(written: string, view: FsView): Location & Pick<Grant, 'facts'> {
  const expanded = expandHome(written, view.home);
  if ('problem' in expanded) return { expandProblem: expanded.problem, facts: unknownFacts };
  return { path: expanded.path, facts: inspectPath(view, expanded.path) };
}

/** The lists of the TOML dialects. */
type TomlList = keyof typeof listShapes;

function grantsOf(fs: TomlTable | undefined, lists: readonly TomlList[], view: FsView): Grant[] {
  const grants: Grant[] = [];
  if (!fs) return grants;
  for (const list of lists) {
    const value = fs.entries.get(list)?.value;
    if (value?.kind !== 'array') continue;
    const { access, scope } = listShapes[list];
    for (const item of value.items) {
      if (item.kind !== 'string') continue;
      const written = item.value;
      const expanded = expandHome(written, view.home);
      if ('problem' in expanded) {
        grants.push({ list, access, scope, written, expandProblem: expanded.problem, facts: unknownFacts, span: item.span });
        continue;
      }
      const facts = inspectPath(view, expanded.path);
      // An exec grant of a directory: everything in it may run (a tree); of a file, what running it needs.
      const needs =
        list === 'exec' && facts.existence === 'exists' && facts.kind === 'file' && !facts.symlink
          ? needsOf(view, expanded.path)
          : undefined;
      grants.push({
        list,
        access,
        scope: list === 'exec' && facts.kind === 'dir' ? 'tree' : scope,
        written,
        path: expanded.path,
        facts,
        ...(needs ? { needs } : {}),
        span: item.span,
      });
    }
  }
  return grants;
}

/** Per view and program: a config may name one program in many grants. */
const needsMemo = new WeakMap<FsView, Map<string, ExecNeeds>>();
function needsOf(view: FsView, path: string): ExecNeeds {
  let memo = needsMemo.get(view);
  if (!memo) needsMemo.set(view, (memo = new Map()));
  let n = memo.get(path);
  if (!n) memo.set(path, (n = execNeeds(view, path)));
  return n;
}

function workspaceOf(fs: TomlTable | undefined, view: FsView): Principal['workspace'] {
  const value = fs?.entries.get('workspace')?.value;
  if (value?.kind !== 'string') return undefined;
  return { written: value.value, ...pathFacts(value.value, view), span: value.span };
}

/** A table as written, with the arrays of the lists it holds. */
function writtenTable(t: TomlTable, lists: readonly ListName[]): WrittenTable {
  const arrays: Partial<Record<ListName, Span>> = {};
  for (const list of lists) {
    const v = t.entries.get(list)?.value;
    if (v?.kind === 'array') arrays[list] = v.span;
  }
  return {
    origin: t.origin === 'header' ? 'header' : t.origin === 'inline' ? 'inline' : 'other',
    span: t.span,
    lists: arrays,
    empty: t.entries.size === 0,
  };
}

/** A tool's or server's `command` and `args`, as written: the argv `run` gives it when no command follows `--`. */
function launchOf(body: TomlTable): Principal['launch'] {
  const command = body.entries.get('command');
  const args = body.entries.get('args');
  if (!command) return args ? { problem: '`args` but no `command`', span: args.keySpan } : undefined;
  if (command.value.kind !== 'string') return { problem: '`command` is not a string', span: command.value.span };
  if (command.value.value === '') return { problem: '`command` is empty', span: command.value.span };
  if (args && (args.value.kind !== 'array' || args.value.items.some((i) => i.kind !== 'string')))
    return { problem: '`args` is not an array of strings', span: args.value.span };
  const rest = args?.value.kind === 'array' ? args.value.items.map((i) => (i.kind === 'string' ? i.value : '')) : [];
  return { argv: [command.value.value, ...rest], span: command.value.span };
}

function principal(kind: PrincipalKind, name: string, span: Span, body: TomlTable, view: FsView): Principal {
  const fsEntry = body.entries.get('filesystem');
  const fs = table(fsEntry?.value);
  const lists = kind === 'agent' ? boxLists : boxLists;
  const id = kind === 'agent' ? 'agent' : `${kind}.${name}`;
  // Only `true` asks for it: a missing key, `false` or a wrong type (the schema reports it) keeps the host's /tmp absent on Linux.
  const privateTmp = fs?.entries.get('private_tmp');
  const own = privateTmp?.value.kind === 'boolean' && privateTmp.value.value ? privateTempGrants(id, privateTmp.keySpan) : [];
  const base = { id, kind, name, span, grants: [...grantsOf(fs, lists, view), ...own] };
  const workspace = workspaceOf(fs, view);
  const network = body.entries.get('network');
  const networkTable = table(network?.value);
  const egress = body.entries.get('contain_egress');
  const launch = kind === 'agent' ? undefined : launchOf(body);
  return {
    ...base,
    ...(launch ? { launch } : {}),
    ...(own.length && privateTmp ? { privateTmp: { span: privateTmp.keySpan } } : {}),
    ...(workspace ? { workspace } : {}),
    ...(fs ? { written: writtenTable(fs, lists) } : {}),
    ...(kind === 'tool' && network
      ? {
          directNetwork: {
            span: network.keySpan,
            how: 'network-table' as const,
            ...(networkTable ? { table: writtenTable(networkTable, []) } : {}),
          },
        }
      : {}),
    ...(kind === 'mcp' && egress?.value.kind === 'boolean' && egress.value.value === false
      ? { directNetwork: { span: egress.value.span, how: 'contain_egress' as const } }
      : {}),
    ...(kind === 'agent' && network
      ? { networkTable: network.keySpan, ...(networkTable ? { networkTableWritten: writtenTable(networkTable, []) } : {}) }
      : {}),
  };
}

function boxPrincipals(doc: TomlTable, view: FsView): Principal[] {
  const out: Principal[] = [];
  const agent = doc.entries.get('agent');
  const agentTable = table(agent?.value);
  if (agent && agentTable) out.push(principal('agent', 'agent', agent.keySpan, agentTable, view));
  for (const [group, kind] of [
    ['tools', 'tool'],
    ['mcp_servers', 'mcp'],
  ] as const) {
    const t = table(doc.entries.get(group)?.value);
    if (!t) continue;
    const names = [...t.entries.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const e of names) {
      const body = table(e.value);
      if (body) out.push(principal(kind, e.key, e.keySpan, body, view));
    }
  }
  return out;
}

/** A session directory on the host (the worktree, an agent directory, the data directory): its facts as the view finds them. */
function sessionDir(access: Access, path: string, reason: string, view: FsView, span: Span): Grant {
  return implicit(access, path, reason, PLATFORMS, span, undefined, inspectPath(view, path));
}

/**
 * The TYBA session's own grants, each in its platform's canonical spelling,
 * marked implicit so that the path rules leave them alone.
 */
function tybaPrincipal(doc: TomlTable, view: FsView, session: TybaSession): Principal {
  const sandbox = doc.entries.get('sandbox');
  const span = sandbox?.keySpan ?? doc.span;
  const grants: Grant[] = [
    sessionDir('read-write', session.worktree, 'the session worktree (--worktree)', view, span),
    // Never the host's /tmp (its tmux, ssh-agent and X11 sockets would be a way out), nor its shared /private/tmp or %TEMP%.
    ...tybaTempGrants(span),
    ...session.agentDirs.map((d) => sessionDir('read-write', d, "the agent's own directory (--agent-dir)", view, span)),
    ...worktreeGitGrants(session, view, span),
    sessionDir('deny', session.dataDir, "TYBA's data directory (protected)", view, span),
    ...grantsOf(table(sandbox?.value), ['read_allow'], view),
  ];
  const sandboxTable = table(sandbox?.value);
  return {
    id: 'agent',
    kind: 'agent',
    name: 'agent',
    span,
    grants,
    ...(sandboxTable ? { written: writtenTable(sandboxTable, ['read_allow']) } : {}),
  };
}

/**
 * A linked worktree's git directories, as TYBA's commits need them: "the
 * agent's commits are born in a disposable worktree" (TYBA's platforms
 * page), so git must work in it, and "shared refs only in the
 * refs/heads/tyba/ namespace": the repository's git directory is read
 * (config, HEAD, refs, objects), and writable are only the worktree's own
 * git directory (HEAD, index, logs), the objects, and refs/heads/tyba/
 * with its reflogs, where they exist. What git runs (config,
 * config.worktree, hooks, commondir, in both) stays read-only as a
 * host-trusted path: push, fetch and merge run outside the jail, in this
 * repository. README, "TYBA worktrees".
 */
function worktreeGitGrants(session: TybaSession, view: FsView, span: Span): Grant[] {
  const git = session.git;
  if (!git || 'problem' in git) return [];
  const { gitdir, common } = git;
  const existing = (access: Access, path: string, reason: string): Grant[] => {
    const g = sessionDir(access, path, reason, view, span);
    return g.facts.existence === 'exists' && g.facts.kind === 'dir' && !g.facts.symlink ? [g] : [];
  };
  return [
    ...existing('read', common, "the worktree's repository (its git directory), read so that git works in the worktree"),
    ...existing('read-write', gitdir, "the worktree's own git directory (HEAD, index, logs): the agent's commits"),
    ...existing('read-write', `${common}/objects`, "the repository's objects: the agent's commits"),
    ...existing('read-write', `${common}/refs/heads/tyba`, "TYBA's shared refs namespace (refs/heads/tyba/): the agent's branches"),
    ...existing('read-write', `${common}/logs/refs/heads/tyba`, "the reflogs of TYBA's branches"),
  ];
}

export function linuxFacts(view: FsView, dialect: Dialect, landlock: boolean | undefined): LinuxFacts {
  // Only a loader that exists, names itself (no link on the way) and is a file can carry a Landlock rule.
  const loaders = Object.keys(loaderData.loaders).filter((p) => {
    const f = inspectPath(view, p);
    return f.existence === 'exists' && f.kind === 'file' && !f.symlink;
  });
  return { exec: dialect === 'box' && landlock !== false ? 'landlock' : 'mounts', landlockAbi: view.landlockAbi(), loaders };
}

export function credentialFacts(view: FsView): CredentialFact[] {
  return knownReadableLocations.map((written) => {
    const path = expandTilde(written, view.home);
    return { written, path, existence: inspectPath(view, path).existence };
  });
}

/**
 * What TYBA's sandbox holds whatever the session's grants say (TYBA's
 * platforms page): "content, not metadata" (existence, size and dates of
 * every path stay visible, and a deny closes content only), the listed
 * secrets denied, and "denials beat permissions" (`read_allow` re-opens no
 * deny and no secret).
 */
const tybaHolds: SandboxHolds = Object.freeze({ metadataEverywhere: true, secretsClosed: true, denialsBeatPermissions: true });

/** The Policy IR of a schema-valid document. Pure: the disk is reached only through `view`. */
export function buildIR(doc: TomlTable, options: BuildOptions): PolicyIR {
  const { view } = options;
  const fs = { description: view.description, knowsFacts: view.knowsFacts };
  const knownCredentials = credentialFacts(view);
  if (options.dialect === 'tyba') {
    const git = linkedWorktree(view, options.worktree);
    const tyba: TybaSession = {
      worktree: options.worktree,
      dataDir: expandOrKeep(options.tybaDataDir ?? '~/.tyba', view.home),
      agentDirs: (options.agentDirs ?? []).map((d) => expandOrKeep(d, view.home)),
      ...(git ? { git } : {}),
    };
    const principals = [tybaPrincipal(doc, view, tyba)];
    return {
      dialect: 'tyba',
      holds: tybaHolds,
      file: options.file,
      home: view.home,
      fs,
      principals,
      features: {},
      tyba,
      knownCredentials,
      sockets: view.sockets(),
      hostTrusted: hostTrustedOf(principals, view, options.hostTrusted),
      linux: linuxFacts(view, 'tyba', options.landlock),
      trustedFiles: options.trustedFiles ?? [],
    };
  }
  const features = table(doc.entries.get('experimental-features')?.value);
  const nfp = features?.entries.get('native-filesystem-policy')?.value;
  const principals = boxPrincipals(doc, view);
  return {
    dialect: 'box',
    file: options.file,
    home: view.home,
    fs,
    principals,
    features: nfp?.kind === 'boolean' ? { nativeFilesystemPolicy: { value: nfp.value, span: nfp.span } } : {},
    knownCredentials,
    sockets: view.sockets(),
    hostTrusted: hostTrustedOf(principals, view, options.hostTrusted),
    linux: linuxFacts(view, 'box', options.landlock),
    trustedFiles: options.trustedFiles ?? [],
  };
}

/** The host-trusted paths around every principal's write grants (temp directories are no project). */
function hostTrustedOf(principals: readonly Principal[], view: FsView, inputs: readonly HostTrustedInput[] = []): PolicyIR['hostTrusted'] {
  const roots = new Map<string, boolean>();
  for (const p of principals)
    for (const g of p.grants) {
      if (!g.path || (g.access !== 'write' && g.access !== 'read-write') || g.implicit?.temp || !g.path.startsWith('/')) continue;
      roots.set(g.path, (roots.get(g.path) ?? false) || (g.scope === 'tree' && g.facts.kind !== 'file' && g.facts.kind !== 'other'));
    }
  return findHostTrusted(
    view,
    [...roots].map(([path, tree]) => ({ path, tree })),
    inputs,
  );
}

function expandOrKeep(p: string, home: string): string {
  const e = expandHome(p, home);
  return 'path' in e ? e.path : p;
}
