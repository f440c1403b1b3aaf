/** `boxwright run` on Windows: the ACL plan it would apply, and how to apply it (run-message.ts); it starts nothing. */
import { boxwrightFiles } from '../../own-package.js';
import { configReader } from '../../cli/options.js';
import { NOT_RUN, runCompiled, say, type RunCompiled } from '../../cli/run-common.js';
import type { Runner } from '../runtime.js';

export const windowsRunner: Runner = {
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
