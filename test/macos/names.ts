/**
 * Checks the operation and filter names of an SBPL profile against the
 * macOS tables (targets/macos/sbpl-names.json): every operation exists in
 * the newest table (10.15), every filter exists there and belongs to a
 * category the operation accepts, every symbol argument is one of the
 * filter's named arguments, and the only function inside a filter is
 * `param`. Written for the tests; it reads the profile with the tests' own
 * SBPL reader, not with the emitter.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../helpers.js';
import { readSbpl, type Node } from './sbpl-reader.js';

interface Operation {
  readonly versions: readonly string[];
  readonly filters: Readonly<Record<string, readonly string[]>>;
}
interface Filter {
  readonly versions: readonly string[];
  readonly categories: Readonly<Record<string, readonly string[]>>;
  readonly arguments?: readonly string[];
}
export interface NameTable {
  readonly versions: readonly string[];
  readonly metaFilters: readonly string[];
  readonly functions: Readonly<Record<string, string>>;
  readonly operations: Readonly<Record<string, Operation>>;
  readonly operationAliases: Readonly<Record<string, { readonly operation: string; readonly versions: readonly string[] }>>;
  readonly filters: Readonly<Record<string, Filter>>;
}

export const nameTable: NameTable = JSON.parse(readFileSync(join(repoRoot, 'targets/macos/sbpl-names.json'), 'utf8')) as NameTable;
/** The newest version the tables hold: what an emitted name must exist in. */
export const newest: string = nameTable.versions.at(-1)!;

/** The operation a name means (an alias resolved), or undefined when the table does not know it in `newest`. */
function operation(name: string): { name: string; op: Operation } | undefined {
  const alias = nameTable.operationAliases[name];
  if (alias && !alias.versions.includes(newest)) return undefined;
  const real = alias ? alias.operation : name;
  const op = nameTable.operations[real];
  return op?.versions.includes(newest) ? { name: real, op } : undefined;
}

function checkFilter(node: Node, ops: readonly { name: string; op: Operation }[], where: string, problems: string[]): void {
  if (node.type !== 'list' || node.items[0]?.type !== 'symbol') {
    problems.push(`${where}: a filter must be a list headed by a name`);
    return;
  }
  const [head, ...args] = node.items;
  const name = head!.type === 'symbol' ? head!.value : '';
  if (nameTable.metaFilters.includes(name)) {
    for (const a of args) checkFilter(a, ops, where, problems);
    return;
  }
  const filter = nameTable.filters[name];
  if (!filter?.versions.includes(newest)) {
    problems.push(`${where}: ${name} is not a filter of macOS ${newest}`);
    return;
  }
  const categories = Object.entries(filter.categories)
    .filter(([, v]) => v.includes(newest))
    .map(([c]) => c);
  for (const { name: opName, op } of ops) {
    const accepted = Object.entries(op.filters)
      .filter(([, v]) => v.includes(newest))
      .map(([c]) => c);
    if (!categories.some((c) => accepted.includes(c)))
      problems.push(
        `${where}: ${name} is not a filter of ${opName} (it filters ${categories.join(', ')}; ${opName} takes ${accepted.join(', ')})`,
      );
  }
  for (const a of args) {
    if (a.type === 'symbol' && !(filter.arguments ?? []).includes(a.value))
      problems.push(`${where}: ${a.value} is not a named argument of ${name} (${(filter.arguments ?? []).join(', ') || 'none'})`);
    if (a.type === 'list') {
      const fn = a.items[0];
      if (fn?.type !== 'symbol' || !(fn.value in nameTable.functions)) problems.push(`${where}: unknown function in ${name}'s argument`);
    }
  }
}

/** Every naming problem of a profile's text; empty when the table accepts every name. */
export function profileNameProblems(text: string): string[] {
  const problems: string[] = [];
  for (const form of readSbpl(text).forms) {
    const [head, ...rest] = form.items;
    const where = `line ${form.line}`;
    if (head?.type !== 'symbol') {
      problems.push(`${where}: a form must start with a name`);
      continue;
    }
    if (head.value === 'version') {
      if (rest.length !== 1 || rest[0]!.type !== 'symbol' || rest[0]!.value !== '1') problems.push(`${where}: only (version 1) exists`);
      continue;
    }
    if (head.value !== 'allow' && head.value !== 'deny') {
      problems.push(`${where}: ${head.value} is neither allow, deny nor version`);
      continue;
    }
    const ops: { name: string; op: Operation }[] = [];
    for (const n of rest) {
      if (n.type !== 'symbol') continue;
      const op = operation(n.value);
      if (op) ops.push(op);
      else problems.push(`${where}: ${n.value} is not an operation of macOS ${newest}`);
    }
    if (rest.length === 0 || rest[0]!.type !== 'symbol') problems.push(`${where}: ${head.value} names no operation`);
    for (const n of rest)
      if (n.type === 'list') checkFilter(n, ops, where, problems);
      else if (n.type !== 'symbol') problems.push(`${where}: a ${n.type} where an operation or a filter belongs`);
  }
  return problems;
}
