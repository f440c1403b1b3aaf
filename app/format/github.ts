import type { Platform, Severity } from '../../compiler/diagnostic.js';
import { PLATFORMS } from '../../compiler/diagnostic.js';
import { counted, isUnreadable, totals, type LintEntry } from './report.js';

const commands: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice' };

/** Workflow-command data: `%`, CR and LF are escaped everywhere. */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Property values also escape `:` and `,`, which delimit properties. */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * GitHub Actions annotations (`::error file=…,line=…::…`), then a summary
 * line, since GitHub shows only the first ten annotations of each kind.
 */
export function formatGithub(files: readonly LintEntry[], platforms: readonly Platform[] = PLATFORMS): string {
  const out: string[] = [];
  const checked = PLATFORMS.filter((p) => platforms.includes(p));
  for (const f of files) {
    if (isUnreadable(f)) {
      out.push(
        `::error file=${escapeProperty(f.path)},title=${escapeProperty('boxwright: file not read')}::${escapeData(`cannot read ${f.path}: ${f.error}`)}`,
      );
      continue;
    }
    for (const d of f.diagnostics) {
      const props = [
        `file=${escapeProperty(f.path)}`,
        `line=${d.span.start.line}`,
        `endLine=${d.span.end.line}`,
        `col=${d.span.start.column}`,
        `endColumn=${d.span.end.column}`,
        `title=${escapeProperty(`boxwright ${d.ruleId} [${d.platforms.join(',')}]`)}`,
      ].join(',');
      out.push(`::${commands[d.severity]} ${props}::${escapeData(d.message + (d.suggestion ? `\n${d.suggestion}` : ''))}`);
    }
  }
  const t = totals(files);
  const verdicts = files.map((f) =>
    isUnreadable(f) ? `${f.path}: not read (${f.error})` : `${f.path}: ${checked.map((p) => `${p} ${f.verdicts[p]}`).join(', ')}`,
  );
  const skipped = PLATFORMS.filter((p) => !platforms.includes(p));
  out.push(
    `boxwright: ${counted(t.errors, 'error')}, ${counted(t.warnings, 'warning')}, ` +
      `${counted(t.infos, 'notice')} in ` +
      `${counted(files.length, 'file')}${t.unreadable ? `, ${t.unreadable} not read` : ''}${skipped.length ? ` (not checked: ${skipped.join(', ')})` : ''}`,
  );
  out.push(...verdicts);
  return out.join('\n') + '\n';
}
