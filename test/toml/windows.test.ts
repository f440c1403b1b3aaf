/**
 * The parse loop works in windows (driver.ts). Two properties:
 *
 *  - the work is linear in the document for the shapes that were once
 *    quadratic (issue 13 item 3): one multi-line array or string crossing
 *    many windows, blank lines with no header to end a window at, and a
 *    syntax error on every line (error recovery). Work is counted, not
 *    timed (work.ts: characters lexed, searched for a window end, scanned
 *    for a closing bracket): at two sizes it must be a few passes over the
 *    text, the same few at four times the size. The figures in time are in
 *    bench/README.md (bench/toml-shapes.mjs);
 *  - the window size changes nothing: tokens, errors, comments and the tree
 *    are those of a parse in one piece, for windows so small that they
 *    cut every construct (generated documents, mutated ones, and noise).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { TomlComment, TomlError } from '../../compiler/toml/ast.js';
import { finishErrors, parseText } from '../../compiler/toml/driver.js';
import { parseToml } from '../../compiler/toml/index.js';
import { resetWork, work } from '../../compiler/toml/work.js';
import { documentArb } from './generate.js';
import { runs } from '../budget.js';

const KB = 1024;

/** Each shape at about `bytes` bytes, and whether it is valid. */
const shapes: { name: string; valid: boolean; make: (bytes: number) => string }[] = [
  { name: 'one multi-line array', valid: true, make: (b) => 'a = [\n' + '  "item-0000",\n'.repeat(Math.ceil(b / 15)) + ']\n' },
  {
    name: 'one multi-line string',
    valid: true,
    make: (b) => 's = """\n' + '[not.a.header] "q" \\t x\n'.repeat(Math.ceil(b / 24)) + '"""\n',
  },
  { name: 'blank lines and no header', valid: true, make: (b) => 'a = 1\n' + '\n'.repeat(b) + 'b = 2\n' },
  { name: '`a = [` lines: an error on every line', valid: false, make: (b) => 'a = [\n'.repeat(Math.ceil(b / 6)) },
];

/** Characters touched per character of the document. */
function workPerChar(text: string, valid: boolean): number {
  resetWork();
  const r = parseToml(text);
  assert.equal(r.errors.length === 0, valid, r.errors[0]?.message);
  return (work.lexedChars + work.searchedChars + work.scannedChars) / text.length;
}

describe('the parse loop is linear in the document', () => {
  for (const shape of shapes) {
    test(shape.name, () => {
      const small = workPerChar(shape.make(256 * KB), shape.valid);
      const large = workPerChar(shape.make(1024 * KB), shape.valid);
      // a few passes over the text, and no more per character at four times the size
      assert.ok(small <= 5 && large <= 5, `work per character: ${small.toFixed(2)} at 256 KiB, ${large.toFixed(2)} at 1 MiB`);
      assert.ok(
        large <= small * 1.2 + 0.3,
        `work per character grows with the size: ${small.toFixed(2)} at 256 KiB, ${large.toFixed(2)} at 1 MiB`,
      );
    });
  }
});

// ---------------------------------------------------------------- windows change nothing

interface Parsed {
  errors: TomlError[];
  comments: TomlComment[];
  document: unknown;
}

function parseIn(text: string, window: number): Parsed {
  const errors: TomlError[] = [];
  const comments: TomlComment[] = [];
  const document = parseText(text, errors, comments, window);
  return { errors: finishErrors(errors), comments, document: errors.length > 0 ? undefined : document };
}

const json = (p: Parsed): string =>
  JSON.stringify(p, (_, v: unknown) =>
    typeof v === 'bigint' ? `${v}n` : v instanceof Map ? [...v] : typeof v === 'number' && !Number.isFinite(v) ? String(v) : v,
  );

function assertWindowsChangeNothing(text: string): void {
  const whole = json(parseIn(text, Infinity));
  for (const window of [1, 7, 64]) assert.equal(json(parseIn(text, window)), whole, `window ${window}: ${JSON.stringify(text)}`);
}

const noise = fc
  .array(
    fc.constantFrom(
      ...'[]{}=,."\'#\n\r\t \\ab1e-:'.split(''),
      '"""',
      "'''",
      '[[',
      ']]',
      '\na = [\n',
      '\n[t]\n',
      '\nk = """\n',
      "\nk = '''\n",
      '\n"""',
      '\nx = {',
      ' = ',
      '\u0000',
    ),
    { maxLength: 200 },
  )
  .map((cs) => cs.join(''));

describe('the window size changes nothing', () => {
  test('generated documents, as written and mutated', () => {
    fc.assert(
      fc.property(
        documentArb,
        fc.nat(),
        fc.nat(4),
        fc.constantFrom('', '[', ']', '"""', "'''", '\n', '{', '}', ',', '#', '=', 'x'),
        (doc, at, del, ins) => {
          assertWindowsChangeNothing(doc.text);
          const i = at % (doc.text.length + 1);
          assertWindowsChangeNothing(doc.text.slice(0, i) + ins + doc.text.slice(i + del));
        },
      ),
      { numRuns: runs(150), seed: 1303 },
    );
  });

  test('TOML-ish noise', () => {
    fc.assert(
      fc.property(noise, (text) => assertWindowsChangeNothing(text)),
      { numRuns: runs(1500), seed: 1304 },
    );
  });
});
