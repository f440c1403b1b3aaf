/**
 * A strict RFC 8259 JSON parser with exact spans, written for the settings
 * files of sandbox-runtime and Claude Code: what JSON.parse accepts, it
 * accepts with the same values (the last of a key written twice wins, as
 * JSON.parse keeps it), and it reports each key written twice; what
 * JSON.parse refuses, it refuses with a positioned message. Lines end at
 * `\n` (a `\r` before it is a column of its line, so CRLF is one line
 * ending) and columns count UTF-16 code units, as on the TOML side
 * (compiler/span.ts).
 *
 * Hand-written rather than a package: the settings files are small, the
 * grammar is a page, and what boxwright needs (a span for every key and
 * value, duplicates reported, never a throw, a depth bound) is what the
 * common parsers leave out (JSON.parse gives no positions; the parsers that
 * give positions are lenient: comments, trailing commas). The conformance
 * test holds it to JSONTestSuite's accept and reject cases and to JSON.parse.
 */
import type { Position, Span } from '../span.js';
import { decodeUtf8 } from '../toml/utf8.js';
import type { JsonArray, JsonDuplicate, JsonError, JsonMember, JsonObject, JsonParseResult, JsonValue } from './ast.js';

/** Deeper than any settings file; past it the parser stops with a message instead of exhausting the stack. */
const MAX_DEPTH = 512;

class Stop extends Error {}

class Parser {
  private i = 0;
  private line = 1;
  private lineStart = 0;
  readonly errors: JsonError[] = [];
  readonly duplicates: JsonDuplicate[] = [];

  constructor(private readonly s: string) {}

  pos(offset = this.i): Position {
    // Newlines occur only in whitespace, which keeps line and lineStart current.
    return { offset, line: this.line, column: offset - this.lineStart + 1 };
  }

  private fail(message: string, start = this.i, length = 1): never {
    const end = Math.min(start + Math.max(length, 0), this.s.length);
    const from = this.pos(start);
    // A span over a line break (an unescaped newline in a string) ends on the next line.
    const covered = this.s.slice(start, end);
    const breaks = covered.split('\n').length - 1;
    const to =
      breaks === 0
        ? { offset: end, line: from.line, column: from.column + (end - start) }
        : { offset: end, line: from.line + breaks, column: end - (start + covered.lastIndexOf('\n') + 1) + 1 };
    this.errors.push({ message, span: { start: from, end: to } });
    throw new Stop();
  }

  private describe(at: number): string {
    if (at >= this.s.length) return 'the end of the file';
    const c = this.s.charCodeAt(at);
    if (c < 0x20 || c === 0x7f) return `the control character U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
    const cp = this.s.codePointAt(at)!;
    return `\`${String.fromCodePoint(cp)}\``;
  }

  ws(): void {
    const s = this.s;
    for (;;) {
      const c = s.charCodeAt(this.i);
      if (c === 0x20 || c === 0x09) this.i++;
      else if (c === 0x0a) {
        this.i++;
        this.line++;
        this.lineStart = this.i;
      } else if (c === 0x0d) this.i++;
      else return;
    }
  }

  document(): JsonValue {
    this.ws();
    if (this.s.charCodeAt(this.i) === 0xfeff)
      this.fail(
        'the file starts with a byte order mark (U+FEFF): JSON.parse refuses it, so the tools reading this file do too; save it as UTF-8 without a BOM',
      );
    if (this.i >= this.s.length) this.fail('the file holds no JSON value (an empty settings file is refused)', this.i, 0);
    const v = this.value(0);
    this.ws();
    if (this.i < this.s.length) this.fail(`unexpected ${this.describe(this.i)} after the JSON value: a file holds one value`);
    return v;
  }

  private value(depth: number): JsonValue {
    const c = this.s.charCodeAt(this.i);
    if (c === 0x7b) return this.object(depth);
    if (c === 0x5b) return this.array(depth);
    if (c === 0x22) {
      const start = this.pos();
      const value = this.string();
      return { kind: 'string', value, span: { start, end: this.pos() } };
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
    for (const [word, v] of literals) {
      if (this.s.startsWith(word, this.i)) {
        const start = this.pos();
        this.i += word.length;
        const span = { start, end: this.pos() };
        return v === null ? { kind: 'null', span } : { kind: 'boolean', value: v, span };
      }
    }
    if (c === 0x27) this.fail('JSON strings are written in double quotes (`"`), not single quotes');
    return this.fail(`expected a JSON value (an object, array, string, number, true, false or null), found ${this.describe(this.i)}`);
  }

  private nested(depth: number): number {
    if (depth + 1 > MAX_DEPTH) this.fail(`the document is nested more than ${MAX_DEPTH} levels deep`);
    return depth + 1;
  }

  private object(depth: number): JsonObject {
    const inner = this.nested(depth);
    const start = this.pos();
    this.i++;
    const members = new Map<string, JsonMember>();
    // Where the member after each key's latest definition starts: the end of that definition's removal (JsonDuplicate).
    const nextStarts = new Map<string, number>();
    let previous: string | undefined;
    this.ws();
    if (this.s.charCodeAt(this.i) === 0x7d) {
      this.i++;
      return { kind: 'object', members, span: { start, end: this.pos() } };
    }
    for (;;) {
      this.ws();
      const c = this.s.charCodeAt(this.i);
      if (c !== 0x22) {
        if (c === 0x7d) this.fail('a trailing comma before `}` is not JSON: remove it');
        this.fail(`expected a member name in double quotes, found ${this.describe(this.i)}`);
      }
      const keyStart = this.pos();
      const key = this.string();
      const keySpan = { start: keyStart, end: this.pos() };
      if (previous !== undefined) nextStarts.set(previous, keyStart.offset);
      previous = key;
      this.ws();
      if (this.s.charCodeAt(this.i) !== 0x3a) this.fail(`expected \`:\` after the member name, found ${this.describe(this.i)}`);
      this.i++;
      this.ws();
      const value = this.value(inner);
      const earlier = members.get(key);
      // JSON.parse keeps the last value, at the first definition's place in the key order (as Map.set does).
      if (earlier)
        this.duplicates.push({
          key,
          ignored: earlier.keySpan,
          kept: keySpan,
          removal: { start: earlier.keySpan.start.offset, end: nextStarts.get(key) ?? keyStart.offset },
          ignoredValue: earlier.value,
          keptValue: value,
        });
      members.set(key, { key, keySpan, value });
      this.ws();
      const d = this.s.charCodeAt(this.i);
      if (d === 0x2c) {
        this.i++;
        continue;
      }
      if (d === 0x7d) {
        this.i++;
        return { kind: 'object', members, span: { start, end: this.pos() } };
      }
      this.fail(`expected \`,\` or \`}\` after the member's value, found ${this.describe(this.i)}`);
    }
  }

  private array(depth: number): JsonArray {
    const inner = this.nested(depth);
    const start = this.pos();
    this.i++;
    const items: JsonValue[] = [];
    this.ws();
    if (this.s.charCodeAt(this.i) === 0x5d) {
      this.i++;
      return { kind: 'array', items, span: { start, end: this.pos() } };
    }
    for (;;) {
      this.ws();
      if (this.s.charCodeAt(this.i) === 0x5d) this.fail('a trailing comma before `]` is not JSON: remove it');
      items.push(this.value(inner));
      this.ws();
      const d = this.s.charCodeAt(this.i);
      if (d === 0x2c) {
        this.i++;
        continue;
      }
      if (d === 0x5d) {
        this.i++;
        return { kind: 'array', items, span: { start, end: this.pos() } };
      }
      this.fail(`expected \`,\` or \`]\` after the array item, found ${this.describe(this.i)}`);
    }
  }

  /** A string token at `this.i` (its opening quote); returns its value. */
  private string(): string {
    const s = this.s;
    const open = this.i;
    this.i++;
    let out = '';
    let run = this.i;
    for (;;) {
      if (this.i >= s.length) this.fail('this string is never closed: expected `"`', open, this.i - open);
      const c = s.charCodeAt(this.i);
      if (c === 0x22) {
        out += s.slice(run, this.i);
        this.i++;
        return out;
      }
      if (c < 0x20) this.fail(`${this.describe(this.i)} must be escaped inside a string (\`\\n\`, \`\\t\`, \`\\u00XX\`)`);
      if (c !== 0x5c) {
        this.i++;
        continue;
      }
      out += s.slice(run, this.i);
      const e = s.charCodeAt(this.i + 1);
      const simple = escapeChars.get(e);
      if (simple !== undefined) {
        out += simple;
        this.i += 2;
      } else if (e === 0x75) {
        const hex = s.slice(this.i + 2, this.i + 6);
        if (!/^[0-9A-Fa-f]{4}$/.test(hex)) this.fail('`\\u` is followed by four hexadecimal digits', this.i, 2 + hex.length);
        out += String.fromCharCode(parseInt(hex, 16));
        this.i += 6;
      } else
        this.fail(
          `\`\\${Number.isNaN(e) ? '' : String.fromCharCode(e)}\` is not a JSON escape (\`\\"\`, \`\\\\\`, ` +
            `\`\\/\`, \`\\b\`, \`\\f\`, \`\\n\`, \`\\r\`, \`\\t\`, \`\\uXXXX\`)`,
          this.i,
          2,
        );
      run = this.i;
    }
  }

  private number(): JsonValue {
    const s = this.s;
    const from = this.i;
    const start = this.pos();
    const digits = (): number => {
      const b = this.i;
      while (this.i < s.length && s.charCodeAt(this.i) >= 0x30 && s.charCodeAt(this.i) <= 0x39) this.i++;
      return this.i - b;
    };
    if (s.charCodeAt(this.i) === 0x2d) this.i++;
    if (s.charCodeAt(this.i) === 0x30) {
      this.i++;
      if (s.charCodeAt(this.i) >= 0x30 && s.charCodeAt(this.i) <= 0x39)
        this.fail('a JSON number has no leading zero', from, this.i - from + 1);
    } else if (digits() === 0) this.fail(`expected a digit in this number, found ${this.describe(this.i)}`);
    if (s.charCodeAt(this.i) === 0x2e) {
      this.i++;
      if (digits() === 0) this.fail(`expected a digit after the decimal point, found ${this.describe(this.i)}`);
    }
    const e = s.charCodeAt(this.i);
    if (e === 0x65 || e === 0x45) {
      this.i++;
      const sign = s.charCodeAt(this.i);
      if (sign === 0x2b || sign === 0x2d) this.i++;
      if (digits() === 0) this.fail(`expected a digit in the exponent, found ${this.describe(this.i)}`);
    }
    const text = s.slice(from, this.i);
    return { kind: 'number', value: Number(text), text, span: { start, end: this.pos() } };
  }
}

const literals: readonly (readonly [string, boolean | null])[] = [
  ['true', true],
  ['false', false],
  ['null', null],
];

const escapeChars = new Map<number, string>([
  [0x22, '"'],
  [0x5c, '\\'],
  [0x2f, '/'],
  [0x62, '\b'],
  [0x66, '\f'],
  [0x6e, '\n'],
  [0x72, '\r'],
  [0x74, '\t'],
]);

/**
 * Parses a JSON document. Bytes must be UTF-8; a byte order mark is an
 * error, since JSON.parse refuses it (Node's readFileSync keeps it in the
 * text). Never throws: problems come back as positioned `errors`, and
 * `document` is present only when there are none.
 */
export function parseJson(input: Uint8Array | string): JsonParseResult {
  let text: string;
  if (typeof input === 'string') text = input;
  else {
    if (input.length >= 3 && input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf) {
      const span: Span = { start: { offset: 0, line: 1, column: 1 }, end: { offset: 1, line: 1, column: 2 } };
      return {
        errors: [
          {
            message:
              'the file starts with a UTF-8 byte order mark: JSON.parse refuses it, so the tools reading this file do too; save it without a BOM',
            span,
          },
        ],
        duplicates: [],
        text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(input),
      };
    }
    const decoded = decodeUtf8(input, 'JSON');
    if (decoded.error) return { errors: [decoded.error], duplicates: [], text: decoded.text };
    text = decoded.text;
  }
  const p = new Parser(text);
  try {
    const document = p.document();
    return { document, errors: [], duplicates: p.duplicates, text };
  } catch (e) {
    if (!(e instanceof Stop)) {
      const start = p.pos();
      return {
        errors: [
          { message: `internal error in the JSON parser: ${e instanceof Error ? e.message : String(e)}`, span: { start, end: start } },
        ],
        duplicates: [],
        text,
      };
    }
    return { errors: p.errors, duplicates: p.duplicates, text };
  }
}

/** The plain value JSON.parse would give (null-prototype objects, so `__proto__` stays a key). */
export function toPlain(v: JsonValue): unknown {
  switch (v.kind) {
    case 'object': {
      const out = Object.create(null) as Record<string, unknown>;
      for (const [k, m] of v.members) out[k] = toPlain(m.value);
      return out;
    }
    case 'array':
      return v.items.map(toPlain);
    case 'null':
      return null;
    default:
      return v.value;
  }
}
