import { eastAsianWidth } from 'get-east-asian-width';
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
  const shown = visible(line);
  // Columns count UTF-16 code units; the carets go under terminal cells.
  const lead = displayWidth(shown.slice(0, Math.max(0, startCol - 1)));
  const width = Math.max(1, displayWidth(shown.slice(Math.max(0, startCol - 1), Math.max(startCol - 1, endCol - 1))));
  const gutter = String(span.start.line);
  const pad = ' '.repeat(gutter.length);
  return `  ${gutter} | ${shown}\n  ${pad} | ${' '.repeat(lead)}${paint('^'.repeat(width))}`;
}

/** Zero-width: combining marks, variation selectors, the zero-width joiner and friends. */
// One code point is tested at a time (the /u flag), so the class may list combining marks and variation selectors.
// biome-ignore lint/suspicious/noMisleadingCharacterClass: the class lists combining marks and variation selectors on purpose
const zeroWidth = /^[\p{Mn}\p{Me}\u200b-\u200f\u2060\ufe00-\ufe0f]$/u;

/**
 * The cells a terminal gives a string: East Asian wide and fullwidth
 * characters (CJK, most emoji) take two, combining marks none, the rest
 * one (Unicode's ambiguous width counts as narrow, as UAX #11 advises
 * outside an East Asian context).
 */
export function displayWidth(s: string): number {
  let n = 0;
  for (const ch of s) {
    if (zeroWidth.test(ch)) continue;
    n += eastAsianWidth(ch.codePointAt(0)!, { ambiguousAsWide: false });
  }
  return n;
}

/** Tabs become spaces (so the caret lines up); control characters stay visible instead of acting on the terminal. */
function visible(line: string): string {
  return line.replace(/\t/g, ' ').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '?');
}
