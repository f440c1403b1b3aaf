/**
 * The Windows ACL plan's shape (acl-plan.json), field by field as
 * acl-plan.schema.json describes it: what plan.ts builds and the scripts,
 * the run message and the tests read.
 */
import type { Verdict } from '../../compiler/diagnostic.js';
import type { ListName, PrincipalKind } from '../../compiler/ir/types.js';
import type { tokenTemplate } from './sddl.js';

export type StepAction = 'grant-write' | 'label-low' | 'label-read-only' | 'deny-read';
/**
 * Where an entry came from: a config list, an implicit TYBA grant, TYBA's secret list (its platforms page),
 * a workspace, or a host-trusted path inside a write grant.
 */
export type Source = ListName | 'implicit' | 'secret' | 'workspace' | 'host-trusted';

export interface Origin {
  /** A principal id (`agent`, `tool.NAME`, `mcp.NAME`), or `*` for what applies to every principal. */
  readonly principal: string;
  /** The config line of the entry; null for what the config did not write. */
  readonly configLine: number | null;
  /** Why an entry without a config line exists. */
  readonly implicit?: string;
  readonly source: Source;
  /** The path as written (config) or as boxwright made it (implicit grants, secrets). */
  readonly written: string;
}

export interface PlanStep extends Origin {
  readonly id: string;
  readonly posixPath: string | null;
  /** Windows spelling: `%USERPROFILE%\…` or `%TEMP%`. */
  readonly path: string;
  readonly action: StepAction;
  /** For the named object (and directories below it when recursive). */
  readonly sddl: string;
  /** For files below a recursive step (and the named object when it is a file). */
  readonly fileSddl?: string;
  readonly recursive: boolean;
  readonly perFile: boolean;
  readonly why: string;
  readonly undo: { readonly action: 'restore-sddl'; readonly section: 'dacl' | 'label'; readonly backup: string };
}

export interface LeftOut extends Origin {
  readonly posixPath: string | null;
  readonly reason: string;
  readonly ruleId: string | null;
}

export interface NoEffect extends Origin {
  readonly path: string | null;
  readonly reason: string;
  readonly ruleId: string | null;
}

export interface Readable {
  readonly location: string;
  readonly posixPath: string;
  readonly path: string | null;
  readonly existence: 'exists' | 'unknown';
  readonly readableBy: readonly string[];
}

export interface PlanPrincipal {
  readonly id: string;
  readonly kind: PrincipalKind;
  readonly sessionSid: string;
  /**
   * A Box principal's `private_tmp = true`: a directory of its own that
   * apply.ps1 makes empty before the steps (refusing one already there) and
   * undo.ps1 removes after them; the host product starts the principal with
   * TMP and TEMP naming it. The steps grant and label it like any write.
   */
  readonly privateTemp?: { readonly path: string; readonly env: { readonly TMP: string; readonly TEMP: string } };
}

export interface AclPlan {
  readonly header: {
    readonly generator: string;
    readonly version: string;
    readonly config: string;
    readonly configSha256: string;
    readonly forced: boolean;
    readonly comment: readonly string[];
  };
  readonly platform: 'windows';
  readonly dialect: 'box' | 'tyba';
  readonly verdict: Verdict;
  /** Whether the filesystem view knew existence facts (`--fs host`, a manifest) or not (`--fs none`). */
  readonly facts: 'known' | 'unknown';
  readonly home: { readonly compiledAgainst: string; readonly windows: '%USERPROFILE%' };
  readonly token: typeof tokenTemplate & { readonly sessionSid: string; readonly restrictingSids: string };
  readonly principals: readonly PlanPrincipal[];
  readonly readModel: 'open';
  readonly steps: readonly PlanStep[];
  readonly leftOut: readonly LeftOut[];
  readonly noEffect: readonly NoEffect[];
  readonly readable: readonly Readable[];
  readonly notes: readonly string[];
}
