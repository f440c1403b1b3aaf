/**
 * Spans: every key segment, value and table header points at exactly the
 * text it came from; lines and columns are 1-based, count UTF-16 code units,
 * and `end` is exclusive. CRLF is one line ending.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Position, Span } from '../../compiler/span.js';
import { parseToml, type TomlTable, type TomlValue } from '../../compiler/toml/index.js';

/**
 * Line/column of every offset, computed the obvious way: one walk over the
 * text counting LFs (a CRLF is one line end; columns count UTF-16 code
 * units). The walk is done once per text, so checking every span of a large
 * document is linear (it used to rescan from offset 0 for each span).
 */
class Positions {
  private readonly lines: Uint32Array;
  private readonly columns: Uint32Array;

  constructor(readonly text: string) {
    this.lines = new Uint32Array(text.length + 1);
    this.columns = new Uint32Array(text.length + 1);
    let line = 1;
    let column = 1;
    for (let i = 0; i <= text.length; i++) {
      this.lines[i] = line;
      this.columns[i] = column;
      if (text[i] === '\n') {
        line++;
        column = 1;
      } else {
        column++;
      }
    }
  }

  at(offset: number): Position {
    assert.ok(Number.isInteger(offset) && offset >= 0 && offset <= this.text.length, `offset ${offset} outside the text`);
    return { offset, line: this.lines[offset]!, column: this.columns[offset]! };
  }
}

let lastPositions: Positions | undefined;

function expectedPosition(text: string, offset: number): Position {
  if (lastPositions?.text !== text) lastPositions = new Positions(text);
  return lastPositions.at(offset);
}

function checkSpan(text: string, span: Span, what: string): void {
  assert.deepEqual(span.start, expectedPosition(text, span.start.offset), `${what}: start`);
  assert.deepEqual(span.end, expectedPosition(text, span.end.offset), `${what}: end`);
  assert.ok(span.start.offset <= span.end.offset, `${what}: start <= end`);
}

/** Every span in the tree is consistent with the text. */
function checkAll(text: string, v: TomlValue, path: string): number {
  let n = 1;
  checkSpan(text, v.span, path);
  if (v.kind === 'table') {
    for (const [k, e] of v.entries) {
      checkSpan(text, e.keySpan, `${path}.${k} (key)`);
      n += 1 + checkAll(text, e.value, `${path}.${k}`);
    }
  } else if (v.kind === 'array') {
    v.items.forEach((item, i) => {
      n += checkAll(text, item, `${path}[${i}]`);
    });
  }
  return n;
}

function parse(src: string): { doc: TomlTable; text: string } {
  const r = parseToml(new TextEncoder().encode(src));
  assert.deepEqual(r.errors, []);
  assert.ok(r.document !== undefined);
  return { doc: r.document, text: r.text };
}

function get(doc: TomlTable, ...path: string[]) {
  let t: TomlValue = doc;
  let entry;
  for (const k of path) {
    assert.equal(t.kind, 'table', `${k}: parent is a table`);
    entry = (t as TomlTable).entries.get(k);
    assert.ok(entry !== undefined, `missing ${path.join('.')}`);
    t = entry.value;
  }
  return entry!;
}

const slice = (text: string, s: Span): string => text.slice(s.start.offset, s.end.offset);

describe('spans', () => {
  test('keys and values, exact positions', () => {
    const src = 'title = "TOML"\nn = 42\n';
    const { doc, text } = parse(src);
    const title = get(doc, 'title');
    assert.deepEqual(title.keySpan, { start: { offset: 0, line: 1, column: 1 }, end: { offset: 5, line: 1, column: 6 } });
    assert.deepEqual(title.value.span, { start: { offset: 8, line: 1, column: 9 }, end: { offset: 14, line: 1, column: 15 } });
    const n = get(doc, 'n');
    assert.deepEqual(n.keySpan, { start: { offset: 15, line: 2, column: 1 }, end: { offset: 16, line: 2, column: 2 } });
    assert.deepEqual(n.value.span, { start: { offset: 19, line: 2, column: 5 }, end: { offset: 21, line: 2, column: 7 } });
    assert.equal(checkAll(text, doc, '$'), 5);
  });

  test('every key segment of a dotted key', () => {
    const { doc, text } = parse('a . "b c".d = 1\n');
    assert.equal(slice(text, get(doc, 'a').keySpan), 'a');
    assert.equal(slice(text, get(doc, 'a', 'b c').keySpan), '"b c"');
    assert.equal(slice(text, get(doc, 'a', 'b c', 'd').keySpan), 'd');
    assert.equal(slice(text, get(doc, 'a', 'b c', 'd').value.span), '1');
    // dotted tables are spanned by the key that created them
    assert.equal(slice(text, get(doc, 'a').value.span), 'a');
    checkAll(text, doc, '$');
  });

  test('table headers, arrays of tables, inline tables and arrays', () => {
    const src = [
      '[server.main]',
      'ports = [ 80, 443 ]',
      'limits = { cpu = 2, mem = "4G" }',
      '[[mount]]',
      'src = "/a"',
      '[[ mount ]]',
      'src = "/b"',
      '',
    ].join('\n');
    const { doc, text } = parse(src);
    const main = get(doc, 'server', 'main');
    assert.equal(slice(text, main.value.span), '[server.main]');
    assert.equal(slice(text, main.keySpan), 'main');
    assert.equal(slice(text, get(doc, 'server').value.span), 'server');
    assert.equal(slice(text, get(doc, 'server', 'main', 'ports').value.span), '[ 80, 443 ]');
    assert.equal(slice(text, get(doc, 'server', 'main', 'limits').value.span), '{ cpu = 2, mem = "4G" }');
    const mounts = get(doc, 'mount').value;
    assert.equal(mounts.kind, 'array');
    if (mounts.kind === 'array') {
      assert.equal(slice(text, mounts.items[0]!.span), '[[mount]]');
      assert.equal(slice(text, mounts.items[1]!.span), '[[ mount ]]');
    }
    assert.deepEqual(doc.span.start, { offset: 0, line: 1, column: 1 });
    assert.deepEqual(doc.span.end, expectedPosition(text, text.length));
    checkAll(text, doc, '$');
  });

  test('CRLF line endings count once', () => {
    const src = 'a = 1\r\n\r\n[t]\r\nb = "x"\r\nc = """\r\nl1\r\nl2"""\r\nd = 2\r\n';
    const { doc, text } = parse(src);
    assert.deepEqual(get(doc, 't').value.span.start, { offset: 9, line: 3, column: 1 });
    assert.deepEqual(get(doc, 't', 'b').keySpan.start, { offset: 14, line: 4, column: 1 });
    const c = get(doc, 't', 'c').value;
    assert.deepEqual(c.span.start, { offset: 27, line: 5, column: 5 });
    assert.deepEqual(c.span.end, { offset: 41, line: 7, column: 6 });
    assert.deepEqual(get(doc, 't', 'd').keySpan.start, { offset: 43, line: 8, column: 1 });
    checkAll(text, doc, '$');
  });

  test('columns count UTF-16 code units (multi-byte and astral characters)', () => {
    const src = 'a = "é€😀"\nb = 1 # ü\n"ключ" = "😀" \n[t."😀"]\nx = [ "ü", 2 ]\n';
    const { doc, text } = parse(src);
    assert.deepEqual(get(doc, 'a').value.span.end, { offset: 10, line: 1, column: 11 });
    assert.deepEqual(get(doc, 'ключ').keySpan, { start: { offset: 21, line: 3, column: 1 }, end: { offset: 27, line: 3, column: 7 } });
    assert.deepEqual(get(doc, 'ключ').value.span, { start: { offset: 30, line: 3, column: 10 }, end: { offset: 34, line: 3, column: 14 } });
    assert.equal(slice(text, get(doc, 't', '😀').value.span), '[t."😀"]');
    assert.equal(slice(text, get(doc, 't', '😀').keySpan), '"😀"');
    checkAll(text, doc, '$');
  });

  test('a leading UTF-8 BOM is stripped and offsets start after it', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('k = 1\n')]);
    const r = parseToml(bytes);
    assert.deepEqual(r.errors, []);
    assert.equal(r.text, 'k = 1\n');
    assert.deepEqual(get(r.document!, 'k').keySpan.start, { offset: 0, line: 1, column: 1 });
  });

  test('comments are collected with spans, also when the document parses', () => {
    const src = '# top\r\na = 1 # trailing é\r\nb = [ # in array\n  1,\n]\n';
    const r = parseToml(new TextEncoder().encode(src));
    assert.deepEqual(r.errors, []);
    assert.deepEqual(
      r.comments.map((c) => c.text),
      [' top', ' trailing é', ' in array'],
    );
    for (const c of r.comments) {
      checkSpan(r.text, c.span, 'comment');
      assert.equal(slice(r.text, c.span), '#' + c.text);
    }
    assert.deepEqual(r.comments[1]!.span.start, { offset: 13, line: 2, column: 7 });
  });

  test('a large generated document: every span consistent', () => {
    const lines: string[] = [];
    for (let i = 0; i < 300; i++) {
      lines.push(`[[pkg]]`, `name = "p${i} é"`, `v.major = ${i}`, `tags = ["a", 'b', """c"""]`, `dep = { n = "x${i}", opt = true }`, '');
    }
    const { doc, text } = parse(lines.join('\r\n'));
    assert.ok(checkAll(text, doc, '$') > 3000);
  });
});

describe('large documents (parsed in windows)', () => {
  // constructs that a window boundary could cut: multi-line strings and arrays whose
  // lines start with "[", comments, CRLF, a header right after a multi-line value
  const block = (i: number): string =>
    [
      `[[item]]`,
      `id = ${i}`,
      `text = """`,
      `[not.a.header]`,
      `[[nor.this]]`,
      `"""`,
      `lit = '''`,
      `[x]'''`,
      `nested = [`,
      `  [1, 2],`,
      `[3, 4], # comment [with] brackets`,
      `  { a = "}" },`,
      `]`,
      `[item.sub]`,
      `k = "v${i}" # é`,
      '',
    ].join(i % 2 ? '\r\n' : '\n');

  test('the result equals the sum of its parts', () => {
    const n = 3000;
    let src = '';
    for (let i = 0; i < n; i++) src += block(i);
    assert.ok(src.length > 256 * 1024);
    const r = parseToml(new TextEncoder().encode(src));
    assert.deepEqual(r.errors, []);
    const items = r.document!.entries.get('item')!.value;
    assert.equal(items.kind, 'array');
    if (items.kind !== 'array') return;
    assert.equal(items.items.length, n);
    const one = parseToml(block(7)).document!.entries.get('item')!.value;
    assert.equal(one.kind, 'array');
    const seven = items.items[7]!;
    if (one.kind === 'array') {
      const strip = (v: unknown): unknown =>
        JSON.parse(
          JSON.stringify(v, (k, x) =>
            k === 'span' || k === 'keySpan' ? undefined : typeof x === 'bigint' ? String(x) : x instanceof Map ? [...x] : x,
          ),
        );
      assert.deepEqual(strip(seven), strip(one.items[0]));
    }
    assert.equal(r.comments.length, n * 2);
    checkAll(r.text, r.document!, '$');
  });

  test('errors in a large document are found and positioned as in a small one', () => {
    let src = '';
    for (let i = 0; i < 3000; i++) src += block(i);
    const lines = src.split('\n').length;
    src += 'bad = [1 2]\n[item.sub]\n';
    const r = parseToml(src);
    assert.deepEqual(
      r.errors.map((e) => `${e.span.start.line}:${e.span.start.column} ${e.message}`),
      [`${lines}:10 expected "," or "]" after the array element, found "2"`, `${lines + 1}:1 table [item.sub] is already defined`],
    );
  });
});
