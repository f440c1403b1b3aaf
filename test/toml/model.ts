/**
 * The values generated TOML documents must decode to (generate.ts), and
 * canonical texts to compare them with what a parser returned: ours
 * (`fromTree`) or smol-toml's (`fromSmol`).
 */
import { TomlDate } from 'smol-toml';
import type { TomlValue } from '../../compiler/toml/index.js';

export type DateKind = 'datetime' | 'datetime-local' | 'date-local' | 'time-local';

/** A decoded TOML value as the model knows it. */
export type Intended =
  | { readonly t: 'string'; readonly v: string }
  | { readonly t: 'integer'; readonly v: bigint }
  | { readonly t: 'float'; readonly v: number }
  | { readonly t: 'boolean'; readonly v: boolean }
  | { readonly t: DateKind; readonly v: string }
  | { readonly t: 'array'; readonly items: readonly Intended[] }
  | { readonly t: 'table'; readonly entries: readonly (readonly [string, Intended])[] };

/** A scalar: what it decodes to, and its TOML text (strings are written later, in a chosen style). */
export interface Scalar {
  readonly m: 'scalar';
  readonly value: Intended;
  readonly text: string;
}
export interface Str {
  readonly m: 'string';
  readonly v: string;
}
export interface ArrayModel {
  readonly m: 'array';
  readonly items: readonly ValueModel[];
}
export interface TableModel {
  readonly m: 'table';
  readonly entries: readonly (readonly [string, Model])[];
}
/** An array of tables: written with `[[headers]]` or as a static array of inline tables. */
export interface TablesModel {
  readonly m: 'tables';
  readonly tables: readonly TableModel[];
}
export type ValueModel = Scalar | Str | ArrayModel | TableModel;
export type Model = ValueModel | TablesModel;

export function intended(x: Model): Intended {
  switch (x.m) {
    case 'scalar':
      return x.value;
    case 'string':
      return { t: 'string', v: x.v };
    case 'array':
      return { t: 'array', items: x.items.map(intended) };
    case 'tables':
      return { t: 'array', items: x.tables.map(intended) };
    case 'table':
      return { t: 'table', entries: x.entries.map(([k, v]) => [k, intended(v)] as const) };
  }
}

/** A canonical text of an intended value (tables by sorted key; floats by value, -0 and NaN included). */
export function canonical(v: Intended, dates: (kind: DateKind, text: string) => string = (k, t) => `${k} ${t}`): string {
  switch (v.t) {
    case 'string':
      return 's' + JSON.stringify(v.v);
    case 'integer':
      return 'i' + v.v.toString();
    case 'float':
      return 'f' + (Object.is(v.v, -0) ? '-0' : String(v.v));
    case 'boolean':
      return 'b' + String(v.v);
    case 'array':
      return '[' + v.items.map((i) => canonical(i, dates)).join(',') + ']';
    case 'table': {
      const entries = [...v.entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return '{' + entries.map(([k, x]) => JSON.stringify(k) + ':' + canonical(x, dates)).join(',') + '}';
    }
    default:
      return 'd' + dates(v.t, v.v);
  }
}

/** Our tree as the model's values. */
export function fromTree(v: TomlValue): Intended {
  switch (v.kind) {
    case 'string':
      return { t: 'string', v: v.value };
    case 'integer':
      return { t: 'integer', v: v.value };
    case 'float':
      return { t: 'float', v: v.value };
    case 'boolean':
      return { t: 'boolean', v: v.value };
    case 'array':
      return { t: 'array', items: v.items.map(fromTree) };
    case 'table':
      return { t: 'table', entries: [...v.entries].map(([k, e]) => [k, fromTree(e.value)] as const) };
    default:
      return { t: v.kind, v: v.text };
  }
}

/** smol-toml's output as the model's values (a TomlDate says its kind and prints its text). */
export function fromSmol(v: unknown): Intended {
  if (typeof v === 'string') return { t: 'string', v };
  if (typeof v === 'bigint') return { t: 'integer', v };
  if (typeof v === 'number') return { t: 'float', v };
  if (typeof v === 'boolean') return { t: 'boolean', v };
  if (v instanceof TomlDate) {
    const kind: DateKind = v.isDate() ? 'date-local' : v.isTime() ? 'time-local' : v.isLocal() ? 'datetime-local' : 'datetime';
    return { t: kind, v: v.toISOString() };
  }
  if (Array.isArray(v)) return { t: 'array', items: v.map(fromSmol) };
  if (v !== null && typeof v === 'object')
    return { t: 'table', entries: Object.keys(v).map((k) => [k, fromSmol((v as Record<string, unknown>)[k])] as const) };
  throw new Error(`smol-toml returned ${String(v)}`);
}

/** A date-time as smol-toml's TomlDate prints it: T, milliseconds (truncated), Z or the offset. */
export function atMilliseconds(kind: DateKind, text: string): string {
  if (kind === 'date-local') return `${kind} ${text}`;
  const m = /^(.*?\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)?$/.exec(text);
  if (m === null) return `${kind} ${text}`;
  return `${kind} ${m[1]}.${((m[2] ?? '') + '000').slice(0, 3)}${m[3] ?? ''}`;
}
