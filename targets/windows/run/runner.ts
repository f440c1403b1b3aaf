/** `boxwright run` on Windows: the ACL plan it would apply, and how to apply it (run-message.ts); it starts nothing. */
import { boxwrightFiles } from '../../../app/own-package.js';
import { configReader } from '../../../app/cli/options.js';
import { NOT_RUN, runCompiled, say, type RunCompiled } from '../../../app/cli/run-common.js';
import type { Runner } from '../../run/runtime.js';

export const runner: Runner = {
  prepare(args, asked) {
    const reader = configReader(args, undefined, [], boxwrightFiles('windows'));
    return (bytes) => runCompiled(args, asked, reader, bytes, 'windows', printWindowsPlan);
  },
};

const printWindowsPlan: RunCompiled = async (outcome) => {
  const plan = outcome.artifacts.find((a) => a.name === 'acl-plan.json');
  if (plan) {
    const { parseAclPlan, windowsRunMessage } = await import('./run-message.js');
    const text = typeof plan.content === 'string' ? plan.content : Buffer.from(plan.content).toString('utf8');
    process.stdout.write(windowsRunMessage(parseAclPlan(text)));
  }
  say('on Windows boxwright prints the ACL plan it would apply and stops (see the README); the command did not run');
  return NOT_RUN;
};
