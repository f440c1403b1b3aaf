import type { Diagnostic } from '../../compiler/diagnostic.js';
import type { Span } from '../../compiler/span.js';
import type { FileReport } from './report.js';

function range(span: Span): { start: { line: number; column: number }; end: { line: number; column: number } } {
  return { start: { line: span.start.line, column: span.start.column }, end: { line: span.end.line, column: span.end.column } };
}

export function diagnosticJson(d: Diagnostic): Record<string, unknown> {
  return {
    ruleId: d.ruleId,
    severity: d.severity,
    platforms: d.platforms,
    message: d.message,
    file: d.file,
    range: range(d.span),
    related: (d.related ?? []).map((r) => ({ message: r.message, range: range(r.span) })),
    ...(d.suggestion ? { suggestion: d.suggestion } : {}),
  };
}

/** The versioned JSON shape of the design: `{version: 1, files: [...]}`. */
export function formatJson(files: readonly FileReport[]): string {
  return (
    JSON.stringify(
      {
        version: 1,
        files: files.map((f) => ({
          path: f.path,
          dialect: f.dialect ?? null,
          verdicts: f.verdicts,
          diagnostics: f.diagnostics.map(diagnosticJson),
        })),
      },
      null,
      2,
    ) + '\n'
  );
}
