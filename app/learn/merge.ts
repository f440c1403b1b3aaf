/**
 * Learning into a config that exists: what the run needed that the config
 * does not already give is added, as text edits of the file as written (its
 * comments, order and the user's own edits stay), each new entry with its
 * comment. Whether the config already gives a grant is the effective-access
 * model's answer at its path (the Linux cell; for `list`, macOS's), the
 * same answer lint, explain and the artifacts read.
 */
import type { Fix } from '../../compiler/diagnostic.js';
import type { Grant, ListName } from '../../compiler/ir/types.js';
import type { Span } from '../../compiler/span.js';
import { isStrictlyUnder, isUnder } from '../../compiler/paths/index.js';
import { tomlString } from '../../compiler/toml/write.js';
import { applyFix } from '../../rules/engine/fix.js';
import type { CheckedPolicy } from '../check.js';
import { comment, entryLines, PRIVATE_TMP_LINE, spelled, tableName } from './config-text.js';
import type { Unmet } from './needs.js';
import type { LearnDialect, LearnedGrant } from './policy.js';

export interface MergeInput {
  readonly check: CheckedPolicy;
  readonly dialect: LearnDialect;
  readonly principal: string;
  readonly home: string;
  readonly workspace?: string;
  /** Box: the run used its private /tmp: `private_tmp = true` added where the principal lacks it. */
  readonly privateTmp?: boolean;
  readonly grants: readonly LearnedGrant[];
  /** Comment lines put above the first new entry of each list (which run added it). */
  readonly header: string;
}

export type MergeOutcome =
  | {
      readonly ok: true;
      readonly text: string;
      readonly added: readonly LearnedGrant[];
      readonly already: number;
      readonly denied: readonly Unmet[];
      readonly notes: readonly string[];
    }
  | { readonly ok: false; readonly error: string };

type Edit = Fix['edits'][number];

/** Whether the config's model already gives what the grant asks, at its path. */
function given(check: CheckedPolicy, principal: string, g: LearnedGrant): 'yes' | 'no' | 'denied' {
  const pa = check.model.principals.find((p) => p.principal.id === principal);
  if (!pa) return 'no';
  const denies = pa.principal.grants.some((x) => x.access === 'deny' && x.path && isUnder(g.path, x.path));
  const cell = pa.effectiveAt(g.path, g.list === 'list' ? 'macos' : 'linux');
  if (cell.kind !== 'access') return denies ? 'denied' : 'no';
  const ok =
    g.list === 'exec' ? cell.exec : g.list === 'write' || g.list === 'write_file' ? cell.write : g.list === 'list' ? cell.names : cell.read;
  return ok ? 'yes' : denies ? 'denied' : 'no';
}

/** The last item of a list's array in a table, by where it is written. */
function lastItem(
  grants: readonly Grant[],
  list: ListName,
  array: { start: { offset: number }; end: { offset: number } },
): Grant | undefined {
  let last: Grant | undefined;
  for (const g of grants)
    if (
      g.list === list &&
      g.span.start.offset > array.start.offset &&
      g.span.end.offset < array.end.offset &&
      (!last || g.span.end.offset > last.span.end.offset)
    )
      last = g;
  return last;
}

/** Whether a comma follows `from` before `to`, past white space and comments. */
function commaBetween(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text[i]!;
    if (c === ',') return true;
    if (c === '#') {
      const nl = text.indexOf('\n', i);
      if (nl < 0 || nl >= to) return false;
      i = nl;
    } else if (!/\s/.test(c)) return false;
  }
  return false;
}

/** Edits that add `lines` (entries, each ending in a comma) to a list's array; undefined when the table has no such list. */
function addLines(text: string, grants: readonly Grant[], list: ListName, array: Span, lines: readonly string[]): Edit[] {
  const close = array.end.offset - 1;
  const edits: Edit[] = [];
  const last = lastItem(grants, list, array);
  const comma = last !== undefined && !commaBetween(text, last.span.end.offset, close);
  const lineStart = text.lastIndexOf('\n', close - 1) + 1;
  const before = text.slice(lineStart, close);
  const block = `${/^[ \t]*$/.test(before) ? '' : '\n'}${lines.join('\n')}\n`;
  // One edit where the comma and the new lines meet (`"a"]`): two at one offset would come out in reverse.
  if (comma && last.span.end.offset === close) return [{ start: close, end: close, text: `,${block}` }];
  if (comma) edits.push({ start: last.span.end.offset, end: last.span.end.offset, text: ',' });
  edits.push({ start: close, end: close, text: block });
  return edits;
}

const LISTS: readonly ListName[] = ['read', 'read_file', 'write', 'write_file', 'list', 'exec', 'read_allow', 'deny'];

export function mergeLearned(m: MergeInput): MergeOutcome {
  const { check } = m;
  const text = check.text;
  const added: LearnedGrant[] = [];
  const denied: Unmet[] = [];
  const notes: string[] = [];
  let already = 0;
  for (const g of m.grants) {
    // A deny keeps a project secret out of a tree learned with it: added with that tree, never to narrow what the config gave already.
    if (g.list === 'deny') continue;
    const state = given(check, m.principal, g);
    if (state === 'yes') already++;
    else if (state === 'denied') {
      const first = g.needs[0]!;
      denied.push({
        path: g.path,
        what: `the config denies it: left denied (a learned \`${g.list}\` would not lift a deny)`,
        first: first.first,
      });
    } else added.push(g);
  }
  for (const d of m.grants)
    if (
      d.list === 'deny' &&
      added.some((g) => g.list !== 'deny' && isStrictlyUnder(d.path, g.path)) &&
      given(check, m.principal, d) !== 'denied'
    )
      added.push(d);
  const principal = check.ir.principals.find((p) => p.id === m.principal);
  const table = principal?.written;
  const addTmp = !!m.privateTmp && m.dialect === 'box' && !principal?.privateTmp;
  if (added.length === 0 && !addTmp) return { ok: true, text, added, already, denied, notes };
  const edits: Edit[] = [];
  if (table) {
    if (table.origin !== 'header')
      return {
        ok: false,
        error:
          `its [${tableName(m.dialect, m.principal)}] is written ${table.origin === 'inline' ? 'as an inline table' : 'with dotted keys'}; ` +
          `learn adds entries to a [header] table only: learn into another file, or write the table as a [header]`,
      };
    // New keys go after the header's line, in one edit (several at one offset would come out in reverse).
    const fresh: string[] = [];
    if (m.workspace !== undefined && m.dialect === 'box') {
      const ws = principal!.workspace;
      if (!ws) fresh.push(`workspace = ${tomlString(spelled(m.workspace, m.home))}  ${comment('where the command ran')}`);
      else if (ws.path !== m.workspace)
        notes.push(`the config's workspace is ${ws.written}, but this run was in ${m.workspace}: its workspace is left as it is`);
    }
    if (addTmp) fresh.push(PRIVATE_TMP_LINE);
    for (const list of LISTS) {
      const of = added.filter((g) => g.list === list);
      if (!of.length) continue;
      const lines = [`  ${comment(m.header)}`, ...entryLines(of, m.home)];
      const array = table.lists[list];
      if (array) edits.push(...addLines(text, principal!.grants, list, array, lines));
      else fresh.push(`${list} = [`, ...lines, ']');
    }
    if (fresh.length) {
      const nl = text.indexOf('\n', table.span.end.offset);
      const at = nl < 0 ? text.length : nl + 1;
      edits.push({ start: at, end: at, text: `${nl < 0 ? '\n' : ''}${fresh.join('\n')}\n` });
    }
  } else {
    const lines = [`[${tableName(m.dialect, m.principal)}]`];
    if (m.workspace !== undefined && m.dialect === 'box')
      lines.push(`workspace = ${tomlString(spelled(m.workspace, m.home))}  ${comment('where the command ran')}`);
    if (addTmp) lines.push(PRIVATE_TMP_LINE);
    for (const list of LISTS) {
      const of = added.filter((g) => g.list === list);
      if (of.length) lines.push(`${list} = [`, `  ${comment(m.header)}`, ...entryLines(of, m.home), ']');
    }
    edits.push({ start: text.length, end: text.length, text: `${text.endsWith('\n') || text === '' ? '' : '\n'}\n${lines.join('\n')}\n` });
  }
  return { ok: true, text: applyFix(text, { edits }), added, already, denied, notes };
}
