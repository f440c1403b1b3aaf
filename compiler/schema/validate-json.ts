/**
 * Schema diagnostics for the JSON dialects, each at the exact key or value,
 * from the shapes in settings-spec.ts. What the tool refuses is an error
 * (`schema`); what it silently passes over is a warning (`unknown-setting`:
 * a key it does not read, with a did-you-mean; `duplicate-key`: JSON.parse
 * keeps the last of a key written twice), because that is the fail-open the
 * trackers complain of (sandbox-runtime #434).
 */
import type { Diagnostic } from '../diagnostic.js';
import { PLATFORMS } from '../diagnostic.js';
import type { JsonDuplicate, JsonObject, JsonValue } from '../json/ast.js';
import type { Span } from '../span.js';
import { didYouMean } from './did-you-mean.js';
import { claudeOtherKeys, claudeSpec, srtSpec, type Spec } from './settings-spec.js';
import type { JsonDialect } from './validate.js';

const toolName: Record<JsonDialect, string> = { srt: 'sandbox-runtime', claude: 'Claude Code' };

const kindNames: Record<JsonValue['kind'], string> = {
  object: 'an object',
  array: 'an array',
  string: 'a string',
  number: 'a number',
  boolean: 'a boolean',
  null: 'null',
};

/** `filesystem.denyRead[0]`, for people. */
function jsonPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const seg of path)
    out += typeof seg === 'number' ? `[${seg}]` : (out ? '.' : '') + (/^[A-Za-z0-9_$-]+$/.test(seg) ? seg : JSON.stringify(seg));
  return out;
}

const where = (path: readonly (string | number)[]): string => (path.length ? `\`${jsonPath(path)}\`` : 'the top level');

const specs: Record<JsonDialect, Spec> = { srt: srtSpec, claude: claudeSpec };

export function validateJsonDocument(
  doc: JsonValue,
  dialect: JsonDialect,
  file: string,
  duplicates: readonly JsonDuplicate[],
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const tool = toolName[dialect];
  const error = (message: string, span: Span, extra: Partial<Diagnostic> = {}): void => {
    out.push({ ruleId: 'schema', severity: 'error', platforms: PLATFORMS, file, message, span, ...extra });
  };
  const refusal =
    dialect === 'srt'
      ? 'sandbox-runtime refuses the whole file (loadConfig: "does not hold a valid config") and runs nothing'
      : 'Claude Code reports the settings file as invalid and does not apply what it says (a bad value drops its rules: anthropics/claude-code#92365)';
  const walk = (v: JsonValue, spec: Spec, path: (string | number)[], keySpan?: Span): void => {
    const mismatch = (expected: string): void =>
      error(`${where(path)} must be ${expected}, found ${kindNames[v.kind]}: ${refusal}`, v.span);
    switch (spec.type) {
      case 'any':
        return;
      case 'boolean':
        if (v.kind !== 'boolean') mismatch('a boolean (true or false)');
        return;
      case 'string':
        if (v.kind !== 'string') return mismatch('a string');
        if (spec.nonEmpty && v.value === '') error(`${where(path)} cannot be empty: ${refusal}`, v.span);
        else if (spec.absolute && !v.value.startsWith('/')) error(`${where(path)} must be an absolute path: ${refusal}`, v.span);
        else if (spec.oneOf && !spec.oneOf.includes(v.value))
          error(`${where(path)} must be one of ${spec.oneOf.map((x) => JSON.stringify(x)).join(', ')}: ${refusal}`, v.span);
        return;
      case 'number':
        if (v.kind !== 'number') return mismatch(spec.integer ? 'an integer' : 'a number');
        if (spec.integer && !Number.isInteger(v.value)) error(`${where(path)} must be an integer: ${refusal}`, v.span);
        else if ((spec.min !== undefined && v.value < spec.min) || (spec.max !== undefined && v.value > spec.max))
          error(`${where(path)} must be between ${spec.min} and ${spec.max}: ${refusal}`, v.span);
        return;
      case 'path-entry':
        if (v.kind === 'string') {
          if (v.value === '') error(`${where(path)}: a path cannot be empty: ${refusal}`, v.span);
          return;
        }
        if (dialect === 'srt' && v.kind === 'object') {
          const literal = v.members.get('literal')?.value;
          const p = v.members.get('path')?.value;
          const extra = [...v.members.keys()].filter((k) => k !== 'path' && k !== 'literal');
          if (literal?.kind === 'boolean' && literal.value && p?.kind === 'string' && p.value !== '' && !extra.length) return;
          return error(`${where(path)} must be a path, or { "path": "<path>", "literal": true }: ${refusal}`, v.span);
        }
        return mismatch(dialect === 'srt' ? 'a path (a string), or { "path": …, "literal": true }' : 'a path (a string)');
      case 'array':
        if (v.kind !== 'array') return mismatch('an array');
        v.items.forEach((item, i) => walk(item, spec.items, [...path, i]));
        return;
      case 'record':
        if (v.kind !== 'object') return mismatch('an object');
        for (const [k, m] of v.members) walk(m.value, spec.values, [...path, k], m.keySpan);
        return;
      case 'object': {
        if (v.kind !== 'object') return mismatch('an object');
        for (const req of spec.required ?? [])
          if (!v.members.has(req)) error(`${where(path)} needs the key \`${req}\`: ${refusal}`, keySpan ?? v.span);
        objectKeys(v, spec, path);
        return;
      }
    }
  };
  const objectKeys = (v: JsonObject, spec: Extract<Spec, { type: 'object' }>, path: (string | number)[]): void => {
    const known = Object.keys(spec.keys);
    for (const [k, m] of v.members) {
      const field = spec.keys[k];
      if (field) {
        walk(m.value, field, [...path, k], m.keySpan);
        continue;
      }
      // Claude Code's own keys beside the two boxwright reads: passed over, unless one typo away from them.
      const top = dialect === 'claude' && path.length === 0;
      if (top && claudeOtherKeys.includes(k)) continue;
      const guess = didYouMean(k, known);
      if (top && !guess) continue;
      if (spec.unknown === 'refused') {
        error(`unknown key \`${k}\` in ${where(path)}${guess ? `; did you mean \`${guess}\`?` : ''}: ${refusal}`, m.keySpan);
        continue;
      }
      // The rename as an edit inside the key's quotes, when it is written without escapes and the object has no key by the new name yet
      // (two would make JSON.parse keep one of them: merging them is the writer's decision).
      const asWritten = m.keySpan.end.offset - m.keySpan.start.offset === k.length + 2 && !(guess && v.members.has(guess));
      const fix = guess
        ? {
            ...(asWritten ? { fix: { edits: [{ start: m.keySpan.start.offset + 1, end: m.keySpan.end.offset - 1, text: guess }] } } : {}),
            suggestion: `rename \`${k}\` to \`${guess}\``,
          }
        : { suggestion: `the keys ${tool} reads here: ${known.map((x) => `\`${x}\``).join(', ')}` };
      out.push({
        ruleId: 'unknown-setting',
        severity: 'warning',
        platforms: PLATFORMS,
        file,
        message:
          `${tool} does not read \`${k}\` in ${where(path)}${guess ? ` (did you mean \`${guess}\`?)` : ''}: ` +
          `it is passed over without a word, so whatever it says has no effect`,
        span: m.keySpan,
        ...fix,
      });
    }
  };
  walk(doc, specs[dialect], []);
  for (const d of duplicates) {
    out.push({
      ruleId: 'duplicate-key',
      severity: 'warning',
      platforms: PLATFORMS,
      file,
      message: `\`${d.key}\` is written twice in this object: JSON.parse keeps the last one, so ${tool} never sees this one`,
      span: d.ignored,
      related: [{ message: 'the definition that takes effect', span: d.kept }],
      suggestion: 'merge the two into one key',
      // Removing the ignored one changes nothing the tool reads, but it may be the one the author meant (a `denyRead` list
      // lost): a fix only when it says nothing the kept one does not, so that no intent is dropped with it.
      ...(subsumed(d.ignoredValue, d.keptValue) ? { fix: { edits: [{ start: d.removal.start, end: d.removal.end, text: '' }] } } : {}),
    });
  }
  return out;
}

/** A JSON value as plain data, numbers as written (for comparing two values as JSON.parse would read them). */
const plain = (v: JsonValue): unknown =>
  v.kind === 'object'
    ? Object.fromEntries([...v.members].map(([k, m]) => [k, plain(m.value)]).sort(([a], [b]) => (String(a) < String(b) ? -1 : 1)))
    : v.kind === 'array'
      ? v.items.map(plain)
      : v.kind === 'number'
        ? { number: v.value }
        : v.kind === 'null'
          ? null
          : v.value;

/** Whether `ignored` says nothing `kept` does not: the same value, or a list each of whose items `kept` lists too. */
function subsumed(ignored: JsonValue, kept: JsonValue): boolean {
  const same = (a: JsonValue, b: JsonValue) => JSON.stringify(plain(a)) === JSON.stringify(plain(b));
  if (ignored.kind === 'array' && kept.kind === 'array') return ignored.items.every((i) => kept.items.some((k) => same(i, k)));
  return same(ignored, kept);
}
