/**
 * strace's output, read back: one process's file of `strace -ff -o
 * PREFIX -xx -y` (every string byte hex-escaped, every descriptor followed
 * by its path in `<…>`) as a list of system calls with their arguments and
 * result. The workload chooses every path and argument it passes, so this
 * reader takes nothing from the text but data: a path is bytes between
 * quotes or angle brackets, decoded from `\xHH`, never a piece of syntax.
 * A line it cannot read is kept as unread, not guessed at.
 */

/** One argument of a call, as strace prints it. */
export type Arg =
  /** A string argument: its bytes decoded (UTF-8), and whether strace cut it short (`"…"...`). */
  | { readonly kind: 'string'; readonly value: string; readonly truncated: boolean }
  /**
   * A descriptor (or AT_FDCWD) with the path `-y` printed for it (absent when it has none: pipe, socket; or when
   * its file was unlinked while open, `deleted`: the path then names no longer this file, or another one).
   */
  | { readonly kind: 'fd'; readonly text: string; readonly path?: string; readonly deleted?: true }
  /** An array (`[…]`): execve's argv. */
  | { readonly kind: 'array'; readonly items: readonly Arg[] }
  /** Anything else (flags, numbers, structures) as printed. */
  | { readonly kind: 'other'; readonly text: string };

export interface Call {
  readonly name: string;
  readonly args: readonly Arg[];
  /** The return value: a number (with the path of a returned descriptor), an errno, or unknown (`?`, unfinished). */
  readonly result:
    | {
        readonly kind: 'ok';
        readonly value: number;
        readonly path?: string;
        /** The returned descriptor's file was unlinked (O_TMPFILE): `path` is absent. */
        readonly deleted?: true;
        /** A pid the call returned, in strace's pid namespace (`--decode-pids=pidns`: `= 2 /* 7359 in strace's PID NS *\/`). */
        readonly hostPid?: number;
      }
    | { readonly kind: 'error'; readonly errno: string }
    | { readonly kind: 'unknown' };
}

const hex = (c: number): number => (c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1);

/** `\xHH…` (and the few escapes strace writes even with -xx) decoded to a string. */
export function decodeEscaped(text: string): string | undefined {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 92) {
      if (c > 127) return undefined;
      bytes.push(c);
      continue;
    }
    const next = text[i + 1];
    if (next === 'x') {
      const h = hex(text.charCodeAt(i + 2));
      const l = hex(text.charCodeAt(i + 3));
      if (h < 0 || l < 0) return undefined;
      bytes.push(h * 16 + l);
      i += 3;
    } else if (next !== undefined && 'nrtvf\\"'.includes(next)) {
      bytes.push({ n: 10, r: 13, t: 9, v: 11, f: 12, '\\': 92, '"': 34 }[next as 'n']);
      i += 1;
    } else return undefined;
  }
  try {
    return utf8.decode(Uint8Array.from(bytes));
  } catch {
    // Not UTF-8: no TOML string can name it, and a lossy decoding would name another path.
    return undefined;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A reader over one line: the tokens strace prints. */
class Line {
  i = 0;
  constructor(readonly s: string) {}
  peek(): string | undefined {
    return this.s[this.i];
  }
  skipSpace(): void {
    while (this.s[this.i] === ' ') this.i++;
  }
  eat(text: string): boolean {
    if (!this.s.startsWith(text, this.i)) return false;
    this.i += text.length;
    return true;
  }
}

/** A quoted string from `"`; its text up to the closing quote (backslash escapes kept), then `...` if cut. */
function readString(r: Line): Arg | undefined {
  if (!r.eat('"')) return undefined;
  const start = r.i;
  while (r.i < r.s.length && r.s[r.i] !== '"') r.i += r.s[r.i] === '\\' ? 2 : 1;
  if (r.i >= r.s.length) return undefined;
  const value = decodeEscaped(r.s.slice(start, r.i));
  r.i++;
  const truncated = r.eat('...');
  return value === undefined ? undefined : { kind: 'string', value, truncated };
}

/**
 * `<…>` after a descriptor: the path, decoded, when it is one (`/…`); other decorations (pipe:[…]) give none.
 * strace 6 prints the kernel's ` (deleted)` mark of a file unlinked while open outside the brackets, as
 * `<PATH>(deleted)`; with -xx every byte inside them is an escape (a name ending in " (deleted)" is
 * `\x20\x28…\x29`), so the mark after `>` is strace's own and never part of a path.
 */
function readDecoration(r: Line): { path?: string; deleted?: true } | null {
  if (!r.eat('<')) return null;
  const end = r.s.indexOf('>', r.i);
  if (end < 0) return {};
  const text = r.s.slice(r.i, end);
  r.i = end + 1;
  if (r.eat('(deleted)')) return { deleted: true };
  const decoded = decodeEscaped(text);
  return decoded?.startsWith('/') ? { path: decoded } : {};
}

/** Raw text up to the next `,` or closing bracket at this depth (structures and comments skipped whole). */
function readOther(r: Line): string {
  const start = r.i;
  let depth = 0;
  while (r.i < r.s.length) {
    const c = r.s[r.i]!;
    if (c === '"') {
      readString(r);
      continue;
    }
    if (r.s.startsWith('/*', r.i)) {
      const end = r.s.indexOf('*/', r.i + 2);
      r.i = end < 0 ? r.s.length : end + 2;
      continue;
    }
    if (c === '{' || c === '[' || c === '(') depth++;
    else if (c === '}' || c === ']' || c === ')') {
      if (depth === 0) break;
      depth--;
    } else if (c === ',' && depth === 0) break;
    r.i++;
  }
  return r.s.slice(start, r.i).trim();
}

function readArg(r: Line): Arg | undefined {
  r.skipSpace();
  const c = r.peek();
  if (c === '"') return readString(r);
  if (c === '[') {
    r.i++;
    const items: Arg[] = [];
    r.skipSpace();
    if (r.eat(']')) return { kind: 'array', items };
    for (;;) {
      const a = readArg(r);
      if (!a) return undefined;
      items.push(a);
      r.skipSpace();
      if (r.eat(']')) return { kind: 'array', items };
      if (!r.eat(',')) return undefined;
    }
  }
  // A descriptor with its path: `3</etc/passwd>`, `AT_FDCWD</home/u>`.
  const m = /^(AT_FDCWD|-?\d+)</.exec(r.s.slice(r.i, r.i + 24));
  if (m) {
    r.i += m[1]!.length;
    const d = readDecoration(r);
    return { kind: 'fd', text: m[1]!, ...(d?.path ? { path: d.path } : {}), ...(d?.deleted ? { deleted: true as const } : {}) };
  }
  const text = readOther(r);
  return { kind: 'other', text };
}

/**
 * One line of a per-process strace file, or undefined when it is not a
 * finished call (a signal, an exit notice, an unfinished call: these
 * carry no access that succeeded).
 */
export function parseLine(line: string): Call | undefined {
  const m = /^([a-z_][a-z0-9_]*)\(/.exec(line);
  if (!m) return undefined;
  const r = new Line(line);
  r.i = m[0].length;
  const args: Arg[] = [];
  r.skipSpace();
  if (!r.eat(')')) {
    for (;;) {
      const a = readArg(r);
      if (!a) return undefined;
      args.push(a);
      r.skipSpace();
      if (r.eat(')')) break;
      if (!r.eat(',')) return undefined;
    }
  }
  r.skipSpace();
  if (!r.eat('=')) return { name: m[1]!, args, result: { kind: 'unknown' } };
  r.skipSpace();
  const rest = r.s.slice(r.i);
  const err = /^-1 ([A-Z][A-Z0-9]*)\b/.exec(rest);
  if (err) return { name: m[1]!, args, result: { kind: 'error', errno: err[1]! } };
  const num = /^(-?\d+|0x[0-9a-f]+)/.exec(rest);
  if (!num) return { name: m[1]!, args, result: { kind: 'unknown' } };
  r.i += num[1]!.length;
  const d = readDecoration(r);
  const value = Number(num[1]);
  const pid = /^ \/\* (\d+) in strace's PID NS \*\//.exec(r.s.slice(r.i));
  return {
    name: m[1]!,
    args,
    result: {
      kind: 'ok',
      value,
      ...(d?.path ? { path: d.path } : {}),
      ...(d?.deleted ? { deleted: true as const } : {}),
      ...(pid ? { hostPid: Number(pid[1]) } : {}),
    },
  };
}

/** Every finished call of one process's strace file, in order, and how many call lines could not be read. */
export function parseTrace(text: string): { readonly calls: Call[]; readonly unread: number } {
  const calls: Call[] = [];
  let unread = 0;
  for (const line of text.split('\n')) {
    const call = parseLine(line);
    if (call) calls.push(call);
    else if (/^[a-z_][a-z0-9_]*\(/.test(line) && !line.endsWith('<unfinished ...>')) unread++;
  }
  return { calls, unread };
}
