import type { Span } from '../span.js';

/**
 * A code frame: the offending line with its number, and carets under the
 * exact span (to the end of the line when the span runs on).
 */
export function codeFrame(text: string, span: Span, paint: (s: string) => string = (s) => s): string {
  const lines = text.split(/\r?\n/);
  const lineText = lines[span.start.line - 1];
  if (lineText === undefined) return '';
  const shown = lineText.replace(/\t/g, ' ');
  const gutter = String(span.start.line);
  const startCol = Math.max(1, span.start.column);
  const endCol = span.end.line === span.start.line ? Math.max(span.end.column, startCol + 1) : shown.length + 1;
  const width = Math.max(1, Math.min(endCol, shown.length + 1) - startCol);
  const pad = ' '.repeat(gutter.length);
  return `  ${gutter} | ${visible(shown)}\n  ${pad} | ${' '.repeat(startCol - 1)}${paint('^'.repeat(width))}`;
}

/** Control characters stay visible in a terminal instead of acting on it. */
function visible(line: string): string {
  return line.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
