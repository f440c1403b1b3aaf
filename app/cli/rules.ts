import { allRules } from '../../rules/engine/registry.js';
import { formats, renderer } from '../format/registry.js';
import type { CliIo } from './io.js';
import { UsageError } from './options.js';

export async function rulesCommand(args: { id?: string; format?: string }, io: CliIo): Promise<number> {
  const only = args.id === undefined ? undefined : allRules.find((r) => r.meta.id === args.id);
  if (args.id !== undefined && !only) throw new UsageError(`no rule \`${args.id}\`; \`boxwright rules\` lists them`);
  const render = await renderer(formats.rules, args.format);
  io.stdout.write(render({ rules: allRules, ...(only ? { only } : {}) }));
  return 0;
}
