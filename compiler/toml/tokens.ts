/**
 * The token types of TOML 1.0.0: the vocabulary shared by the lexer
 * (lexer.ts), which makes the tokens, and the chevrotain parser
 * (parser.ts), which consumes them.
 *
 * They are chevrotain token types without patterns: lexer.ts matches
 * characters itself. Categories let the parser consume any of a family in
 * one step (a key part is a bare key, a quoted key or `key =`; a scalar is
 * a string or an atom). Types whose names end in a mode (`…Value`,
 * `…Array`, `…Inline`) are the same text lexed in that mode of the lexer:
 * they differ in the mode they leave the lexer in.
 */
import type { TokenType } from 'chevrotain';
import { chevrotain } from './chevrotain.js';

export interface TomlTokens {
  // categories used by the parser
  readonly KeyPart: TokenType;
  readonly Scalar: TokenType;
  readonly OpenArray: TokenType;
  readonly OpenInline: TokenType;
  readonly Newline: TokenType;
  /** Characters the lexer could not match (the parser then fails on them). */
  readonly Invalid: TokenType;

  // key mode (line starts, table headers) and inline mode (keys inside `{ }`)
  readonly Dot: TokenType;
  /** `=` with the blanks around it. */
  readonly Equals: TokenType;
  /** `key =` in one token (with the blanks around "="); also a KeyPart. */
  readonly KeyEquals: TokenType;
  readonly BareKey: TokenType;
  readonly BasicKey: TokenType;
  readonly LiteralKey: TokenType;
  readonly LLBracket: TokenType;
  readonly LBracket: TokenType;
  readonly RRBracket: TokenType;
  readonly RBracket: TokenType;
  /** `,` with the blanks after it; the category of CommaArray too. */
  readonly Comma: TokenType;
  readonly RBrace: TokenType;
  readonly NewlineInline: TokenType;
  /** A comment outside value position (kept aside, not given to the parser). */
  readonly Comment: TokenType;

  // value mode (right after "=")
  readonly BasicValue: TokenType;
  readonly LiteralValue: TokenType;
  readonly AtomValue: TokenType;
  readonly LBracketValue: TokenType;
  readonly LBraceValue: TokenType;
  readonly NewlineValue: TokenType;
  readonly CommentValue: TokenType;

  // array mode (inside `[ ]`)
  readonly BasicArray: TokenType;
  readonly LiteralArray: TokenType;
  readonly AtomArray: TokenType;
  readonly CommaArray: TokenType;
  readonly RBracketArray: TokenType;
  readonly LBracketArray: TokenType;
  readonly LBraceArray: TokenType;

  /** Every token type, for the parser's vocabulary. */
  readonly all: readonly TokenType[];
}

let instance: TomlTokens | undefined;

export function tomlTokens(): TomlTokens {
  if (instance === undefined) instance = createTomlTokens();
  return instance;
}

function createTomlTokens(): TomlTokens {
  const { createToken } = chevrotain();
  const all: TokenType[] = [];
  const tok = (name: string, categories?: TokenType): TokenType => {
    const t = createToken(categories === undefined ? { name } : { name, categories });
    all.push(t);
    return t;
  };
  const KeyPart = tok('KeyPart');
  const Scalar = tok('Scalar');
  const OpenArray = tok('OpenArray');
  const OpenInline = tok('OpenInline');
  const Newline = tok('Newline');
  const Invalid = tok('Invalid');
  const Comma = tok('Comma');
  return {
    KeyPart,
    Scalar,
    OpenArray,
    OpenInline,
    Newline,
    Invalid,
    Dot: tok('Dot'),
    Equals: tok('Equals'),
    KeyEquals: tok('KeyEquals', KeyPart),
    BareKey: tok('BareKey', KeyPart),
    BasicKey: tok('BasicKey', KeyPart),
    LiteralKey: tok('LiteralKey', KeyPart),
    LLBracket: tok('LLBracket'),
    LBracket: tok('LBracket'),
    RRBracket: tok('RRBracket'),
    RBracket: tok('RBracket'),
    Comma,
    RBrace: tok('RBrace'),
    NewlineInline: tok('NewlineInline', Newline),
    Comment: tok('Comment'),
    BasicValue: tok('BasicValue', Scalar),
    LiteralValue: tok('LiteralValue', Scalar),
    AtomValue: tok('AtomValue', Scalar),
    LBracketValue: tok('LBracketValue', OpenArray),
    LBraceValue: tok('LBraceValue', OpenInline),
    NewlineValue: tok('NewlineValue', Newline),
    CommentValue: tok('CommentValue'),
    BasicArray: tok('BasicArray', Scalar),
    LiteralArray: tok('LiteralArray', Scalar),
    AtomArray: tok('AtomArray', Scalar),
    CommaArray: tok('CommaArray', Comma),
    RBracketArray: tok('RBracketArray'),
    LBracketArray: tok('LBracketArray', OpenArray),
    LBraceArray: tok('LBraceArray', OpenInline),
    all,
  };
}

/** Token type indices of a category and its members (for dispatch on a token's `tokenTypeIdx`). */
export function memberIndices(category: TokenType): boolean[] {
  const out: boolean[] = [];
  out[category.tokenTypeIdx!] = true;
  for (const k of Object.keys(category.categoryMatchesMap ?? {})) out[Number(k)] = true;
  return out;
}
