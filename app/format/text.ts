import kleur from 'kleur';
import type { Platform, Severity, Verdict } from '../../compiler/diagnostic.js';
import { PLATFORMS } from '../../compiler/diagnostic.js';
import { codeFrame } from './frame.js';
import { isUnreadable, totals, unreadableText, type LintEntry } from './report.js';

const severityPaint: Record<Severity, (s: string) => string> = {
  error: (s) => kleur.red().bold(s),
  warning: (s) => kleur.yellow().bold(s),
  info: (s) => kleur.cyan(s),
};

const verdictPaint: Record<Verdict, (s: string) => string> = {
  refused: (s) => kleur.red(s),
  'accepted-with-warnings': (s) => kleur.yellow(s),
  accepted: (s) => kleur.green(s),
};

/**
 * `file:line:col  severity  ruleId  [platforms]  message`, a code frame
 * with a caret under the exact value, related locations and the
 * suggestion; then each file's verdicts, for the platforms checked only
 * (`--platform`): a platform not checked gets no verdict. A file that could
 * not be read is named with the reason. Colours honour NO_COLOR and
 * FORCE_COLOR (kleur).
 */
export function formatText(files: readonly LintEntry[], platforms: readonly Platform[] = PLATFORMS): string {
  const out: string[] = [];
  for (const f of files) {
    if (isUnreadable(f)) {
      out.push(`${kleur.bold(f.path)}: ${severityPaint.error('not read')}: ${f.error}`);
      continue;
    }
    for (const d of f.diagnostics) {
      const where = `${f.path}:${d.span.start.line}:${d.span.start.column}`;
      out.push(`${kleur.bold(where)}  ${severityPaint[d.severity](d.severity)}  ${kleur.dim(d.ruleId)}  [${d.platforms.join(',')}]  ${d.message}`);
      const frame = codeFrame(f.text, d.span, severityPaint[d.severity]);
      if (frame) out.push(frame);
      for (const r of d.related ?? []) out.push(`  ${kleur.dim('related')} ${f.path}:${r.span.start.line}:${r.span.start.column}: ${r.message}`);
      if (d.suggestion) out.push(`  ${kleur.dim('suggestion')} ${d.suggestion}`);
      out.push('');
    }
    const verdicts = PLATFORMS.filter((p) => platforms.includes(p)).map((p) => `${p} ${verdictPaint[f.verdicts[p]](f.verdicts[p])}`).join(' · ');
    const skipped = PLATFORMS.filter((p) => !platforms.includes(p));
    out.push(`${kleur.bold(f.path)}${f.dialect ? ` (${f.dialect})` : ''}: ${verdicts}${skipped.length ? kleur.dim(` (not checked: ${skipped.join(', ')})`) : ''}`);
  }
  const t = totals(files);
  out.push(`${t.errors} error${t.errors === 1 ? '' : 's'}, ${t.warnings} warning${t.warnings === 1 ? '' : 's'}, ${t.infos} info${unreadableText(t)}`);
  return out.join('\n') + '\n';
}
