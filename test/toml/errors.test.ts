/**
 * Error messages and positions, recovery, robustness (deep nesting, huge
 * lines, truncated files, bad encodings) and exactness of values.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseToml, toPlainJsonText, toTaggedJson, type TomlError, type TomlParseResult } from '../../compiler/toml/index.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

function errorsOf(src: string | Uint8Array): TomlError[] {
  const r = parseToml(typeof src === 'string' ? enc(src) : src);
  // (no deep-equal on documents here: a failing diff of a 1000-level tree is huge)
  assert.ok(r.document === undefined, 'a document with errors has no document');
  assert.ok(r.errors.length > 0, 'expected errors');
  for (const e of r.errors) assertHuman(e);
  return [...r.errors];
}

/** Never a chevrotain dump. */
function assertHuman(e: TomlError): void {
  assert.ok(!/Expecting|token of type|NoViableAlt|MismatchedToken|NotAllInput|EarlyExit|<\w+>|chevrotain/i.test(e.message), e.message);
  assert.ok(e.span.start.line >= 1 && e.span.start.column >= 1);
  assert.ok(e.span.start.offset <= e.span.end.offset);
}

/** `line:column message` of the first error. */
function first(src: string | Uint8Array): string {
  const e = errorsOf(src)[0]!;
  return `${e.span.start.line}:${e.span.start.column} ${e.message}`;
}

function ok(src: string): TomlParseResult {
  const r = parseToml(enc(src));
  assert.deepEqual(
    r.errors.map((e) => e.message),
    [],
  );
  assert.ok(r.document !== undefined, 'no document');
  return r;
}

describe('messages and positions', () => {
  test('unclosed table header: reported on its own line, at the end of the header text', () => {
    assert.equal(first('[a\nb = 1\n'), '1:3 expected "]" to close the table header');
    assert.equal(first('x = 1\n[server.main   \nb = 1\n'), '2:13 expected "]" to close the table header');
    assert.equal(first('[[a\nb = 2\n'), '1:4 expected "]]" to close the array of tables header');
  });

  test('missing values, keys and separators', () => {
    assert.equal(first('a =\nb = 1'), '1:4 expected a value after "="');
    assert.equal(first('a = # nothing\n'), '1:4 expected a value after "="');
    assert.equal(first('a = }'), '1:5 expected a value after "=", found "}"');
    assert.equal(first('a b = 1'), '1:3 expected "=" after the key, found "b"');
    assert.equal(first('a = 1 b = 2'), '1:7 expected the end of the line after the value, found "b"');
    assert.equal(first('= 1'), '1:1 expected a key before "="');
    assert.equal(first('a = [1 2]'), '1:8 expected "," or "]" after the array element, found "2"');
    assert.equal(first('a = [1,,2]'), '1:8 expected a value or "]" after ",", found ","');
    assert.equal(first('a = {x = 1,}'), '1:12 a trailing comma is not allowed in an inline table (TOML 1.0)');
    assert.equal(first('a = {x = 1\n}'), '1:11 inline tables must be on one line in TOML 1.0: expected "}" before the end of the line');
    assert.equal(first('[a]b]\n'), '1:4 expected the end of the line after the table header, found "b"');
    assert.equal(first('a.\n= 1'), '1:3 expected a key after "."');
    assert.equal(first('k\n= 1'), '1:2 expected "=" after the key');
  });

  test('redefinitions, with the earlier definition as related information', () => {
    const [e] = errorsOf('[a]\nx = 1\n\n[a]\ny = 2\n');
    assert.equal(e!.message, 'table [a] is already defined');
    assert.deepEqual(e!.span.start, { offset: 11, line: 4, column: 1 });
    assert.deepEqual(e!.span.end, { offset: 14, line: 4, column: 4 });
    assert.deepEqual(e!.related?.[0]?.span.start, { offset: 0, line: 1, column: 1 });

    const [k] = errorsOf('a = 1\nb = 2\nb = 3\n');
    assert.equal(k!.message, 'key "b" is already defined');
    assert.deepEqual(k!.span.start, { offset: 12, line: 3, column: 1 });
    assert.deepEqual(k!.related?.[0]?.span.start, { offset: 6, line: 2, column: 1 });

    assert.equal(first('x = { a = 1 }\nx.b = 2\n'), '2:1 cannot add to inline table "x" after it is defined');
    assert.equal(first('x = { a = 1 }\n[x.y]\n'), '2:2 cannot add to inline table "x" after it is defined');
    assert.equal(first('[fruit]\napple.color = "red"\n[fruit.apple]\n'), '3:1 table [fruit.apple] is already defined by dotted keys');
    assert.equal(first('a = [1]\n[[a]]\n'), '2:1 cannot append to "a" with [[a]]: it is a static array defined with "="');
    assert.equal(first('a = 1\na.b = 2\n'), '2:1 cannot use "a" as a table: it is already defined as an integer');
  });

  test('a conflict through dotted keys names the whole table, not the key relative to the section', () => {
    const [e] = errorsOf('[x.y]\nc = 1\n[x]\ny.d = 2\n');
    assert.equal(e!.message, 'cannot add to table [x.y] with dotted keys: it is already defined by a table header');
    assert.deepEqual(e!.span.start, { offset: 16, line: 4, column: 1 });
    assert.deepEqual(e!.related?.[0]?.span.start, { offset: 0, line: 1, column: 1 });
    assert.equal(
      first('[a."b c"]\n[[t]]\n[a]\n"b c".d.e = 1\n'),
      '4:1 cannot add to table [a."b c"] with dotted keys: it is already defined by a table header',
    );
    assert.equal(first('[x]\ny = {}\ny.d = 2\n'), '3:1 cannot add to inline table "x.y" after it is defined');
  });

  test('strings', () => {
    assert.equal(first('s = "a\\qb"'), '1:7 invalid escape sequence "\\q"');
    assert.equal(first('s = "a\u0007b"'), '1:7 control character U+0007 is not allowed in a string');
    assert.equal(first("s = 'a\u0000b'"), '1:7 control character U+0000 is not allowed in a string');
    assert.equal(first('s = "abc\nt = 1'), '1:5 unterminated string: expected " before the end of the line');
    assert.equal(first('s = """abc\nt = 1\n'), '1:5 unterminated multi-line string: expected """');
    assert.equal(first('s = "\\uD800"'), '1:6 escape sequence "\\uD800" is not a Unicode scalar value');
    assert.equal(first('s = "\\u12"'), '1:6 invalid escape sequence "\\u12": expected 4 hexadecimal digits after "\\u"');
    assert.equal(first('"""k""" = 1'), '1:1 multi-line strings cannot be used as keys');
  });

  test('numbers', () => {
    assert.equal(first('n = 0123'), '1:5 leading zeros are not allowed in integers');
    assert.equal(first('n = 9223372036854775808'), '1:5 integer 9223372036854775808 does not fit in 64 bits');
    assert.equal(first('n = -9223372036854775809'), '1:5 integer -9223372036854775809 does not fit in 64 bits');
    assert.equal(first('n = 1__0'), '1:5 invalid number "1__0": underscores must be between digits');
    assert.equal(first('n = 1.'), '1:5 invalid float "1.": a decimal point must have digits on both sides');
    assert.equal(first('n = +0x1'), '1:5 invalid integer "+0x1": hexadecimal, octal and binary integers cannot have a sign');
    assert.equal(first('n = True'), '1:5 invalid value "True": booleans are lower case (true, false)');
    assert.equal(first('n = hello'), '1:5 invalid value "hello": strings must be quoted');
  });

  test('dates and times', () => {
    assert.equal(first('d = 2023-02-30'), '1:5 February 30 does not exist');
    assert.equal(first('d = 2023-02-29'), '1:5 February 29 does not exist in 2023 (not a leap year)');
    assert.equal(first('d = 1900-02-29T00:00:00Z'), '1:5 February 29 does not exist in 1900 (not a leap year)');
    ok('d = 2000-02-29\ne = 2024-02-29T23:59:60Z');
    assert.equal(first('d = 2023-04-31'), '1:5 April 31 does not exist');
    assert.equal(first('d = 2023-13-01'), '1:5 month 13 does not exist (months are 01-12)');
    assert.equal(first('t = 24:00:00'), '1:5 hour 24 is out of range (00-23)');
    assert.equal(first('t = 07:32'), '1:5 invalid time in "07:32": seconds are required in TOML 1.0');
  });

  test('characters that cannot appear', () => {
    assert.equal(first('a = 1\r\nb = 2\rc = 3\n'), '2:6 carriage return (U+000D) must be followed by a line feed');
    assert.equal(first('a = 1 # bell \u0007\n'), '1:14 control character U+0007 is not allowed in a comment');
    assert.equal(first('a = 1\n\u000b = 2'), '2:1 control character U+000B is not allowed here');
    assert.match(first('a! = 1'), /^1:2 expected "=" after the key, found "!" \(bare keys may only contain/);
  });

  test('encodings', () => {
    const bad = new Uint8Array([...enc('a = 1\nb = "x'), 0xc3, 0x28, ...enc('"\n')]);
    const errs = errorsOf(bad);
    assert.equal(errs.length, 1);
    assert.match(errs[0]!.message, /^invalid UTF-8 byte sequence/);
    assert.deepEqual(errs[0]!.span.start, { offset: 12, line: 2, column: 7 });
    // a multi-byte character before the bad byte counts as one UTF-16 unit
    const bad2 = new Uint8Array([...enc('é = "'), 0xff, ...enc('"')]);
    assert.deepEqual(errorsOf(bad2)[0]!.span.start, { offset: 5, line: 1, column: 6 });
    assert.match(first(new Uint8Array([0xff, 0xfe, 0x61, 0x00])), /^1:1 the file starts with a UTF-16 byte order mark/);
    const bom = parseToml(new Uint8Array([0xef, 0xbb, 0xbf, ...enc('a = 1')]));
    assert.deepEqual(bom.errors, []);
    assert.equal(bom.text, 'a = 1');
    assert.match(first('a = "\uFEFF"\n\uFEFFb = 1'), /^2:1 expected a key or a table header, found U\+FEFF/);
  });
});

describe('recovery', () => {
  test('several errors, at most one per line, no cascades', () => {
    const src = [
      '[a', // 1: unclosed header
      'x = 1',
      'y = ', // 3: missing value
      'z = 2 3', // 4: garbage after value
      'arr = [', // 5-8: error inside a multi-line array: one error only
      '  1,',
      '  2 3,',
      ']',
      'ok = true',
      'q = "\\q" "', // 10: bad escape and more: one error for the line
      '[a]',
      '[a]', // 12: redefinition
      '',
    ].join('\n');
    const errs = errorsOf(src);
    assert.deepEqual(
      errs.map((e) => e.span.start.line),
      [1, 3, 4, 7, 10, 12],
    );
    assert.equal(errs[0]!.message, 'expected "]" to close the table header');
    assert.equal(errs[5]!.message, 'table [a] is already defined');
  });

  test('an array missing its "]" is reported where it ends and the next lines still parse', () => {
    const errs = errorsOf('a = [1, 2\nb = [3\nc = 4\nc = 5\n');
    assert.deepEqual(
      errs.map((e) => `${e.span.start.line}:${e.span.start.column}`),
      ['1:10', '2:7', '4:1'],
    );
    assert.match(errs[0]!.message, /closing "\]" missing/);
    assert.equal(errs[2]!.message, 'key "c" is already defined');
  });

  test('a multi-line inline table (TOML 1.1 style) gives one error', () => {
    const errs = errorsOf('t = {\n  a = 1,\n  b = 2,\n}\nx = 1\nx = 2\n');
    assert.deepEqual(
      errs.map((e) => e.span.start.line),
      [1, 6],
    );
  });

  test('document is undefined whenever there are errors, comments are still collected', () => {
    const r = parseToml(enc('# hi\na = 1\na = 2 # again\n'));
    assert.equal(r.document, undefined);
    assert.equal(r.errors.length, 1);
    assert.deepEqual(
      r.comments.map((c) => c.text),
      [' hi', ' again'],
    );
  });
});

describe('robustness', () => {
  test('10,000 levels of arrays or inline tables: a positioned error, no stack overflow', () => {
    for (const [open, close] of [
      ['[', ']'],
      ['{a=', '}'],
    ] as const) {
      const src = 'x = ' + open.repeat(10_000) + close.repeat(10_000) + '\ny = 1\n';
      const errs = errorsOf(src);
      assert.equal(errs.length, 1);
      assert.equal(errs[0]!.message, 'arrays and inline tables nested deeper than 1000 levels');
      assert.equal(errs[0]!.span.start.line, 1);
      assert.equal(errs[0]!.span.start.column, 5 + 1000 * open.length);
    }
  });

  test('exactly 1000 levels parse', () => {
    const r = ok('x = ' + '['.repeat(1000) + '1' + ']'.repeat(1000));
    let v = r.document!.entries.get('x')!.value;
    let depth = 0;
    while (v.kind === 'array') {
      depth++;
      v = v.items[0]!;
    }
    assert.equal(depth, 1000);
    assert.ok(toPlainJsonText(r.document!).length > 2000);
    ok('t = ' + '{a='.repeat(1000) + '1' + '}'.repeat(1000));
    ok('[' + Array(1000).fill('k').join('.') + ']\nv = 1');
  });

  test('keys nested too deeply', () => {
    assert.match(first('[' + Array(1001).fill('k').join('.') + ']'), /nested deeper than 1000 levels/);
    // 1001 segments: 1000 tables and a value (allowed); 1002: one table too many
    ok(Array(1001).fill('k').join('.') + ' = 1');
    assert.match(first(Array(1002).fill('k').join('.') + ' = 1'), /nested deeper than 1000 levels/);
  });

  // No timing threshold (speed is measured in bench/): the test's timeout only
  // guards against a hang or exponential work.
  test('1 MB single lines: correct results or positioned errors, never a hang', { timeout: 120_000 }, () => {
    const mb = 1 << 20;
    const cases: [string, boolean][] = [
      ['s = "' + 'x'.repeat(mb) + '"', true],
      ['a = [' + '1,'.repeat(mb / 2) + ']', true],
      ['k'.repeat(mb), false],
      [' '.repeat(mb) + 'x', false],
      ['a = ' + '['.repeat(mb), false],
      ['@'.repeat(mb), false],
      ['a = "' + '\\q'.repeat(mb / 2) + '"', false],
      ['a.'.repeat(mb / 2) + 'b = 1', false],
      ['a = ' + '"'.repeat(mb), false],
      ['a = 1' + ' b'.repeat(mb / 2), false],
    ];
    for (const [src, valid] of cases) {
      const r = parseToml(src);
      assert.equal(r.errors.length === 0, valid, `${src.slice(0, 20)}...: ${r.errors[0]?.message}`);
      for (const e of r.errors) assertHuman(e);
    }
  });

  test('every prefix of a document (a truncated file) gives a result, never an exception', () => {
    const src = enc("# c\n[a.b] # h\nk = \"v\\u00e9\" \nl = [1, {x = 2.5e3}, 1979-05-27T07:32:00Z]\n\"q k\".x = '''\nml'''\n[[t]]\n");
    for (let n = 0; n <= src.length; n++) {
      const r = parseToml(src.subarray(0, n));
      for (const e of r.errors) assertHuman(e);
      assert.equal(r.document === undefined, r.errors.length > 0);
    }
  });
});

describe('exact values', () => {
  test('integers beyond 2^53 stay exact', () => {
    const r = ok('max = 9223372036854775807\nmin = -9223372036854775808\nbig = 9_007_199_254_740_993\nhex = 0x7FFFFFFFFFFFFFFF');
    const get = (k: string) => r.document!.entries.get(k)!.value;
    assert.deepEqual(get('max'), { kind: 'integer', value: 9223372036854775807n, span: get('max').span });
    assert.equal((get('min') as { value: bigint }).value, -9223372036854775808n);
    assert.equal((get('big') as { value: bigint }).value, 9007199254740993n);
    assert.equal((get('hex') as { value: bigint }).value, 9223372036854775807n);
    assert.equal(
      toPlainJsonText(r.document!),
      '{"max":9223372036854775807,"min":-9223372036854775808,"big":9007199254740993,"hex":9223372036854775807}',
    );
  });

  test('date-times keep their precision and kind, normalised to T and Z', () => {
    const r = ok(
      'a = 1979-05-27T00:32:00.999999999-07:00\nb = 1979-05-27 07:32:00z\nc = 1979-05-27t07:32:00.5\nd = 1979-05-27\ne = 00:32:00.123456789',
    );
    assert.deepEqual(toTaggedJson(r.document!), {
      a: { type: 'datetime', value: '1979-05-27T00:32:00.999999999-07:00' },
      b: { type: 'datetime', value: '1979-05-27T07:32:00Z' },
      c: { type: 'datetime-local', value: '1979-05-27T07:32:00.5' },
      d: { type: 'date-local', value: '1979-05-27' },
      e: { type: 'time-local', value: '00:32:00.123456789' },
    });
  });

  test('keys with every escape', () => {
    const r = ok('"\\b\\t\\n\\f\\r\\"\\\\\\u00e9\\U0001F600" = 1\n\'lit\\n\' = 2');
    assert.deepEqual([...r.document!.entries.keys()], ['\b\t\n\f\r"\\é😀', 'lit\\n']);
  });

  test('floats and special values in plain JSON', () => {
    const r = ok('a = 1.0\nb = -0.0\nc = inf\nd = -inf\ne = nan\nf = 1e300\ng = 6.626e-34');
    assert.equal(toPlainJsonText(r.document!), '{"a":1.0,"b":-0.0,"c":"inf","d":"-inf","e":"nan","f":1e+300,"g":6.626e-34}');
    assert.equal(
      toPlainJsonText(ok('a = [1, {b = "x"}]\nc = {}').document!, 2),
      '{\n  "a": [\n    1,\n    {\n      "b": "x"\n    }\n  ],\n  "c": {}\n}',
    );
  });
});
