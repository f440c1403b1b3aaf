import type { Diagnostic, Platform } from '../../compiler/diagnostic.js';
import { PLATFORMS } from '../../compiler/diagnostic.js';
import type { Span } from '../../compiler/span.js';
import { fixOut, lineIndex, type LineColumn } from './fix-edits.js';
import { isUnreadable, type LintEntry } from './report.js';

function range(span: Span): { start: { line: number; column: number }; end: { line: number; column: number } } {
  return { start: { line: span.start.line, column: span.start.column }, end: { line: span.end.line, column: span.end.column } };
}

/**
 * One diagnostic. Its fix, when it has one, is `{applicability, edits:
 * [{range, newText}]}`: each range in the diagnostic's own convention,
 * read off `at` (the offsets of the file's text as lines and columns).
 */
export function diagnosticJson(d: Diagnostic, at: (offset: number) => LineColumn): Record<string, unknown> {
  const fix = fixOut(d, at);
  return {
    ruleId: d.ruleId,
    severity: d.severity,
    platforms: d.platforms,
    message: d.message,
    file: d.file,
    range: range(d.span),
    related: (d.related ?? []).map((r) => ({ message: r.message, range: range(r.span) })),
    ...(d.suggestion ? { suggestion: d.suggestion } : {}),
    ...(fix
      ? {
          fix: {
            applicability: fix.applicability,
            edits: fix.edits.map((e) => ({ range: { start: e.start, end: e.end }, newText: e.newText })),
          },
        }
      : {}),
  };
}

/**
 * The versioned JSON shape (README, "lint"). Version 2: `platforms` names
 * the platforms checked, and each file's `verdicts` holds those only (a
 * platform `--platform` left out has no verdict: absent, never guessed); a
 * file that could not be read is `{path, error}` in its place in `files`.
 * A diagnostic's `fix` (issue 40) is an optional field added within version
 * 2: nothing that version 2 had changed meaning or went away, so a reader
 * of version 2 reads it as before (the version counts breaking changes).
 */
export function formatJson(files: readonly LintEntry[], platforms: readonly Platform[] = PLATFORMS): string {
  const checked = PLATFORMS.filter((p) => platforms.includes(p));
  return (
    JSON.stringify(
      {
        version: 2,
        platforms: checked,
        files: files.map((f) => {
          if (isUnreadable(f)) return { path: f.path, error: f.error };
          const at = lineIndex(f.text);
          return {
            path: f.path,
            dialect: f.dialect ?? null,
            verdicts: Object.fromEntries(checked.map((p) => [p, f.verdicts[p]])),
            diagnostics: f.diagnostics.map((d) => diagnosticJson(d, at)),
          };
        }),
      },
      null,
      2,
    ) + '\n'
  );
}
