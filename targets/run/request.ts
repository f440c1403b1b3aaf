/**
 * What `boxwright run` was asked, in one shape for both of its paths (the
 * full command line, app/cli/run-common.ts, and Linux's fast path,
 * targets/linux/run/run-fast.ts): every platform's runner takes it
 * (runtime.ts). Its cache key and the helpers that read it are Linux's
 * (targets/linux/run/sandbox/run-request.ts).
 */
export interface RunRequest {
  readonly config: string;
  /** `agent`, `tool.NAME`, `mcp.NAME`. */
  readonly principal: string;
  readonly command: readonly string[];
  readonly passEnv: readonly string[];
  readonly passFds: readonly number[];
  readonly verbose: boolean;
  readonly fs: string | undefined;
  readonly home: string | undefined;
  readonly dialect: string | undefined;
  readonly worktree: string | undefined;
  readonly tybaDataDir: string | undefined;
  readonly agentDirs: readonly string[];
  readonly gatewaySocket: string | undefined;
  /** `--landlock on|off`: whether Landlock confines execution on Linux (on unless turned off). */
  readonly landlock: boolean;
  /** `--bwrap PATH`: the bubblewrap to run (else BOXWRIGHT_BWRAP, else the lookup of bwrap.ts). */
  readonly bwrap: string | undefined;
}
