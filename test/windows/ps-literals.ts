/**
 * A tiny PowerShell scanner, enough to tell which text of a script is data:
 * single-quoted literals (and single-quoted here-strings) are data; the rest
 * (code, comments, double-quoted strings, where PowerShell expands `$` and
 * backticks) is not. PowerShell takes ' and the typographic ‘ ’ ‚ ‛ for
 * single quotes, and a doubled quote inside a literal for one quote.
 */

export interface Literal {
  /** The value PowerShell sees. */
  readonly value: string;
  /** The literal as written, quotes included. */
  readonly raw: string;
}

export interface Scan {
  readonly literals: readonly Literal[];
  /** Everything outside single-quoted literals, each literal replaced by a space. */
  readonly outside: string;
}

const single = new Set(["'", '\u2018', '\u2019', '\u201a', '\u201b']);
const double = new Set(['"', '\u201c', '\u201d', '\u201e']);

export function scanPowerShell(src: string): Scan {
  const literals: Literal[] = [];
  let outside = '';
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === '#') {
      const end = src.indexOf('\n', i);
      const stop = end < 0 ? src.length : end;
      outside += src.slice(i, stop);
      i = stop;
      continue;
    }
    if (c === '@' && single.has(src[i + 1] ?? '') && src[i + 2] === '\n') {
      // Single-quoted here-string: up to a line that starts with '@.
      const end = src.indexOf("\n'@", i + 2);
      if (end < 0) throw new Error('unterminated here-string');
      literals.push({ value: src.slice(i + 3, end), raw: src.slice(i, end + 3) });
      outside += ' ';
      i = end + 3;
      continue;
    }
    if (single.has(c)) {
      let value = '';
      let j = i + 1;
      for (;;) {
        if (j >= src.length) throw new Error(`unterminated single-quoted literal at ${i}`);
        const d = src[j]!;
        if (single.has(d)) {
          if (single.has(src[j + 1] ?? '')) {
            value += src[j + 1];
            j += 2;
            continue;
          }
          break;
        }
        value += d;
        j++;
      }
      literals.push({ value, raw: src.slice(i, j + 1) });
      outside += ' ';
      i = j + 1;
      continue;
    }
    if (double.has(c)) {
      let j = i + 1;
      for (;;) {
        if (j >= src.length) throw new Error(`unterminated double-quoted string at ${i}`);
        const d = src[j]!;
        if (d === '`') {
          j += 2;
          continue;
        }
        if (double.has(d)) {
          if (double.has(src[j + 1] ?? '')) {
            j += 2;
            continue;
          }
          break;
        }
        j++;
      }
      outside += src.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    outside += c;
    i++;
  }
  return { literals, outside };
}

/** The literal that holds `value`, written the one correct way: each quote character doubled. */
export function expectedLiteral(value: string): string {
  return "'" + [...value].map((ch) => (single.has(ch) ? ch + ch : ch)).join('') + "'";
}
