/**
 * What a platform's model part fills in (issue 38: the platform is the
 * unit): each unit's `targets/<os>/model/` exports one PlatformModel, and
 * the registry (targets/units.ts) hands them to `effectiveAccess`, which
 * asks them instead of naming a platform. Types only: the model's generic
 * code (model.ts) and every unit's model part import this, and it imports
 * neither.
 */
import type { Platform } from '../compiler/diagnostic.js';
import type { Grant, Principal, SandboxHolds } from '../compiler/ir/types.js';
import type { HostTrustedPath, WindowsSecretSpelling } from '../compiler/paths/index.js';
import type { Elsewhere } from './access.js';
import type { Cell } from './cell.js';
import type { HostTrustedHold, Mechanism, RewriteInPlace } from './facts.js';
import type { PathIndex } from './path-index.js';

/**
 * How the Linux lowering confines execution for one principal: Landlock
 * (a Box agent or server: execute only on exec grants, granted loader
 * directories and the dynamic loaders; a tool runs what its content grants
 * hold, as the platform table says) or the mounts alone (whatever is
 * readable is executable).
 */
export interface LinuxExec {
  readonly confined: boolean;
  readonly loaders: ReadonlySet<string>;
  /**
   * TYBA: the grant of the private tmpfs at /tmp. It is a directory of the
   * sandbox's own, empty at start: below its root it shows nothing of the
   * host, gives no host path write access, and holds no host path a deny
   * would have to cover.
   */
  readonly privateTmp?: Grant;
}

/** What the per-platform functions of a principal read: its index, what its sandbox holds beyond the grants, its Linux execution. */
export interface PlatformContext {
  readonly p: Principal;
  readonly ix: PathIndex;
  readonly holds: SandboxHolds;
  readonly linuxExec: LinuxExec;
}

/**
 * One of TYBA's listed secrets a platform closes by its own mechanism:
 * `listed`, the list's entry (`~/.ssh`); or `spelling`, where a Windows tool
 * keeps it instead (`%APPDATA%\gnupg`, compiler/paths/secrets.json).
 */
export interface ClosedSecret {
  /** The path under the home that is closed (for a Windows spelling, its place at the default %APPDATA%). */
  readonly path: string;
  /** As the list writes it: `~/.ssh`. Absent for a Windows spelling. */
  readonly listed?: string;
  readonly spelling?: WindowsSecretSpelling;
}

/**
 * What a platform does, in the model: a unit's model part (the type
 * checker names a missing member). The generic model (model.ts) walks the
 * grants once for every platform and asks these.
 */
export interface PlatformModel {
  /** Its cell at a path, all grants combined; `plain`: without the host-trusted carve-outs. */
  at(cx: PlatformContext, path: string, plain: boolean): Cell;
  /**
   * What it decides of a grant before its cell, if anything: a refusal whatever the cell (`refused`), or the read grant
   * that covers a write (`readCover`, GrantAccess.readCover).
   */
  before?(g: Grant, ix: PathIndex): { readonly refused?: Cell; readonly readCover?: Grant } | undefined;
  /** The mechanism behind a grant's cell that differs from the request (or may). */
  mechanism(p: Principal, g: Grant, cell: Cell, holds: SandboxHolds, confined: boolean): Mechanism | undefined;
  /** A read_file or write_file naming a directory gives more than its entry (`directory-as-one-file`). */
  fileEntryGivesTree(g: Grant): boolean;
  /** A deny with this cell is held by a rule on its path, which a rename of an ancestor would carry away: the ancestors are pinned. */
  pinsDeny(cell: Cell): boolean;
  /** A read-only host-trusted path's renameable ancestors are pinned. */
  readonly pinsTrusted: boolean;
  /**
   * A host-trusted path that does not exist is refused with its missing parents, each a rule of its own (the
   * `host-trusted` fact's `parents`), so that it cannot be made elsewhere and renamed into place.
   */
  readonly carvesMissingParents: boolean;
  /** A deny of a path that does not exist is a rule that refuses the path if it is created later (`future-path-refused`). */
  readonly deniesFuturePaths: boolean;
  /** Its private /tmp (a tmpfs) is the sandbox's own: renaming inside it moves no host path, so its root pins no ancestor. */
  readonly privateTmpOwn: boolean;
  /** Whether it can keep a host-trusted path (not a link) from being written and created. */
  carvable(t: HostTrustedPath, home: string): boolean;
  /** Each principal's sandbox is its own (a mount view, a profile): a deny shuts the path for that principal only, and carve-outs are made per principal. */
  readonly ownSandbox: boolean;
  /** What it gives where no grant names the path. */
  elsewhere(holds: SandboxHolds): Elsewhere;
  /** The secrets it closes whatever the config: of the listed locations (compiler/paths/secrets.json) and their Windows spellings, which. */
  closedSecrets(listed: readonly ClosedSecret[], spelled: readonly ClosedSecret[], holds: SandboxHolds): readonly ClosedSecret[];
  /** How a write_file of a file that the grant alone writes is held (the `rewrite-in-place` fact; its rule words each way). */
  readonly rewriteInPlace: RewriteInPlace;
  /** How it keeps a host-trusted path read-only, and what becomes of one it cannot refuse (the `host-trusted` fact; its rule words each). */
  readonly hostTrusted: HostTrustedHold;
}

/** Every platform's model part (each unit's `targets/<os>/model/`), as the registry hands them to effectiveAccess. */
export type PlatformModels = Readonly<Record<Platform, PlatformModel>>;
