/**
 * What `compile` takes and gives, and its words for a file-system error:
 * shared by the command (compile.ts) and the platforms' compile hooks
 * (compile-hooks.ts), which compile.ts imports; a module of their own, so
 * that no hook imports the command back.
 */
import type { PeerEnforcer } from '../../compiler/ir/compilable.js';
import type { Artifact } from '../../targets/target.js';
import type { CheckedPolicy, CheckResult } from '../check.js';
import type { TrustedFile } from '../../compiler/ir/types.js';
import type { CliIo } from './io.js';
import type { ConfigArgs } from './options.js';

export interface CompileArgs extends ConfigArgs {
  config?: string;
  target?: string;
  out?: string;
  force?: boolean;
  'gateway-port'?: number;
  'gateway-socket'?: string;
  /** Linux: the bubblewrap the launchers run (else BOXWRIGHT_BWRAP, else `bwrap` on PATH outside the home). */
  bwrap?: string;
}

export type CompileOutcome =
  | { readonly ok: true; readonly artifacts: Artifact[]; readonly check: CheckedPolicy }
  | {
      readonly ok: false;
      readonly check: CheckResult;
      readonly reason: string;
      /** A peer's config: the peer that enforces it (compiler/ir/compilable.ts), not a refusal of boxwright's. */
      readonly enforcer?: PeerEnforcer;
    };

/** What compiling takes besides the check result: `--force` and the targets' own options. */
export type TargetArgs = Pick<CompileArgs, 'force' | 'gateway-port' | 'gateway-socket'>;

/** A file-system error in words, for a message that names the path. */
export function because(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  const words: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EROFS: 'read-only file system',
    ENOENT: 'no such file or directory',
    ENOTDIR: 'a component of the path is not a directory',
    EEXIST: 'it exists and is not a directory',
    ENOSPC: 'no space left on the device',
    EISDIR: 'it is a directory',
  };
  return (code && words[code]) ?? (e as Error).message;
}

/**
 * A platform's part in `compile` beyond its target's artifacts (compile-hooks.ts).
 */
type Compiled = Extract<CompileOutcome, { ok: true }>;

/** One compile's hook, made before the config is read. */
export interface CompileHookRun {
  /** Files the host trusts after this compile, beside --out (the program the launchers run). */
  readonly trusted: readonly TrustedFile[];
  /** Why nothing may be written into `out` (`outPath`: where it is), or undefined. */
  refusal(outcome: Compiled, out: string, outPath: string, trusted: readonly TrustedFile[]): Promise<string | undefined>;
  /** After the artifacts are written into `out`. */
  written(outcome: Compiled, out: string): Promise<void>;
}

export interface CompileHook {
  prepare(args: CompileArgs, io: CliIo): CompileHookRun;
}
