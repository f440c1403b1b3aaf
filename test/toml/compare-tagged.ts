/**
 * Compares tagged JSON the way the upstream toml-test runner does (see
 * ../shared/toml-test/README.md): tables by key set, arrays by length and
 * order, strings and integers as exact text, bools case-insensitively, floats
 * numerically (nan == nan, -0 == 0), offset date-times as instants, local
 * kinds by their fields, all at millisecond precision.
 */

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function isTaggedScalar(v: Json): v is { type: string; value: string } {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const keys = Object.keys(v);
  return keys.length === 2 && typeof v['type'] === 'string' && typeof v['value'] === 'string';
}

function parseFloatText(s: string): number {
  switch (s) {
    case 'nan':
    case '+nan':
    case '-nan':
      return NaN;
    case 'inf':
    case '+inf':
      return Infinity;
    case '-inf':
      return -Infinity;
  }
  return Number(s.replace(/_/g, ''));
}

const DT = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})?)?$/;
const TM = /^(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?$/;

function millis(frac: string | undefined): number {
  return frac === undefined ? 0 : Number((frac + '00').slice(0, 3));
}

/** A comparable key for a date-time value of the given kind, or undefined if unreadable. */
export function dateTimeKey(type: string, text: string): string | undefined {
  if (type === 'time-local') {
    const m = TM.exec(text);
    if (m === null) return undefined;
    return `${m[1]}:${m[2]}:${m[3]}.${millis(m[4])}`;
  }
  const m = DT.exec(text);
  if (m === null) return undefined;
  if (type === 'date-local') return m[4] === undefined ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
  if (m[4] === undefined) return undefined;
  const fields = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.${millis(m[7])}`;
  if (type === 'datetime-local') return m[8] === undefined ? fields : undefined;
  if (m[8] === undefined) return undefined;
  // instant in ms since the epoch (years 0-99 handled by setUTCFullYear)
  const d = new Date(0);
  d.setUTCFullYear(+m[1]!, +m[2]! - 1, +m[3]!);
  d.setUTCHours(+m[4]!, +m[5]!, +m[6]!, millis(m[7]));
  let t = d.getTime();
  const off = m[8];
  if (off !== 'Z' && off !== 'z') {
    const sign = off.startsWith('-') ? -1 : 1;
    t -= sign * (Number(off.slice(1, 3)) * 60 + Number(off.slice(4, 6))) * 60000;
  }
  return String(t);
}

/** Undefined when equal, else a description of the first difference. */
export function compareTagged(actual: unknown, expected: unknown, path = '$'): string | undefined {
  const a = actual as Json;
  const e = expected as Json;
  if (isTaggedScalar(e)) {
    if (!isTaggedScalar(a)) return `${path}: expected ${JSON.stringify(e)}, got ${JSON.stringify(a)}`;
    if (a.type !== e.type) return `${path}: expected type ${e.type}, got ${a.type} (${a.value})`;
    switch (e.type) {
      case 'string':
      case 'integer':
        return a.value === e.value ? undefined : `${path}: expected ${JSON.stringify(e.value)}, got ${JSON.stringify(a.value)}`;
      case 'bool':
        return a.value.toLowerCase() === e.value.toLowerCase() ? undefined : `${path}: expected ${e.value}, got ${a.value}`;
      case 'float': {
        const x = parseFloatText(a.value);
        const y = parseFloatText(e.value);
        if (Number.isNaN(x) && Number.isNaN(y)) return undefined;
        return x === y ? undefined : `${path}: expected float ${e.value}, got ${a.value}`;
      }
      default: {
        const x = dateTimeKey(e.type, a.value);
        const y = dateTimeKey(e.type, e.value);
        if (x === undefined || y === undefined || x !== y) return `${path}: expected ${e.type} ${e.value}, got ${a.value}`;
        return undefined;
      }
    }
  }
  if (Array.isArray(e)) {
    if (!Array.isArray(a)) return `${path}: expected an array, got ${JSON.stringify(a)}`;
    if (a.length !== e.length) return `${path}: expected ${e.length} array items, got ${a.length}`;
    for (let i = 0; i < e.length; i++) {
      const d = compareTagged(a[i], e[i], `${path}[${i}]`);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  if (e !== null && typeof e === 'object') {
    if (a === null || typeof a !== 'object' || Array.isArray(a) || isTaggedScalar(a)) {
      return `${path}: expected a table, got ${JSON.stringify(a)}`;
    }
    const ak = Object.keys(a).sort();
    const ek = Object.keys(e).sort();
    if (ak.join('\u0000') !== ek.join('\u0000')) {
      return `${path}: expected keys ${JSON.stringify(ek)}, got ${JSON.stringify(ak)}`;
    }
    for (const k of ek) {
      const d = compareTagged(a[k], e[k], `${path}.${JSON.stringify(k)}`);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  return `${path}: unexpected expected value ${JSON.stringify(e)}`;
}
