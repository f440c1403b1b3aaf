/**
 * An evaluator of SBPL profiles, written for the tests from Seatbelt's
 * semantics as published (test/macos/README.md cites a source for each
 * point), independent of the emitter: it reads a profile with the tests'
 * own reader (sbpl-reader.ts) and answers, for one operation on one
 * object, whether the profile allows it.
 *
 * - Rules are `(allow|deny OPERATION… FILTER…)`. An operation ending in `*`
 *   names every operation of Apple's table that begins with it (the table:
 *   targets/macos/sbpl-names.json); sbpl_v1.scm's aliases are resolved first
 *   (`process-exec` is `process-exec*`).
 * - Several filters in one rule are alternatives (sbpl_v1.scm wraps them in
 *   `require-any`); `require-all`, `require-any`, `require-not` nest.
 * - For one operation, the last rule with a filter that matches decides;
 *   when none matches, the last rule without a filter for that operation
 *   does, and then `default`. An unfiltered rule placed after a filtered
 *   rule of the other action on the same operation is a case the published
 *   measurements leave open: asking about an object the filtered rule
 *   matches throws (`OrderDependent`) instead of guessing.
 * - Path filters: `literal` (the path itself), `subpath` (the path and
 *   everything below it, at a `/` boundary), `prefix` (a string prefix),
 *   `regex` (a POSIX extended regular expression, of the subset JavaScript
 *   reads alike), `vnode-type`; `(param "NAME")` is the `-D NAME=VALUE` of
 *   sandbox-exec, and a profile that names a parameter nobody passed does
 *   not load.
 * - Other filters: `remote`/`local` (`ip`, `tcp`, `udp` with `host:port`,
 *   `*` and `localhost`; `unix-socket` with a path filter), `extension`,
 *   `target`, `sysctl-name`, `sysctl-name-prefix`, `global-name`,
 *   `iokit-registry-entry-class`, `ipc-posix-name`, `socket-domain`.
 *   Anything else throws: an evaluator that does not know a form must not
 *   guess what it means.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../helpers.js';
import { readSbpl, type Node } from './sbpl-reader.js';

export class SbplEvalError extends Error {}
/** The profile cannot be loaded (sandbox-exec refuses it): an unknown parameter, a bad form. */
export class ProfileLoadError extends SbplEvalError {}
/** The answer depends on a precedence case the sources leave open. */
export class OrderDependent extends SbplEvalError {}

interface Table {
  readonly operations: Readonly<Record<string, unknown>>;
  readonly operationAliases: Readonly<Record<string, { readonly operation: string }>>;
}
const table = JSON.parse(readFileSync(join(repoRoot, 'targets/macos/sbpl-names.json'), 'utf8')) as Table;
/** Apple's operation names (10.12–10.15), and `default`, the fallback of every operation. */
const OPERATIONS: readonly string[] = ['default', ...Object.keys(table.operations)];

/** The concrete operations a name in a rule stands for. */
export function operationsNamed(name: string): string[] {
  const real = table.operationAliases[name]?.operation ?? name;
  if (!OPERATIONS.includes(real)) throw new ProfileLoadError(`unknown operation ${JSON.stringify(name)}`);
  if (!real.endsWith('*')) return [real];
  const stem = real.slice(0, -1);
  return OPERATIONS.filter((op) => op.startsWith(stem));
}

/** The kinds `vnode-type` tells apart. */
export type VnodeType = 'REGULAR-FILE' | 'DIRECTORY' | 'SYMLINK' | 'SOCKET' | 'CHARACTER-DEVICE' | 'BLOCK-DEVICE' | 'FIFO' | 'TTY';

/** What one check is about: the operation and the object's attributes the filters read. */
export interface Query {
  readonly operation: string;
  /** A file operation's object, resolved (no symbolic link on the way), or a unix socket's path. */
  readonly path?: string;
  readonly vnode?: VnodeType;
  /** A network operation's peer. */
  readonly remote?:
    | { readonly kind: 'ip'; readonly protocol: 'tcp' | 'udp'; readonly host: string; readonly port: number }
    | { readonly kind: 'unix' };
  /** Sandbox extensions the process holds (`com.apple.sandbox.pty` for a pty it opened). */
  readonly extensions?: readonly string[];
  readonly sysctl?: string;
  readonly globalName?: string;
  readonly target?: 'same-sandbox' | 'self' | 'other';
  readonly iokitClass?: string;
  readonly ipcPosixName?: string;
  readonly socketDomain?: string;
}

type Filter =
  | { readonly kind: 'any' | 'all'; readonly of: readonly Filter[] }
  | { readonly kind: 'not'; readonly of: Filter }
  | { readonly kind: 'literal' | 'subpath' | 'prefix'; readonly path: string }
  | { readonly kind: 'regex'; readonly re: RegExp }
  | { readonly kind: 'vnode'; readonly type: string }
  | { readonly kind: 'remote'; readonly protocol: string; readonly host: string; readonly port: string }
  | { readonly kind: 'remote-unix'; readonly path: Filter }
  | {
      readonly kind: 'string';
      readonly field: 'extension' | 'sysctl' | 'globalName' | 'iokitClass' | 'ipcPosixName';
      readonly value: string;
    }
  | { readonly kind: 'sysctl-prefix'; readonly value: string }
  | { readonly kind: 'symbol'; readonly field: 'target' | 'socketDomain'; readonly value: string };

interface Rule {
  readonly action: 'allow' | 'deny';
  readonly operations: ReadonlySet<string>;
  readonly filter: Filter | null;
  readonly line: number;
}

const PATH_FILTERS: Readonly<Record<string, 'literal' | 'subpath' | 'prefix' | 'regex'>> = {
  literal: 'literal',
  path: 'literal',
  subpath: 'subpath',
  prefix: 'prefix',
  'path-prefix': 'prefix',
  regex: 'regex',
  'path-regex': 'regex',
};
const STRING_FILTERS: Readonly<Record<string, 'extension' | 'sysctl' | 'globalName' | 'iokitClass' | 'ipcPosixName'>> = {
  extension: 'extension',
  'sysctl-name': 'sysctl',
  'global-name': 'globalName',
  'iokit-registry-entry-class': 'iokitClass',
  'iokit-user-client-class': 'iokitClass',
  'ipc-posix-name': 'ipcPosixName',
};

/**
 * A POSIX ERE as a JavaScript RegExp, for the subset both read alike:
 * literal characters, `\` escapes of punctuation, `.`, bracket
 * expressions without classes (`[0-9]`, `[^/]`), `* + ?`, `{m,n}`, `^ $`,
 * groups and `|`. Anything else is refused.
 */
function ereToRegExp(source: string): RegExp {
  if (/\[\[:|\\[a-zA-Z0-9]|\(\?/.test(source))
    throw new ProfileLoadError(
      `regex ${JSON.stringify(source)} uses a construct this evaluator does not read (character classes, \\letter escapes, (?…))`,
    );
  try {
    return new RegExp(source, 'u');
  } catch (e) {
    throw new ProfileLoadError(`regex ${JSON.stringify(source)}: ${(e as Error).message}`);
  }
}

export class SbplProfile {
  private readonly rules: Rule[] = [];

  /** `params`: the `-D NAME=VALUE` pairs sandbox-exec is run with. */
  constructor(
    text: string,
    private readonly params: Readonly<Record<string, string>> = {},
  ) {
    const { forms } = readSbpl(text);
    let version = false;
    for (const form of forms) {
      const [head, ...rest] = form.items;
      if (head?.type !== 'symbol') throw new ProfileLoadError(`line ${form.line}: a form must start with a name`);
      if (head.value === 'version') {
        const n = rest[0];
        if (version || rest.length !== 1 || n?.type !== 'symbol' || n.value !== '1')
          throw new ProfileLoadError(`line ${form.line}: only one (version 1)`);
        version = true;
        continue;
      }
      if (head.value !== 'allow' && head.value !== 'deny') throw new ProfileLoadError(`line ${form.line}: unknown form ${head.value}`);
      if (!version) throw new ProfileLoadError(`line ${form.line}: a rule before (version 1)`);
      const operations = new Set<string>();
      const filters: Filter[] = [];
      for (const item of rest) {
        if (item.type === 'symbol') for (const op of operationsNamed(item.value)) operations.add(op);
        else if (item.type === 'list') filters.push(this.filter(item, form.line));
        else throw new ProfileLoadError(`line ${form.line}: unexpected ${item.type} in a rule`);
      }
      if (!operations.size) throw new ProfileLoadError(`line ${form.line}: a rule names no operation`);
      // `default` is every operation's last fallback: a profile states it first (as Apple's and the peers' do).
      if (operations.has('default') && (filters.length || this.rules.length))
        throw new ProfileLoadError(`line ${form.line}: default takes no filter and comes before every other rule`);
      this.rules.push({
        action: head.value,
        operations,
        filter: filters.length === 0 ? null : filters.length === 1 ? filters[0]! : { kind: 'any', of: filters },
        line: form.line,
      });
    }
    if (!version) throw new ProfileLoadError('no (version 1)');
  }

  /** A string argument: a literal, or `(param "NAME")`. */
  private string(node: Node | undefined, line: number): string {
    if (node?.type === 'string') return node.value;
    if (
      node?.type === 'list' &&
      node.items[0]?.type === 'symbol' &&
      node.items[0].value === 'param' &&
      node.items[1]?.type === 'string' &&
      node.items.length === 2
    ) {
      const name = node.items[1].value;
      const value = this.params[name];
      // sbpl_prelude.scm: param is #f when undefined, and a path filter of #f is an error.
      if (value === undefined)
        throw new ProfileLoadError(`line ${line}: (param ${JSON.stringify(name)}) was not passed (sandbox-exec -D ${name}=…)`);
      return value;
    }
    throw new ProfileLoadError(`line ${line}: expected a string or (param "NAME")`);
  }

  private filter(node: Node, line: number): Filter {
    if (node.type !== 'list' || node.items[0]?.type !== 'symbol')
      throw new ProfileLoadError(`line ${line}: a filter must be a list headed by a name`);
    const [head, ...args] = node.items as [Node & { type: 'symbol' }, ...Node[]];
    const name = head.value;
    const one = (): Node => {
      if (args.length !== 1) throw new ProfileLoadError(`line ${line}: ${name} takes one argument`);
      return args[0]!;
    };
    if (name === 'require-all' || name === 'require-any')
      return { kind: name === 'require-all' ? 'all' : 'any', of: args.map((a) => this.filter(a, line)) };
    if (name === 'require-not') return { kind: 'not', of: this.filter(one(), line) };
    const pathKind = PATH_FILTERS[name];
    if (pathKind === 'regex') {
      const a = one();
      if (a.type !== 'regex') throw new ProfileLoadError(`line ${line}: regex takes a #"…" literal`);
      return { kind: 'regex', re: ereToRegExp(a.value) };
    }
    if (pathKind) return { kind: pathKind, path: this.string(one(), line) };
    if (name === 'vnode-type') {
      const a = one();
      if (a.type !== 'symbol') throw new ProfileLoadError(`line ${line}: vnode-type takes a symbol`);
      return { kind: 'vnode', type: a.value };
    }
    const field = STRING_FILTERS[name];
    if (field) return { kind: 'string', field, value: this.string(one(), line) };
    if (name === 'sysctl-name-prefix') return { kind: 'sysctl-prefix', value: this.string(one(), line) };
    if (name === 'target' || name === 'socket-domain') {
      const a = one();
      if (a.type !== 'symbol') throw new ProfileLoadError(`line ${line}: ${name} takes a symbol`);
      return { kind: 'symbol', field: name === 'target' ? 'target' : 'socketDomain', value: a.value };
    }
    if (name === 'remote') {
      const [protocol, endpoint] = args;
      if (protocol?.type !== 'symbol') throw new ProfileLoadError(`line ${line}: remote takes a protocol`);
      if (protocol.value === 'unix-socket' || protocol.value === 'unix') {
        if (args.length !== 2 || !endpoint) throw new ProfileLoadError(`line ${line}: remote unix-socket takes a path filter`);
        // sbpl_v1.scm: path-literal is an alias of path (literal).
        const inner =
          endpoint.type === 'list' && endpoint.items[0]?.type === 'symbol' && endpoint.items[0].value === 'path-literal'
            ? { ...endpoint, items: [{ type: 'symbol' as const, value: 'literal', line }, ...endpoint.items.slice(1)] }
            : endpoint;
        return { kind: 'remote-unix', path: this.filter(inner, line) };
      }
      if (!['ip', 'ip4', 'ip6', 'tcp', 'tcp4', 'tcp6', 'udp', 'udp4', 'udp6'].includes(protocol.value))
        throw new ProfileLoadError(`line ${line}: unknown remote protocol ${protocol.value}`);
      // Without an address, any peer of that protocol.
      const address = args.length === 1 ? '*:*' : this.string(endpoint, line);
      const m = /^(\*|localhost):(\*|[0-9]+)$/.exec(address);
      if (args.length > 2 || !m)
        throw new ProfileLoadError(`line ${line}: remote ${protocol.value} takes "host:port" with host * or localhost`);
      return { kind: 'remote', protocol: protocol.value, host: m[1]!, port: m[2]! };
    }
    throw new ProfileLoadError(`line ${line}: this evaluator does not know the filter ${name}`);
  }

  private matches(f: Filter, q: Query): boolean {
    switch (f.kind) {
      case 'any':
        return f.of.some((x) => this.matches(x, q));
      case 'all':
        return f.of.every((x) => this.matches(x, q));
      case 'not':
        return !this.matches(f.of, q);
      case 'literal':
        return q.path !== undefined && q.path === f.path;
      case 'subpath': {
        if (q.path === undefined) return false;
        const root = f.path.length > 1 ? f.path.replace(/\/+$/, '') : f.path;
        return q.path === root || q.path.startsWith(root === '/' ? '/' : `${root}/`);
      }
      case 'prefix':
        return q.path?.startsWith(f.path) === true;
      case 'regex':
        return q.path !== undefined && f.re.test(q.path);
      case 'vnode':
        return q.vnode === f.type;
      case 'remote': {
        const r = q.remote;
        if (r?.kind !== 'ip') return false;
        const proto = f.protocol.replace(/[46]$/, '');
        if (proto !== 'ip' && proto !== r.protocol) return false;
        // `localhost` is the loopback address.
        if (f.host === 'localhost' && r.host !== 'localhost') return false;
        return f.port === '*' || Number(f.port) === r.port;
      }
      case 'remote-unix':
        return q.remote?.kind === 'unix' && this.matches(f.path, q);
      case 'string':
        return f.field === 'extension' ? (q.extensions ?? []).includes(f.value) : q[f.field] === f.value;
      case 'sysctl-prefix':
        return q.sysctl?.startsWith(f.value) === true;
      case 'symbol':
        return q[f.field] === f.value;
    }
  }

  /** Whether the profile allows the query. */
  allows(q: Query): boolean {
    return this.decide(q).action === 'allow';
  }

  /** The deciding rule's action, and its line (0: no rule, the implicit allow of a profile without default). */
  decide(q: Query): { action: 'allow' | 'deny'; line: number } {
    // The operation checked: an alias resolved, never expanded (exec is checked as process-exec* itself).
    const op = table.operationAliases[q.operation]?.operation ?? q.operation;
    if (!OPERATIONS.includes(op) || op === 'default') throw new SbplEvalError(`not an operation to ask about: ${q.operation}`);
    const relevant = this.rules.filter((r) => r.operations.has(op) || r.operations.has('default'));
    const own = relevant.filter((r) => r.operations.has(op));
    // The fallback: the last unfiltered rule naming the operation, else the last `default`.
    const unfiltered = own.filter((r) => !r.filter);
    const fallback = unfiltered.at(-1) ?? relevant.filter((r) => r.operations.has('default') && !r.filter).at(-1);
    for (let i = own.length - 1; i >= 0; i--) {
      const r = own[i]!;
      if (!r.filter || !this.matches(r.filter, q)) continue;
      const later = unfiltered.find((u) => u.line > r.line && u.action !== r.action);
      if (later)
        throw new OrderDependent(
          `${op}: the unfiltered ${later.action} on line ${later.line} follows the matching filtered ${r.action} on line ${r.line}`,
        );
      return { action: r.action, line: r.line };
    }
    return fallback ? { action: fallback.action, line: fallback.line } : { action: 'allow', line: 0 };
  }
}
