/**
 * A fix's edits in the outputs' coordinates (issue 40): the rules keep
 * edits as offsets of the decoded text (compiler/diagnostic.ts, Fix); JSON
 * and SARIF give them as ranges in the convention of every diagnostic's
 * span (compiler/span.ts): lines and columns 1-based, columns in UTF-16
 * code units, `end` exclusive; an insertion is an empty range (start =
 * end).
 */
import type { Diagnostic } from '../../compiler/diagnostic.js';
import { applicabilityOfFix, type Applicability } from '../../rules/engine/fix.js';

export interface LineColumn {
  readonly line: number;
  readonly column: number;
}

export interface FixEdit {
  readonly start: LineColumn;
  readonly end: LineColumn;
  readonly newText: string;
}

export interface FixOut {
  readonly applicability: Applicability;
  readonly edits: readonly FixEdit[];
}

/**
 * Offsets to lines and columns in one text: a line starts after each `\n`,
 * as the TOML and JSON front ends count. The lines are found on the first
 * question: a file without fixes never pays for them.
 */
export function lineIndex(text: string): (offset: number) => LineColumn {
  let starts: number[] | undefined;
  return (offset) => {
    if (!starts) {
      starts = [0];
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    }
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo]! + 1 };
  };
}

/** The diagnostic's fix in line/column ranges, in the order the rule wrote its edits; undefined without a fix. */
export function fixOut(d: Diagnostic, at: (offset: number) => LineColumn): FixOut | undefined {
  if (!d.fix) return undefined;
  return {
    applicability: applicabilityOfFix(d.fix),
    edits: d.fix.edits.map((e) => ({ start: at(e.start), end: at(e.end), newText: e.text })),
  };
}
