/**
 * Other agents' own config files, which boxwright has no dialect for yet:
 * Codex's `config.toml`, Cursor's `sandbox.json`, VS Code's settings and
 * macOS Seatbelt profiles (Gemini CLI's `.gemini/sandbox-macos-*.sb`).
 * They are TOML and JSON like boxwright's dialects, and some share their
 * key names (Codex has `mcp_servers` and `tools` as Box has), so each is
 * recognized first, by its place or by keys no dialect of boxwright has,
 * and is never read as a Box, TYBA, sandbox-runtime or Claude Code config
 * (issue 36): lint passes it over with a note, or refuses it when named.
 */
import type { JsonValue } from '../json/ast.js';
import { parseJson } from '../json/index.js';
import type { TomlTable, TomlValue } from '../toml/ast.js';
import { parseToml } from '../toml/index.js';

export type PeerFormat = 'codex' | 'cursor' | 'vscode' | 'seatbelt';

export interface PeerFile {
  readonly format: PeerFormat;
  /** What the file is, in words: the subject of lint's note and of its refusal. */
  readonly what: string;
}

const what: Record<PeerFormat, string> = {
  codex: 'a Codex config (config.toml)',
  cursor: "Cursor's sandbox.json",
  vscode: 'VS Code settings',
  seatbelt: 'a macOS Seatbelt profile (.sb, as Gemini CLI uses)',
};

const peer = (format: PeerFormat): PeerFile => ({ format, what: what[format] });

/**
 * Top-level keys of Codex's config.toml (codex-rs `ConfigToml`, its
 * config.schema.json) that no boxwright dialect has, and that a host
 * product's own keys beside a TYBA `[sandbox]` are unlikely to be: generic
 * Codex keys (`model`, `history`, `tui`, `features`, `notify`) are left out.
 */
const codexKeys: ReadonlySet<string> = new Set([
  'approval_policy',
  'approvals_reviewer',
  'sandbox_mode',
  'sandbox_workspace_write',
  'model_provider',
  'model_providers',
  'model_reasoning_effort',
  'model_reasoning_summary',
  'model_verbosity',
  'model_context_window',
  'model_auto_compact_token_limit',
  'profiles',
  'agents',
  'shell_environment_policy',
  'default_permissions',
  'developer_instructions',
  'hide_agent_reasoning',
  'show_raw_agent_reasoning',
  'mcp_oauth_credentials_store',
  'cli_auth_credentials_store',
  'chatgpt_base_url',
  'forced_login_method',
  'project_doc_max_bytes',
  'tool_output_token_limit',
  'review_model',
  'experimental_use_unified_exec_tool',
]);

/**
 * Keys of one Codex MCP server (`RawMcpServerConfig`) that a Box server
 * never has: a Box server passes over other scalar keys but refuses any
 * table (`env`, `http_headers`), and has no remote `url`.
 */
const codexServerKeys: ReadonlySet<string> = new Set([
  'env',
  'env_vars',
  'url',
  'bearer_token_env_var',
  'http_headers',
  'env_http_headers',
  'startup_timeout_sec',
  'startup_timeout_ms',
  'tool_timeout_sec',
  'enabled_tools',
  'disabled_tools',
]);

/** Top-level keys of Cursor's sandbox.json (cursor.com/docs/reference/sandbox); none is a key of srt or Claude Code settings. */
const cursorKeys: ReadonlySet<string> = new Set([
  'additionalReadwritePaths',
  'additionalReadonlyPaths',
  'additionalReadPaths',
  'disableTmpWrite',
  'enableSharedBuildCache',
  'networkPolicy',
  'readBoundary',
]);
const cursorTypes: ReadonlySet<string> = new Set(['workspace_readwrite', 'workspace_readonly', 'insecure_none']);

/** Box's own keys: where one is, the file is a Box config whatever else it holds (its errors are then Box's). */
const boxOwnKeys = ['agent', 'experimental-features'];
const boxPrincipalKeys = ['filesystem', 'contain_egress'];

/** A Seatbelt profile's first form, after comments and blank lines: `(version 1)`. */
const seatbeltStart = /^\uFEFF?(?:[ \t\r\n]|;[^\n]*\n)*\(version[ \t]+1[ \t]*\)/;

function byPath(file: string): PeerFormat | undefined {
  const f = file.replace(/\\/g, '/');
  if (/(^|\/)\.codex\/config\.toml$/.test(f)) return 'codex';
  if (/(^|\/)\.cursor\/sandbox\.json$/.test(f)) return 'cursor';
  if (/(^|\/)\.vscode\/settings\.json$/.test(f)) return 'vscode';
  if (/\.sb$/i.test(f)) return 'seatbelt';
  return undefined;
}

const isTable = (v: TomlValue | undefined): v is TomlTable => v?.kind === 'table';

/** A Codex config by its keys: a Codex-only top-level key, a Codex-shaped MCP server, or Codex's `[tools]` switches; never beside Box's own keys. */
function isCodexTable(table: TomlTable): boolean {
  const keys = [...table.entries.keys()];
  if (keys.some((k) => boxOwnKeys.includes(k))) return false;
  const principals = ['tools', 'mcp_servers'].flatMap((k) => {
    const t = table.entries.get(k)?.value;
    return isTable(t) ? [...t.entries.values()].map((e) => e.value) : [];
  });
  if (principals.some((p) => isTable(p) && boxPrincipalKeys.some((k) => p.entries.has(k)))) return false;
  if (keys.some((k) => codexKeys.has(k))) return true;
  const servers = table.entries.get('mcp_servers')?.value;
  if (
    isTable(servers) &&
    [...servers.entries.values()].some((s) => isTable(s.value) && [...s.value.entries.keys()].some((k) => codexServerKeys.has(k)))
  )
    return true;
  // Codex's `[tools]` holds switches (`web_search = true`); Box's holds one table per tool.
  const tools = table.entries.get('tools')?.value;
  return isTable(tools) && [...tools.entries.values()].some((e) => e.value.kind === 'boolean');
}

function isCursorObject(value: JsonValue): boolean {
  if (value.kind !== 'object') return false;
  return [...value.members.values()].some(
    (m) => cursorKeys.has(m.key) || (m.key === 'type' && m.value.kind === 'string' && cursorTypes.has(m.value.value)),
  );
}

/**
 * A peer's file by what needs no parse: its place (`.codex/config.toml`,
 * `.cursor/sandbox.json`, `.vscode/settings.json`, a `.sb` name) or a
 * Seatbelt profile's `(version 1)` start. A file at a peer's place is the
 * peer's whatever it holds, broken or not.
 */
export function peerBeforeParse(text: string, file: string): PeerFile | undefined {
  const placed = byPath(file);
  if (placed) return peer(placed);
  return seatbeltStart.test(text.slice(0, 4096)) ? peer('seatbelt') : undefined;
}

/** A peer's file by its parsed keys: Codex's in a TOML document, Cursor's in a JSON one (the caller's one parse). */
export function peerOfDocument(
  doc: { readonly syntax: 'toml'; readonly table: TomlTable } | { readonly syntax: 'json'; readonly value: JsonValue },
): PeerFile | undefined {
  if (doc.syntax === 'toml') return isCodexTable(doc.table) ? peer('codex') : undefined;
  return isCursorObject(doc.value) ? peer('cursor') : undefined;
}

/**
 * Which peer's file this is, or undefined for anything else (a boxwright
 * dialect's config, or a file nobody's): peerBeforeParse, then Codex's or
 * Cursor's own keys. A pure function of the bytes and the name; it parses
 * the file (callers that parse it anyway use the two steps above).
 */
export function peerFile(bytes: Uint8Array, file = ''): PeerFile | undefined {
  const head = Buffer.from(bytes.subarray(0, 4096)).toString('utf8');
  const before = peerBeforeParse(head, file);
  if (before) return before;
  if (/^\uFEFF?[ \t\r\n]*\{/.test(head) || /\.json$/i.test(file)) {
    const parsed = parseJson(bytes);
    return parsed.document ? peerOfDocument({ syntax: 'json', value: parsed.document }) : undefined;
  }
  const parsed = parseToml(bytes);
  return parsed.document ? peerOfDocument({ syntax: 'toml', table: parsed.document }) : undefined;
}
