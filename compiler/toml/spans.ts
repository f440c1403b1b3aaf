/**
 * Positions from offsets. The lexer tracks offsets only (its per-token line
 * tracking costs more than it saves); lines and columns come from a table of
 * line starts, looked up with a cursor that moves forward as the parser does.
 * Lines and columns are 1-based and count UTF-16 code units; `end` is
 * exclusive. A line ends at LF (so CRLF counts once; a lone CR is no line end).
 */
import type { IToken } from 'chevrotain';
import type { Position, Span } from '../span.js';

export class LineTable {
  /** starts[i] is the offset where line i + 1 begins. */
  readonly starts: number[];
  private cursor = 0;

  constructor(readonly text: string) {
    const starts = [0];
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    this.starts = starts;
  }

  /** 0-based index of the line holding `offset`. */
  lineIndex(offset: number): number {
    const s = this.starts;
    let i = this.cursor;
    if (offset >= s[i]!) {
      const n = s.length;
      while (i + 1 < n && s[i + 1]! <= offset) {
        i++;
        // far jumps: binary search instead of walking
        if (i + 8 < n && s[i + 8]! <= offset) {
          i = this.search(offset, i, n - 1);
          break;
        }
      }
    } else {
      i = this.search(offset, 0, i);
    }
    this.cursor = i;
    return i;
  }

  private search(offset: number, lo: number, hi: number): number {
    const s = this.starts;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (s[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  pos(offset: number): Position {
    const i = this.lineIndex(offset);
    return { offset, line: i + 1, column: offset - this.starts[i]! + 1 };
  }

  span(start: number, end: number): Span {
    const i = this.lineIndex(start);
    const s = this.starts;
    const lineStart = s[i]!;
    const a: Position = { offset: start, line: i + 1, column: start - lineStart + 1 };
    if (i + 1 >= s.length || end < s[i + 1]!) {
      return { start: a, end: { offset: end, line: i + 1, column: end - lineStart + 1 } };
    }
    return { start: a, end: this.pos(end) };
  }

  line(offset: number): number {
    return this.lineIndex(offset) + 1;
  }

  /** The position just after the end of the text. */
  end(): Position {
    return this.pos(this.text.length);
  }
}

export function tokenEnd(t: IToken): number {
  return t.startOffset + t.image.length;
}

/** The end of a token without the blanks some tokens take along (`= `, `, `). */
export function visibleEnd(t: IToken): number {
  const img = t.image;
  let n = img.length;
  while (n > 1) {
    const c = img.charCodeAt(n - 1);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
    n--;
  }
  return t.startOffset + n;
}

/** The start of a token without the blanks some tokens take along (` = `). */
export function visibleStart(t: IToken): number {
  const img = t.image;
  let i = 0;
  while (i < img.length - 1 && (img.charCodeAt(i) === 0x20 || img.charCodeAt(i) === 0x09)) i++;
  return t.startOffset + i;
}

export function pointSpan(p: Position): Span {
  return { start: p, end: p };
}
