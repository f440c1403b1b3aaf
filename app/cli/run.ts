import { readInput } from '../input/read-input.js';
import { hostRuntime } from '../../targets/run/load.js';
import type { CliIo } from './io.js';
import { configReader } from './options.js';
import { NOT_RUN, runRequest, say, type RunArgs } from './run-common.js';

export { NOT_EXECUTABLE, NOT_FOUND, NOT_RUN, type RunArgs } from './run-common.js';

/**
 * `boxwright run CONFIG [--principal P] -- CMD ARGS…`: compiles the config
 * for this machine's platform and runs CMD inside that sandbox, returning
 * its exit status. Fail-closed: when the sandbox cannot be made, the
 * command does not run; boxwright never runs it unsandboxed. Each
 * platform's runner is its own (targets/<os>/run/runner.ts, listed in
 * targets/units.ts); on Linux the sandbox is compiled into a
 * runnable directory (cached) and run by its launcher. The command runs
 * with the process's own standard streams, environment and directory
 * (descriptors are handed on, not copied), so `run` is the real process's
 * alone: `io` is not read (tests run it spawned).
 */
export async function runCommand(args: RunArgs, _io: CliIo): Promise<number> {
  // Every usage error before anything else, exit 2 (main.ts): the options
  // (runRequest), then the filesystem view they name (--fs, --home: the runner's reader).
  const asked = runRequest(args);
  const host = hostRuntime();
  const run = host ? (await host.runtime.runner()).prepare(args, asked) : undefined;
  if (!host) configReader(args);
  const input = readInput(asked.config);
  if ('error' in input) {
    say(`${input.error}; the command did not run`);
    return NOT_RUN;
  }
  if (!run) {
    say(`boxwright has no sandbox for ${process.platform}; the command did not run (it never runs one unsandboxed)`);
    return NOT_RUN;
  }
  return run(input.bytes);
}
