/** `boxwright run` on macOS: the compiled Seatbelt profile, run under sandbox-exec (sandbox-exec.ts). */
import { boxwrightFiles } from '../../own-package.js';
import { configReader } from '../../cli/options.js';
import { NOT_RUN, runCompiled, say, type RunCompiled } from '../../cli/run-common.js';
import type { Runner } from '../runtime.js';

export const macosRunner: Runner = {
  prepare(args, asked) {
    const reader = configReader(args, undefined, [], boxwrightFiles('macos'));
    return (bytes) => runCompiled(args, asked, reader, bytes, 'macos', runMacos);
  },
};

const runMacos: RunCompiled = async (outcome, id, command, env) => {
  const profile = outcome.artifacts.find((a) => a.name === `${id}.sb`);
  if (!profile) {
    say(`the macos target wrote no ${id}.sb; the command did not run`);
    return NOT_RUN;
  }
  const { runUnderSandboxExec } = await import('./sandbox-exec.js');
  const result = await runUnderSandboxExec({ profile: profile.content, name: `${id}.sb`, dialect: outcome.check.ir.dialect, command, env });
  if (result.kind === 'exited') return result.status;
  if (result.kind === 'no-private-dir') {
    say(`${result.message}; the command did not run`);
    return NOT_RUN;
  }
  say(`cannot start ${result.file}: ${result.message}. The command did not run.`);
  return NOT_RUN;
};
