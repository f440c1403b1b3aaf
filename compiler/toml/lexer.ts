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
import {
  APOS,
  ATOM,
  BLANK,
  COMMA,
  DOT,
  EQUALS,
  HASH,
  KEY,
  LBRACE,
  LBRACKET,
  MODE_ARRAY,
  MODE_INLINE,
  MODE_KEY,
  MODE_VALUE,
  QUOTE,
  RBRACE,
  RBRACKET,
  SPACE,
  TAB,
  atomEnd,
  basicEnd,
  commentEnd,
  equalsEnd,
  is,
  lineEndAt,
  literalEnd,
  matchesAt,
  newlineEnd,
  run,
  spaceEnd,
} from './scan.js';

/** Tokens of a stretch of text. Offsets are into the whole text. */
export interface Lexed {
  /** What the parser reads: no blanks, no comments. */
  tokens: IToken[];
  comments: IToken[];
  /** How many modes were open at the end of the stretch (0: the default mode). */
  depth: number;
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
