import type { Diagnostic, Platform } from '../../compiler/diagnostic.js';
import { PLATFORMS } from '../../compiler/diagnostic.js';
import type { Span } from '../../compiler/span.js';
import { isUnreadable, type LintEntry } from './report.js';

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

/**
 * The versioned JSON shape (README, "lint"). Version 2: `platforms` names
 * the platforms checked, and each file's `verdicts` holds those only (a
 * platform `--platform` left out has no verdict: absent, never guessed); a
 * file that could not be read is `{path, error}` in its place in `files`.
 */
export function formatJson(files: readonly LintEntry[], platforms: readonly Platform[] = PLATFORMS): string {
  const checked = PLATFORMS.filter((p) => platforms.includes(p));
  return (
    JSON.stringify(
      {
        version: 2,
        platforms: checked,
        files: files.map((f) =>
          isUnreadable(f)
            ? { path: f.path, error: f.error }
            : {
                path: f.path,
                dialect: f.dialect ?? null,
                verdicts: Object.fromEntries(checked.map((p) => [p, f.verdicts[p]])),
                diagnostics: f.diagnostics.map(diagnosticJson),
              },
        ),
      },
      null,
      2,
    ) + '\n'
  );
}
