/**
 * What the model knows about why a platform's cell is what it is: typed
 * facts about the platform's mechanism, with no rule ids. Each rule turns
 * the facts it is about into its diagnostics (rules/), and `explain`'s
 * footnotes come from the same facts, worded by the rule that explains
 * each kind (rules/engine/registry.ts, `explanation`). A new kind must be
 * explained by exactly one rule: a test holds them together.
 */
import type { Platform } from '../compiler/diagnostic.js';
import type { Grant, Principal } from '../compiler/ir/types.js';
import type { Candidate, Need } from '../compiler/paths/exec-needs.js';

/** Why a platform refuses the configuration because of one grant. */
export type Refusal =
  /** Linux: a write scope without a read grant covering all of it (a writable mount also exposes reads). */
  | { readonly kind: 'write-without-read-cover'; readonly partialReads: readonly Grant[] }
  /** Linux: `list` (names without contents) has no mount that shows it. */
  | { readonly kind: 'names-without-content' }
  /** Linux: a deny is covered by mounting over it, which needs an existing target. */
  | { readonly kind: 'deny-target-absent' }
  /** Every platform: a tool or server has no metadata-only field. */
  | { readonly kind: 'metadata-field-in-tool' }
  /**
   * Linux (read_file, write_file) and Windows (write_file): a one-file
   * entry names a directory, and the platform cannot give a directory
   * alone: Linux binds it with everything below it, and Windows' file ACE
   * on a directory lets entries be added to it.
   */
  | { readonly kind: 'directory-as-one-file' }
  /**
   * sandbox-runtime, Linux: an absent write deny's placeholder would go in a
   * directory the sandbox shows read-only (`holder`, bound by another deny
   * or an allowRead), so bubblewrap cannot make it and the sandbox does not start.
   */
  | { readonly kind: 'srt-placeholder-unmakeable'; readonly at: string; readonly holder: string };

/** Why a cell differs from what the grant asked for, though the platform accepts it. */
export type Mechanism =
  /** Linux: a grant under /proc is the sandbox's own /proc (mounted noexec). */
  | { readonly kind: 'own-proc' }
  /** Linux: no metadata-only tree exists. */
  | { readonly kind: 'no-metadata-tree' }
  /** Linux: an empty read-only placeholder covers the denied path. */
  | { readonly kind: 'empty-cover'; readonly of: 'file' | 'dir' }
  /** Linux: an exec grant is bound read-only, so it is readable too. */
  | { readonly kind: 'exec-grant-readable' }
  /** Linux: the agent's (or a server's) read and write mounts are executable. */
  | { readonly kind: 'mounts-executable' }
  /** Linux: a tool's content mounts are executable (its helpers run). */
  | { readonly kind: 'tool-mounts-executable' }
  /** Linux: TYBA's temp directory (and a Box principal's `private_tmp`) is a private tmpfs. */
  | { readonly kind: 'private-tmpfs' }
  /**
   * macOS and Windows: the temp directory is one of the run's own, made
   * empty for it and removed after it (macOS: by `boxwright run`, a profile
   * parameter; Windows: by apply.ps1 and undo.ps1), never the shared one.
   */
  | { readonly kind: 'run-temp-dir'; readonly platform: 'macos' | 'windows' }
  /**
   * macOS: a `read_file` or `write_file` names a directory: the profile's
   * literal gives the directory entry alone (for a read, its names and
   * properties; for a write, changes to its own properties), none of what
   * is below it.
   */
  | { readonly kind: 'directory-entry-only'; readonly access: 'read' | 'write' }
  /** macOS: `list` of a file (or a socket): it has no entry names of its own, so the profile gives its properties only. */
  | { readonly kind: 'names-of-a-file' }
  /** macOS: a tool runs helpers from its content grants. */
  | { readonly kind: 'tool-helper-exec' }
  /** macOS (TYBA): denials beat permissions; a listed secret stays denied. */
  | { readonly kind: 'denials-beat-permissions' }
  /** Windows: a listed secret (or a deny) keeps its no-read-up label. */
  | { readonly kind: 'secret-label' }
  /**
   * Windows: another principal's deny labels this path. A label is a
   * property of the files, not of a principal: it shuts every principal's
   * Low token out, not only the one whose entry asked for it.
   */
  | { readonly kind: 'label-of-another-principal'; readonly label: OtherLabel }
  /** Windows: other principals' denies label paths inside this grant's tree (GrantAccess.disclosures), shut to this principal too. */
  | { readonly kind: 'labels-of-other-principals'; readonly labels: readonly OtherLabel[] }
  /** Windows: read_allow is accepted and discarded. */
  | { readonly kind: 'read-allow-discarded' }
  /** Windows: an absent deny target has nothing to label. */
  | { readonly kind: 'nothing-to-label' }
  /** Windows: reads and execution are open. */
  | { readonly kind: 'reads-open' }
  /** Windows: the plan has no step beyond files; what a Low token still reaches (the registry, named pipes, the desktop and clipboard). */
  | { readonly kind: 'beyond-files' }
  /** Windows: the path has no Windows spelling (outside the home, or a name Windows cannot hold): the plan leaves the entry out. */
  | {
      readonly kind: 'no-windows-spelling';
      readonly path: string;
      readonly why: { readonly kind: 'outside-home' } | { readonly kind: 'name'; readonly problem: string };
    }
  /** Linux: an agent read of a loader directory is executable under Landlock (libraries need executable mappings). */
  | { readonly kind: 'loader-directory' }
  /** Linux under Landlock: a read tree is not executable by execve, but the dynamic loader can map and run a program from it. */
  | { readonly kind: 'loader-maps' }
  /** Linux: bound unix sockets under a content grant that the workload can connect to (GrantAccess.sockets). */
  | { readonly kind: 'sockets-reachable'; readonly sockets: readonly string[] }
  /**
   * Linux: a direct network exception shares the host's network namespace,
   * loopback included; its abstract unix sockets too, unless Landlock's
   * scope keeps them out (ABI 6+: `scoped`; the kernel unknown:
   * `scoped-from-abi-6`).
   */
  | { readonly kind: 'host-network-namespace'; readonly abstractSockets: AbstractSockets }
  /** sandbox-runtime, Linux: a read-denied directory is an empty writable tmpfs (or a directory bubblewrap made in one): writes land there and vanish. */
  | { readonly kind: 'srt-read-deny-scratch' }
  /**
   * sandbox-runtime, Linux: a write or allowRead root at or under a read-denied directory is bound back
   * from the host, so the denied content is there again.
   */
  | { readonly kind: 'srt-write-restores-read' }
  /** sandbox-runtime, macOS: a read-denied path inside a write root is written but not read (write-only). */
  | { readonly kind: 'srt-write-only' }
  /** sandbox-runtime, Linux: an entry whose path does not exist when the command starts is skipped (a denyRead hides nothing, an allowWrite opens nothing). */
  | { readonly kind: 'srt-absent-skipped' }
  /** sandbox-runtime, Linux: an absent denyWrite (or mandatory deny) inside a write root is held by a placeholder made on the host for the run. */
  | { readonly kind: 'srt-deny-placeholder' }
  /** A glob pattern names no one path: each platform reads it its own way (rules/glob-pattern.ts). */
  | { readonly kind: 'srt-pattern' }
  /** The settings turn the sandbox off (Claude Code's `sandbox.enabled` not true, `filesystem.disabled`): no rule applies. */
  | { readonly kind: 'srt-sandbox-off' }
  /** Claude Code on native Windows: no sandbox; unless failIfUnavailable, commands run unsandboxed. */
  | { readonly kind: 'srt-sandbox-unavailable' }
  /**
   * Codex, Linux: a protected name (.git, .codex, .agents, .aws) absent under a writable root is an empty
   * read-only tmpfs, its mount point made on the host for the run.
   */
  | { readonly kind: 'codex-protected-placeholder' }
  /** Codex, Linux: a writable root that does not exist when the command starts is skipped: nothing is writable there. */
  | { readonly kind: 'codex-absent-root' }
  /** Codex: danger-full-access, no sandbox at all. */
  | { readonly kind: 'codex-no-sandbox' }
  /**
   * Linux, macOS: other principals can read or write a path this
   * principal's deny names, since each principal's sandbox is its own (on
   * Windows the deny is a label on the object, which holds for every
   * principal). Each with the grant that gives it the path.
   */
  | { readonly kind: 'others-reach-denied-path'; readonly others: readonly DenyOpenTo[] }
  /** macOS: a direct network exception reaches IP peers only ((remote ip "*:*")): the machine's unix sockets stay closed. */
  | { readonly kind: 'ip-peers-only' }
  /** macOS: a deny at or above the path closes what the grant asks (a listed secret's too): denials beat permissions, whatever the order. */
  | { readonly kind: 'deny-covers-grant' }
  /** macOS: a deny of a path that does not exist: its profile rule refuses the path if it is created later. */
  | { readonly kind: 'future-path-refused' }
  /** macOS (TYBA): a deny closes content, not metadata: existence, size and dates stay visible. */
  | { readonly kind: 'content-not-metadata' }
  /** A write_file of a file that the grant alone writes: a rewrite in place, each platform's own way (the rule words each). */
  | { readonly kind: 'rewrite-in-place'; readonly platform: Platform; readonly how: RewriteInPlace }
  /** Windows: a known credential file that exists (or may) and that a principal can read, reads being open (AccessModel.windowsReadable). */
  | { readonly kind: 'credential-readable'; readonly location: string }
  /**
   * Linux, macOS: a deny's ancestors (or a host-trusted path's: `of`)
   * cannot be renamed or removed (GrantAccess.pinnedAncestors,
   * TrustedAccess.pinnedAncestors).
   */
  | { readonly kind: 'ancestors-pinned'; readonly ancestors: readonly string[]; readonly of?: 'host-trusted' }
  /**
   * A host-trusted path inside a write grant (TrustedAccess): `read-only`,
   * the platform keeps it from being written (and, absent, from being
   * created); `creatable`, the platform cannot: `blocked` says why (it does
   * not exist, and Linux cannot mount over what does not exist, Windows has
   * nothing to label; its existence is unknown; it is a symbolic link; it
   * has no Windows spelling). `parents`: the missing ancestors refused with
   * it (macOS).
   */
  | {
      readonly kind: 'host-trusted';
      readonly platform: Platform;
      /** How the platform holds it (PlatformModel.hostTrusted): what the rule words, never the platform's name. */
      readonly held: HostTrustedHold;
      readonly state: 'read-only' | 'creatable';
      readonly existence: 'exists' | 'absent' | 'unknown';
      readonly blocked?: 'absent' | 'unknown' | 'link' | 'no-windows-spelling';
      readonly parents?: readonly string[];
    }
  /**
   * Linux: what executing the program an exec grant names needs that the
   * principal's sandbox does not hold (model/exec-start.ts): it cannot
   * start (`starts`: its interpreter, a library, its #! interpreter), or it
   * fails when it runs or reads the rest.
   */
  | { readonly kind: 'exec-needs-missing'; readonly program: string; readonly starts: boolean; readonly missing: readonly MissingNeed[] }
  /**
   * Linux, macOS: an executable path the principal can also write (an exec
   * grant on or under a write tree, or a write under an exec tree): the
   * workload can run what it wrote there.
   */
  | { readonly kind: 'exec-writable' }
  /**
   * A host-trusted path near a write grant of the principal that no write
   * grant of it reaches on this platform (TrustedAccess.notes): there is
   * nothing to carve out there.
   */
  | { readonly kind: 'host-trusted-unreached' }
  /**
   * Other grants of the principal on the path (the same path, or a tree
   * above it) give the cell rights this grant does not ask for: each
   * platform's cell is the union of the grants (GrantAccess.combined). The
   * contributing grants, in the config's order.
   */
  | { readonly kind: 'combined'; readonly grants: readonly Grant[] }
  /** An implicit grant spelled for other platforms (a TYBA temp directory: /tmp, $TMPDIR, %TEMP%): it is no grant here. */
  | { readonly kind: 'implicit-other-platform' }
  /** Linux: an entry the mount plan (targets/linux/model/plan.ts) gives no mount of its own, or covers with a caveat: `why`. */
  | { readonly kind: 'linux-no-mount'; readonly why: LinuxNoMount };

/** Why the Linux plan gives an entry no mount of its own (or, `cover-kind-unknown`, covers it as a directory), where the platform does not refuse it. */
export type LinuxNoMount =
  /** A deny no mount shows: absent from the view. */
  | { readonly kind: 'not-in-view' }
  /** `metadata`: Linux has no metadata-only tree. */
  | { readonly kind: 'no-metadata-tree' }
  /** An entry kind with no Linux lowering. */
  | { readonly kind: 'no-lowering'; readonly list: string }
  /** A content grant at a denied path: the deny's cover is what is there. */
  | { readonly kind: 'under-deny-covered' }
  /** A content grant below a deny: inside its cover, or with no mount above. */
  | { readonly kind: 'under-deny-absent' }
  /** A grant that gives no content on Linux. */
  | { readonly kind: 'no-content' }
  /** A grant under /proc: the sandbox's own /proc serves it. */
  | { readonly kind: 'own-proc' }
  /** A deny inside a denied directory: that directory's cover hides it. */
  | { readonly kind: 'inside-denied-directory' }
  /** --fs none: a deny of unknown kind is covered as a directory, which fails closed if it is a file. */
  | { readonly kind: 'cover-kind-unknown' };

/** Another principal that can read or write a denied path, and how. */
export interface DenyOpenTo {
  readonly principal: Pick<Principal, 'id' | 'kind' | 'name'>;
  readonly read: boolean;
  readonly write: boolean;
  /** The other principal's grant that gives it the path. */
  readonly via: Grant;
}

/** A deny of another principal that the Windows plan labels: the principal's id and its deny grant. */
export interface OtherLabel {
  readonly principal: string;
  readonly grant: Grant;
}

/** Whether a principal in the host's network namespace reaches the host's abstract unix sockets. */
export type AbstractSockets = 'reachable' | 'scoped' | 'scoped-from-abi-6';

/**
 * What a platform gives where no grant names the path (explain's
 * "everything else"). Box and TYBA: `seatbelt` (macOS: denied but for the
 * baseline and the metadata of the directories leading to granted paths),
 * `seatbelt-metadata` (TYBA's macOS: content denied, metadata visible),
 * `mount-view` (Linux: not in the view), `open-reads` (Windows: readable
 * but for the listed secrets). sandbox-runtime: `off` (the settings turn
 * the sandbox off), `seatbelt` and `bubblewrap` (its macOS and Linux
 * sandboxes: reads open), `unavailable` (Claude Code on native Windows:
 * unsandboxed), `sandbox-account` (its Windows sandbox account).
 */
export type Ungranted =
  | { readonly kind: 'ungranted'; readonly regime: 'seatbelt' | 'seatbelt-metadata' | 'mount-view' | 'open-reads' }
  | {
      readonly kind: 'srt-ungranted';
      readonly regime: 'off' | 'seatbelt' | 'bubblewrap' | 'unavailable' | 'unsupported' | 'sandbox-account';
    }
  /** Codex: reads open (`:root` or the legacy modes), reads closed (a profile without `:root`), no sandbox, or none for the platform. */
  | { readonly kind: 'codex-ungranted'; readonly regime: 'reads-open' | 'reads-closed' | 'full-access' | 'unsupported' };

export type Fact = Refusal | Mechanism | Ungranted;
export type FactKind = Fact['kind'];

/**
 * Every fact kind, for the test that each is explained by exactly one rule.
 * Its keys are checked against the `Fact` union by the type checker
 * (`satisfies`): a kind missing here, or one that is no fact, fails the
 * build, so the list cannot drift from the union.
 */
const EVERY_FACT_KIND = {
  'write-without-read-cover': true,
  'names-without-content': true,
  'deny-target-absent': true,
  'metadata-field-in-tool': true,
  'directory-as-one-file': true,
  'srt-placeholder-unmakeable': true,
  'own-proc': true,
  'no-metadata-tree': true,
  'empty-cover': true,
  'exec-grant-readable': true,
  'mounts-executable': true,
  'tool-mounts-executable': true,
  'private-tmpfs': true,
  'run-temp-dir': true,
  'tool-helper-exec': true,
  'names-of-a-file': true,
  'directory-entry-only': true,
  'denials-beat-permissions': true,
  'secret-label': true,
  'label-of-another-principal': true,
  'labels-of-other-principals': true,
  'read-allow-discarded': true,
  'nothing-to-label': true,
  'reads-open': true,
  'beyond-files': true,
  'no-windows-spelling': true,
  'ancestors-pinned': true,
  'others-reach-denied-path': true,
  'host-network-namespace': true,
  'ip-peers-only': true,
  'sockets-reachable': true,
  'loader-directory': true,
  'loader-maps': true,
  'host-trusted': true,
  'srt-read-deny-scratch': true,
  'srt-write-restores-read': true,
  'srt-write-only': true,
  'srt-absent-skipped': true,
  'srt-deny-placeholder': true,
  'srt-pattern': true,
  'srt-sandbox-off': true,
  'srt-sandbox-unavailable': true,
  'codex-protected-placeholder': true,
  'codex-absent-root': true,
  'codex-no-sandbox': true,
  'exec-needs-missing': true,
  'exec-writable': true,
  'deny-covers-grant': true,
  'future-path-refused': true,
  'content-not-metadata': true,
  'rewrite-in-place': true,
  'credential-readable': true,
  'linux-no-mount': true,
  'host-trusted-unreached': true,
  combined: true,
  'implicit-other-platform': true,
  ungranted: true,
  'srt-ungranted': true,
  'codex-ungranted': true,
} as const satisfies Record<FactKind, true>;

export const FACT_KINDS: readonly FactKind[] = Object.keys(EVERY_FACT_KIND) as FactKind[];

/** What a need lacks in the sandbox, for its first candidate (the one the kernel, loader or program tries first on the host). */
export interface MissingNeed {
  readonly need: Need;
  readonly candidate: Candidate;
  /** Link entries the sandbox does not show (a read tree of each one's directory would). */
  readonly links: readonly string[];
  /** The file (or tree) is not readable, or not executable where it must be. */
  readonly target?: 'read' | 'exec';
  /** Where a deny covers what it needs: a grant cannot bring it back. */
  readonly denied?: string;
  /** The loader finds it only through its cache, which the sandbox does not show (/etc/ld.so.cache). */
  readonly cache?: true;
}

/**
 * How a platform holds a write_file of a file the grant alone writes
 * (PlatformModel.rewriteInPlace): a path rule on the literal (macOS's
 * `file-write*`), the file bind-mounted alone (Linux), or read and write
 * without DELETE (Windows' 0x12019f mask). The platform decides it; the
 * rule (file-entry-on-directory) words it.
 */
export type RewriteInPlace = 'literal-rule' | 'file-bind' | 'no-delete-mask';

/**
 * How a platform keeps a host-trusted path read-only (`readOnly`: a profile
 * rule on the path and file-write-unlink on its ancestors, a read-only bind
 * over itself, a Medium no-write-up label), and what becomes of one it lets
 * the workload create (`created`: the launcher moves it aside after the run,
 * or nothing checks it). The platform decides; host-trusted-path words it.
 */
export interface HostTrustedHold {
  readonly readOnly: 'profile-rule' | 'read-only-bind' | 'no-write-up-label';
  readonly created: 'quarantined-after-run' | 'unchecked';
}
