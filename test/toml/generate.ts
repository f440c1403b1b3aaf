/**
 * Generated TOML 1.0 documents and the values they must decode to, for the
 * differential tests (differential.test.ts, windows.test.ts). Scalars come
 * from gen-scalars.ts, the values and their canonical forms from model.ts.
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
import { dateTimeArb, floatArb, integerArb } from './gen-scalars.js';
import {
  intended,
  type ArrayModel,
  type Intended,
  type Model,
  type Scalar,
  type Str,
  type TableModel,
  type TablesModel,
  type ValueModel,
} from './model.js';

// ---------------------------------------------------------------- strings and keys

/** Characters worth writing: every escape's, controls, quotes, non-ASCII and astral ones. */
const charArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...'abcxyz09 _-.') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '"',
      "'",
      '\\',
      '\t',
      '\n',
      '\r\n',
      '\r',
      '\b',
      '\f',
      '\u0000',
      '\u001f',
      '\u007f',
      '#',
      '=',
      '[',
      ']',
      '{',
      '}',
      ',',
    ),
  },
  { weight: 2, arbitrary: fc.constantFrom('é', 'ß', 'ключ', '€', '\u00a0', '\u2028', '\ufeff', '😀', '𝄞', '\u{10ffff}') },
);
const textArb = (max: number): fc.Arbitrary<string> => fc.array(charArb, { maxLength: max }).map((cs) => cs.join(''));

const BARE = /^[A-Za-z0-9_-]+$/;
const keyArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{1,6}$/) },
  { weight: 2, arbitrary: textArb(5) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'true',
      'false',
      'inf',
      'nan',
      '1979-05-27',
      '1',
      '-',
      '_',
      '0x1',
      '__proto__',
      'constructor',
      'toString',
      'a.b',
      'a b',
      '',
    ),
  },
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
    case '"':
      return multiline ? '"' : '\\"'; // multi-line: runs are broken up by the caller
    case '\\':
      return '\\\\';
    case '\b':
      return c.chance(0.5) ? '\\b' : '\\u0008';
    case '\t':
      return c.pick(['\t', '\\t', '\\u0009']);
    case '\n':
      return multiline && c.chance(0.7) ? '\n' : c.chance(0.5) ? '\\n' : '\\u000A';
    case '\f':
      return '\\f';
    case '\r':
      return '\\r';
    case '\r\n':
      return multiline && c.chance(0.5) ? '\r\n' : '\\r\\n';
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
  return (
    '"' +
    chars(s)
      .map((ch) => basicChar(ch, c, false))
      .join('') +
    '"'
  );
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
    {
      weight: 1,
      arbitrary: fc.array(tie('table'), { minLength: 1, maxLength: 3 }).map((tables): TablesModel => ({ m: 'tables', tables })),
    },
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
  constructor(
    private readonly c: Choices,
    private readonly nl: string,
  ) {}

  value(v: ValueModel): string {
    switch (v.m) {
      case 'scalar':
        return v.value.t === 'string' ? stringText(v.value.v, this.c, this.nl) : v.text;
      case 'string':
        return stringText(v.v, this.c, this.nl);
      case 'array':
        return this.array(v.items.map((i) => this.value(i)));
      case 'table':
        return this.inline(v);
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
