import type { Platform } from '../../compiler/diagnostic.js';
import { formatText } from '../format/text.js';
import { landlockFrom, passEnvList, passFdList, principalId, RunUsageError, type RunRequest } from '../sandbox/run-request.js';
import type { CompileArgs, CompileOutcome } from './compile.js';
import { homeFrom, UsageError } from './options.js';

/**
 * What both of `boxwright run`'s platform paths share: its arguments, its
 * exit statuses and messages (run.ts runs macOS and Windows, run-linux.ts
 * Linux).
 */
export interface RunArgs extends CompileArgs {
  config?: string;
  principal?: string;
  'pass-env'?: string | string[];
  'pass-fd'?: number | number[];
  verbose?: boolean;
  '--'?: unknown[];
  /** The command line as typed (`run CONFIG … -- CMD …`), for a remedy to print changed. */
  commandLine?: readonly string[];
}

/**
 * Exit statuses of `boxwright run` besides the command's own (docker's and
 * env's convention): 125 boxwright could not run the command in a sandbox
 * (refused or invalid config, no usable bubblewrap, failed set-up) — it did
 * not run; 126 the command is not executable in the sandbox; 127 it is not in
 * the sandbox's view; 2 usage.
 */
export const NOT_RUN = 125;
export const NOT_EXECUTABLE = 126;
export const NOT_FOUND = 127;

export const say = (msg: string): void => {
  process.stderr.write(`boxwright run: ${msg}\n`);
};

/** The run request of the full command line (yargs' arguments); the fast path builds the same shape (run-fast.ts). */
export function runRequest(args: RunArgs): RunRequest {
  const command = (args['--'] ?? []).map(String);
  if (!args.config) throw new UsageError('name the config: boxwright run CONFIG -- CMD [ARGS...]');
  if (command.length === 0) throw new UsageError('name the command after --: boxwright run CONFIG -- CMD [ARGS...]');
  const socket = args['gateway-socket'];
  if (socket !== undefined && !socket.startsWith('/')) throw new UsageError(`--gateway-socket must be an absolute path, not ${JSON.stringify(socket)}`);
  try {
    return {
      config: args.config,
      principal: principalId(args.principal),
      command,
      passEnv: passEnvList(args['pass-env']),
      passFds: passFdList(args['pass-fd']),
      verbose: !!args.verbose,
      fs: args.fs,
      home: homeFrom(args.home),
      dialect: args.dialect,
      worktree: args.worktree,
      tybaDataDir: args['tyba-data-dir'],
      agentDirs: args['agent-dir'] === undefined ? [] : ([] as string[]).concat(args['agent-dir']),
      gatewaySocket: args['gateway-socket'],
      landlock: landlockFrom(args.landlock),
    };
  } catch (e) {
    if (e instanceof RunUsageError) throw new UsageError(e.message);
    throw e;
  }
}

/** A refused or invalid config: its errors for this platform, and that nothing ran. */
export function refused(outcome: Extract<CompileOutcome, { ok: false }>, platform: Platform, config: string): number {
  const shown = outcome.check.diagnostics.filter((d) => d.severity === 'error' && d.platforms.includes(platform));
  process.stderr.write(formatText([{ path: config, text: outcome.check.text, ...(outcome.check.dialect ? { dialect: outcome.check.dialect } : {}), verdicts: outcome.check.verdicts, diagnostics: shown }]));
  say(`${outcome.check.ir ? `${platform} refuses ${config}` : `${config} has errors`}; the command did not run. Fix the errors above (\`boxwright lint ${config}\` explains them).`);
  return NOT_RUN;
}

/** Whether the config has the principal asked for; says so when not. */
export function hasPrincipal(outcome: Extract<CompileOutcome, { ok: true }>, id: string, config: string): boolean {
  const principals = outcome.check.ir.principals.map((p) => p.id);
  if (principals.includes(id)) return true;
  say(`${config} has no principal ${id}${principals.length ? ` (it has: ${principals.join(', ')}; choose one with --principal agent|tool:NAME|mcp:NAME)` : ''}; the command did not run`);
  return false;
}
