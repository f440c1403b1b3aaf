import type { Diagnostic } from '../diagnostic.js';
import { PLATFORMS } from '../diagnostic.js';
import type { Span } from '../span.js';
import type { TomlEntry, TomlTable, TomlValue } from '../toml/ast.js';
import { kindNames } from '../toml/kinds.js';
import { didYouMean } from './did-you-mean.js';
import { boxSchema, tybaSchema, type JsonSchema } from './schemas.js';
import { validateBox, validateTyba, type AjvError, type StandaloneValidator } from './validators.js';

/** The TOML dialects (Box, TYBA), the JSON ones (sandbox-runtime settings, Claude Code settings), and Codex's config.toml. */
export type Dialect = 'box' | 'tyba' | 'srt' | 'claude' | 'codex' | 'cursor' | 'vscode';
export type TomlDialect = 'box' | 'tyba';
export type JsonDialect = 'srt' | 'claude';
export function isJsonDialect(d: Dialect | undefined): d is JsonDialect {
  return d === 'srt' || d === 'claude';
}

/** A TOML date or time, kept distinct from strings so `type: string` rejects it. */
class TomlDateValue {
  constructor(readonly text: string) {}
}

/**
 * The document as the plain data ajv validates; null-prototype tables keep
 * `__proto__` a key. `localDates`: a local date as its text (the project
 * file's `expires`, a schema string of format date), every other date or
 * time still distinct from a string.
 */
export function toData(value: TomlValue, localDates = false): unknown {
  switch (value.kind) {
    case 'table': {
      const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      for (const [key, entry] of value.entries) out[key] = toData(entry.value, localDates);
      return out;
    }
    case 'array':
      return value.items.map((item) => toData(item, localDates));
    case 'integer':
      return Number(value.value);
    case 'float':
    case 'boolean':
    case 'string':
      return value.value;
    default:
      return localDates && value.kind === 'date-local' ? value.text : new TomlDateValue(value.text);
  }
}

interface Located {
  readonly value: TomlValue;
  /** The key that names this value, when it is a table entry. */
  readonly keySpan?: Span;
  readonly path: readonly (string | number)[];
}

function decodePointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function locate(root: TomlTable, pointer: string): Located {
  let here: Located = { value: root, path: [] };
  for (const segment of decodePointer(pointer)) {
    const v = here.value;
    if (v.kind === 'table') {
      const entry = v.entries.get(segment);
      if (!entry) break;
      here = { value: entry.value, keySpan: entry.keySpan, path: [...here.path, segment] };
    } else if (v.kind === 'array') {
      const item = v.items[Number(segment)];
      if (!item) break;
      here = { value: item, path: [...here.path, Number(segment)] };
    } else break;
  }
  return here;
}

const bareKey = /^[A-Za-z0-9_-]+$/;
function keyText(key: string): string {
  return bareKey.test(key) ? key : JSON.stringify(key);
}

/** `agent.filesystem.read[0]` for people. */
function describePath(path: readonly (string | number)[]): string {
  let out = '';
  for (const seg of path) out += typeof seg === 'number' ? `[${seg}]` : (out ? '.' : '') + keyText(seg);
  return out;
}

function tableName(path: readonly (string | number)[]): string {
  return path.length === 0 ? 'the top level' : `[${describePath(path)}]`;
}

const typeNames: Record<string, string> = {
  string: 'a string',
  array: 'an array',
  object: 'a table',
  boolean: 'a boolean (true or false)',
  integer: 'an integer',
  number: 'a number',
};

/** The schema node a schemaPath (`#/properties/agent/…`) points into. */
function schemaAt(root: JsonSchema, schemaPath: string): JsonSchema | undefined {
  let node: unknown = root;
  for (const seg of decodePointer(schemaPath.replace(/^#/, ''))) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[seg];
  }
  return node !== null && typeof node === 'object' ? (node as JsonSchema) : undefined;
}

function knownKeys(root: JsonSchema, schemaPath: string): string[] {
  const parent = schemaAt(root, schemaPath.replace(/\/additionalProperties(\/not)?$/, ''));
  const props = parent?.['properties'];
  return props && typeof props === 'object' ? Object.keys(props).sort() : [];
}

/**
 * A misspelt key's did-you-mean as an edit of the key as written (at this
 * segment: `b` of `a.b = 1`; the known keys are bare keys). None when the
 * table already has the key it would become: the rename would define it
 * twice (a TOML error), and merging the two is the writer's decision.
 * The engine judges the rename unsafe, as it judges any fix of a config
 * with a schema error (no access model to compare: app/fix-applicability.ts).
 */
function renameFix(table: TomlTable | undefined, entry: TomlEntry | undefined, guess: string): Pick<Diagnostic, 'fix'> {
  if (!entry || !table || table.entries.has(guess) || !bareKey.test(guess)) return {};
  return { fix: { edits: [{ start: entry.keySpan.start.offset, end: entry.keySpan.end.offset, text: guess }] } };
}

/** The table that holds the value at `path`, and the value's entry in it. */
function parentTable(root: TomlTable, path: readonly (string | number)[]): TomlTable | undefined {
  let node: TomlValue = root;
  for (const seg of path.slice(0, -1)) {
    const next: TomlValue | undefined =
      typeof seg === 'number'
        ? node.kind === 'array'
          ? node.items[seg]
          : undefined
        : node.kind === 'table'
          ? node.entries.get(seg)?.value
          : undefined;
    if (!next) return undefined;
    node = next;
  }
  return node.kind === 'table' ? node : undefined;
}
function entryAt(root: TomlTable, path: readonly (string | number)[]): TomlEntry | undefined {
  const last = path[path.length - 1];
  return typeof last === 'string' ? parentTable(root, path)?.entries.get(last) : undefined;
}

function toDiagnostic(error: AjvError, root: TomlTable, schema: JsonSchema, file: string): Diagnostic {
  const here = locate(root, error.instancePath);
  const base = { ruleId: 'schema', severity: 'error' as const, platforms: PLATFORMS, file };
  if (error.keyword === 'additionalProperties') {
    const key = String(error.params['additionalProperty']);
    const table = here.value.kind === 'table' ? here.value : undefined;
    const entry = table?.entries.get(key);
    const known = knownKeys(schema, error.schemaPath);
    const guess = didYouMean(key, known);
    const knownText = known.length ? `; known keys: ${known.map((k) => `\`${k}\``).join(', ')}` : '; this table takes no keys';
    const span = entry?.keySpan ?? here.keySpan ?? here.value.span;
    return {
      ...base,
      message: `unknown key \`${key}\` in ${tableName(here.path)}` + (guess ? `; did you mean \`${guess}\`?` : knownText),
      span,
      // The rename as an edit of the key as written (the known keys are bare keys).
      ...(guess
        ? {
            suggestion: `rename \`${key}\` to \`${guess}\``,
            ...renameFix(table, entry, guess),
          }
        : {}),
    };
  }
  if (error.keyword === 'not' && /\/additionalProperties\/not$/.test(error.schemaPath)) {
    // A table under a principal that boxwright does not know (hostKeys in schemas.ts).
    const key = String(here.path[here.path.length - 1]);
    const parent = schemaAt(schema, error.schemaPath.replace(/\/additionalProperties\/not$/, ''));
    const known = knownKeys(schema, error.schemaPath).filter(
      (k) => (parent?.['properties'] as Record<string, JsonSchema> | undefined)?.[k]?.['type'] === 'object',
    );
    const guess = didYouMean(key, known);
    const owner = tableName(here.path.slice(0, -1));
    return {
      ...base,
      message:
        `unknown table \`${key}\` in ${owner}` +
        (guess
          ? `; did you mean \`${guess}\`?`
          : `; the tables boxwright reads here: ${known.map((k) => `\`${k}\``).join(', ')} (the host product's own keys are passed over, but not a table)`),
      span: here.keySpan ?? here.value.span,
      ...(guess
        ? { suggestion: `rename \`${key}\` to \`${guess}\``, ...renameFix(parentTable(root, here.path), entryAt(root, here.path), guess) }
        : {}),
    };
  }
  if (error.keyword === 'propertyNames') {
    const name = String(error.params['propertyName'] ?? '');
    const table = here.value.kind === 'table' ? here.value : undefined;
    const entry = name ? table?.entries.get(name) : undefined;
    return {
      ...base,
      message:
        `${JSON.stringify(name)} cannot name a principal in ${tableName(here.path)}: a name starts with ` +
        `a letter or digit and holds only letters, digits, \`_\`, \`-\` and \`.\` (it names artifact files)`,
      span: entry?.keySpan ?? here.keySpan ?? here.value.span,
    };
  }
  if (error.keyword === 'type') {
    const expected = typeNames[String(error.params['type'])] ?? String(error.params['type']);
    const last = here.path[here.path.length - 1];
    const what =
      typeof last === 'number'
        ? `entries of \`${describePath(here.path.slice(0, -1))}\` must be ${expected === 'a string' ? 'strings (paths)' : expected}`
        : `\`${describePath(here.path)}\` must be ${expected}`;
    return { ...base, message: `${what}, found ${kindNames[here.value.kind]}`, span: here.value.span };
  }
  if (error.keyword === 'required') {
    const missing = String(error.params['missingProperty']);
    return { ...base, message: `${tableName(here.path)} needs the key \`${missing}\``, span: here.keySpan ?? here.value.span };
  }
  return { ...base, message: `\`${describePath(here.path)}\` ${error.message ?? 'is invalid'}`, span: here.value.span };
}

const validators: Record<TomlDialect, { validate: StandaloneValidator; schema: JsonSchema }> = {
  box: { validate: validateBox, schema: boxSchema },
  tyba: { validate: validateTyba, schema: tybaSchema },
};

/**
 * Keys the schema passes over (the host product's) that are one typo away
 * from a key boxwright reads: `contain_egres = false` in a server's table,
 * or a top-level `[experimental-feature]` or `[agnet]` beside a config's
 * tables. Left alone they would grant nothing, silently.
 */
function nearMisses(doc: TomlTable, dialect: TomlDialect, file: string, schema: JsonSchema): Diagnostic[] {
  const out: Diagnostic[] = [];
  const base = { ruleId: 'schema', severity: 'error' as const, platforms: PLATFORMS, file };
  const check = (table: TomlTable, path: (string | number)[], known: readonly string[]): void => {
    for (const [key, entry] of table.entries) {
      if (known.includes(key)) continue;
      const guess = didYouMean(key, known);
      if (!guess) continue;
      const what = entry.value.kind === 'table' ? 'table' : 'key';
      out.push({
        ...base,
        message: `unknown ${what} \`${key}\` ${path.length ? `in ${tableName(path)}` : 'at the top level'}; did you mean \`${guess}\`?`,
        span: entry.keySpan,
        suggestion: `rename \`${key}\` to \`${guess}\``,
        ...renameFix(table, entry, guess),
      });
    }
  };
  check(doc, [], dialectTables);
  const props = (node: unknown): string[] => Object.keys(((node as JsonSchema | undefined)?.['properties'] ?? {}) as object);
  const top = schema['properties'] as Record<string, JsonSchema>;
  const principalTables: [string, string[], boolean][] = [
    ['agent', props(top['agent']), false],
    ['tools', props(top['tools']?.['additionalProperties']), true],
    ['mcp_servers', props(top['mcp_servers']?.['additionalProperties']), true],
  ];
  for (const [name, known, named] of principalTables) {
    const value = doc.entries.get(name)?.value;
    if (dialect !== 'box' || value?.kind !== 'table') continue;
    if (!named) {
      check(value, [name], known);
      continue;
    }
    for (const [principal, entry] of value.entries) if (entry.value.kind === 'table') check(entry.value, [name, principal], known);
  }
  return out;
}

/** Every top-level table of either dialect: what a near-miss at the top level is measured against. */
const dialectTables = ['agent', 'tools', 'mcp_servers', 'experimental-features', 'sandbox'];

/** Schema diagnostics for a parsed document, each at the exact key or value. */
export function validateDocument(doc: TomlTable, dialect: TomlDialect, file: string): Diagnostic[] {
  const { validate, schema } = validators[dialect];
  return schemaDiagnostics(doc, validate, schema, file, toData(doc), nearMisses(doc, dialect, file, schema));
}

/**
 * What `validate` (an ahead-of-time ajv validator of `schema`) finds in a
 * TOML document, each at the exact key or value with did-you-mean for a
 * misspelt key: the dialects', and the project file's
 * (compiler/schema/project.ts). `before`: the caller's own findings, which
 * come first; a schema error at a place one of them starts is left out (it
 * says the same thing in vaguer words).
 */
export function schemaDiagnostics(
  doc: TomlTable,
  validate: StandaloneValidator,
  schema: JsonSchema,
  file: string,
  data: unknown = toData(doc),
  before: readonly Diagnostic[] = [],
): Diagnostic[] {
  if (validate(data)) return [...before];
  const seen = new Set<string>(before.map((d) => `${d.span.start.offset}`));
  const out: Diagnostic[] = [...before];
  for (const error of validate.errors ?? []) {
    // ajv reports a failing name twice: its `pattern` error, then a `propertyNames` one naming it.
    if (error.schemaPath.includes('/propertyNames/')) continue;
    const d = toDiagnostic(error, doc, schema, file);
    const key = `${d.span.start.offset}:${d.message}`;
    if (seen.has(key) || seen.has(`${d.span.start.offset}`)) continue;
    seen.add(key);
    out.push(d);
  }
  return out;
}
