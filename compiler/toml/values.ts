/**
 * Decoding and validation of TOML scalar values: the four string kinds with
 * their escapes, integers (exact, as bigint), floats and booleans; the four
 * date-time kinds are dates.ts's.
 *
 * Every function takes the token text as the lexer matched it and reports
 * problems through `report(relativeOffset, length, message)`; it then returns
 * a best-effort value so that parsing can go on.
 */
import type { Span } from '../span.js';
import type { TomlValue } from './ast.js';
import { describeCodePoint } from './errors.js';
import { dateTimeMessage, decodeDateTime, decodeTime } from './dates.js';
import type { Report } from './report.js';

export type { Report } from './report.js';

const MAX_INT64 = 9223372036854775807n;
const MIN_INT64 = -9223372036854775808n;

// Control characters other than tab (U+0000-U+0008, U+000A-U+001F, U+007F).
const CONTROL_SINGLE = /[\x00-\x08\x0a-\x1f\x7f]/;
// In multi-line strings LF and CRLF are allowed.
const CONTROL_MULTI = /[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f]|\r(?!\n)/;
const BASIC_FAST_SINGLE = /[\\\x00-\x08\x0a-\x1f\x7f]/;

function isControl(c: number, multiline: boolean, next: number): boolean {
  if (c === 0x09) return false;
  if (multiline) {
    if (c === 0x0a) return false;
    if (c === 0x0d && next === 0x0a) return false;
  }
  return c < 0x20 || c === 0x7f;
}

function controlMessage(c: number, where: string): string {
  return `control character ${describeCodePoint(c)} is not allowed in ${where}`;
}

function reportControls(body: string, start: number, multiline: boolean, where: string, report: Report): boolean {
  const re = multiline ? CONTROL_MULTI : CONTROL_SINGLE;
  const m = re.exec(body);
  if (m === null) return false;
  report(start + m.index, 1, controlMessage(body.charCodeAt(m.index), where));
  return true;
}

/** Skips a newline (LF or CRLF) right after an opening multi-line delimiter. */
function leadingNewline(img: string, at: number): number {
  const c = img.charCodeAt(at);
  if (c === 0x0a) return at + 1;
  if (c === 0x0d && img.charCodeAt(at + 1) === 0x0a) return at + 2;
  return at;
}

/** `"..."` or `"""..."""`. */
export function decodeBasicString(img: string, multiline: boolean, report: Report): string {
  const q = multiline ? 3 : 1;
  if (!basicClosed(img, q)) {
    report(
      0,
      img.length,
      multiline ? 'unterminated multi-line string: expected """' : 'unterminated string: expected " before the end of the line',
    );
    return '';
  }
  const start = multiline ? leadingNewline(img, 3) : 1;
  const end = img.length - q;
  if (start >= end) return '';
  if (!multiline) {
    const body = img.slice(start, end);
    if (!BASIC_FAST_SINGLE.test(body)) return body;
  } else if (img.indexOf('\\', start) < 0) {
    const body = img.slice(start, end);
    reportControls(body, start, true, 'a string', report);
    return body;
  }
  return unescapeString(img, start, end, multiline, report);
}

/** Whether the token ends with an (unescaped) closing delimiter. */
function basicClosed(img: string, q: number): boolean {
  const n = img.length;
  if (n < 2 * q || img.charCodeAt(n - 1) !== 0x22) return false;
  if (img.indexOf('\\', q) < 0) return q === 1 || img.endsWith('"""');
  let i = q;
  while (i < n) {
    const c = img.charCodeAt(i);
    if (c === 0x5c) {
      i += 2;
      continue;
    }
    if (c === 0x22) {
      if (q === 1) return i === n - 1;
      let j = i;
      while (j < n && img.charCodeAt(j) === 0x22) j++;
      if (j - i >= 3) return j === n;
      i = j;
      continue;
    }
    i++;
  }
  return false;
}

function hexValue(s: string): number {
  return /^[0-9A-Fa-f]+$/.test(s) ? parseInt(s, 16) : -1;
}

function unescapeString(img: string, start: number, end: number, multiline: boolean, report: Report): string {
  let out = '';
  let run = start;
  let i = start;
  let bad = false;
  while (i < end) {
    const c = img.charCodeAt(i);
    if (c !== 0x5c) {
      if (isControl(c, multiline, img.charCodeAt(i + 1)) && !bad) {
        report(i, 1, controlMessage(c, 'a string'));
        bad = true;
      }
      i++;
      continue;
    }
    out += img.slice(run, i);
    const e = img.charCodeAt(i + 1);
    let len = 2;
    switch (e) {
      case 0x62:
        out += '\b';
        break; // b
      case 0x74:
        out += '\t';
        break; // t
      case 0x6e:
        out += '\n';
        break; // n
      case 0x66:
        out += '\f';
        break; // f
      case 0x72:
        out += '\r';
        break; // r
      case 0x22:
        out += '"';
        break;
      case 0x5c:
        out += '\\';
        break;
      case 0x75: // u
      case 0x55: {
        // U
        const n = e === 0x75 ? 4 : 8;
        const hex = img.slice(i + 2, Math.min(i + 2 + n, end));
        const cp = hex.length === n ? hexValue(hex) : -1;
        len = 2 + hex.length;
        if (cp < 0) {
          if (!bad)
            report(
              i,
              len,
              `invalid escape sequence "${img.slice(i, i + len)}": expected ${n} hexadecimal digits after "\\${String.fromCharCode(e)}"`,
            );
          bad = true;
        } else if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
          if (!bad) report(i, len, `escape sequence "${img.slice(i, i + len)}" is not a Unicode scalar value`);
          bad = true;
        } else {
          out += String.fromCodePoint(cp);
        }
        break;
      }
      default: {
        if (multiline) {
          // line-ending backslash: "\" [spaces] newline -> skip all whitespace and newlines
          let j = i + 1;
          while (j < end && (img.charCodeAt(j) === 0x20 || img.charCodeAt(j) === 0x09)) j++;
          const nl = img.charCodeAt(j) === 0x0a ? 1 : img.charCodeAt(j) === 0x0d && img.charCodeAt(j + 1) === 0x0a ? 2 : 0;
          if (nl > 0) {
            j += nl;
            for (;;) {
              const w = img.charCodeAt(j);
              if (j < end && (w === 0x20 || w === 0x09 || w === 0x0a)) j++;
              else if (j < end && w === 0x0d && img.charCodeAt(j + 1) === 0x0a) j += 2;
              else break;
            }
            len = j - i;
            break;
          }
        }
        if (!bad) {
          const shown = i + 1 < end ? img.slice(i, i + 1 + (img.codePointAt(i + 1)! > 0xffff ? 2 : 1)) : '\\';
          report(
            i,
            Math.max(1, shown.length),
            i + 1 < end && !isControl(e, false, 0)
              ? `invalid escape sequence "${shown}"`
              : 'invalid escape sequence: "\\" must be followed by an escape character',
          );
        }
        bad = true;
      }
    }
    i += len;
    run = i;
  }
  out += img.slice(run, end);
  return out;
}

/** `'...'` or `'''...'''`. */
export function decodeLiteralString(img: string, multiline: boolean, report: Report): string {
  const q = multiline ? 3 : 1;
  const closed = img.length >= 2 * q && img.charCodeAt(img.length - 1) === 0x27 && (!multiline || img.endsWith("'''"));
  if (!closed) {
    report(
      0,
      img.length,
      multiline
        ? "unterminated multi-line literal string: expected '''"
        : "unterminated literal string: expected ' before the end of the line",
    );
    return '';
  }
  const start = multiline ? leadingNewline(img, 3) : 1;
  const end = img.length - q;
  if (start >= end) return '';
  const body = img.slice(start, end);
  reportControls(body, start, multiline, 'a string', report);
  return body;
}

// ---------------------------------------------------------------- numbers

const DEC_INT = /^[+-]?(?:0|[1-9](?:_?[0-9])*)$/;
const HEX_INT = /^0x[0-9A-Fa-f](?:_?[0-9A-Fa-f])*$/;
const OCT_INT = /^0o[0-7](?:_?[0-7])*$/;
const BIN_INT = /^0b[01](?:_?[01])*$/;
const FLOAT = /^[+-]?(?:0|[1-9](?:_?[0-9])*)(?:\.[0-9](?:_?[0-9])*)?(?:[eE][+-]?[0-9](?:_?[0-9])*)?$/;

/** Decodes a bare value (number, boolean, date-time, inf, nan). */
export function decodeAtom(img: string, span: Span, report: Report): TomlValue {
  const c = img.charCodeAt(0);
  if (c >= 0x30 && c <= 0x39) {
    // a date starts with four digits and "-"; a float such as 1.0e-00001 or 123e-45678 can
    // have its "-" fifth too, but never after four digits (its exponent needs an "e" first)
    if (img.length >= 10 && img.charCodeAt(4) === 0x2d && isDigits(img, 1, 4)) return decodeDateTime(img, span, report);
    if (img.length >= 5 && img.charCodeAt(2) === 0x3a) return decodeTime(img, span, report);
    return decodeNumber(img, span, report);
  }
  if (c === 0x2b || c === 0x2d) return decodeNumber(img, span, report);
  switch (img) {
    case 'true':
      return { kind: 'boolean', value: true, span };
    case 'false':
      return { kind: 'boolean', value: false, span };
    case 'inf':
      return { kind: 'float', value: Infinity, span };
    case 'nan':
      return { kind: 'float', value: NaN, span };
  }
  report(0, img.length, invalidValueMessage(img));
  return { kind: 'boolean', value: false, span };
}

/** Whether img[from, to) are all ASCII digits. */
function isDigits(img: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const d = img.charCodeAt(i);
    if (d < 0x30 || d > 0x39) return false;
  }
  return true;
}

function invalidValueMessage(img: string): string {
  const lower = img.toLowerCase();
  if (lower === 'true' || lower === 'false') return `invalid value "${img}": booleans are lower case (true, false)`;
  if (/^[+-]?(?:inf|nan|infinity)$/.test(lower)) return `invalid value "${img}": special floats are written inf, +inf, -inf, nan`;
  if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(img)) return `invalid value "${img}": strings must be quoted`;
  return `invalid value "${img}"`;
}

function decodeNumber(img: string, span: Span, report: Report): TomlValue {
  if (DEC_INT.test(img)) {
    const digits = img.indexOf('_') >= 0 ? img.replace(/_/g, '') : img;
    let value: bigint;
    if (digits.length <= 15) {
      value = BigInt(Number(digits));
    } else {
      value = BigInt(digits);
      if (value > MAX_INT64 || value < MIN_INT64) {
        report(0, img.length, `integer ${img} does not fit in 64 bits`);
      }
    }
    return { kind: 'integer', value, span };
  }
  if (img.length > 2 && img.charCodeAt(0) === 0x30) {
    const p = img.charCodeAt(1);
    const re = p === 0x78 ? HEX_INT : p === 0x6f ? OCT_INT : p === 0x62 ? BIN_INT : undefined;
    if (re?.test(img)) {
      const value = BigInt(img.indexOf('_') >= 0 ? img.replace(/_/g, '') : img);
      if (value > MAX_INT64) report(0, img.length, `integer ${img} does not fit in 64 bits`);
      return { kind: 'integer', value, span };
    }
  }
  if (FLOAT.test(img)) {
    return { kind: 'float', value: Number(img.indexOf('_') >= 0 ? img.replace(/_/g, '') : img), span };
  }
  const c = img.charCodeAt(1);
  if ((c === 0x69 || c === 0x6e) && (img === '+inf' || img === '-inf' || img === '+nan' || img === '-nan')) {
    const value = img.charCodeAt(1) === 0x69 ? (img.charCodeAt(0) === 0x2d ? -Infinity : Infinity) : NaN;
    return { kind: 'float', value, span };
  }
  report(0, img.length, numberMessage(img));
  return { kind: 'integer', value: 0n, span };
}

function numberMessage(img: string): string {
  if (/^[0-9]+[-:][0-9]/.test(img)) return dateTimeMessage(img);
  const isFloat = /^[+-]?[0-9_]*[.eE]/.test(img) && !/^[+-]?0[xob]/i.test(img);
  if (/^[+-]?0[xXoObB]/.test(img)) {
    if (/^[+-]/.test(img)) return `invalid integer "${img}": hexadecimal, octal and binary integers cannot have a sign`;
    if (/^0[XOB]/.test(img)) return `invalid integer "${img}": the prefix must be lower case (0x, 0o, 0b)`;
  }
  if (/^[+-]?0[0-9_]/.test(img)) return isFloat ? `leading zeros are not allowed in floats` : `leading zeros are not allowed in integers`;
  if (/(?:^|[^0-9A-Fa-f])_|_(?:$|[^0-9A-Fa-f])|__/.test(img)) return `invalid number "${img}": underscores must be between digits`;
  if (/\.(?![0-9])|(?:^|[^0-9])\./.test(img)) return `invalid float "${img}": a decimal point must have digits on both sides`;
  if (/[eE](?:[+-]?$|[+-]?[^0-9+-])/.test(img)) return `invalid float "${img}": the exponent needs digits`;
  if (/^[+-]?[0-9]/.test(img)) return `invalid number "${img}"`;
  return invalidValueMessage(img);
}
