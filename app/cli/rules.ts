import { allRules } from '../../rules/registry.js';
import { ruleDoc, severities } from '../format/rule-doc.js';
import { UsageError } from './options.js';

export async function rulesCommand(args: { id?: string; format?: 'text' | 'markdown' }): Promise<number> {
  const format = args.format ?? 'text';
  if (args.id) {
    const rule = allRules.find((r) => r.meta.id === args.id);
    if (!rule) throw new UsageError(`no rule \`${args.id}\`; \`boxwright rules\` lists them`);
    process.stdout.write(ruleDoc(rule, format) + '\n');
    return 0;
  }
  if (format === 'markdown') {
    process.stdout.write(allRules.map((r) => ruleDoc(r, 'markdown')).join('\n'));
    return 0;
  }
  const width = Math.max(...allRules.map((r) => r.meta.id.length));
  for (const r of allRules) process.stdout.write(`${r.meta.id.padEnd(width)}  ${r.meta.docs.summary}\n    ${severities(r)}\n`);
  return 0;
}
