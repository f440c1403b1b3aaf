/**
 * The differential oracle of compiler/toml/lexer.ts: the multi-mode
 * chevrotain lexer that boxwright used until the hand-written one replaced
 * it (its construction, `analyzeTokenTypes` over these regexps, cost a few
 * milliseconds of every start). Test-only. Its token types are its own;
 * they carry the same names as compiler/toml/tokens.ts, and
 * `chevrotainLexWindow` turns its output into what the old driver made of
 * it (lexer errors merged in as Invalid tokens, offsets into the whole
 * text), so that both lexers can be compared token by token.
 *
 * What follows is the old lexer, unchanged but for the names of its exports:
 *
 * Token definitions and the multi-mode chevrotain lexer for TOML 1.0.0.
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
 * The patterns are deliberately permissive (an unterminated string still
 * becomes a token up to the end of its line, `0123` or `1979-02-30` become
 * an atom) so that values.ts can say precisely what is wrong. None of them
 * can fail after a partial match, so there is no catastrophic backtracking.
 */
import type { ILexingError, IToken, Lexer, TokenType } from 'chevrotain';
import { chevrotain } from '../../compiler/toml/chevrotain.js';

export interface OracleTokens {
  // categories used by the parser
  readonly KeyPart: TokenType;
  readonly Scalar: TokenType;
  readonly OpenArray: TokenType;
  readonly OpenInline: TokenType;
  readonly Newline: TokenType;
  // concrete tokens the parser consumes
  readonly LBracket: TokenType;
  readonly LLBracket: TokenType;
  readonly RBracket: TokenType;
  readonly RRBracket: TokenType;
  readonly Dot: TokenType;
  readonly Equals: TokenType;
  /** `key =` in one token; also a KeyPart. */
  readonly KeyEquals: TokenType;
  readonly Comma: TokenType;
  readonly RBrace: TokenType;
  readonly RBracketArray: TokenType;
  /** Characters the lexer could not match (merged in from lexer errors). */
  readonly Invalid: TokenType;
  /** Every token type, for the parser's vocabulary. */
  readonly all: readonly TokenType[];
}

export const MODE_KEY = 'key';
export const MODE_INLINE = 'inline';
export const MODE_VALUE = 'value';
export const MODE_ARRAY = 'array';

export interface TomlLexer {
  readonly lexer: Lexer;
  readonly tokens: OracleTokens;
}

const KEY_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-'.split('');
const ATOM_START = KEY_CHARS.concat(['+', '.', ':']);

// Patterns (all become sticky regexps inside chevrotain).
const WS = /[ \t]+/;
// A newline swallows the indentation and blank lines that follow it.
const NL = /(?:\r?\n[ \t]*)+/;
const WS_NL = /(?:[ \t]|\r?\n)+/;
// A lone CR inside a comment is kept in the comment (and reported as a control character).
const COMMENT = /#[^\r\n]*(?:\r(?!\n)[^\r\n]*)*/;
const BARE_KEY = /[A-Za-z0-9_-]+/;
// the common `key = ` as one token (the key part of it is found by the parser)
const KEY_EQUALS = /[A-Za-z0-9_-]+[ \t]*=[ \t]*/;
// `=` and `,` take the blanks around them along (fewer tokens to match)
const EQUALS = /[ \t]*=[ \t]*/;
const COMMA = /,[ \t]*/;
const COMMA_ARRAY = /,(?:[ \t]|\r?\n)*/;
const LBRACE = /\{[ \t]*/;
const ML_BASIC = /"""(?:[^"\\]+|\\[\s\S]|"(?!"")|""(?!"))*(?:"""(?:""?)?)?/;
const BASIC = /"(?:[^"\\\n]+|\\[^\n]?)*"?/;
const ML_LITERAL = /'''(?:[^']+|'(?!'')|''(?!'))*(?:'''(?:''?)?)?/;
const LITERAL = /'[^'\n]*'?/;
// one token per quote kind: the multi-line form is tried first inside a single regexp
const ANY_BASIC = new RegExp(`${ML_BASIC.source}|${BASIC.source}`);
const ANY_LITERAL = new RegExp(`${ML_LITERAL.source}|${LITERAL.source}`);
// Numbers, booleans, inf/nan and date-times; `1979-05-27 07:32:00` has a space.
const ATOM = /[0-9A-Za-z_+.:-]+(?: [0-9][0-9]:[0-9A-Za-z_+.:-]*)?/;

let instance: TomlLexer | undefined;

export function chevrotainTomlLexer(): TomlLexer {
  if (instance === undefined) instance = createTomlLexer(false);
  return instance;
}

/**
 * Builds the token types and the lexer. `validate` turns chevrotain's own
 * definition checks on (used by a test; production skips them for speed).
 */
export function createTomlLexer(validate: boolean): TomlLexer {
  const { createToken, Lexer } = chevrotain();
  const SKIPPED = Lexer.SKIPPED;
  const NA = Lexer.NA;
  const all: TokenType[] = [];
  const tok = (config: Parameters<typeof createToken>[0]): TokenType => {
    const t = createToken(config);
    all.push(t);
    return t;
  };

  // categories
  const KeyPart = tok({ name: 'KeyPart', pattern: NA });
  const Scalar = tok({ name: 'Scalar', pattern: NA });
  const OpenArray = tok({ name: 'OpenArray', pattern: NA });
  const OpenInline = tok({ name: 'OpenInline', pattern: NA });
  const Newline = tok({ name: 'Newline', pattern: NA });
  const Invalid = tok({ name: 'Invalid', pattern: NA });

  const hint = (s: string): string[] => s.split('');

  // shared by several modes
  const Whitespace = tok({ name: 'Whitespace', pattern: WS, group: SKIPPED, line_breaks: false, start_chars_hint: hint(' \t') });
  const Comment = tok({ name: 'Comment', pattern: COMMENT, group: 'comments', line_breaks: false, start_chars_hint: ['#'] });
  // in key mode newlines are skipped: the parser checks line ends by offsets (parser.ts endOfLine)
  const SpaceKey = tok({ name: 'SpaceKey', pattern: WS_NL, group: SKIPPED, line_breaks: true, start_chars_hint: hint(' \t\r\n') });
  const Dot = tok({ name: 'Dot', pattern: '.', line_breaks: false });
  const Equals = tok({ name: 'Equals', pattern: EQUALS, push_mode: MODE_VALUE, line_breaks: false, start_chars_hint: hint(' \t=') });
  const Comma = tok({ name: 'Comma', pattern: COMMA, line_breaks: false, start_chars_hint: [','] });
  const KeyEquals = tok({
    name: 'KeyEquals',
    pattern: KEY_EQUALS,
    categories: KeyPart,
    push_mode: MODE_VALUE,
    line_breaks: false,
    start_chars_hint: KEY_CHARS,
  });
  const BareKey = tok({ name: 'BareKey', pattern: BARE_KEY, categories: KeyPart, line_breaks: false, start_chars_hint: KEY_CHARS });
  const keyStr = (name: string, pattern: RegExp, start: string, lb: boolean): TokenType =>
    tok({ name, pattern, categories: KeyPart, line_breaks: lb, start_chars_hint: [start] });
  // (multi-line strings are not keys: the parser says so, which beats a lexer error)
  const BasicKey = keyStr('BasicKey', ANY_BASIC, '"', true);
  const LiteralKey = keyStr('LiteralKey', ANY_LITERAL, "'", true);

  // key mode only: table headers
  const LLBracket = tok({ name: 'LLBracket', pattern: '[[', line_breaks: false, start_chars_hint: ['['] });
  const LBracket = tok({ name: 'LBracket', pattern: '[', line_breaks: false });
  const RRBracket = tok({ name: 'RRBracket', pattern: ']]', line_breaks: false, start_chars_hint: [']'] });
  const RBracket = tok({ name: 'RBracket', pattern: ']', line_breaks: false });

  // inline mode
  const NewlineInline = tok({
    name: 'NewlineInline',
    pattern: NL,
    categories: Newline,
    pop_mode: true,
    line_breaks: true,
    start_chars_hint: hint('\r\n'),
  });
  const RBrace = tok({ name: 'RBrace', pattern: '}', pop_mode: true, line_breaks: false });

  // value mode: every token leaves the mode
  const NewlineValue = tok({
    name: 'NewlineValue',
    pattern: NL,
    categories: Newline,
    pop_mode: true,
    line_breaks: true,
    start_chars_hint: hint('\r\n'),
  });
  const CommentValue = tok({
    name: 'CommentValue',
    pattern: COMMENT,
    group: 'comments',
    pop_mode: true,
    line_breaks: false,
    start_chars_hint: ['#'],
  });
  const LBracketValue = tok({
    name: 'LBracketValue',
    pattern: '[',
    categories: OpenArray,
    pop_mode: true,
    push_mode: MODE_ARRAY,
    line_breaks: false,
  });
  const LBraceValue = tok({
    name: 'LBraceValue',
    pattern: LBRACE,
    categories: OpenInline,
    pop_mode: true,
    push_mode: MODE_INLINE,
    line_breaks: false,
    start_chars_hint: ['{'],
  });
  const scalar = (name: string, pattern: RegExp, start: string[], lb: boolean, pop: boolean): TokenType =>
    // chevrotain pops on the mere presence of `pop_mode`, even when it is false
    tok(
      pop
        ? { name, pattern, categories: Scalar, pop_mode: true, line_breaks: lb, start_chars_hint: start }
        : { name, pattern, categories: Scalar, line_breaks: lb, start_chars_hint: start },
    );
  const valueScalars = (suffix: string, pop: boolean): TokenType[] => [
    scalar('Basic' + suffix, ANY_BASIC, ['"'], true, pop),
    scalar('Literal' + suffix, ANY_LITERAL, ["'"], true, pop),
    scalar('Atom' + suffix, ATOM, ATOM_START, false, pop),
  ];
  const scalarsValue = valueScalars('Value', true);

  // array mode
  const SpaceArray = tok({ name: 'SpaceArray', pattern: WS_NL, group: SKIPPED, line_breaks: true, start_chars_hint: hint(' \t\r\n') });
  const LBracketArray = tok({ name: 'LBracketArray', pattern: '[', categories: OpenArray, push_mode: MODE_ARRAY, line_breaks: false });
  const LBraceArray = tok({
    name: 'LBraceArray',
    pattern: LBRACE,
    categories: OpenInline,
    push_mode: MODE_INLINE,
    line_breaks: false,
    start_chars_hint: ['{'],
  });
  const CommaArray = tok({ name: 'CommaArray', pattern: COMMA_ARRAY, categories: Comma, line_breaks: true, start_chars_hint: [','] });
  const RBracketArray = tok({ name: 'RBracketArray', pattern: ']', pop_mode: true, line_breaks: false });
  const scalarsArray = valueScalars('Array', false);

  const keyStrings = [BasicKey, LiteralKey];
  const modes = {
    [MODE_KEY]: [KeyEquals, BareKey, Equals, SpaceKey, Comment, Dot, LLBracket, LBracket, RRBracket, RBracket, ...keyStrings],
    [MODE_INLINE]: [KeyEquals, BareKey, Equals, Whitespace, Comma, Dot, RBrace, ...keyStrings, NewlineInline, Comment],
    [MODE_VALUE]: [Whitespace, ...scalarsValue, LBracketValue, LBraceValue, NewlineValue, CommentValue],
    [MODE_ARRAY]: [SpaceArray, ...scalarsArray, CommaArray, RBracketArray, LBracketArray, LBraceArray, Comment],
  };

  const lexer = new Lexer(
    { modes, defaultMode: MODE_KEY },
    {
      // line/column come from a line table (spans.ts): cheaper than per-token tracking
      positionTracking: 'onlyOffset',
      lineTerminatorsPattern: /\n/g,
      lineTerminatorCharacters: ['\n'],
      ensureOptimizations: true,
      skipValidations: !validate,
      recoveryEnabled: true,
    },
  );
  const tokens: OracleTokens = {
    KeyPart,
    Scalar,
    OpenArray,
    OpenInline,
    Newline,
    LBracket,
    LLBracket,
    RBracket,
    RRBracket,
    Dot,
    Equals,
    KeyEquals,
    Comma,
    RBrace,
    RBracketArray,
    Invalid,
    all,
  };
  return { lexer, tokens };
}

/** A token for characters the lexer could not match; the parser then fails on it. */
export function invalidToken(type: TokenType, text: string, offset: number, length: number): IToken {
  return {
    image: text.substr(offset, length),
    startOffset: offset,
    tokenTypeIdx: type.tokenTypeIdx!,
    tokenType: type,
  };
}

/**
 * What the old driver made of the lexer's output for the text from `from`
 * to `to`: the slice lexed on its own, lexer errors merged in as Invalid
 * tokens, offsets moved into the whole text.
 */
export function chevrotainLexWindow(
  text: string,
  from: number,
  to: number,
): { tokens: IToken[]; comments: IToken[]; errors: ILexingError[] } {
  const { lexer, tokens: T } = chevrotainTomlLexer();
  const src = from === 0 && to === text.length ? text : text.slice(from, to);
  const r = lexer.tokenize(src);
  let tokens = r.tokens;
  const comments = r.groups['comments'] ?? [];
  if (r.errors.length > 0) tokens = mergeInvalid(T.Invalid, tokens, r.errors, src);
  if (from > 0) {
    for (const t of tokens) t.startOffset += from;
    for (const t of comments) t.startOffset += from;
  }
  return { tokens, comments, errors: r.errors };
}

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
