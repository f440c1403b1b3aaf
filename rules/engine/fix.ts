/**
 * Fixes: a rule's suggestion as edits of the config, where it is a config
 * change. Each helper works on the text as written (the spans the IR
 * keeps) and gives up (undefined) rather than guess where the TOML is
 * shaped in a way it does not know: a wrong edit is worse than none.
 */
import type { Fix } from '../../compiler/diagnostic.js';
import type { Grant, ListName, WrittenTable } from '../../compiler/ir/types.js';
import type { Span } from '../../compiler/span.js';
import { tomlString } from '../../compiler/toml/write.js';

type Edit = Fix['edits'][number];

const at = (offset: number): Pick<Edit, 'start' | 'end'> => ({ start: offset, end: offset });
const between = (start: number, end: number): Pick<Edit, 'start' | 'end'> => ({ start, end });

/** Replaces a string value (a grant as written) with another string. */
export function replaceString(span: Span, value: string): Fix {
  return { edits: [{ start: span.start.offset, end: span.end.offset, text: tomlString(value) }] };
}

/** Replaces a value's text as written (`false` → `true`). */
export function replaceText(span: Span, text: string): Fix {
  return { edits: [{ start: span.start.offset, end: span.end.offset, text }] };
}

/** Edits that add `values` to `list` of a table: into its array, or as a new key of the table. */
export function addToList(
  table: WrittenTable | undefined,
  grants: readonly Grant[],
  list: ListName,
  values: readonly string[],
): Edit[] | undefined {
  if (!table || values.length === 0) return undefined;
  const literal = values.map(tomlString).join(', ');
  const array = table.lists[list];
  if (array) {
    // After the last item (a trailing comma stays after the new ones); in an empty array, after `[`.
    const last = lastItem(grants, list, array);
    return last ? [{ ...at(last.span.end.offset), text: `, ${literal}` }] : [{ ...at(array.start.offset + 1), text: literal }];
  }
  if (table.origin === 'header') return [{ ...at(table.span.end.offset), text: `\n${list} = [${literal}]` }];
  if (table.origin === 'inline')
    return [{ ...at(table.span.end.offset - 1), text: `${isEmptyInline(table) ? ' ' : ', '}${list} = [${literal}] ` }];
  return undefined;
}

const isEmptyInline = (t: WrittenTable): boolean => t.empty;

/** Edits that add `key = value` (a bare TOML key, a value as TOML text) to a table as written: a `[header]` or `{ inline }` one. */
export function addKey(table: WrittenTable | undefined, key: string, value: string): Edit[] | undefined {
  if (!table) return undefined;
  if (table.origin === 'header') return [{ ...at(table.span.end.offset), text: `\n${key} = ${value}` }];
  if (table.origin === 'inline')
    return [{ ...at(table.span.end.offset - 1), text: `${isEmptyInline(table) ? ' ' : ', '}${key} = ${value} ` }];
  return undefined;
}

/**
 * The grant written last in a list's array, once per principal's grants
 * and array: rules ask it for each of their reports, which may be one per
 * grant of a large config.
 */
function lastItem(grants: readonly Grant[], list: ListName, array: Span): Grant | undefined {
  let memo = lastItems.get(grants);
  if (!memo) lastItems.set(grants, (memo = new Map()));
  const key = `${list} ${array.start.offset} ${array.end.offset}`;
  let last = memo.get(key);
  if (last === undefined) {
    last = null;
    for (const g of grants) {
      // The greatest end offset; of equal ones, the later grant (what a stable sort's last gives).
      if (
        g.list === list &&
        g.span.start.offset > array.start.offset &&
        g.span.end.offset < array.end.offset &&
        (last === null || g.span.end.offset >= last.span.end.offset)
      )
        last = g;
    }
    memo.set(key, last);
  }
  return last ?? undefined;
}

const lastItems = new WeakMap<readonly Grant[], Map<string, Grant | null>>();

/** Edits that remove one item from its array, with the comma that separates it from a neighbour. */
export function removeFromList(text: string, item: Span): Edit[] {
  let end = item.end.offset;
  let j = end;
  while (j < text.length && (text[j] === ' ' || text[j] === '\t')) j++;
  if (text[j] === ',') {
    end = j + 1;
    while (end < text.length && (text[end] === ' ' || text[end] === '\t')) end++;
    return [{ ...between(item.start.offset, end), text: '' }];
  }
  // The last item: take the comma before it.
  let i = item.start.offset - 1;
  while (i >= 0 && /\s/.test(text[i]!)) i--;
  const start = text[i] === ',' ? i : item.start.offset;
  return [{ ...between(start, item.end.offset), text: '' }];
}

/** Edits that remove a `[header]` table that holds no key: its whole line. */
export function removeHeaderLine(text: string, table: WrittenTable | undefined): Edit[] | undefined {
  if (table?.origin !== 'header' || !table.empty) return undefined;
  const start = text.lastIndexOf('\n', table.span.start.offset - 1) + 1;
  const nl = text.indexOf('\n', table.span.end.offset);
  return [{ ...between(start, nl < 0 ? text.length : nl + 1), text: '' }];
}

/** Applies a fix's edits to the text (last first, so earlier offsets hold). */
export function applyFix(text: string, fix: Fix): string {
  let out = text;
  for (const e of [...fix.edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** Joins edits into one fix, or none when any part gave up. */
export function fixOf(...parts: (readonly Edit[] | undefined)[]): Fix | undefined {
  if (parts.some((p) => p === undefined)) return undefined;
  return { edits: parts.flatMap((p) => p ?? []) };
}

/**
 * Whether a fix may be applied unasked: `safe` when effective access on
 * every platform stays the same or narrows, `unsafe` when it widens or
 * cannot be judged. Rules never say it: the app decides it by checking the
 * fixed text and comparing the access before and after
 * (app/fix-applicability.ts).
 */
export type Applicability = 'safe' | 'unsafe';

/** A fix whose applicability has been decided. */
export interface JudgedFix extends Fix {
  readonly applicability: Applicability;
}

/** The fix's applicability; one never judged is unsafe (fail closed: only a judged fix is ever safe). */
export function applicabilityOfFix(fix: Fix): Applicability {
  return 'applicability' in fix && (fix as JudgedFix).applicability === 'safe' ? 'safe' : 'unsafe';
}
