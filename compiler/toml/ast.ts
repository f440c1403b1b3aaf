import type { Span } from '../span.js';

/**
 * The TOML document tree. Every key, table header and value keeps the exact
 * span it was written at, so every later diagnostic can point at the
 * offending token. The tree is plain immutable data.
 */

export type TomlValue = TomlString | TomlInteger | TomlFloat | TomlBoolean | TomlDateTime | TomlArray | TomlTable;

export interface TomlString {
  readonly kind: 'string';
  readonly value: string;
  readonly span: Span;
}

export interface TomlInteger {
  readonly kind: 'integer';
  /** Exact value: TOML integers are 64-bit, beyond 2^53. */
  readonly value: bigint;
  readonly span: Span;
}

export interface TomlFloat {
  readonly kind: 'float';
  readonly value: number;
  readonly span: Span;
}

export interface TomlBoolean {
  readonly kind: 'boolean';
  readonly value: boolean;
  readonly span: Span;
}

/**
 * Dates and times keep their kind and full precision: `text` is the value
 * as written, normalised to `T` and `Z` (upper case) between date and time
 * and for UTC, with every fractional digit kept.
 */
export interface TomlDateTime {
  readonly kind: 'datetime' | 'datetime-local' | 'date-local' | 'time-local';
  readonly text: string;
  readonly span: Span;
}

export interface TomlArray {
  readonly kind: 'array';
  readonly items: readonly TomlValue[];
  readonly span: Span;
}

/** How a table came to exist; decides which redefinitions TOML allows. */
export type TableOrigin =
  | 'root'
  | 'header' // [a.b]
  | 'array-element' // [[a.b]]
  | 'implicit' // a parent created by a header or a dotted key: [a.b] creates a
  | 'dotted' // a.b = 1 creates table a
  | 'inline'; // { … }

export interface TomlTable {
  readonly kind: 'table';
  readonly origin: TableOrigin;
  /** Entries in source order; keys are unique. */
  readonly entries: ReadonlyMap<string, TomlEntry>;
  /**
   * For a header table: the span of the `[a.b]` / `[[a.b]]` header line's
   * bracketed text. For an inline table: the braces. For a dotted or implicit
   * table: the key that created it. For the root: the whole document.
   */
  readonly span: Span;
}

export interface TomlEntry {
  readonly key: string;
  /** The span of this key segment as written (`b` in `a.b.c = 1`). */
  readonly keySpan: Span;
  readonly value: TomlValue;
}

export interface TomlComment {
  /** Text after the `#`, without the line ending. */
  readonly text: string;
  readonly span: Span;
}

export interface TomlError {
  /** Written for people: `expected "]" to close the table header`. */
  readonly message: string;
  readonly span: Span;
  /** Earlier definitions and the like. */
  readonly related?: readonly { readonly message: string; readonly span: Span }[];
}

export interface TomlParseResult {
  /** Present when there are no errors. */
  readonly document?: TomlTable;
  readonly errors: readonly TomlError[];
  /** Every comment in source order, for inline suppressions. */
  readonly comments: readonly TomlComment[];
  /** The decoded text (without BOM), for code frames. */
  readonly text: string;
}
