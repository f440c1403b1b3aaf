/**
 * The parse loop: lex, parse, and on a syntax error report it, find where to
 * resume (recovery.ts), re-lex from there if the lexer was left in the wrong
 * mode, and go on. At most one error per line is kept.
 */
import type { ILexingError, IToken, TokenType } from 'chevrotain';
import type { Span } from '../span.js';
import type { TomlComment, TomlError, TomlTable } from './ast.js';
import { Builder, newTable } from './builder.js';
import { chevrotain } from './chevrotain.js';
import { describeCodePoint, Expect, syntaxMessage, TomlSyntaxError } from './errors.js';
import { invalidToken, tomlLexer, type TomlTokens } from './lexer.js';
import { tomlParser, type TomlParser } from './parser.js';
import { looksLikeLineStart, openContainers, resumeOffset } from './recovery.js';
import { LineTable, pointSpan, tokenEnd, visibleEnd, visibleStart } from './spans.js';

const MAX_ERRORS = 100;
const MAX_RELEX = 25;
const ORIGIN = { offset: 0, line: 1, column: 1 } as const;

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

interface Lexed {
  tokens: IToken[];
  comments: IToken[];
}

/** Lexes `text` from offset `from` (a line start, default mode) up to `to`. */
function lex(T: TomlTokens, text: string, from: number, to = text.length): Lexed & { lexErrors: number } {
  const { lexer } = tomlLexer();
  const src = from === 0 && to === text.length ? text : text.slice(from, to);
  const r = lexer.tokenize(src);
  let tokens = r.tokens;
  const comments = r.groups['comments'] ?? [];
  if (r.errors.length > 0) tokens = mergeInvalid(T.Invalid, tokens, r.errors, src);
  if (from > 0) {
    for (const t of tokens) t.startOffset += from;
    for (const t of comments) t.startOffset += from;
  }
  return { tokens, comments, lexErrors: r.errors.length };
}

/** Characters the lexer skipped become Invalid tokens, so the parser fails right there. */
function mergeInvalid(type: TokenType, tokens: IToken[], errs: ILexingError[], src: string): IToken[] {
  const out: IToken[] = [];
  let i = 0;
  for (const e of errs) {
    while (i < tokens.length && tokens[i]!.startOffset < e.offset) out.push(tokens[i++]!);
    out.push(invalidToken(type, src, e.offset, Math.max(1, e.length)));
  }
  while (i < tokens.length) out.push(tokens[i++]!);
  return out;
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

/** Parses decoded text; pushes errors and comments; the root table if there were no errors. */
export function parseText(text: string, errors: TomlError[], comments: TomlComment[]): TomlTable | undefined {
  const { tokens: T } = tomlLexer();
  const parser = tomlParser(T);
  const lines = new LineTable(text);
  try {
    if (text.length > 2 * CHUNK) {
      const doc = parseChunked(text, T, parser, lines, errors, comments);
      if (doc !== FALLBACK) return doc;
      errors.length = 0;
      comments.length = 0;
    }
    return parseWithRecovery(text, T, parser, lines, errors, comments);
  } finally {
    parser.end();
  }
}

const CHUNK = 64 * 1024;
const FALLBACK = Symbol('fallback');

/** Where a chunk that starts at `from` should end: a line start, preferably a `[` line. */
function chunkEnd(text: string, from: number): number {
  const target = from + CHUNK;
  if (target >= text.length) return text.length;
  const header = text.indexOf('\n[', target);
  if (header >= 0 && header - target < CHUNK) return header + 1;
  const nl = text.indexOf('\n', target);
  return nl < 0 ? text.length : nl + 1;
}

/** Whether the lexer ends these tokens (a chunk ending at `end`) in its default mode, after a newline. */
function endsInDefaultMode(tokens: readonly IToken[], end: number): boolean {
  const last = tokens[tokens.length - 1];
  if (last === undefined) return true;
  if (tokenEnd(last) >= end) return false; // e.g. a multi-line string cut in two
  let depth = 0;
  for (const t of tokens) {
    const tt = t.tokenType;
    if (tt.POP_MODE === true && depth > 0) depth--;
    if (tt.PUSH_MODE !== undefined) depth++;
  }
  return depth === 0;
}

/**
 * The fast path for large valid documents: lex and parse in chunks of about
 * 64 KiB that end at a line start in the default mode, so that tokens die
 * young instead of all living until the end of the parse. Any syntax error
 * sends us back to the one-piece parse with its error recovery.
 */
function parseChunked(
  text: string, T: TomlTokens, parser: TomlParser, lines: LineTable, errors: TomlError[], comments: TomlComment[],
): TomlTable | undefined | typeof FALLBACK {
  const EOF = chevrotain().EOF;
  const builder = new Builder(errors, { start: ORIGIN, end: ORIGIN });
  parser.begin(builder, errors, lines);
  const commentTokens: IToken[] = [];
  let pos = 0;
  while (pos < text.length) {
    let end = chunkEnd(text, pos);
    let lexed = lex(T, text, pos, end);
    while (end < text.length && !endsInDefaultMode(lexed.tokens, end)) {
      end = chunkEnd(text, end);
      lexed = lex(T, text, pos, end);
    }
    if (lexed.lexErrors > 0) return FALLBACK;
    parser.input = lexed.tokens;
    parser.resync();
    parser.itemIdx = -1;
    if (runParser(parser, EOF) !== undefined) return FALLBACK;
    for (const c of lexed.comments) commentTokens.push(c);
    pos = end;
  }
  collectComments(commentTokens, comments, errors, lines);
  builder.root.span = { start: ORIGIN, end: lines.end() };
  return errors.length === 0 ? builder.document() : undefined;
}

function parseWithRecovery(
  text: string, T: TomlTokens, parser: TomlParser, lines: LineTable, errors: TomlError[], comments: TomlComment[],
): TomlTable | undefined {
  const api = chevrotain();
  const EOF = api.EOF;
  const isNewline = (t: IToken | undefined): boolean => t !== undefined && api.tokenMatcher(t, T.Newline);

  const builder = new Builder(errors, { start: ORIGIN, end: ORIGIN });
  parser.begin(builder, errors, lines);
  let { tokens, comments: commentTokens } = lex(T, text, 0);
  let start = -1;
  let relexes = 0;
  for (;;) {
    parser.input = tokens;
    if (start >= 0) parser.importLexerState(start);
    parser.resync();
    parser.itemIdx = start;
    const failure = runParser(parser, EOF);
    if (failure === undefined) break;

    // where, and what
    let found = failure.found;
    if (found !== undefined && found.tokenType === EOF) found = undefined;
    const foundIdx = found === undefined ? tokens.length : tokenIndexAt(tokens, found.startOffset);
    const prev = foundIdx > 0 ? tokens[foundIdx - 1] : undefined;
    const foundNl = isNewline(found);
    let span: Span;
    let showFound = false;
    let missingClose = false;
    const prevEnd = prev !== undefined && !isNewline(prev) ? visibleEnd(prev) : -1;
    if (found === undefined || foundNl) {
      span = pointSpan(lines.pos(prevEnd >= 0 ? prevEnd : found !== undefined ? found.startOffset : text.length));
    } else if (prevEnd >= 0 && failure.expect !== Expect.LineStart && lines.line(found.startOffset) > lines.line(prevEnd) &&
      (failure.expect !== Expect.ArrayClose || looksLikeLineStart(text, found.startOffset))) {
      // the construct was left open: report it where it should have ended
      span = pointSpan(lines.pos(prevEnd));
      missingClose = true;
    } else {
      const from = visibleStart(found);
      span = lines.span(from, from + shownImage(T, found).length);
      showFound = true;
    }
    const foundView = { image: found === undefined ? undefined : shownImage(T, found), invalid: found?.tokenType === T.Invalid, isNewline: foundNl };
    const prevImage = prev === undefined ? undefined : shownImage(T, prev);
    const message = failure.message !== '' ? failure.message : syntaxMessage(failure.expect, prevImage, foundView, showFound);
    errors.push({ message, span });
    if (errors.length >= MAX_ERRORS) break;

    // a header that failed: what follows it must not land in the previous table
    const item = tokens[parser.itemIdx + 1];
    if (item !== undefined && (item.tokenType === T.LBracket || item.tokenType === T.LLBracket) && !parser.headerDone) {
      builder.current = newTable('header', span);
    }

    // where to resume
    const stack = missingClose ? [] : openContainers(T, tokens, parser.itemIdx + 1, foundIdx);
    const from = showFound && found !== undefined ? Math.max(span.start.offset, tokenEnd(found) - 1) : span.start.offset;
    const resume = resumeOffset(text, from, stack, found !== undefined ? found.startOffset : span.start.offset);
    if (resume < 0) break;

    // is the lexer back in its default mode there? (replay the mode changes of this item)
    let depth = 0;
    let j = parser.itemIdx + 1;
    for (; j < tokens.length && tokens[j]!.startOffset < resume; j++) {
      const tt = tokens[j]!.tokenType;
      if (tt.POP_MODE === true && depth > 0) depth--;
      if (tt.PUSH_MODE !== undefined) depth++;
    }
    if (depth === 0 && (j === tokens.length || tokens[j]!.startOffset === resume || !straddles(tokens, j, resume))) {
      start = j - 1;
      continue;
    }
    if (++relexes > MAX_RELEX) break;
    const relexed = lex(T, text, resume);
    tokens = relexed.tokens;
    commentTokens = commentTokens.filter((c) => c.startOffset < resume).concat(relexed.comments);
    start = -1;
  }

  collectComments(commentTokens, comments, errors, lines);
  builder.root.span = { start: ORIGIN, end: lines.end() };
  return errors.length === 0 ? builder.document() : undefined;
}

/** A token's text as people wrote it: without the blanks taken along, and `key` for `key = `. */
function shownImage(T: TomlTokens, t: IToken): string {
  const img = t.image.trim();
  if (t.tokenType === T.KeyEquals) return img.slice(0, img.search(/[ \t=]/));
  return img === '' ? t.image : img;
}

/** Whether token j-1 (which starts before `resume`) extends past it. */
function straddles(tokens: readonly IToken[], j: number, resume: number): boolean {
  const before = tokens[j - 1];
  return before !== undefined && tokenEnd(before) > resume && !/^\r?\n/.test(before.image);
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
