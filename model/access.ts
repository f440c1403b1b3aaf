/**
 * The model's access records, the types every enforcer's model fills in
 * (model.ts for boxwright's platforms, srt.ts and codex.ts for the peers'):
 * their own module, so that the enforcers and the helpers they share
 * (combined.ts, trusted-names.ts, linux-plan.ts) import no model that
 * imports them back.
 */
import type { Platform } from '../compiler/diagnostic.js';
import type { Grant, Principal } from '../compiler/ir/types.js';
import type { ExecNeeds } from '../compiler/paths/exec-needs.js';
import type { HostTrustedPath, RootNames } from '../compiler/paths/index.js';
import type { Cell } from './cell.js';
import type { Mechanism, MissingNeed, Ungranted } from './facts.js';

export interface GrantAccess {
  readonly grant: Grant;
  /** What the grant asks for, as written. */
  readonly requested: Cell;
  /** What each platform gives at the grant's path, all grants combined. */
  readonly effective: Readonly<Record<Platform, Cell>>;
  /** The mechanism behind each platform's cell, where it differs from the request (or may). */
  readonly notes: Readonly<Partial<Record<Platform, Mechanism>>>;
  /** What a platform does beside the cell, to be said whether or not the cell differs from the request. */
  readonly disclosures: Readonly<Partial<Record<Platform, readonly Mechanism[]>>>;
  /**
   * Per platform, where the cell holds content rights this grant does not
   * ask for: the other grants of the principal on its path that give them
   * (a `combined` fact, model/combined.ts). Absent where there are none.
   */
  readonly combined?: Readonly<Partial<Record<Platform, Mechanism>>>;
  /** Whether the grant applies on each platform (implicit grants have their own spelling per platform). */
  readonly applies: Readonly<Record<Platform, boolean>>;
  /** For a write grant: the read grant that covers its whole scope (Linux's requirement). */
  readonly readCover?: Grant;
  /**
   * For a deny the platform enforces: the ancestors of the denied path that
   * the workload could otherwise rename (their parent is writable), nearest
   * the root first. Renaming one would carry the denied path out from under
   * its deny; the lowering pins each (Linux: a mount point of its own;
   * macOS: file-write-unlink denied on it). Windows needs none: its deny is a
   * label on each object, which a rename carries along.
   */
  readonly pinnedAncestors?: Readonly<Partial<Record<Platform, readonly string[]>>>;
  /**
   * For a content tree: the bound unix sockets under it that the principal
   * can connect to, per platform. Linux: those its mounts show (a read-only
   * mount does not stop connect(2)). macOS: none (network-outbound decides
   * a unix connect, and no principal gets it for unix sockets).
   */
  readonly sockets?: Readonly<Partial<Record<Platform, readonly string[]>>>;
}

/**
 * A host-trusted path at, inside or around one of the principal's write
 * grants (compiler/paths/host-trusted.ts), and what each platform makes of
 * it. Present where a platform would let the principal write it but for
 * its carve-out (`state`), or where a grant of the principal writes at or
 * inside it (`lifts`).
 */
export interface TrustedAccess {
  readonly trusted: HostTrustedPath;
  /** Whether the platform's artifact can name the path at all (Windows: a spelling under the home; notes.windows says why not). */
  readonly applies: Readonly<Record<Platform, boolean>>;
  /** What each platform gives at the path, carve-outs included (effectiveAt). */
  readonly effective: Readonly<Record<Platform, Cell>>;
  /**
   * Per platform where a write grant would give it: `read-only` (the
   * carve-out holds: not written, and not created), `creatable` (the
   * platform cannot refuse it: notes say why), `lifted` (a grant at or
   * inside it names it: writable, as that grant asks).
   */
  readonly state: Readonly<Partial<Record<Platform, 'read-only' | 'creatable' | 'lifted'>>>;
  /**
   * The `host-trusted` fact of each platform with a read-only or creatable
   * state; `host-trusted-unreached` where no write grant of the principal
   * reaches the path (nothing to carve out); none where it is lifted.
   */
  readonly notes: Readonly<Partial<Record<Platform, Mechanism>>>;
  /** Its pinned ancestors, per platform (`ancestors-pinned`). */
  readonly disclosures: Readonly<Partial<Record<Platform, readonly Mechanism[]>>>;
  /** The nearest write tree above it that would give the write: where lint names the carve-out. */
  readonly under?: Grant;
  /** The grants of the principal that write at or inside it, implicit ones included. */
  readonly lifts: readonly Grant[];
  /**
   * Linux, macOS: the ancestors of a read-only path whose parent is
   * writable, which the lowering pins (Linux: a mount point each; macOS:
   * file-write-unlink denied), so that it cannot be renamed away and
   * replaced. Nearest the root first.
   */
  readonly pinnedAncestors?: Readonly<Partial<Record<Platform, readonly string[]>>>;
  /** macOS: its missing ancestors, refused with it (a directory made elsewhere and renamed into place would create it). */
  readonly missingParents?: readonly string[];
}

export interface PrincipalAccess {
  readonly principal: Principal;
  readonly grants: readonly GrantAccess[];
  /** The host-trusted paths of its write grants (TrustedAccess), by path: `trustedSingles` and every name of `trustedNames`, made on the first read. */
  readonly hostTrusted: readonly TrustedAccess[];
  /** Those found one by one (and the names of a tree decided on their own), by path. */
  readonly trustedSingles: readonly TrustedAccess[];
  /** The write trees' absent names, a decision per tree (model/trusted-names.ts): what lint reads. */
  readonly trustedNames: readonly TrustedNamesAccess[];
  /** Everything no grant names. */
  readonly elsewhere: Readonly<Record<Platform, Elsewhere>>;
  /** How Linux confines this principal's execution: Landlock, or the mounts alone (README, the section on exec confinement). */
  readonly linuxExec: 'landlock' | 'mounts';
  /** What a direct network exception means per platform, where it means more than "the gateway is bypassed". */
  readonly network: Readonly<Partial<Record<Platform, Mechanism>>>;
  effectiveAt(path: string, platform: Platform): Cell;
  /**
   * What executing a program with these needs lacks in this principal's Linux sandbox (model/exec-start.ts):
   * the one judgement, for exec grants and for `run`'s command.
   */
  linuxMissing(needs: ExecNeeds): readonly MissingNeed[];
}

/** What a platform gives a principal where no grant names the path. */
export interface Elsewhere {
  readonly cell: Cell;
  /** Why: a fact, worded by the rule that explains it. */
  readonly fact: Ungranted;
  readonly mechanism?: Mechanism;
  readonly disclosures?: readonly Mechanism[];
}

/** A tree's absent names for one principal: the decision they share, and the names decided on their own. */
export interface TrustedNamesAccess {
  readonly names: RootNames;
  /** The names decided as one (in `names.names` order). */
  readonly shared: readonly string[];
  /** The decision of `shared[0]`, which is each shared name's with its own path; undefined where the model keeps none of them. */
  readonly decided: TrustedAccess | undefined;
}
