import type { SettingsReach } from './reach.js';
import type { Platform } from '../diagnostic.js';
import type { LinkedWorktree } from '../paths/git.js';
import type { TrustedSearch } from '../paths/host-trusted.js';
import type { ExecNeeds } from '../paths/exec-needs.js';
import type { PathFacts } from '../paths/inspect.js';
import type { Span } from '../span.js';
import type { Dialect } from '../schema/validate.js';

/** The list a grant was authored in (`<list>` in the seed's messages). */
export type ListName =
  | 'read'
  | 'write'
  | 'read_file'
  | 'write_file'
  | 'list'
  | 'deny'
  | 'metadata'
  | 'exec'
  | 'read_allow'
  // sandbox-runtime's filesystem lists (and Claude Code's `sandbox.filesystem`)
  | 'denyRead'
  | 'allowRead'
  | 'allowWrite'
  | 'denyWrite'
  // Claude Code's permission rules the sandbox takes paths from: `Edit(…)` and `Read(…)`
  | 'permissions.allow'
  | 'permissions.deny'
  // Codex's config.toml: `[sandbox_workspace_write] writable_roots` and a permission profile's `filesystem` table
  | 'writable_roots'
  | 'filesystem';

/** What a grant asks for, independent of how it was spelled. */
export type Access =
  | 'read'
  | 'write'
  | 'read-write'
  | 'list'
  | 'deny'
  | 'metadata'
  | 'exec'
  // sandbox-runtime: reads are open and writes closed by default, and each is denied on its own
  | 'deny-read'
  | 'deny-write';

/**
 * Where an entry points: an absolute path with `~` expanded, or why the
 * spelling could not be expanded (never both, never neither).
 */
export type Location =
  | { readonly path: string; readonly expandProblem?: undefined }
  | { readonly path?: undefined; readonly expandProblem: string };

export type Grant = GrantFields & Location;

/** An entry of a principal: where it points, its facts, where it is written. */
export type Entry = Pick<GrantFields, 'written' | 'facts' | 'span'> & Location;

export interface GrantFields {
  /** Authored list, or `implicit` for grants the TYBA session makes itself. */
  readonly list: ListName | 'implicit';
  readonly access: Access;
  /** `tree`: the path and everything below; `file`: exactly that path. */
  readonly scope: 'tree' | 'file';
  /** The string as written in the config. */
  readonly written: string;
  readonly facts: PathFacts;
  /**
   * An exec grant of a file: what executing it needs on this machine (its
   * interpreter, libraries, what it runs and reads), through the view.
   */
  readonly needs?: ExecNeeds;
  /** The TOML string value (for implicit grants: the key that implies them). */
  readonly span: Span;
  /**
   * A sandbox-runtime entry that is a glob pattern (`*`, `?`, `[…]`), as
   * resolved against the working directory: it names no one path (the
   * grant has an `expandProblem` instead), and each platform reads it its
   * own way (rules/glob-pattern.ts).
   */
  readonly pattern?: string;
  /** An absent path's first missing component (where sandbox-runtime puts a deny's placeholder on Linux). */
  readonly firstAbsent?: string;
  /** Implicit grants: why they exist and where (each platform has its own spelling). */
  readonly implicit?: {
    readonly reason: string;
    readonly platforms: readonly Platform[];
    /** Linux's TYBA temp directory: a private tmpfs at the path, never the host's directory there. */
    readonly privateTmpfs?: true;
    /** A TYBA temp directory (each platform's): no project, so no host-trusted names are looked for in it. */
    readonly temp?: true;
    /**
     * macOS's TYBA temp directory: a directory `boxwright run` makes for the
     * session, known at run time only, named by a profile parameter
     * (`(param "TMPDIR")`, sandbox-exec -D TMPDIR=…); the grant's path is
     * its spelling, `$TMPDIR`.
     */
    readonly parameter?: 'TMPDIR';
    /** A Box principal's `private_tmp = true` made it (TYBA's are the session's). */
    readonly privateTmp?: true;
  };
}

export type PrincipalKind = 'agent' | 'tool' | 'mcp';

export interface Principal {
  /** `agent`, `tool.NAME`, `mcp.NAME`: also the artifact file stem. */
  readonly id: string;
  readonly kind: PrincipalKind;
  readonly name: string;
  /** The key that declares it. */
  readonly span: Span;
  readonly grants: readonly Grant[];
  readonly workspace?: Entry;
  /** A Box principal's `private_tmp = true` (its key): the temp directory of its own, as implicit grants (`implicit.privateTmp`). */
  readonly privateTmp?: { readonly span: Span };
  /** Where its filesystem table and each list's array are written: what a fix edits. */
  readonly written?: WrittenTable;
  /** A direct network exception (tool network table, MCP `contain_egress = false`). */
  readonly directNetwork?: { readonly span: Span; readonly how: 'network-table' | 'contain_egress'; readonly table?: WrittenTable };
  /**
   * A tool's or server's own `command` and `args` (the host product's keys,
   * which boxwright does not judge): what `boxwright run --principal` runs
   * when no command follows `--`. `problem` when they are not a string and
   * an array of strings.
   */
  readonly launch?: { readonly argv: readonly string[]; readonly span: Span } | { readonly problem: string; readonly span: Span };
  /** An `[agent.network]` table: refused, reported by a rule. */
  readonly networkTable?: Span;
  readonly networkTableWritten?: WrittenTable;
}

/** A table of the config as written: how it was made (a `[header]`, `{ inline }`, dotted keys) and where, and its lists' arrays. */
export interface WrittenTable {
  readonly origin: 'header' | 'inline' | 'other';
  /** The header's bracketed text, or the inline table's braces. */
  readonly span: Span;
  readonly lists: Readonly<Partial<Record<ListName, Span>>>;
  /** It holds no key (a tool's `[tools.NAME.network]`, say): removing its header removes it. */
  readonly empty: boolean;
}

export interface TybaSession {
  readonly worktree: string;
  readonly dataDir: string;
  readonly agentDirs: readonly string[];
  /**
   * The worktree as a linked worktree of a repository (its `.git` file, read
   * and held to git's shape: compiler/paths/git.ts), whose git directories
   * the session grants what the agent's commits need; or why its `.git`
   * file was not followed. Absent: the worktree's `.git` is no file.
   */
  readonly git?: LinkedWorktree | { readonly problem: string };
}

/** A known credential location outside TYBA's secret list, and whether it exists on the machine. */
export interface CredentialFact {
  readonly written: string;
  readonly path: string;
  readonly existence: 'exists' | 'absent' | 'unknown';
}

/**
 * A file or directory of boxwright's own that the host trusts after a run:
 * what the command at hand reads or writes, passed in by the app layer (the
 * config it was read from, the `--fs` manifest, the `compile --out`
 * directory, the bubblewrap and the boxwright a run executes). A principal
 * that could write one could change what the next run grants or runs
 * (`trusted-file-writable`).
 */
export interface TrustedFile {
  /** Absolute and canonical (links resolved as far as the path exists). */
  readonly path: string;
  readonly role: 'config' | 'other-config' | 'project' | 'manifest' | 'out' | 'bwrap' | 'boxwright';
  /** A directory whose contents are trusted (`out`, `boxwright`): a write grant anywhere below it counts too. */
  readonly tree: boolean;
  /** The platforms on which the host trusts it. */
  readonly platforms: readonly Platform[];
}

/** A setting of a JSON dialect as written: its value (JSON.parse's) and where. */
export interface WrittenSetting {
  readonly value: unknown;
  readonly span: Span;
  readonly keySpan: Span;
}

/**
 * What a sandbox-runtime or Claude Code settings file says beyond its path
 * lists, and where it runs: the model and the rules read these.
 */
export interface RuntimeSettings {
  /** The directory the sandboxed command runs in: relative entries resolve there, and the mandatory denies are taken from it (`--worktree`). */
  readonly cwd: string;
  /** Claude Code: the directory of the settings file (what a `/path` entry is relative to), and the kind of file it is. */
  readonly settingsDir?: string;
  readonly scope?: 'managed' | 'project' | 'local' | 'user-or-other';
  /** Every scalar and array setting by its dotted path (`filesystem.disabled`, `sandbox.enabled`). */
  readonly settings: ReadonlyMap<string, WrittenSetting>;
  /**
   * What the settings reach beyond the filesystem lists (network, strength, commands outside
   * the sandbox, host programs, permissions), and what boxwright does not model.
   */
  readonly reach: SettingsReach;
  /** A Codex config.toml: the sandbox Codex resolves from it (compiler/ir/codex.ts). */
  readonly codex?: CodexSandbox;
}

/** What Codex makes of a config.toml's sandbox settings (compiler/ir/codex.ts; docs/dialects/codex.md). */
export interface CodexSandbox {
  /** The legacy `sandbox_mode`, or a permission profile (`default_permissions`), or Codex's default (read-only). */
  readonly mode: 'read-only' | 'workspace-write' | 'danger-full-access' | 'profile';
  /** The profile applied, when `mode` is `profile` (a built-in's name starts with `:`). */
  readonly profile?: string;
  /** No sandbox at all: danger-full-access, or a profile that is or extends it. */
  readonly fullAccess: boolean;
  /** Whether the whole host is readable (`:root` read, the legacy modes). */
  readonly readsOpen: boolean;
  /** What the command reaches on the network: nothing, only Codex's proxy (its domain rules), or everything directly. */
  readonly network: 'none' | 'proxy' | 'direct';
  /** The writable roots, each with where it was written: every one keeps the protected names read-only. */
  readonly writableRoots: readonly string[];
  /** `$TMPDIR` as the command sees it (the app layer's environment), when set. */
  readonly tmpdir?: string;
}

/**
 * What a dialect's sandbox holds beyond its grants, whatever they say, as
 * facts the model reads (issue 38: TYBA is facts in the IR, not a flag the
 * model checks). Each platform's model part holds what it has a mechanism
 * for (macOS's profile all three; Windows closes the secrets anyway; Linux
 * none). Box's sandbox holds none of them; TYBA's all three (TYBA's
 * platforms page: compiler/ir/build.ts).
 */
export interface SandboxHolds {
  /** Every path's metadata (existence, size, dates) is visible, and a deny closes a path's content, not its metadata. */
  readonly metadataEverywhere?: true;
  /** The listed secrets (compiler/paths/secrets.json) are closed whatever the grants say. */
  readonly secretsClosed?: true;
  /** A read grant re-opens nothing a deny or a listed secret closes, and the dialect says so: "denials beat permissions". */
  readonly denialsBeatPermissions?: true;
}

export interface PolicyIR {
  readonly dialect: Dialect;
  /** What its sandbox holds beyond the grants (absent: the grants alone decide). */
  readonly holds?: SandboxHolds;
  /** sandbox-runtime and Claude Code settings: the rest of what the file says, and where it runs. */
  readonly runtime?: RuntimeSettings;
  readonly file: string;
  readonly home: string;
  /** The filesystem view the facts came from (`host`, `none`, `manifest FILE`). */
  readonly fs: { readonly description: string; readonly knowsFacts: boolean };
  readonly principals: readonly Principal[];
  readonly features: { readonly nativeFilesystemPolicy?: { readonly value: boolean; readonly span: Span } };
  readonly tyba?: TybaSession;
  /**
   * Known credential locations under the home (not on the secret list), with
   * their existence: what stays readable on Windows, where reads are open.
   */
  readonly knownCredentials: readonly CredentialFact[];
  /** The unix sockets bound on the machine (the view's), or `unknown` (`--fs none`). */
  readonly sockets: readonly string[] | 'unknown';
  /**
   * The host-trusted paths at, inside or around the write grants
   * (compiler/paths/host-trusted.ts), with their facts, and the directories
   * the search did not list (its budget ran out).
   */
  readonly hostTrusted: TrustedSearch;
  readonly linux: LinuxFacts;
  /** boxwright's own files this command trusts after a run (none for a config read from standard input and no other). */
  readonly trustedFiles: readonly TrustedFile[];
}

/** What the Linux lowering needs to know beyond the grants. */
export interface LinuxFacts {
  /**
   * How execution is confined: `landlock` (a Box config's default: only
   * exec grants, a tool's content trees and loader directories are
   * executable) or `mounts` (bubblewrap alone: whatever is readable is
   * executable; TYBA, and `--landlock off`).
   */
  readonly exec: 'landlock' | 'mounts';
  /** The kernel's Landlock ABI as the view says (0: none), or unknown (`--fs none`, a manifest without it). */
  readonly landlockAbi: number | 'unknown';
  /** The dynamic loaders (loaders.json) that exist, in their canonical spelling: executable under Landlock. */
  readonly loaders: readonly string[];
}
