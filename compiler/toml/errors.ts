/**
 * Human-readable messages. Nothing from chevrotain's own error text is ever
 * shown: the parser records what it was expecting (a context code set before
 * each step that can fail), and the driver turns context + offending token
 * into one of the messages below.
 */
import type { IToken } from 'chevrotain';

/** A syntax error raised by our own checks (not by chevrotain). */
export class TomlSyntaxError extends Error {
  constructor(
    message: string,
    readonly token: IToken,
    readonly expect?: Expect,
  ) {
    super(message);
  }
}

/** What the parser expected when a syntax error happened. */
export enum Expect {
  LineStart,
  KeyAfterDot,
  Equals,
  Value,
  EndOfLineAfterValue,
  HeaderKey,
  HeaderClose,
  ArrayHeaderKey,
  ArrayHeaderClose,
  EndOfLineAfterHeader,
  ArrayClose,
  InlineKey,
  InlineClose,
}

export function describeCodePoint(c: number): string {
  return 'U+' + c.toString(16).toUpperCase().padStart(4, '0');
}

/** `"x"` for a token the user can see; newline/end of file described in words. */
export function describeToken(image: string | undefined): string {
  if (image === undefined || image === '') return 'the end of the file';
  const c = image.charCodeAt(0);
  if (c === 0x0a || (c === 0x0d && image.charCodeAt(1) === 0x0a)) return 'the end of the line';
  const cp = image.codePointAt(0)!;
  if (image.length <= 2 && cp > 0x7e && (invisible ??= /^[\p{Z}\p{C}]$/u).test(String.fromCodePoint(cp))) {
    return `${describeCodePoint(cp)} (an invisible character)`;
  }
  const shown = image.length > 24 ? image.slice(0, 21) + '...' : image;
  return JSON.stringify(shown);
}

/** Separators and control, format and unassigned code points; built on first use (Unicode property sets are large). */
let invisible: RegExp | undefined;

const BARE_KEY_HINT = ' (bare keys may only contain A-Z, a-z, 0-9, "_" and "-"; quote other keys)';

/** What the driver knows about the token a syntax error was found at. */
export interface Found {
  /** The text as shown to people (blanks taken along by `=` or `,` removed); undefined at the end of the file. */
  readonly image: string | undefined;
  /** Characters the lexer could not match at all. */
  readonly invalid: boolean;
  readonly isNewline: boolean;
}

/**
 * The message for a syntax error. `prevImage` is the (trimmed) text of the
 * last token consumed before the failure; `showFound` whether the error
 * points at the found token (rather than at the end of the previous one).
 */
export function syntaxMessage(expect: Expect, prevImage: string | undefined, found: Found, showFound: boolean): string {
  const img = found.image;
  if (found.invalid && img !== undefined && showFound) {
    const c = img.charCodeAt(0);
    if (c === 0x0d) return 'carriage return (U+000D) must be followed by a line feed';
    if (c < 0x20 || c === 0x7f) return `control character ${describeCodePoint(c)} is not allowed here`;
  }
  const foundText = showFound ? `, found ${describeToken(img)}` : '';
  const hint = showFound && found.invalid ? BARE_KEY_HINT : '';
  switch (expect) {
    case Expect.LineStart:
      if (img === '=' && showFound) return 'expected a key before "="';
      return `expected a key or a table header${foundText}${hint}`;
    case Expect.KeyAfterDot:
      return `expected a key after "."${foundText}${hint}`;
    case Expect.Equals:
      if (found.isNewline || img === undefined) return 'expected "=" and a value after the key';
      return `expected "=" after the key${foundText}${hint}`;
    case Expect.Value:
      return `expected a value after "="${foundText}`;
    case Expect.EndOfLineAfterValue:
      return `expected the end of the line after the value${foundText}`;
    case Expect.HeaderKey:
      if (img === ']') return 'table header [] needs a table name';
      return `expected a table name after "["${foundText}${hint}`;
    case Expect.HeaderClose:
      return `expected "]" to close the table header${foundText}`;
    case Expect.ArrayHeaderKey:
      if (img === ']]' || img === ']') return 'array of tables header [[]] needs a table name';
      return `expected a table name after "[["${foundText}${hint}`;
    case Expect.ArrayHeaderClose:
      return `expected "]]" to close the array of tables header${foundText}`;
    case Expect.EndOfLineAfterHeader:
      return `expected the end of the line after the table header${foundText}`;
    case Expect.ArrayClose:
      if (prevImage === ',' || prevImage === '[') return `expected a value or "]" after "${prevImage}"${foundText}`;
      if (!showFound && img !== undefined && !found.isNewline)
        return 'expected "," or "]" after the array element (is the closing "]" missing?)';
      return `expected "," or "]" after the array element${foundText}`;
    case Expect.InlineKey:
      if (img === '}' && prevImage === ',') return 'a trailing comma is not allowed in an inline table (TOML 1.0)';
      if (found.isNewline) return 'inline tables must be on one line in TOML 1.0: newlines are not allowed inside "{ }"';
      return `expected a key in the inline table${foundText}${hint}`;
    case Expect.InlineClose:
      if (found.isNewline) return 'inline tables must be on one line in TOML 1.0: expected "}" before the end of the line';
      if (img === undefined) return 'expected "}" to close the inline table';
      if (prevImage === '{') return `expected a key or "}" after "{"${foundText}`;
      return `expected "," or "}" after the value in the inline table${foundText}`;
  }
  return 'syntax error';
}

export const MAX_DEPTH = 1000;
export const DEPTH_MESSAGE = `arrays and inline tables nested deeper than ${MAX_DEPTH} levels`;
export const KEY_DEPTH_MESSAGE = `tables nested deeper than ${MAX_DEPTH} levels`;

/** `a.b."c d"` for messages. */
export function formatKey(names: readonly string[]): string {
  let s = '';
  for (let i = 0; i < names.length; i++) {
    if (i > 0) s += '.';
    const n = names[i]!;
    s += /^[A-Za-z0-9_-]+$/.test(n) ? n : JSON.stringify(n);
  }
  return s;
}
