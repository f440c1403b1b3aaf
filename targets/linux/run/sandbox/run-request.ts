/**
 * What `boxwright run` was asked, in one shape for both of its paths: the
 * full command line (yargs, app/cli/run-common.ts) and the fast path that starts
 * without it (targets/linux/run/run-fast.ts). The cache key is computed here, once,
 * from that shape: the two paths cannot disagree on what an entry is for.
 */
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { version } from '../../../../compiler/version.js';
import { packageRoot } from '../../launcher/index.js';
import type { RunRequest } from '../../../run/request.js';
import type { CacheInputs } from './run-cache.js';

export type { RunRequest } from '../../../run/request.js';

/** A usage problem in `run`'s own arguments: both paths report it the same way (exit 2). */
export class RunUsageError extends Error {}

/**
 * How a principal is named to the user: its id (`agent`, `tool.NAME`,
 * `mcp.NAME`), which is also how explain heads it and the artifact files'
 * stem. `--principal` takes that, and `tool:NAME` / `mcp:NAME` too.
 */
export const PRINCIPAL_SPELLING = 'agent|tool.NAME|mcp.NAME';

/** `--principal agent|tool.NAME|mcp.NAME` (or `tool:NAME`, `mcp:NAME`) → the principal id (`agent`, `tool.NAME`, `mcp.NAME`). */
export function principalId(spec: string | undefined): string {
  if (spec === undefined || spec === 'agent') return 'agent';
  const m = /^(tool|mcp)[:.](.+)$/.exec(spec);
  if (!m) throw new RunUsageError(`--principal must be agent, tool.NAME or mcp.NAME (got ${JSON.stringify(spec)})`);
  return `${m[1]}.${m[2]}`;
}

/** `--pass-fd N` (repeatable): descriptors above stderr that the command may inherit. */
export function passFdList(v: number | readonly number[] | undefined): number[] {
  const fds = v === undefined ? [] : ([] as number[]).concat(v);
  for (const fd of fds)
    if (!Number.isInteger(fd) || fd < 3 || fd > 1_000_000)
      throw new RunUsageError(`--pass-fd takes a descriptor number above 2 (stdin, stdout and stderr always pass): got ${String(fd)}`);
  return [...new Set(fds)].sort((a, b) => a - b);
}

/**
 * `--pass-env A,B --pass-env C` → the names; `--pass-env NAME=VALUE` sets
 * NAME for the command alone (one operand, commas and all: a value may
 * hold them), so that what is meant for the workload (NODE_OPTIONS) never
 * reaches boxwright's own process.
 */
export function passEnvList(v: string | readonly string[] | undefined): string[] {
  const out =
    v === undefined
      ? []
      : ([] as string[])
          .concat(v)
          .flatMap((s) => (s.includes('=') ? [s] : s.split(',')))
          .filter(Boolean);
  for (const p of out) if (p.startsWith('=')) throw new RunUsageError(`--pass-env takes NAME or NAME=VALUE, not ${JSON.stringify(p)}`);
  return out;
}

/** `--landlock on|off`. */
export function landlockFrom(v: string | undefined): boolean {
  if (v === undefined || v === 'on') return true;
  if (v === 'off') return false;
  throw new RunUsageError(`--landlock takes on or off, not ${JSON.stringify(v)}`);
}

/** The cache key's inputs: everything the compile depends on besides the disk (`bwrap`: the bubblewrap the run resolved). */
export function cacheInputs(req: RunRequest, configSha256: string, bwrap: string): CacheInputs {
  return {
    version,
    config: resolve(req.config),
    configSha256,
    home: req.home ?? homedir(),
    dialect: req.dialect ?? null,
    gatewaySocket: req.gatewaySocket ?? null,
    landlock: req.landlock,
    tybaDataDir: req.tybaDataDir ?? null,
    agentDirs: [...req.agentDirs],
    worktreeOption: req.worktree === undefined ? null : resolve(req.worktree),
    bwrap,
    boxwright: packageRoot() ?? '',
  };
}
