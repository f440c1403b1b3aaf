/**
 * Generated TOML 1.0 documents and the values they must decode to, for the
 * differential tests (differential.test.ts, floats.test.ts).
 *
 * A document is generated as a model (tables, arrays of tables, arrays and
 * scalars, each scalar with the text it is written as) and then written out
 * in one of the many ways TOML allows: key/value lines, dotted keys, inline
 * tables, `[headers]` in any order (a child before its parent, parents left
 * implicit), `[[arrays of tables]]` or static arrays of inline tables, bare,
 * basic and literal keys, four kinds of strings with every escape and
 * line-ending backslashes, decimal/hex/octal/binary integers with
 * underscores, floats in every exponent form of the ABNF, special floats,
 * the four date-time kinds, comments, blank lines, CRLF. The intended value
 * is the model's, computed without the parser.
 *
 * Written choices come from a small seeded generator (mulberry32) whose seed
 * fast-check draws, so a failing case is reproducible from its seed.
 */
import fc from 'fast-check';
import { TomlDate } from 'smol-toml';
import type { TomlValue } from '../../compiler/toml/index.js';

// ---------------------------------------------------------------- the model

export type DateKind = 'datetime' | 'datetime-local' | 'date-local' | 'time-local';

/** A decoded TOML value as the model knows it. */
export type Intended =
  | { readonly t: 'string'; readonly v: string }
  | { readonly t: 'integer'; readonly v: bigint }
  | { readonly t: 'float'; readonly v: number }
  | { readonly t: 'boolean'; readonly v: boolean }
  | { readonly t: DateKind; readonly v: string }
  | { readonly t: 'array'; readonly items: readonly Intended[] }
  | { readonly t: 'table'; readonly entries: readonly (readonly [string, Intended])[] };

/** A scalar: what it decodes to, and its TOML text (strings are written later, in a chosen style). */
export interface Scalar {
  readonly m: 'scalar';
  readonly value: Intended;
  readonly text: string;
}
export interface Str {
  readonly m: 'string';
  readonly v: string;
}
export interface ArrayModel {
  readonly m: 'array';
  readonly items: readonly ValueModel[];
}
export interface TableModel {
  readonly m: 'table';
  readonly entries: readonly (readonly [string, Model])[];
}
/** An array of tables: written with `[[headers]]` or as a static array of inline tables. */
export interface TablesModel {
  readonly m: 'tables';
  readonly tables: readonly TableModel[];
}
export type ValueModel = Scalar | Str | ArrayModel | TableModel;
export type Model = ValueModel | TablesModel;

export function intended(x: Model): Intended {
  switch (x.m) {
    case 'scalar': return x.value;
    case 'string': return { t: 'string', v: x.v };
    case 'array': return { t: 'array', items: x.items.map(intended) };
    case 'tables': return { t: 'array', items: x.tables.map(intended) };
    case 'table': return { t: 'table', entries: x.entries.map(([k, v]) => [k, intended(v)] as const) };
  }
}

// ---------------------------------------------------------------- numbers

/** `digits` with "_" put between digits where `gaps` says so (zero-prefixable-int and friends). */
function underscored(digits: string, gaps: readonly boolean[]): string {
  let out = digits[0] ?? '';
  for (let i = 1; i < digits.length; i++) out += (gaps[i - 1] === true ? '_' : '') + digits[i];
  return out;
}

const digitString = (min: number, max: number): fc.Arbitrary<string> =>
  fc.array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max }).map((d) => d.join(''));
const gapsArb = fc.array(fc.boolean(), { maxLength: 24 });

/** The parts of a float literal, and its text, per TOML 1.0's ABNF. */
export interface FloatLiteral {
  readonly text: string;
  readonly negative: boolean;
  /** Integer and fraction digits, without underscores (may start with zeros). */
  readonly mantissa: string;
  readonly fractionDigits: number;
  /** The exponent's value (0 without one), however many leading zeros it was written with. */
  readonly exponent: bigint;
}

/**
 * float = float-int-part ( exp / frac [ exp ] ); float-int-part = dec-int;
 * frac = "." zero-prefixable-int; exp = ("e" / "E") [ "-" / "+" ] zero-prefixable-int;
 * zero-prefixable-int = DIGIT *( DIGIT / "_" DIGIT ); dec-int has no leading zeros.
 */
interface FloatParts {
  readonly sign: string;
  readonly int: string;
  readonly intGaps: readonly boolean[];
  readonly frac: { readonly digits: string; readonly gaps: readonly boolean[] } | undefined;
  readonly exp: { readonly e: string; readonly sign: string; readonly digits: string; readonly gaps: readonly boolean[] } | undefined;
}

function floatLiteral(f: FloatParts): FloatLiteral {
  const intText = f.int === '0' ? '0' : underscored(f.int, f.intGaps);
  const fracText = f.frac === undefined ? '' : '.' + underscored(f.frac.digits, f.frac.gaps);
  const expText = f.exp === undefined ? '' : f.exp.e + f.exp.sign + underscored(f.exp.digits, f.exp.gaps);
  const expValue = f.exp === undefined ? 0n : BigInt(f.exp.digits) * (f.exp.sign === '-' ? -1n : 1n);
  return {
    text: f.sign + intText + fracText + expText,
    negative: f.sign === '-',
    mantissa: f.int + (f.frac?.digits ?? ''),
    fractionDigits: f.frac?.digits.length ?? 0,
    exponent: expValue,
  };
}

const nonZeroInt = (maxMore: number): fc.Arbitrary<string> =>
  fc.tuple(fc.constantFrom(...'123456789'), digitString(0, maxMore)).map(([a, b]) => a + b);
const expArb = fc.record({
  e: fc.constantFrom('e', 'E'),
  sign: fc.constantFrom('', '+', '-'),
  digits: fc.oneof(digitString(1, 6), digitString(1, 24), fc.tuple(fc.constantFrom('0', '00', '0000'), digitString(1, 3)).map(([a, b]) => a + b)),
  gaps: gapsArb,
});

const anyFloatParts: fc.Arbitrary<FloatParts> = fc
  .record({
    sign: fc.constantFrom('', '+', '-'),
    int: fc.oneof({ weight: 1, arbitrary: fc.constant('0') }, { weight: 4, arbitrary: nonZeroInt(3) }, { weight: 1, arbitrary: nonZeroInt(20) }),
    intGaps: gapsArb,
    frac: fc.option(fc.record({ digits: digitString(1, 8), gaps: gapsArb }), { nil: undefined }),
    exp: fc.option(expArb, { nil: undefined }),
  })
  .filter((f) => f.frac !== undefined || f.exp !== undefined);

/** Unsigned, three characters before a negative exponent: `123e-45678`, `1.5E-0_001`, `9_1E-0000027`. */
const dateLikeFloatParts: fc.Arbitrary<FloatParts> = fc.oneof(
  fc.record({ sign: fc.constant(''), int: nonZeroInt(2).filter((i) => i.length === 3), intGaps: fc.constant([]), frac: fc.constant(undefined) }),
  fc.record({ sign: fc.constant(''), int: fc.constantFrom(...'0123456789'), intGaps: fc.constant([]), frac: fc.record({ digits: digitString(1, 1), gaps: fc.constant([]) }) }),
  fc.record({ sign: fc.constant(''), int: nonZeroInt(1).filter((i) => i.length === 2), intGaps: fc.constant([true]), frac: fc.constant(undefined) }),
).chain((head) => expArb.map((e) => ({ ...head, exp: { ...e, sign: '-', digits: e.digits.padStart(5, '0') } })));

/**
 * float = float-int-part ( exp / frac [ exp ] ); float-int-part = dec-int;
 * frac = "." zero-prefixable-int; exp = ("e" / "E") [ "-" / "+" ] zero-prefixable-int;
 * zero-prefixable-int = DIGIT *( DIGIT / "_" DIGIT ); dec-int has no leading zeros.
 */
export const floatLiteralArb: fc.Arbitrary<FloatLiteral> = fc
  .oneof({ weight: 4, arbitrary: anyFloatParts }, { weight: 1, arbitrary: dateLikeFloatParts })
  .map(floatLiteral);

/**
 * The value of a float literal, computed from its parts: an integer
 * mantissa times a power of ten whose exponent is worked out in bigint
 * arithmetic, rounded once by the platform's decimal conversion of that
 * canonical form (not of the literal's own text).
 */
export function floatValue(f: FloatLiteral): number {
  const decimalExponent = f.exponent - BigInt(f.fractionDigits);
  const mantissa = f.mantissa.replace(/^0+(?=.)/, '');
  return Number(`${f.negative ? '-' : ''}${mantissa}e${decimalExponent}`);
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function decimalText(v: bigint, plus: boolean, gaps: readonly boolean[]): string {
  const digits = (v < 0n ? -v : v).toString();
  return (v < 0n ? '-' : plus ? '+' : '') + underscored(digits, gaps);
}

function radixText(v: bigint, radix: 16 | 8 | 2, zeros: number, upper: readonly boolean[], gaps: readonly boolean[]): string {
  const prefix = radix === 16 ? '0x' : radix === 8 ? '0o' : '0b';
  let digits = '0'.repeat(zeros) + v.toString(radix);
  if (radix === 16) digits = [...digits].map((c, i) => (upper[i % Math.max(1, upper.length)] === true ? c.toUpperCase() : c)).join('');
  return prefix + underscored(digits, gaps);
}

const integerArb: fc.Arbitrary<Scalar> = fc
  .record({
    v: fc.oneof(fc.bigInt(INT64_MIN, INT64_MAX), fc.bigInt(-1000n, 1000n), fc.constantFrom(0n, INT64_MIN, INT64_MAX, 2n ** 53n + 1n)),
    style: fc.nat(3),
    plus: fc.boolean(),
    zeros: fc.nat(3),
    upper: fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
    gaps: gapsArb,
  })
  .map(({ v, style, plus, zeros, upper, gaps }) => {
    const text = v < 0n || style === 0
      ? decimalText(v, plus, gaps)
      : radixText(v, style === 1 ? 16 : style === 2 ? 8 : 2, zeros, upper, gaps);
    return { m: 'scalar', value: { t: 'integer', v }, text };
  });

const floatArb: fc.Arbitrary<Scalar> = fc.oneof(
  floatLiteralArb.map((f): Scalar => ({ m: 'scalar', value: { t: 'float', v: floatValue(f) }, text: f.text })),
  // any double, as JavaScript prints it (always a valid TOML float once it has a "." or an exponent)
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((v): Scalar => {
    const t = Object.is(v, -0) ? '-0.0' : String(v);
    return { m: 'scalar', value: { t: 'float', v }, text: /[.e]/.test(t) ? t : t + '.0' };
  }),
  fc.constantFrom(
    ['inf', Infinity], ['+inf', Infinity], ['-inf', -Infinity], ['nan', NaN], ['+nan', NaN], ['-nan', NaN], ['-0.0', -0], ['+0.0', 0], ['0e0', 0], ['-0E-0_0', -0],
  ).map(([text, v]): Scalar => ({ m: 'scalar', value: { t: 'float', v: v as number }, text: text as string })),
);

// ---------------------------------------------------------------- dates and times

const pad = (n: number, w: number): string => String(n).padStart(w, '0');
const daysIn = (y: number, m: number): number =>
  m === 2 ? ((y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;

/** Seconds stop at 59: 60 (a leap second) is valid TOML but smol-toml's Date rejects it. */
const dateTimeArb: fc.Arbitrary<Scalar> = fc
  .record({
    kind: fc.constantFrom<DateKind>('datetime', 'datetime-local', 'date-local', 'time-local'),
    y: fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1970, max: 2100 })),
    mo: fc.integer({ min: 1, max: 12 }),
    d: fc.integer({ min: 1, max: 31 }),
    h: fc.integer({ min: 0, max: 23 }),
    mi: fc.integer({ min: 0, max: 59 }),
    s: fc.integer({ min: 0, max: 59 }),
    frac: fc.option(digitString(1, 9), { nil: undefined }),
    sep: fc.constantFrom('T', 't', ' '),
    zone: fc.oneof(fc.constantFrom('Z', 'z'), fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([sg, h, m]) => `${sg}${pad(h, 2)}:${pad(m, 2)}`)),
  })
  .map(({ kind, y, mo, d, h, mi, s, frac, sep, zone }) => {
    const date = `${pad(y, 4)}-${pad(mo, 2)}-${pad(Math.min(d, daysIn(y, mo)), 2)}`;
    const time = `${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}${frac === undefined ? '' : '.' + frac}`;
    const canonicalZone = zone === 'z' ? 'Z' : zone;
    switch (kind) {
      case 'date-local': return { m: 'scalar', value: { t: kind, v: date }, text: date };
      case 'time-local': return { m: 'scalar', value: { t: kind, v: time }, text: time };
      case 'datetime-local': return { m: 'scalar', value: { t: kind, v: `${date}T${time}` }, text: `${date}${sep}${time}` };
      case 'datetime': return { m: 'scalar', value: { t: kind, v: `${date}T${time}${canonicalZone}` }, text: `${date}${sep}${time}${zone}` };
    }
  });

// ---------------------------------------------------------------- strings and keys

/** Characters worth writing: every escape's, controls, quotes, non-ASCII and astral ones. */
const charArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...'abcxyz09 _-.') },
  { weight: 3, arbitrary: fc.constantFrom('"', "'", '\\', '\t', '\n', '\r\n', '\r', '\b', '\f', '\u0000', '\u001f', '\u007f', '#', '=', '[', ']', '{', '}', ',') },
  { weight: 2, arbitrary: fc.constantFrom('é', 'ß', 'ключ', '€', '\u00a0', '\u2028', '\ufeff', '😀', '𝄞', '\u{10ffff}') },
);
const textArb = (max: number): fc.Arbitrary<string> => fc.array(charArb, { maxLength: max }).map((cs) => cs.join(''));

const BARE = /^[A-Za-z0-9_-]+$/;
const keyArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{1,6}$/) },
  { weight: 2, arbitrary: textArb(5) },
  { weight: 1, arbitrary: fc.constantFrom('true', 'false', 'inf', 'nan', '1979-05-27', '1', '-', '_', '0x1', '__proto__', 'constructor', 'toString', 'a.b', 'a b', '') },
);

/** A seeded stream of choices for the writer. */
export class Choices {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** A number in [0, 1) (mulberry32). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)]!;
  }
}

function hex(cp: number, width: number): string {
  return cp.toString(16).padStart(width, '0');
}

/** One character inside a basic string (single- or multi-line): raw when allowed, else escaped. */
function basicChar(ch: string, c: Choices, multiline: boolean): string {
  const cp = ch.codePointAt(0)!;
  switch (ch) {
    case '"': return multiline ? '"' : '\\"'; // multi-line: runs are broken up by the caller
    case '\\': return '\\\\';
    case '\b': return c.chance(0.5) ? '\\b' : '\\u0008';
    case '\t': return c.pick(['\t', '\\t', '\\u0009']);
    case '\n': return multiline && c.chance(0.7) ? '\n' : c.chance(0.5) ? '\\n' : '\\u000A';
    case '\f': return '\\f';
    case '\r': return '\\r';
    case '\r\n': return multiline && c.chance(0.5) ? '\r\n' : '\\r\\n';
  }
  if (cp < 0x20 || cp === 0x7f) return c.chance(0.5) ? `\\u${hex(cp, 4)}` : `\\U${hex(cp, 8)}`;
  if (c.chance(0.15)) return cp > 0xffff || c.chance(0.5) ? `\\U${hex(cp, 8).toUpperCase()}` : `\\u${hex(cp, 4)}`;
  return ch;
}

function chars(s: string): string[] {
  // '\r\n' stays one unit, so that a raw CRLF is written whole or escaped whole
  return s.match(/\r\n|[\s\S]/gu) ?? [];
}

function basicString(s: string, c: Choices): string {
  return '"' + chars(s).map((ch) => basicChar(ch, c, false)).join('') + '"';
}

function multilineBasic(s: string, c: Choices, nl: string): string {
  let out = '';
  let quotes = 0; // raw '"' just written
  const parts = chars(s);
  for (const ch of parts) {
    // a line-ending backslash swallows the whitespace after it: only before a non-blank character
    if (c.chance(0.1) && !/^[ \t\r\n]/.test(ch)) {
      out += '\\' + c.pick(['', ' ', '\t ']) + nl + c.pick(['', '  ', nl + '\t']);
      quotes = 0;
    }
    let w = basicChar(ch, c, true);
    if (w === '"' && quotes === 2) w = '\\"'; // never three raw quotes in a row
    quotes = w === '"' ? quotes + 1 : 0;
    out += w;
  }
  // a raw newline right after the opening quotes would be trimmed: start with a trimmed one, or escape it
  const first = c.chance(0.5) ? nl : '';
  if (first === '' && /^\r?\n/.test(out)) out = out.startsWith('\r\n') ? '\\r\\n' + out.slice(2) : '\\n' + out.slice(1);
  return '"""' + first + out + '"""';
}

const LITERAL_OK = /^[^'\u0000-\u0008\u000a-\u001f\u007f]*$/;
/** Multi-line literal content: no control characters but tab and newlines, no lone CR, no `'''`. */
const ML_LITERAL_OK = /^(?:[^'\u0000-\u0008\u000b-\u001f\u007f\r]|\r\n|'(?!''))*$/u;

function stringText(s: string, c: Choices, nl: string): string {
  const style = c.pick(['basic', 'basic', 'literal', 'ml-basic', 'ml-literal']);
  if (style === 'literal' && LITERAL_OK.test(s)) return `'${s}'`;
  if (style === 'ml-literal' && ML_LITERAL_OK.test(s) && !s.endsWith("'''")) {
    // a newline right after ''' is trimmed: add one when the content starts with one
    return "'''" + (/^\r?\n/.test(s) || c.chance(0.5) ? nl : '') + s + "'''";
  }
  if (style === 'ml-basic') return multilineBasic(s, c, nl);
  return basicString(s, c);
}

function keyText(k: string, c: Choices): string {
  if (BARE.test(k) && c.chance(0.8)) return k;
  if (LITERAL_OK.test(k) && c.chance(0.4)) return `'${k}'`;
  return basicString(k, c);
}

function dottedText(path: readonly string[], c: Choices): string {
  return path.map((k) => keyText(k, c)).join(c.pick(['.', '.', ' . ', '\t.']));
}

// ---------------------------------------------------------------- the document model

const scalarArb: fc.Arbitrary<ValueModel> = fc.oneof(
  { weight: 3, arbitrary: textArb(10).map((v): Str => ({ m: 'string', v })) },
  { weight: 2, arbitrary: integerArb },
  { weight: 3, arbitrary: floatArb },
  { weight: 1, arbitrary: fc.boolean().map((v): Scalar => ({ m: 'scalar', value: { t: 'boolean', v }, text: String(v) })) },
  { weight: 2, arbitrary: dateTimeArb },
);

const entriesOf = <T>(value: fc.Arbitrary<T>, max: number): fc.Arbitrary<(readonly [string, T])[]> =>
  fc.uniqueArray(fc.tuple(keyArb, value), { maxLength: max, selector: ([k]) => k });

const models = fc.letrec<{ value: ValueModel; model: Model; table: TableModel }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: scalarArb },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }).map((items): ArrayModel => ({ m: 'array', items })) },
    { weight: 1, arbitrary: tie('table') },
  ),
  model: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: tie('value') },
    { weight: 1, arbitrary: fc.array(tie('table'), { minLength: 1, maxLength: 3 }).map((tables): TablesModel => ({ m: 'tables', tables })) },
  ),
  table: entriesOf(tie('model'), 4).map((entries): TableModel => ({ m: 'table', entries })),
}));

export interface GeneratedDocument {
  readonly text: string;
  readonly value: Intended;
}

/** Root tables with 1-8 entries, written with seeded choices, LF or CRLF. */
export const documentArb: fc.Arbitrary<GeneratedDocument> = fc
  .tuple(entriesOf(models.model, 8), fc.integer(), fc.boolean())
  .map(([entries, seed, crlf]) => {
    const root: TableModel = { m: 'table', entries };
    return { text: writeDocument(root, new Choices(seed), crlf ? '\r\n' : '\n'), value: intended(root) };
  });

// ---------------------------------------------------------------- writing

class Writer {
  constructor(private readonly c: Choices, private readonly nl: string) {}

  value(v: ValueModel): string {
    switch (v.m) {
      case 'scalar': return v.value.t === 'string' ? stringText(v.value.v, this.c, this.nl) : v.text;
      case 'string': return stringText(v.v, this.c, this.nl);
      case 'array': return this.array(v.items.map((i) => this.value(i)));
      case 'table': return this.inline(v);
    }
  }

  array(items: readonly string[]): string {
    const c = this.c;
    // arrays may span lines, with comments between items
    const gap = (): string => c.pick([' ', '', this.nl + '  ', ' # note' + this.nl, this.nl + this.nl + '\t']);
    if (items.length === 0) return c.pick(['[]', '[ ]', '[' + this.nl + ']']);
    const trailing = c.chance(0.3) ? ',' : '';
    return '[' + gap() + items.map((i) => i + gap()).join(',' + gap()) + trailing + gap() + ']';
  }

  /** `{ a = 1, b.c = 2 }`: one line; sub-tables inline or by dotted keys. */
  inline(t: TableModel): string {
    const parts: string[] = [];
    const add = (path: readonly string[], m: Model): void => {
      if (m.m === 'table' && m.entries.length > 0 && this.c.chance(0.4)) {
        for (const [k, v] of m.entries) add([...path, k], v);
        return;
      }
      parts.push(`${dottedText(path, this.c)} = ${this.valueOf(m)}`);
    };
    for (const [k, v] of t.entries) add([k], v);
    return parts.length === 0 ? this.c.pick(['{}', '{ }']) : '{ ' + parts.join(this.c.pick([', ', ',', ' ,\t'])) + ' }';
  }

  /** Any model as a value: an array of tables becomes a static array of inline tables. */
  valueOf(m: Model): string {
    return m.m === 'tables' ? this.array(m.tables.map((t) => this.inline(t))) : this.value(m);
  }

  line(key: string, value: string): string {
    const c = this.c;
    return c.pick(['', '  ', '\t']) + key + c.pick([' = ', '=', ' =\t', '  =  ']) + value + (c.chance(0.2) ? ' # after' : '');
  }

  /**
   * The lines of a table in a section, and the sections its sub-tables
   * need (written after all of the section's key/value lines).
   */
  section(t: TableModel, path: readonly string[]): { lines: string[]; sections: string[][] } {
    const c = this.c;
    const lines: string[] = [];
    const sections: string[][] = [];
    const dotted = (at: readonly string[], m: Model): void => {
      if (m.m === 'table' && m.entries.length > 0) {
        for (const [k, v] of m.entries) dotted([...at, k], v);
        return;
      }
      lines.push(this.line(dottedText(at, c), this.valueOf(m)));
    };
    for (const [k, m] of t.entries) {
      const at = [...path, k];
      if (m.m === 'table') {
        const how = c.pick(['header', 'header', 'dotted', 'inline']);
        if (how === 'dotted') dotted([k], m);
        else if (how === 'inline') lines.push(this.line(keyText(k, c), this.inline(m)));
        else sections.push(...this.headerSections(m, at));
      } else if (m.m === 'tables' && c.chance(0.7)) {
        for (const element of m.tables) sections.push(...this.elementSections(element, at));
      } else {
        lines.push(this.line(keyText(k, c), this.valueOf(m)));
      }
      if (c.chance(0.1)) lines.push(c.pick(['', '# a comment', '  # indented comment']));
    }
    return { lines, sections };
  }

  header(path: readonly string[], array: boolean): string {
    const c = this.c;
    const [open, close] = array ? ['[[', ']]'] : ['[', ']'];
    const pad = c.pick(['', ' ']);
    return c.pick(['', '  ']) + open + pad + dottedText(path, c) + pad + close + (c.chance(0.2) ? ' # header' : '');
  }

  /** `[path]` and the sections below it; children may come first (the table is then implicit until its header). */
  headerSections(t: TableModel, path: readonly string[]): string[][] {
    const { lines, sections } = this.section(t, path);
    const own = [this.header(path, false), ...lines];
    // a table with no key/value lines of its own and some sub-table sections needs no header
    if (lines.length === 0 && sections.length > 0 && this.c.chance(0.5)) return sections;
    return this.c.chance(0.3) ? [...sections, own] : [own, ...sections];
  }

  /** `[[path]]` and the sections of that element, which must follow it before the next `[[path]]`. */
  elementSections(t: TableModel, path: readonly string[]): string[][] {
    const { lines, sections } = this.section(t, path);
    return [[this.header(path, true), ...lines], ...sections];
  }
}

export function writeDocument(root: TableModel, c: Choices, nl: string): string {
  const w = new Writer(c, nl);
  const { lines, sections } = w.section(root, []);
  const out: string[] = c.chance(0.3) ? ['# generated'] : [];
  out.push(...lines);
  for (const s of sections) {
    if (c.chance(0.5)) out.push('');
    out.push(...s);
  }
  return out.join(nl) + (c.chance(0.8) ? nl : '');
}

// ---------------------------------------------------------------- canonical forms, for comparing

/** A canonical text of an intended value (tables by sorted key; floats by value, -0 and NaN included). */
export function canonical(v: Intended, dates: (kind: DateKind, text: string) => string = (k, t) => `${k} ${t}`): string {
  switch (v.t) {
    case 'string': return 's' + JSON.stringify(v.v);
    case 'integer': return 'i' + v.v.toString();
    case 'float': return 'f' + (Object.is(v.v, -0) ? '-0' : String(v.v));
    case 'boolean': return 'b' + String(v.v);
    case 'array': return '[' + v.items.map((i) => canonical(i, dates)).join(',') + ']';
    case 'table': {
      const entries = [...v.entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return '{' + entries.map(([k, x]) => JSON.stringify(k) + ':' + canonical(x, dates)).join(',') + '}';
    }
    default: return 'd' + dates(v.t, v.v);
  }
}

/** Our tree as the model's values. */
export function fromTree(v: TomlValue): Intended {
  switch (v.kind) {
    case 'string': return { t: 'string', v: v.value };
    case 'integer': return { t: 'integer', v: v.value };
    case 'float': return { t: 'float', v: v.value };
    case 'boolean': return { t: 'boolean', v: v.value };
    case 'array': return { t: 'array', items: v.items.map(fromTree) };
    case 'table': return { t: 'table', entries: [...v.entries].map(([k, e]) => [k, fromTree(e.value)] as const) };
    default: return { t: v.kind, v: v.text };
  }
}

/** smol-toml's output as the model's values (a TomlDate says its kind and prints its text). */
export function fromSmol(v: unknown): Intended {
  if (typeof v === 'string') return { t: 'string', v };
  if (typeof v === 'bigint') return { t: 'integer', v };
  if (typeof v === 'number') return { t: 'float', v };
  if (typeof v === 'boolean') return { t: 'boolean', v };
  if (v instanceof TomlDate) {
    const kind: DateKind = v.isDate() ? 'date-local' : v.isTime() ? 'time-local' : v.isLocal() ? 'datetime-local' : 'datetime';
    return { t: kind, v: v.toISOString() };
  }
  if (Array.isArray(v)) return { t: 'array', items: v.map(fromSmol) };
  if (v !== null && typeof v === 'object') return { t: 'table', entries: Object.keys(v).map((k) => [k, fromSmol((v as Record<string, unknown>)[k])] as const) };
  throw new Error(`smol-toml returned ${String(v)}`);
}

/** A date-time as smol-toml's TomlDate prints it: T, milliseconds (truncated), Z or the offset. */
export function atMilliseconds(kind: DateKind, text: string): string {
  if (kind === 'date-local') return `${kind} ${text}`;
  const m = /^(.*?\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)?$/.exec(text);
  if (m === null) return `${kind} ${text}`;
  return `${kind} ${m[1]}.${((m[2] ?? '') + '000').slice(0, 3)}${m[3] ?? ''}`;
}
