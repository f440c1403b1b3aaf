/**
 * The parse loop. The text is lexed and parsed in windows of about 64 KiB
 * that end at a line start, so that tokens die young and no step ever has
 * to look at more than the window it is in:
 *
 *  - a window whose last item does not end in it (a multi-line array or
 *    string crossing its end) is parsed again from that item's start in a
 *    window twice the size, so the re-lexed text is a geometric series:
 *    linear in the document, however long the item;
 *  - a syntax error is reported, recovery.ts says where to resume, and the
 *    next window starts there, freshly lexed in the lexer's default mode
 *    (which is where the lexer would be after a clean line start). Re-lexing
 *    a small window instead of the rest of the file keeps error recovery
 *    linear too.
 *
 * Every window starts where lexing from the start of the file would be in the
 * default mode, so the tokens, errors and comments are those of parsing the
 * whole text in one piece (the tests compare both). At most one error per
 * line is kept.
 */
import type { IToken, TokenType } from 'chevrotain';
import type { Span } from '../span.js';
import type { TomlComment, TomlError, TomlTable } from './ast.js';
import { Builder, newTable } from './builder.js';
import { chevrotain } from './chevrotain.js';
import { describeCodePoint, Expect, syntaxMessage, TomlSyntaxError } from './errors.js';
import { type Lexed, lexToml } from './lexer.js';
import { tomlParser, type TomlParser } from './parser.js';
import { CloseScanner, looksLikeLineStart, openContainers, resumeOffset } from './recovery.js';
import { LineTable, pointSpan, tokenEnd, visibleEnd, visibleStart } from './spans.js';
import { memberIndices, tomlTokens, type TomlTokens } from './tokens.js';
import { work } from './work.js';

/** At most this many errors are reported (one per line); the rest of the file is not looked at. */
const MAX_ERRORS = 100;
const ORIGIN = { offset: 0, line: 1, column: 1 } as const;
/** The usual window. */
const WINDOW = 64 * 1024;
/** The first window after a syntax error (most errors are followed by more of the same). */
const RECOVERY_WINDOW = 4 * 1024;

/** Sorted by position, at most one error per line. */
export function finishErrors(errors: readonly TomlError[]): TomlError[] {
  const sorted = errors.slice().sort((a, b) => a.span.start.offset - b.span.start.offset);
  const out: TomlError[] = [];
  let lastLine = -1;
  for (const e of sorted) {
    if (e.span.start.line === lastLine) continue;
    lastLine = e.span.start.line;
    out.push(e);
  }
  return out;
}

/** Lexes `text` from offset `from` (a point where the lexer is in its default mode) up to `to`. */
function lex(T: TomlTokens, text: string, from: number, to: number): Lexed {
  work.lexCalls++;
  work.lexedChars += to - from;
  return lexToml(T, text, from, to);
}

/**
 * Where a window that starts at `from` ends: the line start about `size`
 * later, preferably a `[` line. The header search is bounded by the window:
 * searching to the end of the file for every window would be quadratic.
 */
function windowEnd(text: string, from: number, size: number): number {
  const n = text.length;
  const target = from + size;
  if (target >= n) return n;
  const ahead = text.slice(target, Math.min(n, target + size + 1));
  work.searchedChars += ahead.length;
  const header = ahead.indexOf('\n[');
  if (header >= 0) return target + header + 1;
  const nl = text.indexOf('\n', target);
  work.searchedChars += (nl < 0 ? n : nl) - target;
  return nl < 0 ? n : nl + 1;
}

/** Index of the first token that starts at or after `offset`. */
function tokenIndexAt(tokens: readonly IToken[], offset: number): number {
  let lo = 0;
  let hi = tokens.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (tokens[mid]!.startOffset < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

interface Failure {
  found: IToken | undefined;
  expect: Expect;
  message: string;
}

function runParser(parser: TomlParser, EOF: TokenType): Failure | undefined {
  try {
    parser.document();
  } catch (e) {
    if (e instanceof TomlSyntaxError) return { found: e.token, expect: e.expect ?? parser.expect, message: e.message };
    if (e instanceof RangeError) {
      return { found: parser.peek(), expect: parser.expect, message: 'the document is nested too deeply to parse' };
    }
    throw e;
  }
  const errs = parser.errors;
  if (errs.length === 0) return undefined;
  const e = errs[0]!;
  const expect = e.name === 'NotAllInputParsedException' ? Expect.LineStart : parser.expect;
  return { found: e.token.tokenType === EOF ? undefined : e.token, expect, message: '' };
}

/**
 * Parses decoded text; pushes errors and comments; the root table if there
 * were no errors. `window` is for the tests (a tiny window crosses every
 * construct; `Infinity` parses in one piece).
 */
export function parseText(text: string, errors: TomlError[], comments: TomlComment[], window = WINDOW): TomlTable | undefined {
  const T = tomlTokens();
  const parser = tomlParser(T);
  const lines = new LineTable(text);
  try {
    return parseWindows(text, T, parser, lines, errors, comments, Math.max(1, window));
  } finally {
    parser.end();
  }
}

function parseWindows(
  text: string,
  T: TomlTokens,
  parser: TomlParser,
  lines: LineTable,
  errors: TomlError[],
  comments: TomlComment[],
  window: number,
): TomlTable | undefined {
  const EOF = chevrotain().EOF;
  const newlineIdx = memberIndices(T.Newline);
  const keyPartIdx = memberIndices(T.KeyPart);
  const isNewline = (t: IToken | undefined): boolean => t !== undefined && newlineIdx[t.tokenTypeIdx] === true;
  const n = text.length;
  const builder = new Builder(errors, { start: ORIGIN, end: ORIGIN });
  parser.begin(builder, errors, lines);
  const commentTokens: IToken[] = [];
  const scanner = new CloseScanner(text);
  /** Comments of a window that lie before `until`, where the next window starts. */
  const keepComments = (lexed: Lexed, until: number): void => {
    for (const c of lexed.comments) if (c.startOffset < until) commentTokens.push(c);
  };

  let pos = 0;
  let size = window;
  while (pos < n) {
    const end = windowEnd(text, pos, size);
    const lexed = lex(T, text, pos, end);
    const tokens = lexed.tokens;

    // A token cut by the window's end (a multi-line string) is left out: the
    // parser then cannot finish its item here, and that item goes on in the
    // next window. A multi-line quoted key after something else on its line
    // would end that line's item early instead: take a larger window at once.
    let cut = end;
    const last = tokens[tokens.length - 1];
    if (end < n && last !== undefined && tokenEnd(last) >= end && !isNewline(last)) {
      if (keyPartIdx[last.tokenTypeIdx] === true && !startsLine(text, tokens[tokens.length - 2], last, isNewline)) {
        size *= 2;
        continue;
      }
      tokens.pop();
      cut = last.startOffset;
    }

    const mark = errors.length;
    parser.input = tokens;
    parser.resync();
    parser.itemIdx = -1;
    const failure = runParser(parser, EOF);

    if (failure === undefined) {
      if (cut === end && end < n && lexed.depth !== 0)
        throw new Error(`a window ended in a lexer mode other than the default at offset ${end}`);
      keepComments(lexed, cut);
      pos = cut;
      size = cut < end ? size * 2 : window;
      continue;
    }

    let found = failure.found;
    if (found !== undefined && found.tokenType === EOF) found = undefined;
    if (found === undefined && cut < n) {
      // the last item goes on after this window: parse it again in a larger one
      const itemStart = tokens[parser.itemIdx + 1]?.startOffset ?? pos;
      for (let i = errors.length - 1; i >= mark; i--) if (errors[i]!.span.start.offset >= itemStart) errors.splice(i, 1);
      keepComments(lexed, itemStart);
      pos = itemStart;
      size *= 2;
      continue;
    }

    const resume = reportFailure(text, T, parser, builder, lines, errors, scanner, tokens, failure, found, isNewline);
    // The cap counts what is reported: one error per line (finishErrors).
    if (errors.length >= MAX_ERRORS && finishErrors(errors).length >= MAX_ERRORS) {
      // enough: the rest of the file is not looked at (nor are its comments collected)
      keepComments(lexed, end);
      break;
    }
    if (resume < 0) {
      // nothing to resume at: the rest of the file is one line, whose comments are still wanted
      keepComments(end < n ? lex(T, text, pos, n) : lexed, n);
      break;
    }
    // recovery may skip past the window's end: its comments up to `resume` are wanted too
    keepComments(resume > end ? lex(T, text, pos, resume) : lexed, resume);
    pos = resume;
    size = Math.min(window, RECOVERY_WINDOW);
  }

  collectComments(commentTokens, comments, errors, lines);
  builder.root.span = { start: ORIGIN, end: lines.end() };
  return errors.length === 0 ? builder.document() : undefined;
}

/** Whether token `t` is the first on its line (`prev` is the token before it, if any). */
function startsLine(text: string, prev: IToken | undefined, t: IToken, isNewline: (t: IToken) => boolean): boolean {
  if (prev === undefined || isNewline(prev)) return true;
  return text.lastIndexOf('\n', t.startOffset - 1) >= tokenEnd(prev);
}

/**
 * Reports a syntax error (positioned where people look for it) and returns
 * the offset to resume at, or -1 to stop.
 */
function reportFailure(
  text: string,
  T: TomlTokens,
  parser: TomlParser,
  builder: Builder,
  lines: LineTable,
  errors: TomlError[],
  scanner: CloseScanner,
  tokens: readonly IToken[],
  failure: Failure,
  found: IToken | undefined,
  isNewline: (t: IToken | undefined) => boolean,
): number {
  // where, and what
  const foundIdx = found === undefined ? tokens.length : tokenIndexAt(tokens, found.startOffset);
  const prev = foundIdx > 0 ? tokens[foundIdx - 1] : undefined;
  const foundNl = isNewline(found);
  let span: Span;
  let showFound = false;
  let missingClose = false;
  const prevEnd = prev !== undefined && !isNewline(prev) ? visibleEnd(prev) : -1;
  if (found === undefined || foundNl) {
    span = pointSpan(lines.pos(prevEnd >= 0 ? prevEnd : found !== undefined ? found.startOffset : text.length));
  } else if (
    prevEnd >= 0 &&
    failure.expect !== Expect.LineStart &&
    lines.line(found.startOffset) > lines.line(prevEnd) &&
    (failure.expect !== Expect.ArrayClose || looksLikeLineStart(text, found.startOffset))
  ) {
    // the construct was left open: report it where it should have ended
    span = pointSpan(lines.pos(prevEnd));
    missingClose = true;
  } else {
    const from = visibleStart(found);
    span = lines.span(from, from + shownImage(T, found).length);
    showFound = true;
  }
  const foundView = {
    image: found === undefined ? undefined : shownImage(T, found),
    invalid: found?.tokenType === T.Invalid,
    isNewline: foundNl,
  };
  const prevImage = prev === undefined ? undefined : shownImage(T, prev);
  const message = failure.message !== '' ? failure.message : syntaxMessage(failure.expect, prevImage, foundView, showFound);
  errors.push({ message, span });

  // a header that failed: what follows it must not land in the previous table
  const item = tokens[parser.itemIdx + 1];
  if (item !== undefined && (item.tokenType === T.LBracket || item.tokenType === T.LLBracket) && !parser.headerDone) {
    builder.current = newTable('header', span);
  }

  // where to resume
  const stack = missingClose ? [] : openContainers(T, tokens, parser.itemIdx + 1, foundIdx);
  const from = showFound && found !== undefined ? Math.max(span.start.offset, tokenEnd(found) - 1) : span.start.offset;
  return resumeOffset(scanner, text, from, stack, found !== undefined ? found.startOffset : span.start.offset);
}

/** A token's text as people wrote it: without the blanks taken along, and `key` for `key = `. */
function shownImage(T: TomlTokens, t: IToken): string {
  const img = t.image.trim();
  if (t.tokenType === T.KeyEquals) return img.slice(0, img.search(/[ \t=]/));
  return img === '' ? t.image : img;
}

const COMMENT_CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;

function collectComments(tokens: readonly IToken[], out: TomlComment[], errors: TomlError[], lines: LineTable): void {
  for (const t of tokens) {
    const img = t.image;
    out.push({ text: img.slice(1), span: lines.span(t.startOffset, t.startOffset + img.length) });
    const m = COMMENT_CONTROL.exec(img);
    if (m !== null) {
      const c = img.charCodeAt(m.index);
      const at = t.startOffset + m.index;
      errors.push({ message: `control character ${describeCodePoint(c)} is not allowed in a comment`, span: lines.span(at, at + 1) });
    }
  }
}
