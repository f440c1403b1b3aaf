import type { Platform, Severity } from '../../compiler/diagnostic.js';
import { PLATFORMS } from '../../compiler/diagnostic.js';
import { counted, isUnreadable, totals, type LintEntry } from './report.js';

const icons: Record<Severity, string> = { error: '⛔', warning: '⚠️', info: 'ℹ️' };
const verdictIcons = { refused: '⛔ refused', 'accepted-with-warnings': '⚠️ accepted with warnings', accepted: '✅ accepted' } as const;

/** Table cells hold no pipes or line breaks. */
function cell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ').replace(/</g, '&lt;');
}

/** A PR comment: verdicts per file, then one short table row per diagnostic, suggestions folded. */
export function formatMarkdown(files: readonly LintEntry[], platforms: readonly Platform[] = PLATFORMS): string {
  const out: string[] = ['## boxwright lint', ''];
  const t = totals(files);
  const checked = PLATFORMS.filter((p) => platforms.includes(p));
  const skipped = PLATFORMS.filter((p) => !platforms.includes(p));
  out.push(
    `${counted(t.errors, 'error')}, ${counted(t.warnings, 'warning')}, ${t.infos} info in ` +
      `${counted(files.length, 'file')}${t.unreadable ? `, ${t.unreadable} not read` : ''}.${skipped.length ? ` Not checked: ${skipped.join(', ')}.` : ''}`,
    '',
  );
  for (const f of files) {
    out.push(`### \`${cell(f.path)}\`${isUnreadable(f) ? '' : f.dialect ? ` (${f.dialect})` : ''}`, '');
    if (isUnreadable(f)) {
      out.push(`⛔ not read: ${cell(f.error)}`, '');
      continue;
    }
    out.push(
      `| ${checked.join(' | ')} |`,
      `|${checked.map(() => '---').join('|')}|`,
      `| ${checked.map((p) => verdictIcons[f.verdicts[p]]).join(' | ')} |`,
      '',
    );
    if (!f.diagnostics.length) continue;
    out.push('| | line | rule | platforms | message |', '|---|---|---|---|---|');
    for (const d of f.diagnostics)
      out.push(
        `| ${icons[d.severity]} | ${d.span.start.line}:${d.span.start.column} | \`${d.ruleId}\` | ${d.platforms.join(', ')} | ${cell(d.message)} |`,
      );
    const suggestions = f.diagnostics.filter((d) => d.suggestion);
    if (suggestions.length) {
      out.push('', '<details><summary>Suggestions</summary>', '');
      for (const d of suggestions) out.push(`- line ${d.span.start.line}, \`${d.ruleId}\`: ${cell(d.suggestion!)}`);
      out.push('', '</details>');
    }
    out.push('');
  }
  return out.join('\n');
}
