/**
 * Floats in every exponent form TOML 1.0's ABNF allows (issue 13 item 1):
 *
 *   float = float-int-part ( exp / frac [ exp ] )
 *   exp = "e" float-exp-part            ; "e" is case-insensitive in ABNF
 *   float-exp-part = [ minus / plus ] zero-prefixable-int
 *   zero-prefixable-int = DIGIT *( DIGIT / underscore DIGIT )
 *
 * so signs, leading zeros and underscores in the exponent, `e` or `E`, with
 * or without a fraction. `1.0e-00001` was once sent to the date-time decoder
 * because its fifth character is "-". Each generated literal is decoded as a
 * value, in an array and in an inline table, and compared with its value
 * computed from its parts (gen-scalars.ts `floatValue`), with smol-toml's, and,
 * where the mantissa and the power of ten are exact doubles, with the one
 * correctly rounded product or quotient. Seeded and bounded.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parse as smolParse } from 'smol-toml';
import { parseToml, type TomlValue } from '../../compiler/toml/index.js';
import { floatLiteralArb, floatValue, type FloatLiteral } from './gen-scalars.js';
import { runs } from '../budget.js';

function decoded(src: string): TomlValue[] {
  const r = parseToml(src);
  assert.deepEqual(
    r.errors.map((e) => e.message),
    [],
    src,
  );
  const a = r.document!.entries.get('a')!.value;
  const b = r.document!.entries.get('b')!.value;
  const c = r.document!.entries.get('c')!.value;
  assert.ok(b.kind === 'array' && c.kind === 'table');
  return [a, b.items[1]!, c.entries.get('x')!.value];
}

/** mantissa × 10^k with both exact doubles (|k| ≤ 22, mantissa < 2^53): one rounding, so exact. */
function exactValue(f: FloatLiteral): number | undefined {
  const k = f.exponent - BigInt(f.fractionDigits);
  const m = BigInt(f.mantissa);
  if (m >= 2n ** 53n || k > 22n || k < -22n) return undefined;
  const v = Number(k) >= 0 ? Number(m) * 10 ** Number(k) : Number(m) / 10 ** -Number(k);
  return f.negative ? -v : v;
}

const same = (x: number, y: number): boolean => Object.is(x, y) || (Number.isNaN(x) && Number.isNaN(y));

describe('floats: every exponent form', () => {
  test('the examples of the issue', () => {
    const cases: [string, number][] = [
      ['1.0e-00001', 0.1],
      ['123e-45678', 0],
      ['1.5E-0_001', 0.15],
      ['9_1E-0000027', 9.1e-26],
      ['1e-0001', 0.1],
      ['1234e-5678', 0],
      ['-1.0e-00001', -0.1],
      ['+12.5e+0_0_2', 1250],
      ['0e-00000', 0],
      ['-0.0E-00_0', -0],
    ];
    for (const [text, value] of cases) {
      for (const v of decoded(`a = ${text}\nb = [0, ${text}]\nc = { x = ${text} }\n`)) {
        assert.equal(v.kind, 'float', text);
        if (v.kind === 'float') assert.ok(same(v.value, value), `${text}: ${v.value}, expected ${value}`);
      }
    }
  });

  test('generated literals decode to their value (independently computed, smol-toml, exact where one rounding)', () => {
    const count = runs(3000);
    let exact = 0;
    let fifthIsMinus = 0;
    fc.assert(
      fc.property(floatLiteralArb, (f) => {
        const src = `a = ${f.text}\nb = [0, ${f.text}]\nc = { x = ${f.text} }\n`;
        const want = floatValue(f);
        for (const v of decoded(src)) {
          assert.equal(v.kind, 'float', f.text);
          if (v.kind === 'float') assert.ok(same(v.value, want), `${f.text}: ${v.value}, expected ${want}`);
        }
        const theirs = smolParse(src).a;
        assert.ok(typeof theirs === 'number' && same(theirs, want), `${f.text}: smol-toml ${String(theirs)}, expected ${want}`);
        const e = exactValue(f);
        if (e !== undefined) {
          assert.ok(same(e, want), `${f.text}: ${want}, exactly ${e}`);
          exact++;
        }
        if (f.text.length >= 10 && f.text[4] === '-') fifthIsMinus++;
      }),
      { numRuns: count, seed: 1313 },
    );
    // the generator reaches the forms that matter: more than one in ten (300 of the full budget's 3000)
    assert.ok(exact > count / 10, `only ${exact} of ${count} literals had an exact value to compare with`);
    assert.ok(fifthIsMinus > 30, `only ${fifthIsMinus} literals of ten or more characters had "-" fifth`);
  });
});
