/** `boxwright run` on macOS: the compiled Seatbelt profile, run under sandbox-exec (sandbox-exec.ts). */
import { boxwrightFiles } from '../../../app/own-package.js';
import { configReader } from '../../../app/cli/options.js';
import { NOT_RUN, runCompiled, say, type RunCompiled } from '../../../app/cli/run-common.js';
import type { Runner } from '../../run/runtime.js';

export const runner: Runner = {
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
  // Its temp directory is one the run makes: the profile names it as a parameter (TYBA's session, a Box `private_tmp = true`).
  const principal = outcome.check.ir.principals.find((p) => p.id === id);
  const privateTemp = !!principal?.grants.some((g) => g.implicit?.parameter === 'TMPDIR');
  const result = await runUnderSandboxExec({ profile: profile.content, name: `${id}.sb`, privateTemp, command, env });
  if (result.kind === 'exited') return result.status;
  if (result.kind === 'no-private-dir') {
    say(`no private directory for the run: ${result.message}. The command did not run.`);
    return NOT_RUN;
  }
  say(`cannot start ${result.file}: ${result.message}. The command did not run.`);
  return NOT_RUN;
};
