import type { Platform } from '../../compiler/diagnostic.js';
import { formatText } from '../format/text.js';
import {
  landlockFrom,
  passEnvList,
  passFdList,
  principalId,
  PRINCIPAL_SPELLING,
  RunUsageError,
  type RunRequest,
} from '../../targets/linux/run/sandbox/run-request.js';
import { compileConfig, type CompileArgs, type CompileOutcome } from './compile.js';
import { homeFrom, UsageError, type ConfigReader } from './options.js';

/**
 * What every platform's runner shares (targets/<os>/run/runner.ts): the
 * arguments of `boxwright run`, its exit statuses and messages, and the
 * path from the config's bytes to a compiled sandbox (runCompiled; Linux
 * takes its own, which records the check's facts for its cache).
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
 * the sandbox's view; 123 (Linux) it ran and created a host-trusted name,
 * which the launcher moved aside (targets/linux/launcher/trust-walk.c); 2
 * usage.
 */
export const QUARANTINED = 123;
export const NOT_RUN = 125;
export const NOT_EXECUTABLE = 126;
export const NOT_FOUND = 127;

export const say = (msg: string): void => {
  process.stderr.write(`boxwright run: ${msg}\n`);
};

/** The run request of the full command line (yargs' arguments); the fast path builds the same shape (targets/linux/run/run-fast.ts). */
export function runRequest(args: RunArgs): RunRequest {
  const command = (args['--'] ?? []).map(String);
  if (!args.config) throw new UsageError('name the config: boxwright run CONFIG -- CMD [ARGS...]');
  // A tool or server has a command of its own in the config (`command`, `args`): run takes it when none follows `--`.
  if (command.length === 0 && (args.principal === undefined || args.principal === 'agent'))
    throw new UsageError(
      'name the command after --: boxwright run CONFIG -- CMD [ARGS...] (a tool or MCP server runs its ' +
        'configured `command` and `args` with --principal tool.NAME|mcp.NAME and no --)',
    );
  const socket = args['gateway-socket'];
  if (socket !== undefined && !socket.startsWith('/'))
    throw new UsageError(`--gateway-socket must be an absolute path, not ${JSON.stringify(socket)}`);
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
      bwrap: args.bwrap,
    };
  } catch (e) {
    if (e instanceof RunUsageError) throw new UsageError(e.message);
    throw e;
  }
}

/** A refused or invalid config: its errors for this platform, and that nothing ran. */
export function refused(outcome: Extract<CompileOutcome, { ok: false }>, platform: Platform, config: string): number {
  // A Codex config: Codex runs its own sandbox (`codex sandbox -- CMD`); boxwright only reads it.
  if (outcome.enforcer === 'codex') {
    say(`${outcome.reason}; the command did not run (Codex runs it: \`codex sandbox -- CMD\`)`);
    return 2;
  }
  const shown = outcome.check.diagnostics.filter((d) => d.severity === 'error' && d.platforms.includes(platform));
  process.stderr.write(
    formatText([
      {
        path: config,
        text: outcome.check.text,
        ...(outcome.check.dialect ? { dialect: outcome.check.dialect } : {}),
        verdicts: outcome.check.verdicts,
        diagnostics: shown,
      },
    ]),
  );
  say(
    `${outcome.check.ir ? `${platform} refuses ${config}` : `${config} has errors`}; the command did ` +
      `not run. Fix the errors above (\`boxwright lint ${config}\` explains them).`,
  );
  return NOT_RUN;
}

/** Whether the config has the principal asked for; says so when not. */
export function hasPrincipal(outcome: Extract<CompileOutcome, { ok: true }>, id: string, config: string): boolean {
  const principals = outcome.check.ir.principals.map((p) => p.id);
  if (principals.includes(id)) return true;
  say(
    `${config} has no principal ${id}${principals.length ? ` (it has: ${principals.join(', ')}; choose one with --principal ${PRINCIPAL_SPELLING})` : ''}; ` +
      `the command did not run`,
  );
  return false;
}

/**
 * The request with its command: the one after `--`, or the principal's
 * configured `command` and `args` (a tool's or MCP server's own keys);
 * undefined, said, when there is none to run.
 */
export function withCommand(outcome: Extract<CompileOutcome, { ok: true }>, req: RunRequest): RunRequest | undefined {
  if (req.command.length) return req;
  const p = outcome.check.ir.principals.find((x) => x.id === req.principal);
  const launch = p?.launch;
  const where = `${req.config}:${launch?.span.start.line ?? p?.span.start.line ?? 1}`;
  if (!launch) {
    say(
      `${req.principal} has no configured \`command\` in ${req.config} (its table at line ${p?.span.start.line ?? 1}): ` +
        `name the command after --: boxwright run ${req.config} --principal ${req.principal} -- CMD [ARGS...]; ` +
        `the command did not run`,
    );
    return undefined;
  }
  if ('problem' in launch) {
    say(
      `${req.principal}'s configured command cannot be run: ${launch.problem} (${where}); name the command ` +
        `after --, or write \`command = "PROGRAM"\` and \`args = ["ARG", …]\`; the command did not run`,
    );
    return undefined;
  }
  if (req.verbose) say(`running ${req.principal}'s configured command (${where}): ${launch.argv.map((a) => JSON.stringify(a)).join(' ')}`);
  return { ...req, command: launch.argv };
}

/** The principal's compiled sandbox, its command and its environment, as a runner starts them. */
export type RunCompiled = (
  outcome: Extract<CompileOutcome, { ok: true }>,
  id: string,
  command: string[],
  env: Record<string, string>,
) => Promise<number>;

/**
 * A run on a platform without a cache (macOS, Windows): check and compile
 * the config for `platform`, find the principal and its command, filter the
 * environment, and hand them to the platform's `run`. Fail-closed: each
 * refusal says why and returns NOT_RUN.
 */
export async function runCompiled(
  args: RunArgs,
  asked: RunRequest,
  reader: ConfigReader,
  bytes: Uint8Array,
  platform: Platform,
  run: RunCompiled,
): Promise<number> {
  const compileArgs: CompileArgs = { ...args, force: false };
  let outcome: CompileOutcome;
  try {
    outcome = await compileConfig(reader.checkRead(bytes, asked.config), platform, compileArgs);
  } catch (e) {
    if (!(e instanceof UsageError) && !(e instanceof Error && e.name === 'TargetError')) throw e;
    say(`${(e as Error).message}; the command did not run`);
    return NOT_RUN;
  }
  if (!outcome.ok) return refused(outcome, platform, asked.config);
  if (!hasPrincipal(outcome, asked.principal, asked.config)) return NOT_RUN;
  const req = withCommand(outcome, asked);
  if (!req) return NOT_RUN;
  const { sandboxEnv } = await import('../../targets/run/env.js');
  const env = sandboxEnv(process.env, req.passEnv);
  if (req.verbose && env.withheld.length)
    say(
      `withholding ${env.withheld.length} environment variable${env.withheld.length > 1 ? 's' : ''}: ${env.withheld.join(', ')} ` +
        `(--pass-env NAME lets one through)`,
    );
  return run(outcome, req.principal, [...req.command], env.env);
}
