/**
 * The semantic half of the parser: builds the document tree and enforces
 * TOML's definition rules.
 *
 *  - a table is defined at most once by a `[header]`; tables that headers
 *    create on the way (`a` for `[a.b]`) are "implicit" and may be defined
 *    later, once;
 *  - tables created by dotted keys (`a.b = 1` creates `a`) can be extended
 *    by more dotted keys and can have sub-tables by headers, but cannot be
 *    defined by a header;
 *  - a header cannot reach into a table defined by a header through dotted
 *    keys (`[a.b]` then `[a]` `b.c = 1`);
 *  - inline tables and static arrays are complete once written;
 *  - `[[a]]` appends to an array of tables, `[a.b]` after it goes into the
 *    last element.
 */
import type { Span } from '../span.js';
import { kindNames } from './kinds.js';
import type { TableOrigin, TomlArray, TomlEntry, TomlError, TomlTable, TomlValue } from './ast.js';
import { formatKey } from './errors.js';

export interface KeySeg {
  readonly name: string;
  readonly span: Span;
}

/** The tree under construction: the same shapes as ast.ts, but writable. */
export interface MutTable {
  kind: 'table';
  origin: TableOrigin;
  entries: Map<string, TomlEntry>;
  span: Span;
}

interface MutArray {
  kind: 'array';
  items: TomlValue[];
  span: Span;
}

export function newTable(origin: TableOrigin, span: Span): MutTable {
  return { kind: 'table', origin, entries: new Map(), span };
}

function isArrayOfTables(v: TomlValue): boolean {
  if (v.kind !== 'array' || v.items.length === 0) return false;
  const first = v.items[0]!;
  return first.kind === 'table' && first.origin === 'array-element';
}

function describeValue(v: TomlValue): string {
  if (v.kind === 'table') return v.origin === 'inline' ? 'an inline table' : 'a table';
  if (isArrayOfTables(v)) return 'an array of tables';
  return kindNames[v.kind];
}

function names(segs: readonly KeySeg[], upTo: number): string[] {
  const out: string[] = [];
  for (let i = 0; i <= upTo; i++) out.push(segs[i]!.name);
  return out;
}

export class Builder {
  readonly root: MutTable;
  /** The table that key/value lines go into (changed by headers). */
  current: MutTable;
  /** The full key of each table a header made current, so that messages name `[x.y]`, not `[y]`. */
  private readonly paths = new WeakMap<MutTable, readonly string[]>();

  constructor(
    private readonly errors: TomlError[],
    rootSpan: Span,
  ) {
    this.root = newTable('root', rootSpan);
    this.current = this.root;
    this.paths.set(this.root, []);
  }

  /** `table`'s key followed by the first `upTo + 1` segments (relative when the table's key is unknown, e.g. inline). */
  private fullKey(table: MutTable, segs: readonly KeySeg[], upTo: number): string {
    const prefix = this.paths.get(table);
    const rest = names(segs, upTo);
    return formatKey(prefix === undefined ? rest : prefix.concat(rest));
  }

  error(message: string, span: Span, relatedMessage?: string, relatedSpan?: Span): void {
    if (relatedSpan !== undefined) {
      this.errors.push({ message, span, related: [{ message: relatedMessage ?? 'defined here', span: relatedSpan }] });
    } else {
      this.errors.push({ message, span });
    }
  }

  /** `key = value` with a single-segment key. */
  set(table: MutTable, name: string, keySpan: Span, value: TomlValue): void {
    const entries = table.entries;
    const prev = entries.get(name);
    if (prev !== undefined) {
      this.duplicate(name, keySpan, prev);
      return;
    }
    entries.set(name, { key: name, keySpan, value });
  }

  private duplicate(name: string, keySpan: Span, prev: TomlEntry): void {
    const v = prev.value;
    if (v.kind === 'table' && v.origin !== 'inline') {
      this.error(`key ${JSON.stringify(name)} is already defined as a table`, keySpan, 'first defined here', prev.keySpan);
    } else {
      this.error(`key ${JSON.stringify(name)} is already defined`, keySpan, 'first defined here', prev.keySpan);
    }
  }

  /** `a.b.c = value`: creates or extends the tables `a` and `a.b`. */
  setDotted(table: MutTable, segs: readonly KeySeg[], value: TomlValue): void {
    let t = table;
    const last = segs.length - 1;
    for (let i = 0; i < last; i++) {
      const seg = segs[i]!;
      const e = t.entries.get(seg.name);
      if (e === undefined) {
        const child = newTable('dotted', seg.span);
        t.entries.set(seg.name, { key: seg.name, keySpan: seg.span, value: child });
        t = child;
        continue;
      }
      const v = e.value;
      if (v.kind === 'table') {
        if (v.origin === 'dotted') {
          t = v as MutTable;
          continue;
        }
        if (v.origin === 'implicit') {
          // created by a header such as [a.b.c]; dotted keys now define it
          (v as MutTable).origin = 'dotted';
          t = v as MutTable;
          continue;
        }
        if (v.origin === 'inline') {
          this.error(
            `cannot add to inline table ${JSON.stringify(this.fullKey(table, segs, i))} after it is defined`,
            seg.span,
            'the inline table is defined here',
            v.span,
          );
          return;
        }
        this.error(
          `cannot add to table [${this.fullKey(table, segs, i)}] with dotted keys: it is already defined by a table header`,
          seg.span,
          'the table is defined here',
          v.span,
        );
        return;
      }
      this.error(
        `cannot use ${JSON.stringify(seg.name)} as a table: it is already defined as ${describeValue(v)}`,
        seg.span,
        'first defined here',
        e.keySpan,
      );
      return;
    }
    this.set(t, segs[last]!.name, segs[last]!.span, value);
  }

  /** Walks the parents of a header key, creating implicit tables. */
  private walkHeader(segs: readonly KeySeg[], isArray: boolean): MutTable | undefined {
    let t = this.root;
    const last = segs.length - 1;
    for (let i = 0; i < last; i++) {
      const seg = segs[i]!;
      const e = t.entries.get(seg.name);
      if (e === undefined) {
        const child = newTable('implicit', seg.span);
        t.entries.set(seg.name, { key: seg.name, keySpan: seg.span, value: child });
        t = child;
        continue;
      }
      const v = e.value;
      if (v.kind === 'table') {
        if (v.origin === 'inline') {
          this.error(
            `cannot add to inline table ${JSON.stringify(formatKey(names(segs, i)))} after it is defined`,
            seg.span,
            'the inline table is defined here',
            v.span,
          );
          return undefined;
        }
        t = v as MutTable;
        continue;
      }
      if (isArrayOfTables(v)) {
        const items = (v as TomlArray).items;
        t = items[items.length - 1] as MutTable;
        continue;
      }
      this.error(
        `cannot define ${headerText(segs, isArray)}: ${JSON.stringify(formatKey(names(segs, i)))} is already defined as ${describeValue(v)}`,
        seg.span,
        'first defined here',
        e.keySpan,
      );
      return undefined;
    }
    return t;
  }

  /** `[a.b]` */
  header(segs: readonly KeySeg[], span: Span): void {
    const parent = this.walkHeader(segs, false);
    const keyNames = names(segs, segs.length - 1);
    this.current = newTable('header', span); // detached unless defined below
    this.paths.set(this.current, keyNames);
    if (parent === undefined) return;
    const seg = segs[segs.length - 1]!;
    const e = parent.entries.get(seg.name);
    if (e === undefined) {
      parent.entries.set(seg.name, { key: seg.name, keySpan: seg.span, value: this.current });
      return;
    }
    const v = e.value;
    if (v.kind === 'table') {
      const t = v as MutTable;
      switch (t.origin) {
        case 'implicit':
          t.origin = 'header';
          t.span = span;
          this.current = t;
          this.paths.set(t, keyNames);
          return;
        case 'header':
          this.error(`table ${headerText(segs, false)} is already defined`, span, 'first defined here', t.span);
          return;
        case 'dotted':
          this.error(`table ${headerText(segs, false)} is already defined by dotted keys`, span, 'defined here', e.keySpan);
          return;
        case 'inline':
          this.error(
            `cannot add to inline table ${JSON.stringify(formatKey(keyNames))} after it is defined`,
            span,
            'the inline table is defined here',
            t.span,
          );
          return;
        default:
          this.error(`table ${headerText(segs, false)} is already defined`, span, 'first defined here', t.span);
          return;
      }
    }
    if (isArrayOfTables(v)) {
      this.error(
        `table ${headerText(segs, false)} is already defined as an array of tables`,
        span,
        'first defined here',
        (v as TomlArray).span,
      );
      return;
    }
    this.error(
      `cannot define table ${headerText(segs, false)}: key ${JSON.stringify(seg.name)} is already defined as ${describeValue(v)}`,
      span,
      'first defined here',
      e.keySpan,
    );
  }

  /** `[[a.b]]` */
  arrayHeader(segs: readonly KeySeg[], span: Span): void {
    const parent = this.walkHeader(segs, true);
    const element = newTable('array-element', span);
    this.current = element;
    this.paths.set(element, names(segs, segs.length - 1));
    if (parent === undefined) return;
    const seg = segs[segs.length - 1]!;
    const e = parent.entries.get(seg.name);
    if (e === undefined) {
      const arr: MutArray = { kind: 'array', items: [element], span };
      parent.entries.set(seg.name, { key: seg.name, keySpan: seg.span, value: arr as TomlArray });
      return;
    }
    const v = e.value;
    if (isArrayOfTables(v)) {
      (v as MutArray).items.push(element);
      return;
    }
    if (v.kind === 'array') {
      this.error(
        `cannot append to ${JSON.stringify(pathText(segs))} with ${headerText(segs, true)}: it is a static array defined with "="`,
        span,
        'defined here',
        e.keySpan,
      );
      return;
    }
    if (v.kind === 'table') {
      const what = v.origin === 'inline' ? 'an inline table' : 'a table';
      this.error(
        `cannot define array of tables ${headerText(segs, true)}: ${JSON.stringify(pathText(segs))} is already defined as ${what}`,
        span,
        'first defined here',
        v.origin === 'dotted' ? e.keySpan : v.span,
      );
      return;
    }
    this.error(
      `cannot define array of tables ${headerText(segs, true)}: key ${JSON.stringify(seg.name)} is already defined as ${describeValue(v)}`,
      span,
      'first defined here',
      e.keySpan,
    );
  }

  document(): TomlTable {
    return this.root as TomlTable;
  }
}

/** The key of a header for messages (formatted only when a message needs it). */
function pathText(segs: readonly KeySeg[]): string {
  return formatKey(names(segs, segs.length - 1));
}

/** `[a.b]` or `[[a.b]]` for messages. */
function headerText(segs: readonly KeySeg[], isArray: boolean): string {
  const path = pathText(segs);
  return isArray ? `[[${path}]]` : `[${path}]`;
}
