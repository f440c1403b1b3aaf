import type { Span } from '../../compiler/span.js';

/** Lines longer than this are shown as a window around the span. */
const maxShown = 120;

/**
 * A code frame: the offending line with its number, and carets under the
 * exact span (to the end of the line when the span runs on). A long line
 * is cut to a window around the span, so a 1 MB line stays one screen.
 */
export function codeFrame(text: string, span: Span, paint: (s: string) => string = (s) => s): string {
  const lineStart = span.start.offset - (span.start.column - 1);
  if (lineStart < 0 || lineStart > text.length) return '';
  let lineEnd = text.indexOf('\n', lineStart);
  if (lineEnd < 0) lineEnd = text.length;
  let line = text.slice(lineStart, lineEnd).replace(/\r$/, '');
  let startCol = Math.max(1, span.start.column);
  let endCol = span.end.line === span.start.line ? Math.max(span.end.column, startCol + 1) : line.length + 1;
  endCol = Math.min(endCol, line.length + 1);
  let prefix = '';
  if (line.length > maxShown) {
    const from = Math.max(0, Math.min(startCol - 1 - 20, line.length - maxShown));
    const to = Math.min(line.length, from + maxShown);
    prefix = from > 0 ? '…' : '';
    const suffix = to < line.length ? '…' : '';
    line = prefix + line.slice(from, to) + suffix;
    startCol = startCol - from + prefix.length;
    endCol = Math.min(endCol - from + prefix.length, line.length + 1 - suffix.length);
  }
  const width = Math.max(1, endCol - startCol);
  const gutter = String(span.start.line);
  const pad = ' '.repeat(gutter.length);
  return `  ${gutter} | ${visible(line)}\n  ${pad} | ${' '.repeat(Math.max(0, startCol - 1))}${paint('^'.repeat(width))}`;
}

/** Tabs become spaces (so the caret lines up); control characters stay visible instead of acting on the terminal. */
function visible(line: string): string {
  return line.replace(/\t/g, ' ').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '?');
}
