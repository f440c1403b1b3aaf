import kleur from 'kleur';
import type { Severity, Verdict } from '../../compiler/diagnostic.js';
import { PLATFORMS } from '../../compiler/diagnostic.js';
import { codeFrame } from './frame.js';
import { totals, type FileReport } from './report.js';

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
 * suggestion; then each file's verdicts. Colours honour NO_COLOR and
 * FORCE_COLOR (kleur).
 */
export function formatText(files: readonly FileReport[]): string {
  const out: string[] = [];
  for (const f of files) {
    for (const d of f.diagnostics) {
      const where = `${f.path}:${d.span.start.line}:${d.span.start.column}`;
      out.push(`${kleur.bold(where)}  ${severityPaint[d.severity](d.severity)}  ${kleur.dim(d.ruleId)}  [${d.platforms.join(',')}]  ${d.message}`);
      const frame = codeFrame(f.text, d.span, severityPaint[d.severity]);
      if (frame) out.push(frame);
      for (const r of d.related ?? []) out.push(`  ${kleur.dim('related')} ${f.path}:${r.span.start.line}:${r.span.start.column}: ${r.message}`);
      if (d.suggestion) out.push(`  ${kleur.dim('suggestion')} ${d.suggestion}`);
      out.push('');
    }
    const verdicts = PLATFORMS.map((p) => `${p} ${verdictPaint[f.verdicts[p]](f.verdicts[p])}`).join(' · ');
    out.push(`${kleur.bold(f.path)}${f.dialect ? ` (${f.dialect})` : ''}: ${verdicts}`);
  }
  const t = totals(files);
  out.push(`${t.errors} error${t.errors === 1 ? '' : 's'}, ${t.warnings} warning${t.warnings === 1 ? '' : 's'}, ${t.infos} info`);
  return out.join('\n') + '\n';
}
