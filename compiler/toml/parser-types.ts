/**
 * What the TOML parser offers driver.ts (parser.ts makes it), and how a
 * test makes one of its own.
 */
import type { EmbeddedActionsParser, ILookaheadStrategy, IToken } from 'chevrotain';
import type { TomlError } from './ast.js';
import type { Builder } from './builder.js';
import type { Expect } from './errors.js';
import type { LineTable } from './spans.js';

export interface TomlParser extends EmbeddedActionsParser {
  /** Starts a new document. */
  begin(builder: Builder, errors: TomlError[], lines: LineTable): void;
  /** Resets per-line state after an error. */
  resync(): void;
  /** Drops the references to the finished document. */
  end(): void;
  document(): void;
  expect: Expect;
  /** Token index (currIdx) before the top-level item being parsed. */
  itemIdx: number;
  /** False while a table header is being parsed, until its table is set up. */
  headerDone: boolean;
  exportLexerState(): number;
  importLexerState(state: number): void;
  /** The next token (LA(1)). */
  peek(): IToken;
}

export interface ParserOptions {
  /** chevrotain's grammar checks (a test; production skips them for speed). */
  readonly validate?: boolean;
  /** The precomputed table's unless given (the table's generator passes chevrotain's own). */
  readonly lookahead?: ILookaheadStrategy;
  /** Record the grammar chevrotain's way, on the parser itself, not on a layer (recording.ts; a test compares both). */
  readonly recordInPlace?: boolean;
}
