/**
 * Property tests (fast-check):
 *  - random documents generated from a small model are written as TOML in
 *    varied spellings, parsed, and `toPlainJsonText` must equal the JSON
 *    written independently from the model;
 *  - random bytes, TOML-ish noise and mutated documents never make the parser
 *    throw, and results are consistent (document iff no errors, positions in
 *    range).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parseToml, toPlainJsonText } from '../../compiler/toml/index.js';
import { runs } from '../budget.js';

// ---------------------------------------------------------------- the model

type Scalar =
  | { t: 'str'; v: string; style: number }
  | { t: 'int'; v: bigint; style: number }
  | { t: 'float'; v: number; style: number }
  | { t: 'bool'; v: boolean }
  | { t: 'date'; v: string };
type Value = Scalar | { t: 'arr'; items: Value[] } | { t: 'inline'; entries: Entry[] };
interface Entry {
  key: string;
  keyStyle: number;
  value: Value;
}
interface Doc {
  root: Entry[];
  sections: { name: string; entries: Entry[] }[];
}

const keyArb = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_-]{1,8}$/),
  fc.string({ unit: 'binary', minLength: 0, maxLength: 6 }),
  fc.constantFrom('true', 'inf', 'nan', '1979-05-27', '1', '-', 'key with space', 'é', '"q"', "'", '\\', '\n'),
);

const scalarArb: fc.Arbitrary<Scalar> = fc.oneof(
  fc.record({ t: fc.constant('str' as const), v: fc.string({ unit: 'binary', maxLength: 12 }), style: fc.nat(3) }),
  fc.record({ t: fc.constant('int' as const), v: fc.bigInt(-(2n ** 63n), 2n ** 63n - 1n), style: fc.nat(3) }),
  fc.record({ t: fc.constant('int' as const), v: fc.bigInt(-1000n, 1000n), style: fc.nat(3) }),
  fc.record({ t: fc.constant('float' as const), v: fc.double({ noNaN: false, noDefaultInfinity: false }), style: fc.nat(1) }),
  fc.record({ t: fc.constant('bool' as const), v: fc.boolean() }),
  fc.record({
    t: fc.constant('date' as const),
    v: fc
      .date({ min: new Date(Date.UTC(1, 0, 1)), max: new Date(Date.UTC(9999, 11, 31)), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10)),
  }),
);

const uniqueEntries = (value: fc.Arbitrary<Value>, max: number): fc.Arbitrary<Entry[]> =>
  fc.uniqueArray(fc.record({ key: keyArb, keyStyle: fc.nat(2), value }), { maxLength: max, selector: (e) => e.key });

const valueArb: fc.Arbitrary<Value> = fc.letrec<{ value: Value }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalarArb,
    fc.record({ t: fc.constant('arr' as const), items: fc.array(tie('value'), { maxLength: 4 }) }),
    fc.record({ t: fc.constant('inline' as const), entries: uniqueEntries(tie('value'), 3) }),
  ),
})).value;

const docArb: fc.Arbitrary<Doc> = fc
  .record({
    root: uniqueEntries(valueArb, 5),
    sections: fc.uniqueArray(fc.record({ name: keyArb, entries: uniqueEntries(valueArb, 4) }), { maxLength: 3, selector: (s) => s.name }),
  })
  .map((d) => ({ root: d.root, sections: d.sections.filter((s) => !d.root.some((e) => e.key === s.name)) }));

// ---------------------------------------------------------------- writing TOML

function basic(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += c % 2 ? '\\t' : '\t';
    else if (c < 0x20 || c === 0x7f) out += '\\u' + c.toString(16).padStart(4, '0');
    else if (c >= 0xd800 && c <= 0xdfff)
      out += '\\uFFFD'; // lone surrogates are not Unicode
    else if (c > 0xffff && c % 3 === 0) out += '\\U' + c.toString(16).padStart(8, '0');
    else out += ch;
  }
  return out + '"';
}

/** Lone surrogates cannot be written in TOML; the model's strings are made well-formed the same way. */
const wellFormed = (s: string): string => s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
const literalOk = (s: string): boolean => !/['\u0000-\u0008\u000a-\u001f\u007f]/.test(s);

function key(k: string, style: number): string {
  if (/^[A-Za-z0-9_-]+$/.test(k) && style !== 2) return k;
  if (style === 1 && literalOk(wellFormed(k))) return `'${wellFormed(k)}'`;
  return basic(wellFormed(k));
}

function scalarText(s: Scalar): string {
  switch (s.t) {
    case 'str': {
      const v = wellFormed(s.v);
      if (s.style === 1 && literalOk(v)) return `'${v}'`;
      if (s.style === 2 && !/'''|'$|[\u0000-\u0008\u000b-\u001f\u007f]|\r/.test(v)) return `'''\n${v}'''`;
      if (s.style === 3) return '"""' + basic(v).slice(1, -1) + '"""';
      return basic(v);
    }
    case 'int': {
      const v = s.v;
      if (s.style === 1 && v >= 0n) return '0x' + v.toString(16);
      if (s.style === 2 && v >= 0n) return '0o' + v.toString(8);
      if (s.style === 3 && v > 1000n) return v.toString().replace(/\B(?=(\d{3})+(?!\d))/g, '_');
      if (s.style === 3 && v >= 0n) return '+' + v.toString();
      return v.toString();
    }
    case 'float': {
      const v = s.v;
      if (Number.isNaN(v)) return s.style ? '+nan' : 'nan';
      if (v === Infinity) return s.style ? '+inf' : 'inf';
      if (v === -Infinity) return '-inf';
      if (Object.is(v, -0)) return '-0.0';
      const t = s.style ? v.toExponential() : String(v);
      return /[.e]/.test(t) ? t : t + '.0';
    }
    case 'bool':
      return String(s.v);
    case 'date':
      return s.v;
  }
}

function valueText(v: Value): string {
  if (v.t === 'arr') return '[' + v.items.map(valueText).join(', ') + (v.items.length % 2 ? ',' : '') + ']';
  if (v.t === 'inline') return '{' + v.entries.map((e) => `${key(e.key, e.keyStyle)} = ${valueText(e.value)}`).join(', ') + '}';
  return scalarText(v);
}

function toToml(d: Doc, crlf: boolean): string {
  const lines: string[] = ['# generated'];
  for (const e of d.root) lines.push(`${key(e.key, e.keyStyle)} = ${valueText(e.value)}${e.keyStyle === 1 ? ' # c' : ''}`);
  for (const s of d.sections) {
    lines.push('', `[${key(s.name, 0)}]`);
    for (const e of s.entries) lines.push(`${key(e.key, e.keyStyle)}=${valueText(e.value)}`);
  }
  return lines.join(crlf ? '\r\n' : '\n') + '\n';
}

// ---------------------------------------------------------------- expected JSON, written independently

function floatJson(v: number): string {
  if (Number.isNaN(v)) return '"nan"';
  if (v === Infinity) return '"inf"';
  if (v === -Infinity) return '"-inf"';
  if (Object.is(v, -0)) return '-0.0';
  const t = String(v);
  return Number.isInteger(v) && !t.includes('e') ? t + '.0' : t;
}

function valueJson(v: Value): string {
  switch (v.t) {
    case 'str':
      return JSON.stringify(wellFormed(v.v));
    case 'int':
      return v.v.toString();
    case 'float':
      return floatJson(v.v);
    case 'bool':
      return String(v.v);
    case 'date':
      return JSON.stringify(v.v);
    case 'arr':
      return '[' + v.items.map(valueJson).join(',') + ']';
    case 'inline':
      return entriesJson(v.entries);
  }
}

function entriesJson(entries: Entry[]): string {
  return '{' + entries.map((e) => `${JSON.stringify(wellFormed(e.key))}:${valueJson(e.value)}`).join(',') + '}';
}

function docJson(d: Doc): string {
  const parts = d.root.map((e) => `${JSON.stringify(wellFormed(e.key))}:${valueJson(e.value)}`);
  for (const s of d.sections) parts.push(`${JSON.stringify(wellFormed(s.name))}:${entriesJson(s.entries)}`);
  return '{' + parts.join(',') + '}';
}

/** Keys that collide once lone surrogates are replaced are not distinct in TOML either. */
function distinctKeys(d: Doc): boolean {
  const ok = (entries: Entry[]): boolean =>
    new Set(entries.map((e) => wellFormed(e.key))).size === entries.length &&
    entries.every((e) => e.value.t !== 'inline' || ok(e.value.entries)) &&
    entries.every((e) => e.value.t !== 'arr' || e.value.items.every((i) => i.t !== 'inline' || ok(i.entries)));
  const names = [...d.root.map((e) => wellFormed(e.key)), ...d.sections.map((s) => wellFormed(s.name))];
  return new Set(names).size === names.length && ok(d.root) && d.sections.every((s) => ok(s.entries));
}

// ---------------------------------------------------------------- properties

function assertConsistent(text: string, r: ReturnType<typeof parseToml>): void {
  assert.equal(r.document === undefined, r.errors.length > 0);
  for (const e of r.errors) {
    assert.equal(typeof e.message, 'string');
    assert.ok(e.message.length > 0);
    assert.ok(
      e.span.start.offset >= 0 && e.span.start.offset <= e.span.end.offset && e.span.end.offset <= Math.max(text.length, r.text.length) + 1,
    );
    assert.ok(e.span.start.line >= 1 && e.span.start.column >= 1);
  }
}

describe('property tests', () => {
  test('generated documents parse to the expected JSON', () => {
    fc.assert(
      fc.property(docArb, fc.boolean(), (d, crlf) => {
        fc.pre(distinctKeys(d));
        const src = toToml(d, crlf);
        const r = parseToml(new TextEncoder().encode(src));
        assert.deepEqual(
          r.errors.map((e) => `${e.span.start.line}:${e.span.start.column} ${e.message}`),
          [],
          src,
        );
        assert.equal(toPlainJsonText(r.document!), docJson(d), src);
      }),
      { numRuns: runs(400) },
    );
  });

  test('random bytes never throw', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 200 }), (bytes) => {
        const input = Uint8Array.from(bytes);
        const r = parseToml(input);
        assertConsistent(r.text, r);
      }),
      { numRuns: runs(1000) },
    );
  });

  test('TOML-ish noise never throws', () => {
    const alphabet = fc.constantFrom(
      ...'[]{}=,."\'#\n\r\t \\abtrufin0123456789-+:eExob_zZT'.split(''),
      '"""',
      "'''",
      '[[',
      ']]',
      '\u0000',
      'é',
      '😀',
    );
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 120 }), (chars) => {
        const src = chars.join('');
        const r = parseToml(src);
        assertConsistent(src, r);
      }),
      { numRuns: runs(2000) },
    );
  });

  test('mutated documents never throw', () => {
    fc.assert(
      fc.property(docArb, fc.nat(), fc.nat(5), fc.string({ maxLength: 3 }), (d, at, del, ins) => {
        const src = toToml(d, false);
        const i = at % (src.length + 1);
        const mutated = src.slice(0, i) + ins + src.slice(i + del);
        const r = parseToml(mutated);
        assertConsistent(mutated, r);
      }),
      { numRuns: runs(500) },
    );
  });
});
