import type { Diagnostic } from '../diagnostic.js';
import { PLATFORMS } from '../diagnostic.js';
import type { JsonValue } from '../json/ast.js';
import { parseJson } from '../json/index.js';
import type { Span } from '../span.js';
import type { TomlTable } from '../toml/ast.js';
import { parseToml } from '../toml/index.js';
import { peerBeforeParse, peerOfDocument, type PeerFile } from './peers.js';
import { isProjectFilePath } from './project-name.js';
import type { Dialect } from './validate.js';

const boxKeys = ['agent', 'tools', 'mcp_servers', 'experimental-features'];
const tybaKeys = ['sandbox'];
/** Every top-level key that makes a TOML file a sandbox config of one dialect or the other. */
export const dialectKeys: readonly string[] = [...boxKeys, ...tybaKeys];

/** Top-level keys of sandbox-runtime settings (SandboxRuntimeConfigSchema requires both). */
const srtKeys = ['filesystem', 'network'];
/** Top-level keys of Claude Code settings that carry the sandbox: the block and the permission rules it takes paths from. */
const claudeKeys = ['sandbox', 'permissions'];
/** Every top-level key that makes a JSON file a sandbox config. */
export const jsonDialectKeys: readonly string[] = [...srtKeys, ...claudeKeys];

/** A parsed config in either syntax. */
export type ConfigDocument =
  | { readonly syntax: 'toml'; readonly table: TomlTable }
  | { readonly syntax: 'json'; readonly value: JsonValue };

export type DialectResult = { readonly dialect: Dialect } | { readonly diagnostic: Diagnostic };

/**
 * Whether a file is read as JSON: a JSON dialect asked for, a `.json`
 * name, or text whose first character is `{` (which no TOML document
 * starts with). Everything else is TOML.
 */
export function isJsonText(text: string, file: string, override?: Dialect): boolean {
  if (override) return override === 'srt' || override === 'claude';
  if (/\.json$/i.test(file)) return true;
  return /^\uFEFF?[ \t\r\n]*\{/.test(text);
}

/**
 * A Claude Code settings file by its place: `.claude/settings.json`,
 * `.claude/settings.local.json`, or `managed-settings.json` (the managed
 * policy file). Such a file is Claude Code's whatever keys it holds.
 */
export function isClaudeSettingsPath(file: string): boolean {
  const f = file.replace(/\\/g, '/');
  return /(^|\/)\.claude\/settings(\.local)?\.json$/.test(f) || /(^|\/)managed-settings\.json$/.test(f);
}

/** Which kind of Claude Code settings file a path is: what decides which keys it may set. */
export function claudeSettingsScope(file: string): 'managed' | 'project' | 'local' | 'user-or-other' {
  const f = file.replace(/\\/g, '/');
  if (/(^|\/)managed-settings\.json$/.test(f)) return 'managed';
  if (/(^|\/)\.claude\/settings\.local\.json$/.test(f)) return 'local';
  if (/(^|\/)\.claude\/settings\.json$/.test(f)) return 'project';
  return 'user-or-other';
}

const start = { offset: 0, line: 1, column: 1 };
const nowhere: Span = { start, end: start };

/**
 * The dialect of a parsed config, from its top-level keys (and, for Claude
 * Code, its path): a TOML file is Box (`agent`, `tools`, `mcp_servers`,
 * `experimental-features`) or TYBA (`[sandbox]`); a JSON file is
 * sandbox-runtime settings (`filesystem`, `network`) or Claude Code
 * settings (`sandbox`, `permissions`, or a `.claude/settings*.json` path).
 * A config that is two dialects, or none, is an error that says so
 * (`--dialect` overrides). A pure function of the document and the name:
 * what lint's file discovery and the diff gate call to tell configs apart.
 */
export function detectDialect(doc: ConfigDocument | TomlTable, file: string, override?: Dialect): DialectResult {
  if (override) return { dialect: override };
  const d: ConfigDocument = 'syntax' in doc ? doc : { syntax: 'toml', table: doc };
  const base = { ruleId: 'schema', severity: 'error' as const, platforms: PLATFORMS, file };
  if (d.syntax === 'json') return detectJson(d.value, file, base);
  const entries = [...d.table.entries.values()];
  const box = entries.filter((e) => boxKeys.includes(e.key));
  const tyba = entries.filter((e) => tybaKeys.includes(e.key));
  if (box.length && tyba.length) {
    return {
      diagnostic: {
        ...base,
        message:
          `both dialects in one file: \`${tyba[0]!.key}\` is a TYBA user config, \`${box[0]!.key}\` is a Box ` +
          `config; split the file, or pass --dialect box|tyba`,
        span: tyba[0]!.keySpan,
        related: [{ message: `Box key \`${box[0]!.key}\``, span: box[0]!.keySpan }],
      },
    };
  }
  if (box.length) return { dialect: 'box' };
  if (tyba.length) return { dialect: 'tyba' };
  return {
    diagnostic: {
      ...base,
      message:
        'not a sandbox configuration: a Box config has `agent`, `tools`, `mcp_servers` or `experimental-features`, ' +
        'a TYBA user config has `[sandbox]`; pass --dialect box|tyba to check it anyway',
      span: nowhere,
    },
  };
}

function detectJson(value: JsonValue, file: string, base: Pick<Diagnostic, 'ruleId' | 'severity' | 'platforms' | 'file'>): DialectResult {
  if (value.kind !== 'object')
    return {
      diagnostic: {
        ...base,
        message: `a settings file holds a JSON object, not ${value.kind === 'array' ? 'an array' : `a ${value.kind}`}`,
        span: value.span,
      },
    };
  if (isClaudeSettingsPath(file)) return { dialect: 'claude' };
  const members = [...value.members.values()];
  const srt = members.filter((m) => srtKeys.includes(m.key));
  const claude = members.filter((m) => claudeKeys.includes(m.key));
  if (srt.length && claude.length) {
    return {
      diagnostic: {
        ...base,
        message:
          `both dialects in one file: \`${claude[0]!.key}\` is Claude Code's, \`${srt[0]!.key}\` is sandbox-runtime's ` +
          `(top level); Claude Code's sandbox settings go under \`sandbox\`; split the file, or pass --dialect srt|claude`,
        span: claude[0]!.keySpan,
        related: [{ message: `sandbox-runtime key \`${srt[0]!.key}\``, span: srt[0]!.keySpan }],
      },
    };
  }
  if (srt.length) return { dialect: 'srt' };
  if (claude.length) return { dialect: 'claude' };
  return {
    diagnostic: {
      ...base,
      message:
        'not a sandbox configuration: sandbox-runtime settings have `filesystem` and `network`, Claude Code ' +
        'settings have `sandbox` or `permissions` (or live at .claude/settings.json); pass --dialect srt|claude ' +
        'to check it anyway',
      span: nowhere,
    },
  };
}

/**
 * A table header or dotted key that only a sandbox config starts a line
 * with: how a TOML file that does not parse is told apart from someone
 * else's broken file (a config with a syntax error is still reported).
 */
const tomlConfigLine = /^[ \t]*(\[\[?[ \t]*)?("?)(agent|tools|mcp_servers|experimental-features|sandbox)\2[ \t]*[.\]=]/m;
/** A member name of a JSON dialect at the start of a line: a broken settings file is still one. */
const jsonConfigLine = /^[ \t{]*"(filesystem|network|sandbox|permissions)"[ \t]*:/m;

/**
 * Whether a file is a sandbox config, by content (and, for Claude Code,
 * its path): a top-level key of a dialect (the keys the detection reads).
 * `pyproject.toml`, `package.json`, `tsconfig.json` have none. A file that
 * does not parse counts when a line of it reads like a config's. What
 * `lint --only-configs` (the pre-commit hook) and `diff --git REV` use to
 * pass over a repository's other TOML and JSON.
 */
export function isSandboxConfigFile(bytes: Uint8Array, file = ''): boolean {
  const kind = sandboxConfigKind(bytes, file);
  return 'config' in kind && kind.config;
}

/**
 * What a file is to the pre-commit mode, with one parse: a peer's own file
 * (compiler/schema/peers.ts: never one of boxwright's dialects, whatever
 * keys it shares, issue 36), or whether it is a sandbox config.
 */
export function sandboxConfigKind(bytes: Uint8Array, file = ''): { readonly peer: PeerFile } | { readonly config: boolean } {
  // boxwright's own project file (issue 40) is no config of any dialect, whatever keys it holds: lint reads it as what it is.
  if (isProjectFilePath(file)) return { config: false };
  const text = Buffer.from(bytes).toString('utf8');
  const before = peerBeforeParse(text, file);
  // Codex's config.toml is a dialect of boxwright's now (issue 39): checked, not passed over.
  if (before?.format === 'codex' || before?.format === 'cursor') return { config: true };
  // VS Code settings are a sandbox config where they hold its agent sandbox settings (issue 39).
  if (before?.format === 'vscode' && /"chat\.agent\.sandbox\./.test(text)) return { config: true };
  if (before) return { peer: before };
  if (isJsonText(text, file)) {
    if (isClaudeSettingsPath(file)) return { config: true };
    const parsed = parseJson(bytes);
    if (!parsed.document) return { config: jsonConfigLine.test(parsed.text) };
    const peer = peerOfDocument({ syntax: 'json', value: parsed.document });
    if (peer?.format === 'cursor') return { config: true };
    if (peer) return { peer };
    // An object under the key: a browser extension's `"permissions": [...]` is no Claude Code setting.
    return {
      config:
        parsed.document.kind === 'object' &&
        [...parsed.document.members.values()].some((m) => jsonDialectKeys.includes(m.key) && m.value.kind === 'object'),
    };
  }
  const parsed = parseToml(bytes);
  if (!parsed.document) return { config: tomlConfigLine.test(parsed.text) };
  const peer = peerOfDocument({ syntax: 'toml', table: parsed.document });
  if (peer?.format === 'codex') return { config: true };
  if (peer) return { peer };
  return { config: [...parsed.document.entries.keys()].some((k) => dialectKeys.includes(k)) };
}
