/**
 * The TOML 1.0.0 lexer: a hand-written scanner over char codes. It needs no
 * set-up (no patterns to compile or analyse), which matters because most
 * documents boxwright reads are small and start-up is most of their cost.
 *
 * TOML is context dependent: `1979-05-27`, `true`, `inf` or `1.2` are keys on
 * the left of `=` and values on the right. The lexer therefore has four modes:
 *
 *   key     line starts and table headers (the default mode)
 *   inline  key positions inside `{ ... }`
 *   value   right after `=`; any value token leaves the mode again
 *   array   inside `[ ... ]`; newlines and comments are skipped there
 *
 * `=` pushes `value`; a scalar pops it; `[` / `{` in value position replace it
 * by `array` / `inline`; `]` / `}` pop those. A newline inside an inline table
 * (illegal in TOML 1.0) also pops, so a broken line cannot leave the rest of
 * the file in the wrong mode.
 *
 * In each mode the first rule below that matches wins (the order of the
 * `case`s and of the tests within one). The rules, as patterns:
 *
 *   blanks        [ \t]+                          (skipped; in key and array mode newlines too)
 *   newline       (?:\r?\n[ \t]*)+                (swallows indentation and blank lines)
 *   comment       #[^\r\n]*(?:\r(?!\n)[^\r\n]*)*  (a lone CR stays in it, reported as a control character)
 *   key =         [A-Za-z0-9_-]+[ \t]*=[ \t]*     (the common case in one token)
 *   bare key      [A-Za-z0-9_-]+
 *   =             [ \t]*=[ \t]*
 *   ,             ,[ \t]*   and in arrays   ,(?:[ \t]|\r?\n)*
 *   {             \{[ \t]*
 *   "…" / '…'     the multi-line form if the token starts with three quotes, else the
 *                 one-line form; both run to the closing quotes, or are cut short at the end
 *                 of the line (one-line) or of the text, so values.ts can say what is wrong
 *   atom          [0-9A-Za-z_+.:-]+(?: [0-9][0-9]:[0-9A-Za-z_+.:-]*)?   (numbers, booleans,
 *                 inf/nan, date-times; `1979-05-27 07:32:00` has a space)
 *
 * Characters no rule matches become one Invalid token, up to the next
 * character where some rule of the mode matches; the parser fails on it.
 *
 * The patterns are permissive and none of them can fail after a partial
 * match: every scan is one forward pass, linear in what it reads. This
 * lexer replaced a chevrotain lexer with exactly these patterns; that lexer
 * is kept in test/toml/chevrotain-lexer.ts as a differential oracle.
 */
import type { IToken, TokenType } from 'chevrotain';
import type { TomlTokens } from './tokens.js';

/** Tokens of a stretch of text. Offsets are into the whole text. */
export interface Lexed {
  /** What the parser reads: no blanks, no comments. */
  tokens: IToken[];
  comments: IToken[];
  /** How many modes were open at the end of the stretch (0: the default mode). */
  depth: number;
}

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const HASH = 0x23;
const APOS = 0x27;
const COMMA = 0x2c;
const DOT = 0x2e;
const COLON = 0x3a;
const EQUALS = 0x3d;
const LBRACKET = 0x5b;
const BACKSLASH = 0x5c;
const RBRACKET = 0x5d;
const LBRACE = 0x7b;
const RBRACE = 0x7d;

const MODE_KEY = 0;
const MODE_INLINE = 1;
const MODE_VALUE = 2;
const MODE_ARRAY = 3;

// character classes (ASCII only: nothing else starts or continues a token but strings and comments)
const KEY = 1; // A-Z a-z 0-9 _ -
const ATOM = 2; // the above and + . :
const DIGIT = 4;
const BLANK = 8; // space, tab
const CLASS = new Uint8Array(128);
for (let c = 0x30; c <= 0x39; c++) CLASS[c] = KEY | ATOM | DIGIT;
for (let c = 0x41; c <= 0x5a; c++) CLASS[c] = KEY | ATOM;
for (let c = 0x61; c <= 0x7a; c++) CLASS[c] = KEY | ATOM;
CLASS[0x5f] = KEY | ATOM; // _
CLASS[0x2d] = KEY | ATOM; // -
CLASS[0x2b] = ATOM; // +
CLASS[DOT] = ATOM;
CLASS[COLON] = ATOM;
CLASS[SPACE] = BLANK;
CLASS[TAB] = BLANK;

const is = (cls: number, c: number): boolean => c < 128 && (CLASS[c]! & cls) !== 0;

// ---------------------------------------------------------------- scans: the end of a match at `i`, or -1

/** The end of a run of `cls` characters from `i` (possibly `i`). */
function run(text: string, i: number, end: number, cls: number): number {
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c >= 128 || (CLASS[c]! & cls) === 0) break;
    i++;
  }
  return i;
}

/** `[ \t]*=[ \t]*` */
function equalsEnd(text: string, i: number, end: number): number {
  const j = run(text, i, end, BLANK);
  if (j < end && text.charCodeAt(j) === EQUALS) return run(text, j + 1, end, BLANK);
  return -1;
}

/** After this many characters of blanks and line ends, the rest of the run is left to a regexp. */
const LONG_SPACE = 256;
/** `(?:[ \t]|\r?\n)*`, built the first time a run is long (a file of blank lines): most files never build it. */
let longSpace: RegExp | undefined;

/** `(?:[ \t]|\r?\n)*`: blanks and line ends (possibly none). */
function spaceEnd(text: string, i: number, end: number): number {
  const stop = Math.min(end, i + LONG_SPACE);
  while (i < stop) {
    const c = text.charCodeAt(i);
    if (c === SPACE || c === TAB || c === LF) i++;
    else if (c === CR && i + 1 < end && text.charCodeAt(i + 1) === LF) i += 2;
    else return i;
  }
  if (i >= end) return i;
  // a long run: the regexp engine scans it several times faster than a loop over char codes; it
  // runs on the text up to `end` (a slice is a view, not a copy), so it stops at `end` as this lexer does
  const re = (longSpace ??= /(?:[ \t]|\r?\n)*/y);
  re.lastIndex = 0;
  re.test(end === text.length ? text.slice(i) : text.slice(i, end));
  return i + re.lastIndex;
}

/** `(?:\r?\n[ \t]*)+` */
function newlineEnd(text: string, i: number, end: number): number {
  let j = -1;
  for (;;) {
    let k = i;
    if (k < end && text.charCodeAt(k) === CR) k++;
    if (k >= end || text.charCodeAt(k) !== LF) return j;
    i = j = run(text, k + 1, end, BLANK);
  }
}

/** Whether a line end starts at `i` (LF, or CR LF). */
function lineEndAt(text: string, i: number, end: number, c: number): boolean {
  return c === LF || (c === CR && i + 1 < end && text.charCodeAt(i + 1) === LF);
}

/** A comment from its `#`: up to LF or CR LF (a lone CR is part of it). */
function commentEnd(text: string, i: number, end: number): number {
  const nl = text.indexOf('\n', i + 1);
  // no LF before `end`: a CR right before `end` is a lone CR here, part of the comment
  if (nl < 0 || nl >= end) return end;
  return nl - 1 > i && text.charCodeAt(nl - 1) === CR ? nl - 1 : nl;
}

/** Three closing quotes `q` at `i`, and up to two more quotes of the content: the end; else -1. */
function closeEnd(text: string, i: number, end: number, q: number): number {
  if (i + 2 >= end || text.charCodeAt(i + 1) !== q || text.charCodeAt(i + 2) !== q) return -1;
  i += 3;
  if (i < end && text.charCodeAt(i) === q) {
    i++;
    if (i < end && text.charCodeAt(i) === q) i++;
  }
  return i;
}

/** The first `c` at or after `i` before `end`, else `end` (a native search: multi-line strings can be long). */
function find(text: string, c: string, i: number, end: number): number {
  const k = text.indexOf(c, i);
  return k < 0 || k > end ? end : k;
}

/** A basic string from its opening `"`: multi-line if it opens with `"""`. */
function basicEnd(text: string, i: number, end: number): number {
  if (i + 2 < end && text.charCodeAt(i + 1) === QUOTE && text.charCodeAt(i + 2) === QUOTE) {
    // """(?:[^"\\]+|\\[\s\S]|"(?!"")|""(?!"))*(?:"""(?:""?)?)?: from quote to quote and
    // backslash to backslash, each search resuming where its last one stopped (linear)
    i += 3;
    let quote = find(text, '"', i, end);
    let backslash = find(text, '\\', i, end);
    for (;;) {
      if (backslash < quote) {
        // a backslash that escapes nothing (the last character) ends the token before it
        if (backslash + 1 >= end) return backslash;
        i = backslash + 2;
        if (quote < i) quote = find(text, '"', i, end);
        backslash = find(text, '\\', i, end);
      } else if (quote < end) {
        const close = closeEnd(text, quote, end, QUOTE);
        if (close >= 0) return close;
        quote = find(text, '"', quote + 1, end);
      } else {
        return end;
      }
    }
  }
  // "(?:[^"\\\n]+|\\[^\n]?)*"?
  for (i++; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i + 1;
    if (c === LF) break;
    if (c === BACKSLASH && i + 1 < end && text.charCodeAt(i + 1) !== LF) i++;
  }
  return i;
}

/** A literal string from its opening `'`: multi-line if it opens with `'''`. */
function literalEnd(text: string, i: number, end: number): number {
  if (i + 2 < end && text.charCodeAt(i + 1) === APOS && text.charCodeAt(i + 2) === APOS) {
    // '''(?:[^']+|'(?!'')|''(?!'))*(?:'''(?:''?)?)?
    for (let q = find(text, "'", i + 3, end); q < end; q = find(text, "'", q + 1, end)) {
      const close = closeEnd(text, q, end, APOS);
      if (close >= 0) return close;
    }
    return end;
  }
  // '[^'\n]*'?
  for (i++; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === APOS) return i + 1;
    if (c === LF) break;
  }
  return i;
}

/** An atom from its first character: `[0-9A-Za-z_+.:-]+(?: [0-9][0-9]:[0-9A-Za-z_+.:-]*)?` */
function atomEnd(text: string, i: number, end: number): number {
  i = run(text, i + 1, end, ATOM);
  if (
    i + 3 < end &&
    text.charCodeAt(i) === SPACE &&
    is(DIGIT, text.charCodeAt(i + 1)) &&
    is(DIGIT, text.charCodeAt(i + 2)) &&
    text.charCodeAt(i + 3) === COLON
  ) {
    i = run(text, i + 4, end, ATOM);
  }
  return i;
}

/** Whether some rule of `mode` matches at `i` (where an Invalid token ends). */
function matchesAt(text: string, i: number, end: number, mode: number): boolean {
  const c = text.charCodeAt(i);
  if (c === SPACE || c === TAB || c === LF || c === HASH || c === QUOTE || c === APOS) return true;
  if (c === CR) return i + 1 < end && text.charCodeAt(i + 1) === LF;
  switch (mode) {
    case MODE_KEY:
      return is(KEY, c) || c === EQUALS || c === DOT || c === LBRACKET || c === RBRACKET;
    case MODE_INLINE:
      return is(KEY, c) || c === EQUALS || c === COMMA || c === DOT || c === RBRACE;
    case MODE_VALUE:
      return is(ATOM, c) || c === LBRACKET || c === LBRACE;
    default:
      return is(ATOM, c) || c === COMMA || c === RBRACKET || c === LBRACKET || c === LBRACE;
  }
}

// ---------------------------------------------------------------- the scanner

/**
 * Lexes `text` from `from` (where the lexer is in its default mode: the
 * start of the text or of a line outside any construct) up to `to`, which
 * acts as the end of the text: nothing at or after it is read.
 */
export function lexToml(T: TomlTokens, text: string, from: number, to: number): Lexed {
  const tokens: IToken[] = [];
  const comments: IToken[] = [];
  /** The modes to return to. */
  const stack: number[] = [];
  let mode = MODE_KEY;
  const make = (type: TokenType, start: number, stop: number): IToken => ({
    image: text.substring(start, stop),
    startOffset: start,
    tokenTypeIdx: type.tokenTypeIdx!,
    tokenType: type,
  });
  // single characters: the image is a constant
  const make1 = (type: TokenType, image: string, start: number): IToken => ({
    image,
    startOffset: start,
    tokenTypeIdx: type.tokenTypeIdx!,
    tokenType: type,
  });
  const end = to;
  let i = from;
  while (i < end) {
    const c = text.charCodeAt(i);
    /** The end of the token at `i`; -1 when nothing matched; equal to `i` after a skip. */
    let j = -1;
    switch (mode) {
      case MODE_KEY:
      case MODE_INLINE: {
        const inline = mode === MODE_INLINE;
        if (is(KEY, c)) {
          const k = run(text, i + 1, end, KEY);
          j = equalsEnd(text, k, end);
          if (j >= 0) {
            tokens.push(make(T.KeyEquals, i, j));
            stack.push(mode);
            mode = MODE_VALUE;
          } else {
            tokens.push(make(T.BareKey, i, (j = k)));
          }
        } else if (c === SPACE || c === TAB || c === EQUALS) {
          j = equalsEnd(text, i, end);
          if (j >= 0) {
            tokens.push(make(T.Equals, i, j));
            stack.push(mode);
            mode = MODE_VALUE;
          } else {
            i = inline ? run(text, i + 1, end, BLANK) : spaceEnd(text, i + 1, end);
            continue;
          }
        } else if (c === QUOTE) {
          tokens.push(make(T.BasicKey, i, (j = basicEnd(text, i, end))));
        } else if (c === APOS) {
          tokens.push(make(T.LiteralKey, i, (j = literalEnd(text, i, end))));
        } else if (c === DOT) {
          tokens.push(make1(T.Dot, '.', i));
          j = i + 1;
        } else if (c === HASH) {
          comments.push(make(T.Comment, i, (j = commentEnd(text, i, end))));
        } else if (!inline) {
          if (lineEndAt(text, i, end, c)) {
            i = spaceEnd(text, i, end);
            continue;
          }
          if (c === LBRACKET || c === RBRACKET) {
            const double = i + 1 < end && text.charCodeAt(i + 1) === c;
            if (c === LBRACKET) tokens.push(double ? make1(T.LLBracket, '[[', i) : make1(T.LBracket, '[', i));
            else tokens.push(double ? make1(T.RRBracket, ']]', i) : make1(T.RBracket, ']', i));
            j = double ? i + 2 : i + 1;
          }
        } else if (c === COMMA) {
          tokens.push(make(T.Comma, i, (j = run(text, i + 1, end, BLANK))));
        } else if (c === RBRACE) {
          tokens.push(make1(T.RBrace, '}', i));
          j = i + 1;
          mode = stack.pop()!;
        } else if (lineEndAt(text, i, end, c)) {
          tokens.push(make(T.NewlineInline, i, (j = newlineEnd(text, i, end))));
          mode = stack.pop()!;
        }
        break;
      }
      case MODE_VALUE:
        if (c === SPACE || c === TAB) {
          i = run(text, i + 1, end, BLANK);
          continue;
        }
        if (c === QUOTE) tokens.push(make(T.BasicValue, i, (j = basicEnd(text, i, end))));
        else if (c === APOS) tokens.push(make(T.LiteralValue, i, (j = literalEnd(text, i, end))));
        else if (is(ATOM, c)) tokens.push(make(T.AtomValue, i, (j = atomEnd(text, i, end))));
        else if (c === LBRACKET) {
          tokens.push(make1(T.LBracketValue, '[', i));
          j = i + 1;
          mode = MODE_ARRAY; // replaces the value mode
          break;
        } else if (c === LBRACE) {
          tokens.push(make(T.LBraceValue, i, (j = run(text, i + 1, end, BLANK))));
          mode = MODE_INLINE;
          break;
        } else if (lineEndAt(text, i, end, c)) tokens.push(make(T.NewlineValue, i, (j = newlineEnd(text, i, end))));
        else if (c === HASH) comments.push(make(T.CommentValue, i, (j = commentEnd(text, i, end))));
        if (j >= 0) mode = stack.pop()!;
        break;
      default: // MODE_ARRAY
        if (c === SPACE || c === TAB || lineEndAt(text, i, end, c)) {
          i = spaceEnd(text, i, end);
          continue;
        }
        if (c === QUOTE) tokens.push(make(T.BasicArray, i, (j = basicEnd(text, i, end))));
        else if (c === APOS) tokens.push(make(T.LiteralArray, i, (j = literalEnd(text, i, end))));
        else if (is(ATOM, c)) tokens.push(make(T.AtomArray, i, (j = atomEnd(text, i, end))));
        else if (c === COMMA) tokens.push(make(T.CommaArray, i, (j = spaceEnd(text, i + 1, end))));
        else if (c === RBRACKET) {
          tokens.push(make1(T.RBracketArray, ']', i));
          j = i + 1;
          mode = stack.pop()!;
        } else if (c === LBRACKET) {
          tokens.push(make1(T.LBracketArray, '[', i));
          j = i + 1;
          stack.push(mode);
        } else if (c === LBRACE) {
          tokens.push(make(T.LBraceArray, i, (j = run(text, i + 1, end, BLANK))));
          stack.push(mode);
          mode = MODE_INLINE;
        } else if (c === HASH) comments.push(make(T.Comment, i, (j = commentEnd(text, i, end))));
    }
    if (j < 0) {
      // nothing matches here: one Invalid token up to where something of this mode matches again
      j = i + 1;
      while (j < end && !matchesAt(text, j, end, mode)) j++;
      tokens.push(make(T.Invalid, i, j));
    }
    i = j;
  }
  return { tokens, comments, depth: stack.length };
}
