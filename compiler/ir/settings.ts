/**
 * The Policy IR of a sandbox-runtime or Claude Code settings file: one
 * principal (`agent`: the sandboxed command), whose grants are the file's
 * path lists as the tool resolves them, plus what the tool adds on its own
 * (its default write paths, the mandatory denies of the working directory,
 * Claude Code's writable working directory), marked implicit with their
 * reason (runtime-defaults.json says where srt says so).
 *
 * Resolution (sandbox-runtime's normalizePathForSandbox, as 0.0.83 has it):
 * `~` is the home, a relative entry resolves against the working directory,
 * a trailing `/**` is dropped, and an entry holding `*`, `?`, `[` or `]`
 * is a pattern unless marked `{ "path": …, "literal": true }`. Claude Code
 * first reads its own prefixes (code.claude.com/docs/en/sandboxing and the
 * settings reference): `//x` is `/x`, `~/x` the home's, `/x` relative to the
 * settings file's directory, `./x` or `x` relative to the working directory.
 */
import { dirname, posix } from 'node:path';
import { findHostTrusted, inspectPath, type FsView, type PathFacts } from '../paths/index.js';
import type { JsonObject, JsonValue } from '../json/ast.js';
import { toPlain } from '../json/parser.js';
import { PLATFORMS, type Platform } from '../diagnostic.js';
import type { Span } from '../span.js';
import { claudeSettingsScope } from '../schema/dialect.js';
import type { JsonDialect } from '../schema/validate.js';
import type { Access, Grant, LinuxFacts, ListName, PolicyIR, RuntimeSettings, TrustedFile, WrittenSetting } from './types.js';
import { settingsReach } from './reach.js';
import { firstAbsentOf, unresolvedGrant } from './peer-grants.js';
import defaults from './runtime-defaults.json' with { type: 'json' };

export interface SettingsBuildOptions {
  readonly file: string;
  /**
   * Where the file is in the project, when its label is not that
   * (`diff --git`'s `HEAD:.claude/settings.json`): what Claude Code's
   * `/path` entries resolve against and its scope are read from it.
   */
  readonly location?: string;
  readonly dialect: JsonDialect;
  readonly view: FsView;
  /** The working directory of the sandboxed command (`--worktree`). */
  readonly worktree: string;
  readonly knownCredentials: PolicyIR['knownCredentials'];
  readonly linux: LinuxFacts;
  /** boxwright's own files the command at hand trusts (the app layer's: the config read, the manifest). */
  readonly trustedFiles?: readonly TrustedFile[];
}

const globChars = /[*?[\]]/;

/**
 * The platforms whose sandbox sandbox-runtime builds itself (Seatbelt,
 * bubblewrap): what it adds on its own (the mandatory denies, `filesystem.disabled`'s
 * open tree) is theirs. Windows' srt-win has a profile of its own and adds none of these.
 * A fact of the peer, not of boxwright's platforms: a list, not a comparison.
 */
const SRT_OWN_SANDBOXES: readonly Platform[] = ['macos', 'linux'];

const obj = (v: JsonValue | undefined): JsonObject | undefined => (v?.kind === 'object' ? v : undefined);

/** Every scalar and array under an object, by dotted path. */
function flatten(v: JsonObject, prefix: string, out: Map<string, WrittenSetting>): void {
  for (const [k, m] of v.members) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (m.value.kind === 'object') flatten(m.value, key, out);
    out.set(key, { value: toPlain(m.value), span: m.value.span, keySpan: m.keySpan });
  }
}

interface Resolved {
  readonly path?: string;
  readonly pattern?: string;
  readonly problem?: string;
}

/** sandbox-runtime's reading of one entry (see the module comment). */
export function resolveSrtEntry(written: string, literal: boolean, cwd: string, home: string): Resolved {
  if (written === '') return { problem: 'an empty path' };
  let p = written === '~' ? home : written.startsWith('~/') ? posix.join(home, written.slice(2)) : written;
  if (!p.startsWith('/')) p = posix.resolve(cwd, p);
  if (!literal) p = p.replace(/\/\*\*$/, '') || '/';
  p = posix.normalize(p).replace(/(.)\/+$/, '$1');
  if (!literal && globChars.test(p)) return { pattern: p, problem: `a glob pattern (${p}): it names no one path` };
  return { path: p };
}

/** Claude Code's prefixes, then sandbox-runtime's reading. */
export function resolveClaudeEntry(written: string, cwd: string, home: string, settingsDir: string): Resolved {
  let p = written;
  if (p.startsWith('//')) p = p.slice(1);
  else if (p.startsWith('/')) p = posix.join(settingsDir, p.slice(1));
  return resolveSrtEntry(p, false, cwd, home);
}

/** `Edit(path)` or `Read(path)`: the tool and the path of a permission rule, or undefined for any other rule. */
export function permissionRulePath(rule: string): { tool: 'Edit' | 'Read'; path: string } | undefined {
  const m = /^(Edit|Read)\((.+)\)$/.exec(rule.trim());
  return m ? { tool: m[1] as 'Edit' | 'Read', path: m[2]! } : undefined;
}

const shapes: Record<'denyRead' | 'allowRead' | 'allowWrite' | 'denyWrite', Access> = {
  denyRead: 'deny-read',
  allowRead: 'read',
  allowWrite: 'read-write',
  denyWrite: 'deny-write',
};

/** The authored write grants' paths, each a tree unless it names a file (what findHostTrusted searches). */
function writeRoots(grants: readonly Grant[]): { path: string; tree: boolean }[] {
  const roots = new Map<string, boolean>();
  for (const g of grants)
    if (!g.implicit && g.path?.startsWith('/') && g.access === 'read-write')
      roots.set(g.path, (roots.get(g.path) ?? false) || (g.facts.kind !== 'file' && g.facts.kind !== 'other'));
  return [...roots].map(([path, tree]) => ({ path, tree }));
}

export function buildSettingsIR(doc: JsonValue, o: SettingsBuildOptions): PolicyIR {
  const { view } = o;
  const home = view.home;
  const cwd = o.worktree;
  const root = obj(doc);
  const settings = new Map<string, WrittenSetting>();
  if (root) flatten(root, '', settings);
  const claude = o.dialect === 'claude';
  const location = o.location ?? o.file;
  const settingsDir = claude ? posix.resolve(cwd, dirname(location === '<stdin>' ? '.claude/settings.json' : location)) : undefined;
  const grants: Grant[] = [];
  const facts = (path: string): PathFacts => inspectPath(view, path);
  const firstAbsent = (path: string): string => firstAbsentOf(path, facts);
  const entryGrant = (list: ListName, access: Access, written: string, span: Span, r: Resolved): Grant => {
    if (r.path === undefined) return unresolvedGrant(list, access, written, span, r.problem ?? 'unresolvable', r.pattern);
    const f = facts(r.path);
    // srt mounts (and Seatbelt judges) where the path really is.
    const path = f.symlink && !f.symlink.loop ? f.symlink.resolved : r.path;
    const pf = path === r.path ? f : facts(path);
    return {
      list,
      access,
      scope: 'tree',
      written,
      span,
      path,
      facts: pf,
      ...(pf.existence === 'absent' ? { firstAbsent: firstAbsent(path) } : {}),
    };
  };
  const fsTable = claude
    ? obj(obj(root?.members.get('sandbox')?.value)?.members.get('filesystem')?.value)
    : obj(root?.members.get('filesystem')?.value);
  for (const list of ['allowWrite', 'denyWrite', 'denyRead', 'allowRead'] as const) {
    const arr = fsTable?.members.get(list)?.value;
    if (arr?.kind !== 'array') continue;
    for (const item of arr.items) {
      if (item.kind === 'string') {
        const r = claude ? resolveClaudeEntry(item.value, cwd, home, settingsDir!) : resolveSrtEntry(item.value, false, cwd, home);
        grants.push(entryGrant(list, shapes[list], item.value, item.span, r));
      } else if (item.kind === 'object') {
        const p = item.members.get('path')?.value;
        if (p?.kind === 'string')
          grants.push(entryGrant(list, shapes[list], p.value, item.span, resolveSrtEntry(p.value, true, cwd, home)));
      }
    }
  }
  if (claude) {
    // Edit(…) allow → allowWrite, Edit(…) deny → denyWrite, Read(…) deny → denyRead (the settings reference).
    const perms = obj(root?.members.get('permissions')?.value);
    for (const [list, key] of [
      ['permissions.allow', 'allow'],
      ['permissions.deny', 'deny'],
    ] as const) {
      const arr = perms?.members.get(key)?.value;
      if (arr?.kind !== 'array') continue;
      for (const item of arr.items) {
        if (item.kind !== 'string') continue;
        const rule = permissionRulePath(item.value);
        if (!rule) continue;
        const access: Access | undefined =
          key === 'allow' ? (rule.tool === 'Edit' ? 'read-write' : undefined) : rule.tool === 'Edit' ? 'deny-write' : 'deny-read';
        if (!access) continue;
        grants.push(entryGrant(list, access, item.value, item.span, resolveClaudeEntry(rule.path, cwd, home, settingsDir!)));
      }
    }
    const dirs = perms?.members.get('additionalDirectories')?.value;
    if (dirs?.kind === 'array')
      for (const item of dirs.items)
        if (item.kind === 'string')
          grants.push(
            entryGrant('allowWrite', 'read-write', item.value, item.span, resolveClaudeEntry(item.value, cwd, home, settingsDir!)),
          );
  }
  const anchor = (claude ? root?.members.get('sandbox')?.keySpan : root?.members.get('filesystem')?.keySpan) ?? doc.span;
  const implicit = (access: Access, path: string, reason: string): Grant => {
    const f = facts(path);
    // What srt adds on its own is its macOS and Linux sandboxes' (Windows' srt-win has its own profile grant and none of these).
    const platforms: readonly Platform[] =
      path === '/' || (claude && access === 'read-write' && path === cwd) ? PLATFORMS : SRT_OWN_SANDBOXES;
    return {
      list: 'implicit',
      access,
      scope: 'tree',
      written: path,
      path,
      facts: f,
      span: anchor,
      implicit: { reason, platforms },
      ...(f.existence === 'absent' ? { firstAbsent: firstAbsent(path) } : {}),
    };
  };
  const enabled = claude ? settings.get('sandbox.enabled')?.value === true : true;
  const disabled = settings.get(claude ? 'sandbox.filesystem.disabled' : 'filesystem.disabled')?.value === true;
  if (!enabled)
    grants.unshift(
      implicit(
        'read-write',
        '/',
        'the sandbox is off: Claude Code sandboxes Bash commands only with `sandbox.enabled: true` (its ' +
          'default is false), so commands run with all your access',
      ),
    );
  else if (disabled) {
    // macOS and Linux get no rule at all; Windows' srt-win grants nothing (computeWindowsFsAccessSet: no grants, only credential denies).
    const off = implicit(
      'read-write',
      '/',
      '`filesystem.disabled`: sandbox-runtime applies no read or write rule, the whole tree is writable',
    );
    grants.unshift({ ...off, implicit: { ...off.implicit!, platforms: SRT_OWN_SANDBOXES } });
  } else {
    const implied: Grant[] = [];
    if (claude) implied.push(implicit('read-write', cwd, 'Claude Code: the working directory, writable by default'));
    const readDenied = (p: string): boolean =>
      grants.some((g) => g.access === 'deny-read' && g.path && (p === g.path || p.startsWith(g.path + '/'))) &&
      !grants.some((g) => g.access === 'read' && g.path && (p === g.path || p.startsWith(g.path + '/')));
    for (const d of defaults.defaultWrites) {
      const path = d.home ? posix.join(home, d.path.slice(2)) : d.path;
      if (d.home && readDenied(path)) continue;
      implied.push(implicit('read-write', path, `sandbox-runtime: ${d.reason}`));
    }
    const m = defaults.mandatoryDenies;
    for (const f of [...m.files, ...m.directories])
      implied.push(
        implicit(
          'deny-write',
          posix.join(cwd, f),
          'sandbox-runtime: a mandatory deny (shell and tool start-up files, editor and agent directories stay read-only in any write grant)',
        ),
      );
    const dotGit = facts(posix.join(cwd, '.git'));
    if (dotGit.kind === 'dir') {
      implied.push(implicit('deny-write', posix.join(cwd, m.gitHooks), 'sandbox-runtime: a mandatory deny (git hooks)'));
      if (settings.get(claude ? 'sandbox.filesystem.allowGitConfig' : 'filesystem.allowGitConfig')?.value !== true)
        implied.push(
          implicit('deny-write', posix.join(cwd, m.gitConfig), 'sandbox-runtime: a mandatory deny (git config; `allowGitConfig` lifts it)'),
        );
    } else if (dotGit.kind === 'file')
      implied.push(implicit('deny-write', posix.join(cwd, '.git'), "sandbox-runtime: a mandatory deny (a worktree's .git file)"));
    grants.unshift(...implied.filter((g) => g.access !== 'deny-write'));
    // A mandatory deny matters only where it meets a write root (inside one, or one inside it): the others are not shown.
    const roots = grants.filter((g) => g.access === 'read-write' && g.path).map((g) => g.path!);
    const meets = (p: string): boolean => roots.some((r) => p === r || p.startsWith(r === '/' ? '/' : r + '/') || r.startsWith(p + '/'));
    grants.push(...implied.filter((g) => g.access === 'deny-write' && meets(g.path!)));
  }
  const runtime: RuntimeSettings = {
    cwd,
    settings,
    reach: settingsReach(doc, claude),
    ...(settingsDir ? { settingsDir, scope: claudeSettingsScope(location) } : {}),
  };
  return {
    dialect: o.dialect,
    file: o.file,
    home,
    fs: { description: view.description, knowsFacts: view.knowsFacts },
    principals: [{ id: 'agent', kind: 'agent', name: 'agent', span: root?.span ?? doc.span, grants }],
    // The host-trusted paths at, inside or around the authored write roots, found as for a Box config
    // (compiler/paths/host-trusted.ts): sandbox-runtime carves none of them out (only its mandatory
    // denies, grants above), so the model leaves them as writable as the cells say, and
    // `host-trusted-path` names those the command may write. srt's own default writes are its business.
    hostTrusted: findHostTrusted(view, writeRoots(grants), []),
    features: {},
    runtime,
    knownCredentials: o.knownCredentials,
    sockets: view.sockets(),
    linux: o.linux,
    trustedFiles: o.trustedFiles ?? [],
  };
}
