/**
 * What the language server asks of a text, whatever its syntax: where each
 * key is written (hover), and what key is being typed at the cursor
 * (completion). app/lsp/toml-keys.ts reads TOML, scanJsonKeys here JSON.
 * Offsets are UTF-16 code units of the text, as everywhere in boxwright
 * (compiler/span.ts).
 */
/** One key as written: its whole path from the top, and where its name is (a quoted key's quotes included). */
export interface KeySegment {
  readonly path: readonly string[];
  readonly start: number;
  readonly end: number;
}

/** The key being typed at the cursor: the table it goes in, and the text a completion replaces. */
export interface KeyContext {
  readonly parent: readonly string[];
  readonly start: number;
  readonly end: number;
  /** In a TOML `[header]`: only tables are offered. */
  readonly header: boolean;
  /** JSON: the key is written with its quotes. */
  readonly json?: true;
}

export interface KeyScan {
  readonly keys: readonly KeySegment[];
  readonly context?: KeyContext;
}

const MAX_DEPTH = 128;

/** The keys of a JSON text (comments too, for VS Code's settings), read leniently as the TOML scan reads TOML. */
export function scanJsonKeys(text: string, cursor: number): KeyScan {
  const keys: KeySegment[] = [];
  let context: KeyContext | undefined;
  const n = text.length;
  // One frame per open object or array: its path, and in an object whether a key comes next and the last key read.
  const stack: { path: readonly string[]; object: boolean; expectKey: boolean; key?: string }[] = [];
  const top = () => stack[stack.length - 1];
  let i = 0;
  while (i < n) {
    const c = text[i]!;
    const frame = top();
    if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === '"') {
      const start = i++;
      while (i < n && text[i] !== '"' && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
      const closed = text[i] === '"';
      if (closed) i++;
      const end = Math.min(i, n);
      if (frame?.object && frame.expectKey) {
        const name = keyName(text.slice(start, end), closed);
        keys.push({ path: [...frame.path, name], start, end });
        if (cursor > start && cursor <= end && !context) context = { parent: frame.path, start, end, header: false, json: true };
        frame.key = name;
        frame.expectKey = false;
      }
    } else if (c === '{' || c === '[') {
      const path = frame ? (frame.object ? [...frame.path, frame.key ?? ''] : [...frame.path, '[]']) : [];
      if (stack.length < MAX_DEPTH) stack.push({ path, object: c === '{', expectKey: c === '{' });
      i++;
    } else if (c === '}' || c === ']') {
      stack.pop();
      i++;
    } else if (c === ',') {
      if (frame?.object) frame.expectKey = true;
      i++;
    } else {
      // Where a key may start and none is written yet: the cursor there completes one.
      if (frame?.object && frame.expectKey && cursor === i && !context && /[\s}]/.test(c))
        context = { parent: frame.path, start: i, end: i, header: false, json: true };
      i++;
    }
  }
  const frame = top();
  if (frame?.object && frame.expectKey && cursor === n && !context)
    context = { parent: frame.path, start: n, end: n, header: false, json: true };
  return { keys, ...(context ? { context } : {}) };
}

/** A key's name from its string token (quotes included; an unclosed one runs to where it stops). */
function keyName(token: string, closed: boolean): string {
  const literal = closed ? token : `${token}"`;
  try {
    return JSON.parse(literal) as string;
  } catch {
    return token.slice(1, closed ? -1 : undefined);
  }
}

/** The key written at `offset` (hover): the innermost, its name's span holding the offset. */
export function keyAt(scan: KeyScan, offset: number): KeySegment | undefined {
  return scan.keys.find((k) => offset >= k.start && offset < k.end);
}
