/**
 * Where the keys of a TOML text are, read leniently: a document being typed
 * rarely parses, and the language server still hovers and completes in it.
 * The scan knows TOML's shapes (headers, dotted keys, the four kinds of
 * string, arrays, inline tables, comments) but checks nothing: the check
 * itself (app/check.ts) says what is wrong. One pass, each character read
 * at most once, so a hostile text costs its length.
 */
import type { KeyContext, KeyScan, KeySegment } from './key-scan.js';

const BARE = /[A-Za-z0-9_-]/;
const MAX_DEPTH = 128;

export function scanTomlKeys(text: string, cursor: number): KeyScan {
  const keys: KeySegment[] = [];
  let context: KeyContext | undefined;
  const n = text.length;
  // A byte order mark the editor kept is no key.
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let table: string[] = [];

  const spaces = (): void => {
    while (i < n && (text[i] === ' ' || text[i] === '\t')) i++;
  };
  const toLineEnd = (): void => {
    while (i < n && text[i] !== '\n') i++;
  };
  /** Spaces, line breaks and comments, inside an array. */
  const blank = (): void => {
    for (;;) {
      spaces();
      if (text[i] === '\n' || text[i] === '\r') i++;
      else if (text[i] === '#') toLineEnd();
      else return;
    }
  };
  /** A quoted string from i (at its quote); returns its value (escapes read loosely: a key's name, not its exact bytes). */
  const quoted = (): string => {
    const q = text[i]!;
    if (text.startsWith(q.repeat(3), i)) {
      const end = text.indexOf(q.repeat(3), i + 3);
      const stop = end < 0 ? n : end + 3;
      const value = text.slice(i + 3, end < 0 ? n : end);
      i = stop;
      return value;
    }
    const from = ++i;
    while (i < n && text[i] !== q && text[i] !== '\n') i += q === '"' && text[i] === '\\' ? 2 : 1;
    const value = text.slice(from, Math.min(i, n));
    if (text[i] === q) i++;
    return q === '"' ? basicStringValue(value) : value;
  };
  /** A dotted key from i, its segments recorded under `base`; the cursor inside it gives the completion context. */
  const dottedKey = (base: readonly string[], header: boolean): string[] => {
    const path = [...base];
    for (;;) {
      spaces();
      const start = i;
      let name = '';
      if (text[i] === '"' || text[i] === "'") name = quoted();
      else while (i < n && BARE.test(text[i]!)) name += text[i++];
      const end = i;
      if (cursor >= start && cursor <= end && !context) context = { parent: [...path], start, end, header };
      if (end > start) {
        path.push(name);
        keys.push({ path: [...path], start, end });
      }
      spaces();
      if (text[i] !== '.' || end === start) return path;
      i++;
    }
  };
  const value = (path: readonly string[], depth = 0): void => {
    spaces();
    const c = text[i];
    // Nesting past any config's: read on as a scalar, so that `[[[[…` cannot exhaust the stack.
    if (depth > MAX_DEPTH) i++;
    else if (c === '"' || c === "'") quoted();
    else if (c === '[') {
      i++;
      for (let guard = i; ; guard = i) {
        blank();
        if (i >= n || text[i] === ']') break;
        value(path, depth + 1);
        blank();
        if (text[i] === ',') i++;
        else if (text[i] !== ']' && i === guard) i++;
      }
      if (text[i] === ']') i++;
    } else if (c === '{') {
      i++;
      for (let guard = i; ; guard = i) {
        spaces();
        if (i >= n || text[i] === '}' || text[i] === '\n') break;
        const key = dottedKey(path, false);
        spaces();
        if (text[i] === '=') {
          i++;
          value(key, depth + 1);
        }
        spaces();
        if (text[i] === ',') i++;
        else if (text[i] !== '}' && i === guard) i++;
      }
      if (text[i] === '}') i++;
    } else while (i < n && !/[\s,\]}#]/.test(text[i]!)) i++;
  };

  while (i < n) {
    spaces();
    if (text[i] === '\n' || text[i] === '\r') {
      // A blank line in a table: a key may be typed here.
      if (cursor === i && !context) context = { parent: [...table], start: i, end: i, header: false };
      i++;
      continue;
    }
    if (text[i] === '#') {
      toLineEnd();
      continue;
    }
    if (text[i] === '[') {
      i += text[i + 1] === '[' ? 2 : 1;
      table = dottedKey([], true);
      toLineEnd();
      continue;
    }
    const lineStart = i;
    const key = dottedKey(table, false);
    spaces();
    if (text[i] === '=') {
      i++;
      value(key);
    } else if (i === lineStart) i++;
    spaces();
    if (text[i] === '#') toLineEnd();
    else if (text[i] !== '\n') toLineEnd();
  }
  if (cursor === n && !context && (n === 0 || text[n - 1] === '\n')) context = { parent: [...table], start: n, end: n, header: false };
  return { keys, ...(context ? { context } : {}) };
}

/** A basic string's escapes, for a quoted key's name; one that is not valid stays as written. */
function basicStringValue(s: string): string {
  if (!s.includes('\\')) return s;
  try {
    return JSON.parse(`"${s.replace(/\\U([0-9A-Fa-f]{8})/g, (_, h: string) => String.fromCodePoint(Number.parseInt(h, 16)))}"`) as string;
  } catch {
    return s;
  }
}
