import kleur from 'kleur';
import type { Diagnostic, Platform, Severity, Verdict } from '../../compiler/diagnostic.js';
import { PLATFORMS } from '../../compiler/diagnostic.js';
import { codeFrame } from './frame.js';
import { groupFindings } from './group.js';
import type { Span } from '../../compiler/span.js';
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

/** `f.toml  info  7 findings depend on the machine (missing-path ×5, …): lines 2, 3, 5; -v lists them` */
function machineLine(path: string, ds: readonly Diagnostic[]): string {
  const rules = new Map<string, number>();
  for (const d of ds) rules.set(d.ruleId, (rules.get(d.ruleId) ?? 0) + 1);
  const byRule = [...rules].map(([id, n]) => (n > 1 ? `${id} ×${n}` : id)).join(', ');
  const lines = [...new Set(ds.map((d) => d.span.start.line))].sort((a, b) => a - b);
  const n = ds.length;
  return (
    `${kleur.bold(path)}  ${severityPaint.info('info')}  ${n} ` +
    `${n === 1 ? 'finding depends' : 'findings depend'} on the machine, which the view does not know ` +
    `(${byRule}; line${lines.length === 1 ? '' : 's'} ${lines.join(', ')}): -v lists ` +
    `${n === 1 ? 'it' : 'them'}, --fs host or --fs FILE.json decides ${n === 1 ? 'it' : 'them'}`
  );
}

/** `line 38` or `lines 38, 40, 41`: a place's column only where another place of the finding shares its line. */
function places(first: Span, also: readonly Span[]): string {
  const lines = [first, ...also].map((s) => s.start.line);
  const shared = (line: number) => lines.filter((l) => l === line).length > 1;
  const named = also.map((s) => (shared(s.start.line) ? `${s.start.line}:${s.start.column}` : `${s.start.line}`));
  return `line${named.length === 1 ? '' : 's'} ${named.join(', ')} (the same finding, ${also.length + 1} places in all)`;
}

/**
 * `file:line:col  severity  ruleId  [platforms]  message`, a code frame
 * with a caret under the exact value, related locations and the
 * suggestion; then each file's verdicts, for the platforms checked only
 * (`--platform`): a platform not checked gets no verdict. A file that could
 * not be read is named with the reason. Colours honour NO_COLOR and
 * FORCE_COLOR (kleur).
 */
export function formatText(
  files: readonly LintEntry[],
  platforms: readonly Platform[] = PLATFORMS,
  options: { readonly verbose?: boolean } = {},
): string {
  const out: string[] = [];
  for (const f of files) {
    if (isUnreadable(f)) {
      out.push(`${kleur.bold(f.path)}: ${severityPaint.error('not read')}: ${f.error}`);
      continue;
    }
    // "Depends on the machine" infos (--fs none) say one thing: one line for the file, unless -v.
    const collapsed = options.verbose ? [] : f.diagnostics.filter((d) => d.machineDependent && d.severity === 'info');
    const shown = f.diagnostics.filter((d) => !collapsed.includes(d));
    // One finding at several places (or for several platforms) is shown once, unless -v (issue 36).
    const findings = options.verbose ? shown.map((d) => ({ diagnostic: d, also: [] })) : groupFindings(shown);
    for (const { diagnostic: d, also } of findings) {
      const where = `${f.path}:${d.span.start.line}:${d.span.start.column}`;
      out.push(
        `${kleur.bold(where)}  ${severityPaint[d.severity](d.severity)}  ${kleur.dim(d.ruleId)}  [${d.platforms.join(',')}]  ${d.message}`,
      );
      const frame = codeFrame(f.text, d.span, severityPaint[d.severity]);
      if (frame) out.push(frame);
      for (const r of d.related ?? [])
        out.push(`  ${kleur.dim('related')} ${f.path}:${r.span.start.line}:${r.span.start.column}: ${r.message}`);
      if (also.length) out.push(`  ${kleur.dim('also at')} ${places(d.span, also)}`);
      if (d.suggestion) out.push(`  ${kleur.dim('suggestion')} ${d.suggestion}`);
      out.push('');
    }
    if (collapsed.length) out.push(machineLine(f.path, collapsed), '');
    const verdicts = PLATFORMS.filter((p) => platforms.includes(p))
      .map((p) => `${p} ${verdictPaint[f.verdicts[p]](f.verdicts[p])}`)
      .join(' · ');
    const skipped = PLATFORMS.filter((p) => !platforms.includes(p));
    out.push(
      `${kleur.bold(f.path)}${f.dialect ? ` (${f.dialect})` : ''}: ${verdicts}${skipped.length ? kleur.dim(` (not checked: ${skipped.join(', ')})`) : ''}`,
    );
  }
  const t = totals(files);
  out.push(
    `${t.errors} error${t.errors === 1 ? '' : 's'}, ${t.warnings} warning${t.warnings === 1 ? '' : 's'}, ${t.infos} info${unreadableText(t)}`,
  );
  return out.join('\n') + '\n';
}
