import type { Rule } from '../../rules/engine.js';

/** `linux error, windows warning`. */
export function severities(rule: Rule): string {
  return Object.entries(rule.meta.severity).map(([p, s]) => `${p} ${s}`).join(', ');
}

/** A rule's documentation, for `boxwright rules ID` and SARIF's help text. */
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

