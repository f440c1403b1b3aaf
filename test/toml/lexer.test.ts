/**
 * Differential test of the hand-written lexer (compiler/toml/lexer.ts)
 * against the chevrotain lexer it replaced (chevrotain-lexer.ts, same
 * patterns, chevrotain's own matching): on every toml-test case, every
 * example config, and generated, mutated and noisy documents (fast-check,
 * seeded and bounded), both lexers must give the same tokens (type name,
 * offset, text), the same comments, the same Invalid tokens where nothing
 * matches (chevrotain's lexer errors, merged in as the old driver did), and
 * end in the same mode. Whole texts and stretches of them (the driver lexes
 * windows that end anywhere): a stretch's end is the end of the text for
 * both lexers.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { IToken } from 'chevrotain';
import { lexToml } from '../../compiler/toml/lexer.js';
import { tomlTokens } from '../../compiler/toml/tokens.js';
import { decodeUtf8 } from '../../compiler/toml/utf8.js';
import { repoRoot } from '../helpers.js';
import { tomlTestSuite } from './suite.js';
import { chevrotainLexWindow, MODE_KEY } from './chevrotain-lexer.js';
import { documentArb } from './generate.js';
import { runs } from '../budget.js';

const view = (ts: readonly IToken[]): string[] => ts.map((t) => `${t.tokenType.name}@${t.startOffset}:${JSON.stringify(t.image)}`);

/** The chevrotain lexer's mode depth at the end: its push/pop rules replayed over every token it matched. */
function oracleDepth(tokens: readonly IToken[], comments: readonly IToken[]): number {
  const all = [...tokens, ...comments].sort((a, b) => a.startOffset - b.startOffset);
  const stack = [MODE_KEY];
  for (const t of all) {
    const tt = t.tokenType;
    if (tt.POP_MODE === true) stack.pop();
    if (tt.PUSH_MODE !== undefined) stack.push(tt.PUSH_MODE);
  }
  return stack.length - 1;
}

let compared = 0;

/** Both lexers on text[from, to). */
function assertSameTokens(text: string, from = 0, to = text.length): void {
  const ours = lexToml(tomlTokens(), text, from, to);
  const theirs = chevrotainLexWindow(text, from, to);
  const where = `${JSON.stringify(text.length > 400 ? text.slice(0, 400) + '…' : text)} [${from}, ${to})`;
  assert.deepEqual(view(ours.tokens), view(theirs.tokens), where);
  assert.deepEqual(view(ours.comments), view(theirs.comments), where);
  assert.equal(ours.depth, oracleDepth(theirs.tokens, theirs.comments), where);
  // the token objects have chevrotain's shape (the parser reads tokenTypeIdx)
  for (const t of ours.tokens) assert.equal(t.tokenTypeIdx, t.tokenType.tokenTypeIdx);
  compared++;
}

/** The whole text, and stretches of it that start at line starts and end anywhere. */
function assertSameOnStretches(text: string, seed: number): void {
  assertSameTokens(text);
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  let x = seed;
  const next = (n: number): number => {
    x = (x * 1103515245 + 12345) >>> 0;
    return x % n;
  };
  for (let k = 0; k < 4; k++) {
    const from = lineStarts[next(lineStarts.length)]!;
    const to = from + next(text.length - from + 1);
    assertSameTokens(text, from, to);
  }
}

describe('lexer: the hand-written lexer tokenizes like the chevrotain lexer it replaced', () => {
  const { dir: suite, skipReason: skip } = tomlTestSuite();
  test('every toml-test case (valid and invalid, TOML 1.0 and 1.1), whole and in stretches', { skip }, () => {
    let files = 0;
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name.endsWith('.toml')) {
          const bytes = readFileSync(p);
          // as parseToml sees it, and (for the invalid encodings) as plain UTF-8 with replacement characters
          const decoded = decodeUtf8(bytes).text;
          assertSameOnStretches(decoded, files);
          const lossy = bytes.toString('utf8');
          if (lossy !== decoded) assertSameTokens(lossy);
          files++;
        }
      }
    };
    walk(join(suite!, 'valid'));
    walk(join(suite!, 'invalid'));
    assert.ok(files >= 700, `only ${files} toml-test files found`);
  });

  test('every example config', () => {
    const dir = join(repoRoot, 'examples');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.toml'));
    assert.ok(files.length >= 20, String(files.length));
    for (const [i, f] of files.entries()) assertSameOnStretches(readFileSync(join(dir, f), 'utf8'), i);
  });

  test('hand-picked edges: cut-off strings and comments, lone CRs, brackets in every mode, stretches ending mid-token', () => {
    const cases = [
      '',
      ' ',
      '\r',
      '\r\n',
      '\n\r',
      'a',
      'a=',
      'a =',
      'a = ',
      '=',
      ' = ',
      'a\t=\t1',
      'a = 1\r',
      'a = 1\r\r\n',
      'a = "',
      'a = "x',
      'a = "x\\',
      'a = "x\\\n',
      'a = "x\\"',
      'a = ""',
      'a = """',
      'a = """"',
      'a = """"""',
      'a = """x""""',
      'a = """x"""""',
      'a = """x""""""',
      'a = """\\',
      'a = """\\"""',
      'a = """\n\\\n"""',
      "a = '",
      "a = ''",
      "a = '''",
      "a = ''''''''",
      "a = '''x''''",
      "a = '''x'''''",
      "a = '''x''''''",
      '"""k""" = 1',
      "'''k''' = 1",
      '"k\\',
      '#',
      '# x\r',
      '# x\ry\r\n',
      '#\r',
      'a = # c\nb = 1',
      'a = [# c\n1,# d\r\n2 ,\n]',
      'a = [[1], [2, [3]]]',
      'a = [{b = 1}, {c = [2]}]',
      'a = {b = 1, c = {d = [1, {e = 2}]}}',
      'a = {\nb = 1}',
      'a = {b = 1\n}',
      'a = {b = [\n1]}',
      'a = { , }',
      'a = {[}',
      'a = {]}',
      '[a]',
      '[[a]]',
      '[ a . b ]',
      '[[ a ]]x',
      ']]]',
      '[[[',
      '[a]]',
      'a.b.c = 1',
      'a . b = 1',
      '"a"."b" = 1',
      "'a'.'b' = 1",
      'a = 1979-05-27 07:32:00',
      'a = 1979-05-27 0',
      'a = 1979-05-27 07',
      'a = 1979-05-27 07:',
      'a = 1979-05-27 07:3',
      'a = 1 2:',
      'a = 07:32:00.999',
      'a = +inf',
      'a = -nan',
      'a = 0x_1',
      'a = 1e+2',
      'a = 1.',
      'a = .1',
      'a = :',
      'a = ++',
      'a = \u0000',
      '\u0000 = 1',
      'a = é',
      'é = 1',
      'a = "é😀"',
      'a = \ud800',
      '\ud83d\ude00',
      'a = 1 # \u0000 \u007f',
      'a = ,',
      'a = ]',
      'a = }',
      'a = =',
      'a = [,]',
      'a = [=]',
      'a = [}]',
      'a = [ \r ]',
      'a = [ \r\n ]',
      'a = {\r}',
      '!bad = @',
      '!!! = 1\n$$$',
      'a = 1\n\n\n   \t\n[b]\n\tc = 2',
      ' \t \r\n a = 1',
      'a = [\n  1,\n  2,\n]\n',
      "a = '''\n''''\n",
      'x = """\n\\t\\"""\n"""',
      'k = "a"b',
      "k = 'a'b",
      'k = tru e',
    ];
    for (const text of cases) {
      assertSameTokens(text);
      // every stretch of the short ones
      if (text.length <= 24)
        for (let from = 0; from <= text.length; from++) for (let to = from; to <= text.length; to++) assertSameTokens(text, from, to);
    }
  });

  test('long runs (blank lines, multi-line strings, comments), cut at every offset near their ends', () => {
    const long = [
      'a = 1\n' + ' \n\r\n\t'.repeat(200) + 'b = 2\n',
      'a = [' + '\r\n '.repeat(300) + ']\n',
      'a = [1,' + '\n\t\r\n'.repeat(300) + '2]\n',
      '\n'.repeat(700) + '\r',
      '\r\n'.repeat(400) + '\r\r\n',
      's = """' + 'x \\" \\\\ "" '.repeat(150) + '"""""\n',
      's = """' + 'y\\'.repeat(300),
      "s = '''" + "z '' ".repeat(150) + "'''''\n",
      '# ' + 'c\r'.repeat(300) + '\r\n' + '# ' + 'd'.repeat(500),
    ];
    for (const text of long) {
      assertSameTokens(text);
      for (let to = Math.max(0, text.length - 40); to <= text.length; to++) assertSameTokens(text, 0, to);
      for (let to = 200; to < text.length; to += 97) for (let d = 0; d < 4; d++) assertSameTokens(text, 0, to + d);
    }
  });

  test('generated TOML documents, as written and mutated, whole and in stretches', () => {
    const insert = fc.constantFrom(
      '',
      '[',
      ']',
      '[[',
      ']]',
      '{',
      '}',
      '"',
      "'",
      '"""',
      "'''",
      '\\',
      '\n',
      '\r',
      '\r\n',
      ',',
      '.',
      '=',
      '#',
      ' ',
      '\t',
      'x',
      '1',
      ':',
      '\u0000',
      'é',
    );
    fc.assert(
      fc.property(documentArb, fc.nat(), fc.nat(4), insert, fc.nat(), (doc, at, del, ins, seed) => {
        assertSameOnStretches(doc.text, seed);
        const i = at % (doc.text.length + 1);
        assertSameOnStretches(doc.text.slice(0, i) + ins + doc.text.slice(i + del), seed + 1);
      }),
      { numRuns: runs(300), seed: 1501 },
    );
  });

  test('TOML-ish noise, whole and in stretches', () => {
    const alphabet = fc.constantFrom(
      ...'[]{}=,."\'#\n\r\t \\abtrufinxe0123456789-+:_zZT'.split(''),
      '"""',
      "'''",
      '[[',
      ']]',
      '\r\n',
      ' = ',
      '\na = ',
      '\n[t]\n',
      '\u0000',
      '\u007f',
      'é',
      '😀',
      '\ud800',
    );
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 150 }), fc.nat(), (chars, seed) => assertSameOnStretches(chars.join(''), seed)),
      { numRuns: runs(3000), seed: 1502 },
    );
  });

  test('coverage: the comparisons above ran', () => {
    assert.ok(compared > 10000, `${compared} comparisons`);
  });
});
