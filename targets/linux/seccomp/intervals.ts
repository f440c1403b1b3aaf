/**
 * Sets of u32 values as sorted, disjoint, non-adjacent closed intervals. The
 * disassembler uses them for "which syscall numbers can reach this
 * instruction".
 */
export type IntervalSet = readonly (readonly [number, number])[];

const MAX = 0xffffffff;

export function anyOf(): IntervalSet {
  return [[0, MAX]];
}

export function fromRange(lo: number, hi: number): IntervalSet {
  return lo > hi || hi < 0 || lo > MAX ? [] : [[Math.max(lo, 0), Math.min(hi, MAX)]];
}

export function isEmpty(s: IntervalSet): boolean {
  return s.length === 0;
}

export function intersect(a: IntervalSet, b: IntervalSet): IntervalSet {
  const out: [number, number][] = [];
  for (const [alo, ahi] of a) {
    for (const [blo, bhi] of b) {
      const lo = Math.max(alo, blo);
      const hi = Math.min(ahi, bhi);
      if (lo <= hi) out.push([lo, hi]);
    }
  }
  return normalize(out);
}

export function union(a: IntervalSet, b: IntervalSet): IntervalSet {
  return normalize([...a, ...b]);
}

export function minus(a: IntervalSet, v: number): IntervalSet {
  return intersect(a, normalize([...fromRange(0, v - 1), ...fromRange(v + 1, MAX)]));
}

/** The values, ascending, if there are at most `limit` of them. */
export function members(s: IntervalSet, limit: number): number[] | undefined {
  const out: number[] = [];
  for (const [lo, hi] of s) {
    if (hi - lo + 1 + out.length > limit) return undefined;
    for (let v = lo; v <= hi; v++) out.push(v);
  }
  return out;
}

function normalize(list: readonly (readonly [number, number])[]): IntervalSet {
  const sorted = [...list].sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}
