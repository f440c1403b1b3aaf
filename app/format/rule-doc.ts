import type { DocExample, Rule } from '../../rules/engine/engine.js';

/** The machine fact an example is about, said beside it. */
const machineNote = (e: DocExample): string =>
  (e.landlockAbi === undefined ? '' : ` (on a kernel with Landlock ABI ${e.landlockAbi})`) +
  (e.readFrom === undefined ? '' : ` (read from ${e.readFrom})`);

/** `linux error, windows warning` (or `error/warning` where messages differ), from the rule's message table. */
export function severities(rule: Rule): string {
  const order = ['error', 'warning', 'info'];
  const by = new Map<string, Set<string>>();
  for (const m of Object.values(rule.messages)) for (const p of m.platforms) by.set(p, (by.get(p) ?? new Set()).add(m.severity));
  return [...by].map(([p, s]) => `${p} ${[...s].sort((a, b) => order.indexOf(a) - order.indexOf(b)).join('/')}`).join(', ');
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
      `- Source: ${m.seedRow}`,
      `- Severity: ${severities(rule)}`,
      `- Dialects: ${dialects}`,
      '',
      m.docs.details,
      '',
      `Fails${machineNote(m.docs.bad)}:`,
      fence(m.docs.bad.toml),
      m.docs.bad.toml,
      '```',
      `Passes${machineNote(m.docs.good)}:`,
      fence(m.docs.good.toml),
      m.docs.good.toml,
      '```',
      '',
    ].join('\n');
  }
  const indent = (s: string) =>
    s
      .split('\n')
      .map((l) => `    ${l}`)
      .join('\n');
  return [
    `${m.id}: ${m.docs.summary}`,
    '',
    `  source:    ${m.seedRow}`,
    `  severity:  ${severities(rule)}`,
    `  dialects:  ${dialects}`,
    '',
    m.docs.details.replace(/(.{1,96})(\s+|$)/g, '  $1\n').trimEnd(),
    '',
    `  fails${machineNote(m.docs.bad)}:`,
    indent(m.docs.bad.toml),
    '',
    `  passes${machineNote(m.docs.good)}:`,
    indent(m.docs.good.toml),
    '',
  ].join('\n');
}

/** What `boxwright rules` renders: the catalog, or one rule of it. */
export interface RulesOutput {
  readonly rules: readonly Rule[];
  /** One rule's documentation; the whole catalog when absent. */
  readonly only?: Rule;
}

/** The catalog as a list (id, summary, severities), or one rule's documentation. */
export function rulesText(o: RulesOutput): string {
  if (o.only) return ruleDoc(o.only, 'text') + '\n';
  const width = Math.max(...o.rules.map((r) => r.meta.id.length));
  return o.rules.map((r) => `${r.meta.id.padEnd(width)}  ${r.meta.docs.summary}\n    ${severities(r)}\n`).join('');
}

/** Every rule's documentation in Markdown (the catalog page), or one rule's. */
export function rulesMarkdown(o: RulesOutput): string {
  return o.only ? ruleDoc(o.only, 'markdown') + '\n' : o.rules.map((r) => ruleDoc(r, 'markdown')).join('\n');
}

/** A doc example's code fence: JSON for the settings dialects' examples (they start with `{`), TOML otherwise. */
function fence(example: string): string {
  return example.trimStart().startsWith('{') ? '```json' : '```toml';
}
