/**
 * Error recovery: where to resume after a syntax error.
 *
 * The rule is "skip to the next line", refined so that one mistake gives one
 * error:
 *  - inside an array or inline table, skip to the line after its closing
 *    bracket (found by a small raw scanner that knows strings and comments),
 *    so the rest of a multi-line array is not reported line by line;
 *  - lines that only continue the broken construct (start with `]`, `{`, `}`,
 *    `,`, `.` or `=`, which nothing at the top level can) are skipped too.
 * The driver then lexes afresh from there, in the lexer's default mode.
 */
import type { IToken } from 'chevrotain';
import { memberIndices, type TomlTokens } from './tokens.js';
import { work } from './work.js';

/** Open `[` / `{` of the current item before token `foundIdx`. */
export function openContainers(T: TomlTokens, tokens: readonly IToken[], from: number, foundIdx: number): string[] {
  const openArray = memberIndices(T.OpenArray);
  const openInline = memberIndices(T.OpenInline);
  const stack: string[] = [];
  for (let i = Math.max(0, from); i < foundIdx && i < tokens.length; i++) {
    const t = tokens[i]!;
    if (openArray[t.tokenTypeIdx] === true) stack.push('[');
    else if (openInline[t.tokenTypeIdx] === true) stack.push('{');
    else if (t.tokenType === T.RBracketArray || t.tokenType === T.RBrace) stack.pop();
  }
  return stack;
}

/**
 * Finds the bracket that closes all of a stack of open ones, scanning raw
 * text; remembers what earlier scans learnt, so that many errors in one
 * long unclosed construct (a file of `a = [` lines) do not each scan to the
 * end of the file.
 *
 * What is remembered: line starts that a scan which reached the end of the
 * file passed outside strings and comments, after which its stack never
 * went below the depth it had there. Any later scan that reaches such a line
 * start (also outside strings and comments) reads the same characters from
 * there on, only pops what it pushes after it, and so reaches the end of the
 * file as well.
 */
export class CloseScanner {
  private readonly noCloseAfter = new Set<number>();

  constructor(private readonly text: string) {}

  /** Offset of the bracket that closes all of `stack`, scanning from `from`; -1 if none (end of file, or a mismatched bracket). */
  scan(from: number, stack: readonly string[]): number {
    const text = this.text;
    const n = text.length;
    const st = stack.slice();
    // line starts passed outside strings and comments, the depth there, and the lowest depth until the next one
    const marks: number[] = [];
    const depths: number[] = [];
    const lows: number[] = [];
    let i = from;
    let close = -1;
    let atEnd = false;
    for (;;) {
      if (i >= n) {
        atEnd = true;
        break;
      }
      const c = text.charCodeAt(i);
      if (c === 0x0a) {
        i++;
        marks.push(i);
        depths.push(st.length);
        lows.push(st.length);
        if (this.noCloseAfter.has(i)) {
          atEnd = true;
          break;
        }
        continue;
      }
      if (c === 0x23) {
        // a comment, up to its newline
        const nl = text.indexOf('\n', i);
        if (nl < 0) {
          i = n;
          continue;
        }
        i = nl;
        continue;
      }
      if (c === 0x22 || c === 0x27) {
        const after = skipString(text, i, c);
        i = after < 0 ? n : after;
        continue;
      }
      if (c === 0x5b || c === 0x7b) st.push(c === 0x5b ? '[' : '{');
      else if (c === 0x5d || c === 0x7d) {
        if (st[st.length - 1] !== (c === 0x5d ? '[' : '{')) break;
        st.pop();
        const k = lows.length - 1;
        if (k >= 0 && st.length < lows[k]!) lows[k] = st.length;
        if (st.length === 0) {
          close = i;
          break;
        }
      }
      i++;
    }
    work.scannedChars += i - from;
    if (atEnd) {
      let low = Infinity;
      for (let k = marks.length - 1; k >= 0; k--) {
        low = Math.min(low, lows[k]!);
        if (low >= depths[k]!) this.noCloseAfter.add(marks[k]!);
      }
    }
    return close;
  }
}

/** Index just after the string starting at `i` (single-line strings end at the line end). */
function skipString(text: string, i: number, q: number): number {
  const n = text.length;
  if (text.charCodeAt(i + 1) === q && text.charCodeAt(i + 2) === q) {
    let j = i + 3;
    while (j < n) {
      const c = text.charCodeAt(j);
      if (c === 0x5c && q === 0x22) j += 2;
      else if (c === q && text.charCodeAt(j + 1) === q && text.charCodeAt(j + 2) === q) {
        j += 3;
        while (text.charCodeAt(j) === q) j++;
        return j;
      } else j++;
    }
    return -1;
  }
  let j = i + 1;
  while (j < n) {
    const c = text.charCodeAt(j);
    if (c === 0x0a) return j;
    if (c === 0x5c && q === 0x22) j += 2;
    else if (c === q) return j + 1;
    else j++;
  }
  return n;
}

const KEY_PART = String.raw`(?:[A-Za-z0-9_-]+|"(?:[^"\\\n]|\\.)*"|'[^'\n]*')`;
const LINE_START = new RegExp(String.raw`[ \t]*(?:\[|${KEY_PART}(?:[ \t]*\.[ \t]*${KEY_PART})*[ \t]*=)`, 'y');

/** Whether the text at `offset` looks like the start of a key/value line or a table header. */
export function looksLikeLineStart(text: string, offset: number): boolean {
  LINE_START.lastIndex = offset;
  return LINE_START.test(text);
}

/** Lines that cannot start anything at the top level: leftovers of a broken construct. */
const CONTINUATION = /[ \t]*[\]{},.=]/y;

/**
 * The offset to resume parsing at (a line start), or -1 to stop. `from` is
 * where the error was found; `closeFrom` (if the error was inside brackets)
 * where to look for their closing bracket.
 */
export function resumeOffset(scanner: CloseScanner, text: string, from: number, stack: readonly string[], closeFrom: number): number {
  let nl = text.indexOf('\n', from);
  if (nl < 0) return -1;
  if (stack.length > 0) {
    const close = scanner.scan(closeFrom, stack);
    if (close >= 0) {
      const after = text.indexOf('\n', close);
      if (after < 0) return -1;
      nl = Math.max(nl, after);
      return nl + 1;
    }
  }
  // lines that merely continue the broken construct are skipped as well
  for (;;) {
    CONTINUATION.lastIndex = nl + 1;
    if (!CONTINUATION.test(text)) return nl + 1;
    nl = text.indexOf('\n', nl + 1);
    if (nl < 0) return -1;
  }
}
