import { PLATFORMS, type Platform } from '../../compiler/diagnostic.js';
import { compileConfig, type CompileArgs, type CompileOutcome } from './compile.js';
import { configReader, UsageError } from './options.js';
import { readInput } from '../input/read-input.js';
import { boxwrightFiles } from '../sandbox/own-package.js';
import { hasPrincipal, NOT_RUN, refused, runRequest, say, withCommand, type RunArgs } from './run-common.js';

export { NOT_EXECUTABLE, NOT_FOUND, NOT_RUN, type RunArgs } from './run-common.js';

/**
 * `boxwright run CONFIG [--principal P] -- CMD ARGS…`: compiles the config
 * for this machine's platform and runs CMD inside that sandbox, returning
 * its exit status. Fail-closed: when the sandbox cannot be made, the
 * command does not run; boxwright never runs it unsandboxed. On Linux the
 * sandbox is compiled into a runnable directory (cached) and run by its
 * launcher (run-linux.ts).
 */
export async function runCommand(args: RunArgs): Promise<number> {
  // Every usage error before anything else, exit 2 (main.ts): the options
  // (runRequest), then the filesystem view they name (--fs, --home).
  const asked = runRequest(args);
  const platform: Platform | undefined = PLATFORMS.find((p) => runners[p]?.system === process.platform);
  const linux = platform === 'linux' ? await import('./run-linux.js') : undefined;
  // What the host trusts after a run besides the config: boxwright itself (on Linux also bubblewrap: run-linux.ts).
  const linuxReader = linux?.linuxReader(args, asked);
  const reader = linuxReader ?? { reader: configReader(args, undefined, [], platform ? boxwrightFiles(platform) : []) };
  const input = readInput(asked.config);
  if ('error' in input) {
    say(`${input.error}; the command did not run`);
    return NOT_RUN;
  }
  if (!platform) {
    say(`boxwright has no sandbox for ${process.platform}; the command did not run (it never runs one unsandboxed)`);
    return NOT_RUN;
  }
  if (linux && linuxReader) return linux.runLinux(args, asked, linuxReader, input.bytes);
  const compileArgs: CompileArgs = { ...args, force: false };
  let outcome: CompileOutcome;
  try {
    outcome = await compileConfig(reader.reader.checkRead(input.bytes, asked.config), platform, compileArgs);
  } catch (e) {
    if (!(e instanceof UsageError) && !(e instanceof Error && e.name === 'TargetError')) throw e;
    say(`${(e as Error).message}; the command did not run`);
    return NOT_RUN;
  }
  if (!outcome.ok) return refused(outcome, platform, asked.config);
  if (!hasPrincipal(outcome, asked.principal, asked.config)) return NOT_RUN;
  const withCmd = withCommand(outcome, asked);
  if (!withCmd) return NOT_RUN;
  const req = withCmd;
  const { sandboxEnv } = await import('../../targets/runner/env.js');
  const env = sandboxEnv(process.env, req.passEnv);
  if (req.verbose && env.withheld.length)
    say(
      `withholding ${env.withheld.length} environment variable${env.withheld.length > 1 ? 's' : ''}: ${env.withheld.join(', ')} (--pass-env NAME lets one through)`,
    );
  return runners[platform]!.run(outcome, req.principal, [...req.command], env.env);
}

interface Runner {
  /** The operating system (Node's `process.platform`) the platform's sandbox runs on. */
  readonly system: NodeJS.Platform;
  /** What runs the compiled sandbox, after compileConfig. */
  run(outcome: Extract<CompileOutcome, { ok: true }>, id: string, command: string[], env: Record<string, string>): Promise<number>;
}

/** Each platform's runner; undefined: boxwright runs no command there. */
const runners: Readonly<Record<Platform, Runner | undefined>> = {
  macos: { system: 'darwin', run: runMacos },
  // The launcher runs it (run-linux.ts, above): this path is never taken there, and fails closed if it is.
  linux: {
    system: 'linux',
    run: async () => {
      say('the Linux sandbox runs through its launcher (run-linux.ts); the command did not run');
      return NOT_RUN;
    },
  },
  windows: { system: 'win32', run: (outcome) => printWindowsPlan(outcome) },
};

async function runMacos(
  outcome: Extract<CompileOutcome, { ok: true }>,
  id: string,
  command: string[],
  env: Record<string, string>,
): Promise<number> {
  const profile = outcome.artifacts.find((a) => a.name === `${id}.sb`);
  if (!profile) {
    say(`the macos target wrote no ${id}.sb; the command did not run`);
    return NOT_RUN;
  }
  const { runUnderSandboxExec } = await import('../../targets/runner/macos.js');
  const result = await runUnderSandboxExec({ profile: profile.content, name: `${id}.sb`, dialect: outcome.check.ir.dialect, command, env });
  if (result.kind === 'exited') return result.status;
  say(`cannot start ${result.file}: ${result.message}. The command did not run.`);
  return NOT_RUN;
}

async function printWindowsPlan(outcome: Extract<CompileOutcome, { ok: true }>): Promise<number> {
  const plan = outcome.artifacts.find((a) => a.name === 'acl-plan.json');
  if (plan) {
    const { parseAclPlan, windowsRunMessage } = await import('../../targets/runner/windows.js');
    const text = typeof plan.content === 'string' ? plan.content : Buffer.from(plan.content).toString('utf8');
    process.stdout.write(windowsRunMessage(parseAclPlan(text)));
  }
  say('on Windows boxwright prints the ACL plan it would apply and stops (see the README); the command did not run');
  return NOT_RUN;
}
