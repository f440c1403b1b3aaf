import type { Severity } from '../../compiler/diagnostic.js';
import { PLATFORMS } from '../../compiler/diagnostic.js';
import { totals, type FileReport } from './report.js';

const icons: Record<Severity, string> = { error: '⛔', warning: '⚠️', info: 'ℹ️' };
const verdictIcons = { refused: '⛔ refused', 'accepted-with-warnings': '⚠️ accepted with warnings', accepted: '✅ accepted' } as const;

/** Table cells hold no pipes or line breaks. */
function cell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ').replace(/</g, '&lt;');
}

/** A PR comment: verdicts per file, then one short table row per diagnostic, suggestions folded. */
export function formatMarkdown(files: readonly FileReport[]): string {
  const out: string[] = ['## boxwright lint', ''];
  const t = totals(files);
  out.push(`${t.errors} error(s), ${t.warnings} warning(s), ${t.infos} info in ${files.length} file(s).`, '');
  for (const f of files) {
    out.push(`### \`${f.path}\`${f.dialect ? ` (${f.dialect})` : ''}`, '');
    out.push(`| ${PLATFORMS.join(' | ')} |`, `|${PLATFORMS.map(() => '---').join('|')}|`, `| ${PLATFORMS.map((p) => verdictIcons[f.verdicts[p]]).join(' | ')} |`, '');
    if (!f.diagnostics.length) continue;
    out.push('| | line | rule | platforms | message |', '|---|---|---|---|---|');
    for (const d of f.diagnostics) out.push(`| ${icons[d.severity]} | ${d.span.start.line}:${d.span.start.column} | \`${d.ruleId}\` | ${d.platforms.join(', ')} | ${cell(d.message)} |`);
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
