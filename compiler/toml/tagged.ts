/**
 * JSON views of a parsed document:
 *  - toml-test's tagged JSON (every scalar is `{"type": ..., "value": "..."}`);
 *  - plain JSON text with exact integers (digits written straight into the
 *    text, even beyond 2^53), floats as numbers ("inf", "-inf", "nan" as
 *    strings), dates and times as their text.
 */
import type { TomlTable, TomlValue } from './ast.js';

/** Float text that reads back to the same number and always looks like a float. */
export function floatText(v: number): string {
  if (Number.isNaN(v)) return 'nan';
  if (v === Infinity) return 'inf';
  if (v === -Infinity) return '-inf';
  if (Object.is(v, -0)) return '-0.0';
  const s = String(v);
  return Number.isInteger(v) && s.indexOf('e') < 0 ? s + '.0' : s;
}

export function toTaggedJson(doc: TomlTable): unknown {
  return taggedValue(doc);
}

function taggedValue(v: TomlValue): unknown {
  switch (v.kind) {
    case 'table': {
      const out: Record<string, unknown> = {};
      for (const [k, e] of v.entries) {
        // `__proto__` and friends must become ordinary keys
        Object.defineProperty(out, k, { value: taggedValue(e.value), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    case 'array':
      return v.items.map(taggedValue);
    case 'string':
      return { type: 'string', value: v.value };
    case 'integer':
      return { type: 'integer', value: v.value.toString() };
    case 'float':
      return { type: 'float', value: floatText(v.value) };
    case 'boolean':
      return { type: 'bool', value: v.value ? 'true' : 'false' };
    default:
      return { type: v.kind, value: v.text };
  }
}

export function toPlainJsonText(doc: TomlTable, indent = 0): string {
  const parts: string[] = [];
  const unit = indent > 0 ? ' '.repeat(Math.min(indent, 10)) : '';
  writePlain(doc, parts, unit, '\n');
  return parts.join('');
}

function writePlain(v: TomlValue, out: string[], unit: string, nl: string): void {
  switch (v.kind) {
    case 'table': {
      if (v.entries.size === 0) {
        out.push('{}');
        return;
      }
      const inner = nl + unit;
      out.push('{');
      let first = true;
      for (const [k, e] of v.entries) {
        if (!first) out.push(',');
        first = false;
        if (unit !== '') out.push(inner);
        out.push(JSON.stringify(k), unit !== '' ? ': ' : ':');
        writePlain(e.value, out, unit, inner);
      }
      if (unit !== '') out.push(nl);
      out.push('}');
      return;
    }
    case 'array': {
      if (v.items.length === 0) {
        out.push('[]');
        return;
      }
      const inner = nl + unit;
      out.push('[');
      for (let i = 0; i < v.items.length; i++) {
        if (i > 0) out.push(',');
        if (unit !== '') out.push(inner);
        writePlain(v.items[i]!, out, unit, inner);
      }
      if (unit !== '') out.push(nl);
      out.push(']');
      return;
    }
    case 'string':
      out.push(JSON.stringify(v.value));
      return;
    case 'integer':
      out.push(v.value.toString());
      return;
    case 'float': {
      const t = floatText(v.value);
      out.push(t === 'nan' || t === 'inf' || t === '-inf' ? `"${t}"` : t);
      return;
    }
    case 'boolean':
      out.push(v.value ? 'true' : 'false');
      return;
    default:
      out.push(JSON.stringify(v.text));
  }
}
