import { allRules } from '../../rules/registry.js';
import type { Rule } from '../../rules/engine.js';
import { UsageError } from './options.js';

function severities(rule: Rule): string {
  return Object.entries(rule.meta.severity).map(([p, s]) => `${p} ${s}`).join(', ');
}

export function ruleDoc(rule: Rule, format: 'text' | 'markdown'): string {
  const m = rule.meta;
  const dialects = m.dialects ? m.dialects.join(', ') : 'box, tyba';
  if (format === 'markdown') {
    return [
      `## \`${m.id}\``,
      '',
      m.docs.summary,
      '',
      `- Seed row: ${m.seedRow}`,
      `- Severity: ${severities(rule)}`,
      `- Dialects: ${dialects}`,
      '',
      m.docs.details,
      '',
      'Fails:',
      '```toml',
      m.docs.bad,
      '```',
      'Passes:',
      '```toml',
      m.docs.good,
      '```',
      '',
    ].join('\n');
  }
  const indent = (s: string) => s.split('\n').map((l) => `    ${l}`).join('\n');
  return [
    `${m.id}: ${m.docs.summary}`,
    '',
    `  seed row:  ${m.seedRow}`,
    `  severity:  ${severities(rule)}`,
    `  dialects:  ${dialects}`,
    '',
    m.docs.details.replace(/(.{1,96})(\s+|$)/g, '  $1\n').trimEnd(),
    '',
    '  fails:',
    indent(m.docs.bad),
    '',
    '  passes:',
    indent(m.docs.good),
    '',
  ].join('\n');
}

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
