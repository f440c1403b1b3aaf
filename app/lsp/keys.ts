/**
 * The keys of each dialect as a tree, for the language server's hover (a
 * key's description) and completion (the keys a table takes). Made from the
 * schemas boxwright validates with, never written twice: the Box and TYBA
 * JSON Schemas (compiler/schema/schemas.ts), the sandbox-runtime and Claude
 * Code specs (compiler/schema/settings-spec.ts), and the key lists the
 * Codex, Cursor and VS Code checks read (those have names, no descriptions).
 */
import { boxSchema, type JsonSchema, tybaSchema } from '../../compiler/schema/schemas.js';
import { claudeSpec, type Field, type Spec, srtSpec } from '../../compiler/schema/settings-spec.js';
import { networkKeys, profileKeys, windowsKeys, workspaceWriteKeys } from '../../compiler/schema/codex.js';
import type { Dialect } from '../../compiler/schema/validate.js';
import { cursorKeys, vscodeKeys } from '../check-peers.js';

export interface KeyNode {
  /** What the key means, in Markdown (the schema's description); absent where the schema gives none. */
  readonly doc?: string;
  /** Whether its value is a table (an object): what a TOML `[header]` may name. */
  readonly table: boolean;
  /** The keys it takes by name, in the schema's order. */
  readonly keys: ReadonlyMap<string, KeyNode>;
  /** The value of a key the user names (a tool's name, a permission profile's): its node. */
  readonly named?: KeyNode;
}

const leaf = (doc?: string): KeyNode => ({ ...(doc ? { doc } : {}), table: false, keys: new Map() });

function fromJsonSchema(s: JsonSchema): KeyNode {
  const properties = (s['properties'] ?? {}) as Record<string, JsonSchema>;
  const extra = s['additionalProperties'];
  // A map of user-named tables (tools, mcp_servers); `{ not: { type: 'object' } }` (the host's own keys) names nothing to complete.
  const named = typeof extra === 'object' && extra !== null && (extra as JsonSchema)['type'] === 'object';
  const description = s['description'];
  return {
    ...(typeof description === 'string' ? { doc: description } : {}),
    table: s['type'] === 'object',
    keys: new Map(Object.entries(properties).map(([k, v]) => [k, fromJsonSchema(v)])),
    ...(named ? { named: fromJsonSchema(extra as JsonSchema) } : {}),
  };
}

function fromSpec(s: Spec | Field): KeyNode {
  const doc = 'doc' in s ? s.doc : undefined;
  if (s.type === 'object')
    return { ...(doc ? { doc } : {}), table: true, keys: new Map(Object.entries(s.keys).map(([k, v]) => [k, fromSpec(v)])) };
  if (s.type === 'record') return { ...(doc ? { doc } : {}), table: true, keys: new Map(), named: fromSpec(s.values) };
  return leaf(doc);
}

/** A tree of names only: `{ key: subtree }`, `'*'` for a user-named key, `null` for a leaf. */
export type KeyShape = { readonly [key: string]: KeyShape | null };

function fromShape(shape: KeyShape): KeyNode {
  const keys = Object.entries(shape).filter(([k]) => k !== '*');
  const named = shape['*'];
  return {
    table: true,
    keys: new Map(keys.map(([k, v]) => [k, v === null ? leaf() : fromShape(v)])),
    ...(named ? { named: fromShape(named) } : {}),
  };
}

const names = (keys: readonly string[]): KeyShape => Object.fromEntries(keys.map((k) => [k, null]));

/** The sandbox's keys of a Codex config, from the lists its check reads (compiler/schema/codex.ts): `*` is a profile's name. */
const codexKeys = (): KeyShape => ({
  sandbox_mode: null,
  default_permissions: null,
  sandbox_workspace_write: names(workspaceWriteKeys),
  permissions: {
    '*': { ...names(profileKeys), filesystem: {}, network: { ...names(networkKeys), domains: {}, unix_sockets: {} }, workspace_roots: {} },
  },
  features: { network_proxy: null },
  windows: names(windowsKeys),
});

/** Both trees' keys in one (what a file of no dialect yet is offered: either may be what it becomes). */
function merged(a: KeyNode, b: KeyNode, doc: string): KeyNode {
  return { doc, table: true, keys: new Map([...a.keys, ...b.keys]) };
}

const trees = new Map<string, KeyNode>();
const once = (name: string, make: () => KeyNode): KeyNode => {
  let t = trees.get(name);
  if (!t) trees.set(name, (t = make()));
  return t;
};

/**
 * The key tree of a dialect; for a file whose dialect is not known yet
 * (a new file, a document that does not parse), `toml` or `json`: the keys
 * of every dialect of that syntax that starts a config.
 */
export function keyTree(dialect: Dialect | 'toml' | 'json'): KeyNode {
  switch (dialect) {
    case 'box':
      return once('box', () => fromJsonSchema(boxSchema));
    case 'tyba':
      return once('tyba', () => fromJsonSchema(tybaSchema));
    case 'srt':
      return once('srt', () => fromSpec(srtSpec));
    case 'claude':
      return once('claude', () => fromSpec(claudeSpec));
    case 'codex':
      return once('codex', () => fromShape(codexKeys()));
    case 'cursor':
      return once('cursor', () => fromShape(names(cursorKeys)));
    case 'vscode':
      return once('vscode', () => fromShape(names(vscodeKeys)));
    case 'toml':
      return once('toml', () => merged(keyTree('box'), keyTree('tyba'), 'A Box config or a TYBA user config.'));
    case 'json':
      return once('json', () => merged(keyTree('srt'), keyTree('claude'), 'sandbox-runtime or Claude Code settings.'));
  }
}

/** The node a key path names (a user-named key takes its map's `named` node), or undefined off the tree. */
export function nodeAt(root: KeyNode, path: readonly string[]): KeyNode | undefined {
  let node: KeyNode | undefined = root;
  for (const key of path) {
    if (!node) return undefined;
    node = node.keys.get(key) ?? node.named;
  }
  return node;
}
