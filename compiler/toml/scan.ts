/**
 * The lexer's character scans (lexer.ts): the character classes, and for
 * each token rule of the lexer's table the function that finds where it
 * ends, each one forward pass, linear in what it reads. lexer.ts's
 * `lexToml` keeps the modes and makes the tokens.
 */

export const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
export const SPACE = 0x20;
export const QUOTE = 0x22;
export const HASH = 0x23;
export const APOS = 0x27;
export const COMMA = 0x2c;
export const DOT = 0x2e;
const COLON = 0x3a;
export const EQUALS = 0x3d;
export const LBRACKET = 0x5b;
const BACKSLASH = 0x5c;
export const RBRACKET = 0x5d;
export const LBRACE = 0x7b;
export const RBRACE = 0x7d;

export const MODE_KEY = 0;
export const MODE_INLINE = 1;
export const MODE_VALUE = 2;
export const MODE_ARRAY = 3;

// character classes (ASCII only: nothing else starts or continues a token but strings and comments)
export const KEY = 1; // A-Z a-z 0-9 _ -
export const ATOM = 2; // the above and + . :
const DIGIT = 4;
export const BLANK = 8; // space, tab
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

export const is = (cls: number, c: number): boolean => c < 128 && (CLASS[c]! & cls) !== 0;

// ---------------------------------------------------------------- scans: the end of a match at `i`, or -1

/** The end of a run of `cls` characters from `i` (possibly `i`). */
export function run(text: string, i: number, end: number, cls: number): number {
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c >= 128 || (CLASS[c]! & cls) === 0) break;
    i++;
  }
  return i;
}

/** `[ \t]*=[ \t]*` */
export function equalsEnd(text: string, i: number, end: number): number {
  const j = run(text, i, end, BLANK);
  if (j < end && text.charCodeAt(j) === EQUALS) return run(text, j + 1, end, BLANK);
  return -1;
}

/** After this many characters of blanks and line ends, the rest of the run is left to a regexp. */
const LONG_SPACE = 256;
/** `(?:[ \t]|\r?\n)*`, built the first time a run is long (a file of blank lines): most files never build it. */
let longSpace: RegExp | undefined;

/** `(?:[ \t]|\r?\n)*`: blanks and line ends (possibly none). */
export function spaceEnd(text: string, i: number, end: number): number {
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
export function newlineEnd(text: string, i: number, end: number): number {
  let j = -1;
  for (;;) {
    let k = i;
    if (k < end && text.charCodeAt(k) === CR) k++;
    if (k >= end || text.charCodeAt(k) !== LF) return j;
    i = j = run(text, k + 1, end, BLANK);
  }
}

/** Whether a line end starts at `i` (LF, or CR LF). */
export function lineEndAt(text: string, i: number, end: number, c: number): boolean {
  return c === LF || (c === CR && i + 1 < end && text.charCodeAt(i + 1) === LF);
}

/** A comment from its `#`: up to LF or CR LF (a lone CR is part of it). */
export function commentEnd(text: string, i: number, end: number): number {
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
export function basicEnd(text: string, i: number, end: number): number {
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
export function literalEnd(text: string, i: number, end: number): number {
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
export function atomEnd(text: string, i: number, end: number): number {
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
export function matchesAt(text: string, i: number, end: number, mode: number): boolean {
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
