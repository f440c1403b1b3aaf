/**
 * The Policy IR of a Codex config.toml: one principal (`agent`: the
 * commands Codex runs), whose grants are the sandbox Codex resolves from
 * the file, each where it is written, plus what Codex adds on its own
 * (the working directory, `/tmp`, `$TMPDIR`, and the protected names under
 * every writable root), marked implicit with the reason.
 *
 * Resolution, as Codex 0.171.0 does it (docs/dialects/codex.md, with
 * sources): a `sandbox_mode` anywhere wins over `default_permissions`
 * (the older settings are used instead of the profiles); with neither, the
 * sandbox is read-only. `workspace-write` writes the working directory, the
 * `writable_roots`, `/tmp` (unless `exclude_slash_tmp`) and `$TMPDIR`
 * (unless `exclude_tmpdir_env_var`). A permission profile is its table
 * over the one it `extends` (a built-in `:read-only`, `:workspace`,
 * `:danger-full-access`, or another profile), key by key; its
 * `filesystem` maps a path or a special path to `read`, `write` or `none`.
 * Under every writable root `.git`, `.codex`, `.agents` and `.aws` stay
 * read-only, existing or not (an absent one is an empty read-only tmpfs on
 * Linux, made for the run). Direct network is open with
 * `network_access = true` or a profile's `network.enabled`, unless
 * `features.network_proxy` routes it through Codex's proxy, whose domain
 * rules then apply; without the proxy the domain rules enforce nothing.
 */
import { posix } from 'node:path';
import { PLATFORMS } from '../diagnostic.js';
import { findHostTrusted, inspectPath, type FsView } from '../paths/index.js';
import type { Span } from '../span.js';
import type { TomlTable, TomlValue } from '../toml/ast.js';
import type { ReachItem, SettingsReach } from './reach.js';
import { firstAbsentOf, unresolvedGrant } from './peer-grants.js';
import type { Access, CodexSandbox, Grant, LinuxFacts, ListName, PolicyIR, TrustedFile, WrittenSetting } from './types.js';

export interface CodexBuildOptions {
  readonly file: string;
  readonly view: FsView;
  /** The working directory Codex runs commands in (`--worktree`): its workspace root. */
  readonly worktree: string;
  /** `$TMPDIR` as the commands would see it (the app layer's environment), if set. */
  readonly tmpdir?: string;
  readonly knownCredentials: PolicyIR['knownCredentials'];
  readonly linux: LinuxFacts;
  readonly trustedFiles?: readonly TrustedFile[];
}

/** Names Codex keeps read-only under every writable root (an empty read-only tmpfs where absent). */
export const PROTECTED_NAMES = ['.git', '.codex', '.agents', '.aws'] as const;

/** What `:minimal` reads: the system directories a shell needs (an approximation, docs/dialects/codex.md). */
const MINIMAL = ['/bin', '/sbin', '/usr', '/lib', '/lib64', '/etc'];

const tableOf = (v: TomlValue | undefined): TomlTable | undefined => (v?.kind === 'table' ? v : undefined);
const str = (v: TomlValue | undefined): string | undefined => (v?.kind === 'string' ? v.value : undefined);
const bool = (v: TomlValue | undefined): boolean | undefined => (v?.kind === 'boolean' ? v.value : undefined);

/** One filesystem entry of a resolved profile: the key as written, its access or a table of sub-paths, where it is. */
interface FsEntry {
  readonly key: string;
  readonly value: string | ReadonlyMap<string, { value: string; span: Span }>;
  readonly span: Span;
}

interface Resolved {
  readonly fs: Map<string, FsEntry>;
  network?: boolean;
  networkSpan?: Span;
  domains: Map<string, { value: string; span: Span }>;
  readonly roots: { path: string; span: Span }[];
  fullAccess?: Span;
  /** The profile chain could not be resolved: Codex refuses the config (said by codex-profile-missing). */
  missing?: { name: string; span: Span };
}

const builtins: Record<string, (r: Resolved, span: Span) => void> = {
  ':read-only': (r, span) => r.fs.set(':root', { key: ':root', value: 'read', span }),
  ':workspace': (r, span) => {
    r.fs.set(':root', { key: ':root', value: 'read', span });
    r.fs.set(':workspace_roots', { key: ':workspace_roots', value: new Map([['.', { value: 'write', span }]]), span });
    r.fs.set(':tmpdir', { key: ':tmpdir', value: 'write', span });
    r.fs.set(':slash_tmp', { key: ':slash_tmp', value: 'write', span });
  },
  ':danger-full-access': (r, span) => {
    r.fullAccess = span;
    r.network = true;
  },
};

/** A profile over the one it extends, key by key (a cycle or a missing name: Codex refuses; said by the rule). */
function resolveProfile(profiles: TomlTable | undefined, name: string, span: Span, r: Resolved, seen: Set<string>): void {
  if (builtins[name]) return builtins[name](r, span);
  const t = tableOf(profiles?.entries.get(name)?.value);
  if (!t || seen.has(name)) {
    r.missing ??= { name, span };
    return;
  }
  seen.add(name);
  const ext = t.entries.get('extends');
  const parent = str(ext?.value);
  if (parent !== undefined) resolveProfile(profiles, parent, ext!.value.span, r, seen);
  const fs = tableOf(t.entries.get('filesystem')?.value);
  for (const e of fs?.entries.values() ?? []) {
    if (e.key === 'glob_scan_max_depth') continue;
    if (e.value.kind === 'string') r.fs.set(e.key, { key: e.key, value: e.value.value, span: e.value.span });
    else if (e.value.kind === 'table') {
      const subs = new Map<string, { value: string; span: Span }>();
      const before = r.fs.get(e.key)?.value;
      if (before && typeof before !== 'string') for (const [k, v] of before) subs.set(k, v);
      for (const s of e.value.entries.values())
        if (s.value.kind === 'string') subs.set(s.key, { value: s.value.value, span: s.value.span });
      r.fs.set(e.key, { key: e.key, value: subs, span: e.keySpan });
    }
  }
  const roots = tableOf(t.entries.get('workspace_roots')?.value);
  for (const e of roots?.entries.values() ?? []) if (bool(e.value) === true) r.roots.push({ path: e.key, span: e.keySpan });
  const net = tableOf(t.entries.get('network')?.value);
  const enabled = net?.entries.get('enabled');
  if (enabled && bool(enabled.value) !== undefined) {
    r.network = bool(enabled.value)!;
    r.networkSpan = enabled.value.span;
  }
  const domains = tableOf(net?.entries.get('domains')?.value);
  for (const d of domains?.entries.values() ?? [])
    if (d.value.kind === 'string') r.domains.set(d.key, { value: d.value.value, span: d.value.span });
}

/** Every scalar and array under a table, by dotted path (what the rules read as written). */
function flatten(t: TomlTable, prefix: string, out: Map<string, WrittenSetting>): void {
  for (const e of t.entries.values()) {
    const key = prefix ? `${prefix}.${e.key}` : e.key;
    if (e.value.kind === 'table') flatten(e.value, key, out);
    out.set(key, { value: plain(e.value), span: e.value.span, keySpan: e.keySpan });
  }
}

function plain(v: TomlValue): unknown {
  switch (v.kind) {
    case 'table':
      return Object.fromEntries([...v.entries].map(([k, e]) => [k, plain(e.value)]));
    case 'array':
      return v.items.map(plain);
    case 'integer':
      return Number(v.value);
    case 'string':
    case 'boolean':
    case 'float':
      return v.value;
    default:
      return v.text;
  }
}

/** Keys that change nothing the sandbox does: the model, its provider, the interface. */
const neutralTop = new Set([
  'model',
  'review_model',
  'model_provider',
  'model_providers',
  'model_reasoning_effort',
  'model_reasoning_summary',
]);
const neutralPrefix = ['tui', 'history', 'model_', 'file_opener', 'otel', 'hide_agent_reasoning', 'show_raw_agent_reasoning'];

export function buildCodexIR(doc: TomlTable, o: CodexBuildOptions): PolicyIR {
  const { view } = o;
  const home = view.home;
  const cwd = o.worktree;
  const settings = new Map<string, WrittenSetting>();
  flatten(doc, '', settings);
  const grants: Grant[] = [];
  const top = doc.entries;
  const modeEntry = top.get('sandbox_mode');
  const legacy = str(modeEntry?.value);
  const permEntry = top.get('default_permissions');
  const features = tableOf(top.get('features')?.value);
  const proxy = bool(features?.entries.get('network_proxy')?.value) === true;
  const anchor = modeEntry?.value.span ?? permEntry?.value.span ?? doc.span;
  const expand = (p: string): string | undefined =>
    p === '~'
      ? home
      : p.startsWith('~/')
        ? posix.join(home, p.slice(2))
        : p.startsWith('/')
          ? posix.normalize(p).replace(/(.)\/+$/, '$1')
          : undefined;
  const grant = (
    list: ListName | 'implicit',
    access: Access,
    written: string,
    span: Span,
    path: string | undefined,
    reason?: string,
  ): Grant => {
    const implicit = reason ? { implicit: { reason, platforms: PLATFORMS } } : {};
    if (path === undefined) {
      const glob = /[*?[\]]/.test(written);
      const why = glob
        ? `a glob pattern (${written}): Codex matches it against the files there when the command starts`
        : 'a relative path';
      return { ...unresolvedGrant(list, access, written, span, why, glob ? written : undefined), ...implicit };
    }
    const facts = inspectPath(view, path);
    if (facts.existence !== 'absent') return { list, access, scope: 'tree', written, span, path, facts, ...implicit };
    // Where Codex puts the mount point of an absent entry: its first missing component.
    const first = firstAbsentOf(path, (p) => inspectPath(view, p));
    return { list, access, scope: 'tree', written, span, path, facts, firstAbsent: first, ...implicit };
  };
  const ws = tableOf(top.get('sandbox_workspace_write')?.value);
  let mode: CodexSandbox['mode'];
  let network: CodexSandbox['network'] = 'none';
  let readsOpen = true;
  let profile: string | undefined;
  let resolved: Resolved | undefined;
  if (legacy !== undefined || permEntry === undefined) {
    mode = legacy === 'workspace-write' || legacy === 'danger-full-access' ? legacy : 'read-only';
    if (mode === 'danger-full-access') network = 'direct';
    else if (mode === 'workspace-write' && bool(ws?.entries.get('network_access')?.value) === true) network = proxy ? 'proxy' : 'direct';
  } else {
    mode = 'profile';
    profile = str(permEntry.value) ?? '';
    resolved = { fs: new Map(), domains: new Map(), roots: [] };
    resolveProfile(tableOf(top.get('permissions')?.value), profile, permEntry.value.span, resolved, new Set());
    if (resolved.fullAccess) network = 'direct';
    else if (resolved.network) network = proxy ? 'proxy' : 'direct';
    readsOpen = !!resolved.fullAccess || resolved.fs.get(':root')?.value === 'read' || resolved.fs.get(':root')?.value === 'write';
  }
  const full = mode === 'danger-full-access' || !!resolved?.fullAccess;
  const tmpdir = o.tmpdir?.startsWith('/') ? posix.normalize(o.tmpdir).replace(/(.)\/+$/, '$1') : undefined;
  if (full)
    grants.push(
      grant('implicit', 'read-write', '/', anchor, '/', 'Codex: danger-full-access runs commands with no sandbox, with all your access'),
    );
  else if (readsOpen && mode !== 'profile')
    grants.push(grant('implicit', 'read', '/', anchor, '/', 'Codex: every path is readable in its sandbox'));
  if (mode === 'workspace-write') {
    grants.push(grant('implicit', 'read-write', cwd, anchor, cwd, 'Codex: the working directory is writable in workspace-write'));
    const roots = ws?.entries.get('writable_roots')?.value;
    if (roots?.kind === 'array')
      for (const item of roots.items)
        if (item.kind === 'string') grants.push(grant('writable_roots', 'read-write', item.value, item.span, expand(item.value)));
    if (bool(ws?.entries.get('exclude_slash_tmp')?.value) !== true)
      grants.push(
        grant('implicit', 'read-write', '/tmp', anchor, '/tmp', 'Codex: /tmp is writable in workspace-write unless `exclude_slash_tmp`'),
      );
    if (tmpdir && bool(ws?.entries.get('exclude_tmpdir_env_var')?.value) !== true)
      grants.push(
        grant(
          'implicit',
          'read-write',
          tmpdir,
          anchor,
          tmpdir,
          'Codex: $TMPDIR is writable in workspace-write unless `exclude_tmpdir_env_var`',
        ),
      );
  }
  if (resolved && !full) {
    const access = (v: string): Access => (v === 'write' ? 'read-write' : v === 'none' ? 'deny-read' : 'read');
    const workspaceRoots = [cwd, ...resolved.roots.map((r) => expand(r.path)).filter((p): p is string => !!p)];
    for (const e of resolved.fs.values()) {
      const targets: (string | undefined)[] =
        e.key === ':root'
          ? ['/']
          : e.key === ':minimal'
            ? MINIMAL
            : e.key === ':tmpdir'
              ? tmpdir
                ? [tmpdir]
                : []
              : e.key === ':slash_tmp'
                ? ['/tmp']
                : e.key === ':workspace_roots'
                  ? workspaceRoots
                  : e.key.startsWith(':')
                    ? []
                    : [expand(e.key)];
      for (const base of targets) {
        if (typeof e.value === 'string') grants.push(grant('filesystem', access(e.value), e.key, e.span, base));
        else
          for (const [sub, v] of e.value) {
            const path = base === undefined ? undefined : sub === '.' ? base : sub.startsWith('/') ? undefined : posix.join(base, sub);
            grants.push(grant('filesystem', access(v.value), `${e.key} ${sub}`, v.span, path));
          }
      }
    }
  }
  // Codex's protected names under every writable root, existing or not.
  const writable = full ? [] : [...new Set(grants.filter((g) => g.access === 'read-write' && g.path).map((g) => g.path!))];
  for (const root of writable)
    for (const name of PROTECTED_NAMES) {
      const path = posix.join(root, name);
      if (grants.some((g) => g.path === path)) continue;
      grants.push(
        grant(
          'implicit',
          'deny-write',
          path,
          anchor,
          path,
          `Codex: ${name} stays read-only under every writable root (an empty read-only directory where absent)`,
        ),
      );
    }
  const reach = codexReach(doc, settings, { mode, network, full, proxy, resolved, modeSpan: modeEntry?.value.span ?? anchor });
  const codex: CodexSandbox = {
    mode,
    fullAccess: full,
    ...(profile !== undefined ? { profile } : {}),
    readsOpen,
    network,
    writableRoots: writable,
    ...(tmpdir ? { tmpdir } : {}),
  };
  // The temp directories hold no project: no host-trusted names are looked for there (as for TYBA's temp directory).
  const temp = new Set([':slash_tmp', ':tmpdir']);
  const roots = grants
    .filter((g) => !g.implicit && g.path && g.access === 'read-write' && !temp.has(g.written))
    .map((g) => ({ path: g.path!, tree: true }));
  return {
    dialect: 'codex',
    file: o.file,
    home,
    fs: { description: view.description, knowsFacts: view.knowsFacts },
    principals: [{ id: 'agent', kind: 'agent', name: 'agent', span: doc.span, grants }],
    hostTrusted: findHostTrusted(view, roots, []),
    features: {},
    runtime: { cwd, settings, reach, codex },
    knownCredentials: o.knownCredentials,
    sockets: view.sockets(),
    linux: o.linux,
    trustedFiles: o.trustedFiles ?? [],
  };
}

/** The profile chain Codex could not resolve (a name no profile has, or a cycle), for the rule that says so. */
export function missingProfile(doc: TomlTable): { name: string; span: Span } | undefined {
  const permEntry = doc.entries.get('default_permissions');
  if (doc.entries.has('sandbox_mode') || !permEntry || permEntry.value.kind !== 'string') return undefined;
  const r: Resolved = { fs: new Map(), domains: new Map(), roots: [] };
  resolveProfile(tableOf(doc.entries.get('permissions')?.value), permEntry.value.value, permEntry.value.span, r, new Set());
  return r.missing;
}

/** What the config reaches beyond files, as items diff compares: more network is a widening, in order none < proxy < direct. */
function codexReach(
  doc: TomlTable,
  settings: ReadonlyMap<string, WrittenSetting>,
  c: { mode: string; network: string; full: boolean; proxy: boolean; resolved: Resolved | undefined; modeSpan: Span },
): SettingsReach {
  const items: ReachItem[] = [];
  const span = c.resolved?.networkSpan ?? c.modeSpan;
  if (c.network !== 'none') items.push({ cls: 'network', key: 'network (through Codex)', value: 'true', effect: 'grants', span });
  if (c.network === 'direct') items.push({ cls: 'network', key: 'network (direct, no proxy)', value: 'true', effect: 'grants', span });
  if (c.full) items.push({ cls: 'strength', key: 'sandbox', value: 'danger-full-access', effect: 'grants', span: c.modeSpan });
  for (const [d, v] of c.resolved?.domains ?? [])
    if (v.value === 'deny') items.push({ cls: 'network', key: 'network.domains', value: d, effect: 'restricts', span: v.span });
  const entries = [...(c.resolved?.domains ?? [])].filter(([, v]) => v.value === 'allow').map(([d]) => d);
  // Every other setting: what the sandbox keys say is modelled above; the rest Codex reads for other ends.
  const unmodelled = new Map<string, string>();
  const modelled = /^(sandbox_mode|default_permissions|sandbox_workspace_write|permissions|features\.network_proxy)(\.|$)/;
  for (const [key, s] of settings) {
    if (modelled.test(key) || s.value === null || (typeof s.value === 'object' && !Array.isArray(s.value))) continue;
    if (neutralTop.has(key) || neutralPrefix.some((p) => key.startsWith(p))) continue;
    unmodelled.set(key, JSON.stringify(s.value));
  }
  void doc;
  return { items, allowedDomains: { key: 'network.domains', entries }, unmodelled };
}
