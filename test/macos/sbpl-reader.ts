/**
 * A small, strict reader of the SBPL subset boxwright emits — written for
 * the tests, independent of the emitter: s-expressions of symbols, string
 * literals ("…" with only `\\` and `\"` escapes), regex literals (#"…"),
 * and `;` comments to the end of the line. It checks that parentheses
 * balance and that no string holds a raw control character, and returns the
 * top-level forms with their line numbers plus every comment.
 */

export type Node =
  | { readonly type: 'list'; readonly items: readonly Node[]; readonly line: number }
  | { readonly type: 'symbol'; readonly value: string; readonly line: number }
  | { readonly type: 'string'; readonly value: string; readonly line: number }
  | { readonly type: 'regex'; readonly value: string; readonly line: number };

export interface Comment {
  readonly line: number;
  readonly text: string;
}

export interface Parsed {
  readonly forms: readonly (Node & { type: 'list' })[];
  readonly comments: readonly Comment[];
}

export class SbplSyntaxError extends Error {}

export function readSbpl(text: string): Parsed {
  let i = 0;
  let line = 1;
  const comments: Comment[] = [];
  const fail = (msg: string): never => {
    throw new SbplSyntaxError(`line ${line}: ${msg}`);
  };

  const skipSpaceAndComments = (): void => {
    while (i < text.length) {
      const c = text[i]!;
      if (c === '\n') {
        line++;
        i++;
      } else if (c === ' ' || c === '\t' || c === '\r') i++;
      else if (c === ';') {
        const end = text.indexOf('\n', i);
        const stop = end === -1 ? text.length : end;
        comments.push({ line, text: text.slice(i, stop) });
        i = stop;
      } else return;
    }
  };

  const readString = (): string => {
    // at the opening quote
    i++;
    let out = '';
    for (;;) {
      if (i >= text.length) fail('unterminated string literal');
      const c = text[i]!;
      if (c === '"') {
        i++;
        return out;
      }
      if (c === '\\') {
        const n = text[i + 1];
        if (n !== '\\' && n !== '"') fail(`unexpected escape \\${n ?? 'EOF'} in a string literal`);
        out += n;
        i += 2;
        continue;
      }
      if (/[\u0000-\u001f\u007f]/.test(c)) fail(`raw control character U+${c.charCodeAt(0).toString(16)} in a string literal`);
      out += c;
      i++;
    }
  };

  const readRegex = (): string => {
    // at `#"`: the body is raw; a backslash keeps the next character (so `\"` does not end it)
    i += 2;
    const start = i;
    for (;;) {
      if (i >= text.length) fail('unterminated regex literal');
      const c = text[i]!;
      if (c === '"') {
        const body = text.slice(start, i);
        i++;
        return body;
      }
      if (/[\u0000-\u001f\u007f]/.test(c)) fail('raw control character in a regex literal');
      i += c === '\\' ? 2 : 1;
    }
  };

  const readNode = (): Node => {
    skipSpaceAndComments();
    if (i >= text.length) fail('unexpected end of input: unbalanced parentheses');
    const c = text[i]!;
    const at = line;
    if (c === '(') {
      i++;
      const items: Node[] = [];
      for (;;) {
        skipSpaceAndComments();
        if (i >= text.length) fail('unexpected end of input: unbalanced parentheses');
        if (text[i] === ')') {
          i++;
          return { type: 'list', items, line: at };
        }
        items.push(readNode());
      }
    }
    if (c === ')') fail('unbalanced ")"');
    if (c === '"') return { type: 'string', value: readString(), line: at };
    if (c === '#' && text[i + 1] === '"') return { type: 'regex', value: readRegex(), line: at };
    const m = /^[^\s()";]+/.exec(text.slice(i, i + 200));
    if (!m) fail(`unexpected character ${JSON.stringify(c)}`);
    i += m![0].length;
    return { type: 'symbol', value: m![0], line: at };
  };

  const forms: (Node & { type: 'list' })[] = [];
  for (;;) {
    skipSpaceAndComments();
    if (i >= text.length) break;
    const n = readNode();
    if (n.type !== 'list') fail(`a top-level form must be a list, not the ${n.type} ${JSON.stringify(n.value)}`);
    forms.push(n as Node & { type: 'list' });
  }
  return { forms, comments };
}

/** Every string literal in a node, depth first. */
export function stringsOf(node: Node): string[] {
  if (node.type === 'string') return [node.value];
  if (node.type === 'list') return node.items.flatMap(stringsOf);
  return [];
}

/** A form's head symbol (`allow`, `deny`, `version`) and its operation symbols. */
export function ruleParts(form: Node & { type: 'list' }): { action: string; operations: string[]; filters: (Node & { type: 'list' })[] } {
  const [head, ...rest] = form.items;
  const action = head?.type === 'symbol' ? head.value : '';
  const operations: string[] = [];
  const filters: (Node & { type: 'list' })[] = [];
  for (const n of rest) {
    if (n.type === 'symbol') operations.push(n.value);
    else if (n.type === 'list') filters.push(n);
  }
  return { action, operations, filters };
}

/** The path filters of a rule: `literal` and `subpath` with their string. */
export function pathFilters(form: Node & { type: 'list' }): { kind: 'literal' | 'subpath'; path: string }[] {
  return ruleParts(form).filters.flatMap((f) => {
    const [k, v] = f.items;
    if (k?.type === 'symbol' && (k.value === 'literal' || k.value === 'subpath') && v?.type === 'string')
      return [{ kind: k.value, path: v.value }];
    return [];
  });
}

/** Drops line numbers, for structural comparison. */
export function shape(node: Node): unknown {
  if (node.type === 'list') return node.items.map(shape);
  return { [node.type]: node.value };
}
