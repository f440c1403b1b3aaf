import type { Severity } from '../../compiler/diagnostic.js';
import { totals, type FileReport } from './report.js';

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
export function formatGithub(files: readonly FileReport[]): string {
  const out: string[] = [];
  for (const f of files) {
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
  const verdicts = files.map((f) => `${f.path}: macos ${f.verdicts.macos}, linux ${f.verdicts.linux}, windows ${f.verdicts.windows}`);
  out.push(`boxwright: ${t.errors} error(s), ${t.warnings} warning(s), ${t.infos} notice(s) in ${files.length} file(s)`);
  out.push(...verdicts);
  return out.join('\n') + '\n';
}
