/**
 * Generated TOML 1.0 numbers and date-times with their TOML text and the
 * value it means: integers in every radix with underscores and signs,
 * floats in every exponent form of the ABNF (and as JavaScript prints
 * doubles), special floats, the four date-time kinds.
 */
import fc from 'fast-check';
import type { DateKind, Scalar } from './model.js';

/** `digits` with "_" put between digits where `gaps` says so (zero-prefixable-int and friends). */
function underscored(digits: string, gaps: readonly boolean[]): string {
  let out = digits[0] ?? '';
  for (let i = 1; i < digits.length; i++) out += (gaps[i - 1] === true ? '_' : '') + digits[i];
  return out;
}

export const digitString = (min: number, max: number): fc.Arbitrary<string> =>
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
  digits: fc.oneof(
    digitString(1, 6),
    digitString(1, 24),
    fc.tuple(fc.constantFrom('0', '00', '0000'), digitString(1, 3)).map(([a, b]) => a + b),
  ),
  gaps: gapsArb,
});

const anyFloatParts: fc.Arbitrary<FloatParts> = fc
  .record({
    sign: fc.constantFrom('', '+', '-'),
    int: fc.oneof(
      { weight: 1, arbitrary: fc.constant('0') },
      { weight: 4, arbitrary: nonZeroInt(3) },
      { weight: 1, arbitrary: nonZeroInt(20) },
    ),
    intGaps: gapsArb,
    frac: fc.option(fc.record({ digits: digitString(1, 8), gaps: gapsArb }), { nil: undefined }),
    exp: fc.option(expArb, { nil: undefined }),
  })
  .filter((f) => f.frac !== undefined || f.exp !== undefined);

/** Unsigned, three characters before a negative exponent: `123e-45678`, `1.5E-0_001`, `9_1E-0000027`. */
const dateLikeFloatParts: fc.Arbitrary<FloatParts> = fc
  .oneof(
    fc.record({
      sign: fc.constant(''),
      int: nonZeroInt(2).filter((i) => i.length === 3),
      intGaps: fc.constant([]),
      frac: fc.constant(undefined),
    }),
    fc.record({
      sign: fc.constant(''),
      int: fc.constantFrom(...'0123456789'),
      intGaps: fc.constant([]),
      frac: fc.record({ digits: digitString(1, 1), gaps: fc.constant([]) }),
    }),
    fc.record({
      sign: fc.constant(''),
      int: nonZeroInt(1).filter((i) => i.length === 2),
      intGaps: fc.constant([true]),
      frac: fc.constant(undefined),
    }),
  )
  .chain((head) => expArb.map((e) => ({ ...head, exp: { ...e, sign: '-', digits: e.digits.padStart(5, '0') } })));

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

export const integerArb: fc.Arbitrary<Scalar> = fc
  .record({
    v: fc.oneof(fc.bigInt(INT64_MIN, INT64_MAX), fc.bigInt(-1000n, 1000n), fc.constantFrom(0n, INT64_MIN, INT64_MAX, 2n ** 53n + 1n)),
    style: fc.nat(3),
    plus: fc.boolean(),
    zeros: fc.nat(3),
    upper: fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
    gaps: gapsArb,
  })
  .map(({ v, style, plus, zeros, upper, gaps }) => {
    const text =
      v < 0n || style === 0 ? decimalText(v, plus, gaps) : radixText(v, style === 1 ? 16 : style === 2 ? 8 : 2, zeros, upper, gaps);
    return { m: 'scalar', value: { t: 'integer', v }, text };
  });

export const floatArb: fc.Arbitrary<Scalar> = fc.oneof(
  floatLiteralArb.map((f): Scalar => ({ m: 'scalar', value: { t: 'float', v: floatValue(f) }, text: f.text })),
  // any double, as JavaScript prints it (always a valid TOML float once it has a "." or an exponent)
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((v): Scalar => {
    const t = Object.is(v, -0) ? '-0.0' : String(v);
    return { m: 'scalar', value: { t: 'float', v }, text: /[.e]/.test(t) ? t : t + '.0' };
  }),
  fc
    .constantFrom(
      ['inf', Infinity],
      ['+inf', Infinity],
      ['-inf', -Infinity],
      ['nan', NaN],
      ['+nan', NaN],
      ['-nan', NaN],
      ['-0.0', -0],
      ['+0.0', 0],
      ['0e0', 0],
      ['-0E-0_0', -0],
    )
    .map(([text, v]): Scalar => ({ m: 'scalar', value: { t: 'float', v: v as number }, text: text as string })),
);

// ---------------------------------------------------------------- dates and times

const pad = (n: number, w: number): string => String(n).padStart(w, '0');
const daysIn = (y: number, m: number): number =>
  m === 2 ? ((y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;

/** Seconds stop at 59: 60 (a leap second) is valid TOML but smol-toml's Date rejects it. */
export const dateTimeArb: fc.Arbitrary<Scalar> = fc
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
    zone: fc.oneof(
      fc.constantFrom('Z', 'z'),
      fc
        .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
        .map(([sg, h, m]) => `${sg}${pad(h, 2)}:${pad(m, 2)}`),
    ),
  })
  .map(({ kind, y, mo, d, h, mi, s, frac, sep, zone }) => {
    const date = `${pad(y, 4)}-${pad(mo, 2)}-${pad(Math.min(d, daysIn(y, mo)), 2)}`;
    const time = `${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}${frac === undefined ? '' : '.' + frac}`;
    const canonicalZone = zone === 'z' ? 'Z' : zone;
    switch (kind) {
      case 'date-local':
        return { m: 'scalar', value: { t: kind, v: date }, text: date };
      case 'time-local':
        return { m: 'scalar', value: { t: kind, v: time }, text: time };
      case 'datetime-local':
        return { m: 'scalar', value: { t: kind, v: `${date}T${time}` }, text: `${date}${sep}${time}` };
      case 'datetime':
        return { m: 'scalar', value: { t: kind, v: `${date}T${time}${canonicalZone}` }, text: `${date}${sep}${time}${zone}` };
    }
  });
