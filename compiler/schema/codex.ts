/**
 * Codex's config.toml, the sandbox's part: what Codex 0.171.0 refuses
 * (an error at the value, where Codex itself names the table's header
 * line), and the keys it passes over without a word (a warning with the
 * nearest key it reads: a misspelt `writeable_roots` leaves the extra root
 * read-only). The rest of the file (models, MCP servers, agents, tools) is
 * Codex's business, not the sandbox's: passed over without a finding.
 *
 * Sources (docs/dialects/codex.md): Codex's config reference and
 * permissions page (developers.openai.com/codex), codex-rs's config types,
 * and what `codex sandbox` 0.171.0 says of each value here.
 */
import type { Diagnostic } from '../diagnostic.js';
import { PLATFORMS } from '../diagnostic.js';
import type { Span } from '../span.js';
import type { TomlEntry, TomlTable, TomlValue } from '../toml/ast.js';
import { didYouMean } from './did-you-mean.js';

export const SANDBOX_MODES = ['read-only', 'workspace-write', 'danger-full-access'] as const;
export const BUILTIN_PROFILES = [':read-only', ':workspace', ':danger-full-access'] as const;
export const SPECIAL_PATHS = [':root', ':minimal', ':tmpdir', ':slash_tmp', ':workspace_roots'] as const;
export const ACCESS_VALUES = ['read', 'write', 'none'] as const;

export const workspaceWriteKeys = ['writable_roots', 'network_access', 'exclude_tmpdir_env_var', 'exclude_slash_tmp'];
export const profileKeys = ['extends', 'workspace_roots', 'filesystem', 'network', 'glob_scan_max_depth', 'description'];
export const networkKeys = ['enabled', 'domains', 'unix_sockets', 'mode'];
export const windowsKeys = ['sandbox', 'sandbox_private_desktop'];
/** Top-level keys the sandbox reads: an unknown top-level key is said only when it is one of these misspelt. */
const sandboxTopKeys = ['sandbox_mode', 'sandbox_workspace_write', 'default_permissions', 'permissions', 'features', 'windows'];
/** Top-level keys Codex has beside them (its config reference): never a misspelling of a sandbox key. */
const otherTopKeys = new Set([
  'model',
  'review_model',
  'model_provider',
  'model_providers',
  'projects',
  'approval_policy',
  'approvals_reviewer',
  'mcp_servers',
  'tools',
  'agents',
  'history',
  'tui',
  'notify',
  'hooks',
  'shell_environment_policy',
  'file_opener',
  'otel',
  'skills',
]);

const start = { offset: 0, line: 1, column: 1 };
const nowhere: Span = { start, end: start };

interface Out {
  readonly file: string;
  readonly diagnostics: Diagnostic[];
}

function error(out: Out, span: Span, message: string): void {
  out.diagnostics.push({ ruleId: 'schema', severity: 'error', platforms: PLATFORMS, file: out.file, message, span });
}

function unknownKey(out: Out, entry: TomlEntry, where: string, known: readonly string[]): void {
  const near = didYouMean(entry.key, known);
  out.diagnostics.push({
    ruleId: 'unknown-setting',
    severity: 'warning',
    platforms: PLATFORMS,
    file: out.file,
    message:
      `\`${entry.key}\` is not a key of ${where}: Codex passes it over without a word, so what it says ` +
      `has no effect${near ? `; did you mean \`${near}\`?` : ''}`,
    span: entry.keySpan,
  });
}

const kindName = (v: TomlValue): string => (v.kind === 'table' ? 'a table' : v.kind === 'array' ? 'an array' : `a ${v.kind}`);

function expectKind(out: Out, at: string, v: TomlValue, kind: TomlValue['kind'], what: string): boolean {
  if (v.kind === kind) return true;
  error(out, v.span, `\`${at}\` must be ${what}, not ${kindName(v)}: Codex refuses the config and does not start`);
  return false;
}

function expectOneOf(out: Out, at: string, v: TomlValue, values: readonly string[]): boolean {
  if (!expectKind(out, at, v, 'string', 'a string')) return false;
  const s = (v as { value: string }).value;
  if (values.includes(s)) return true;
  const near = didYouMean(s, values);
  error(
    out,
    v.span,
    `\`${at}\` is \`${s}\`, which Codex refuses (it does not start): one of ${values.map((x) => `\`${x}\``).join(', ')}` +
      `${near ? `; did you mean \`${near}\`?` : ''}`,
  );
  return false;
}

function profileNetwork(out: Out, at: string, t: TomlTable): void {
  for (const e of t.entries.values()) {
    const key = `${at}.${e.key}`;
    if (e.key === 'enabled') expectKind(out, key, e.value, 'boolean', 'true or false');
    else if (e.key === 'domains' || e.key === 'unix_sockets') {
      if (!expectKind(out, key, e.value, 'table', 'a table')) continue;
      for (const d of (e.value as TomlTable).entries.values()) expectOneOf(out, `${key}."${d.key}"`, d.value, ['allow', 'deny']);
    } else if (e.key !== 'mode') unknownKey(out, e, `a profile's \`network\``, networkKeys);
  }
}

function filesystem(out: Out, at: string, t: TomlTable): void {
  for (const e of t.entries.values()) {
    const key = `${at}."${e.key}"`;
    if (e.key === 'glob_scan_max_depth') {
      expectKind(out, key, e.value, 'integer', 'an integer');
      continue;
    }
    if (e.key.startsWith(':') && !(SPECIAL_PATHS as readonly string[]).includes(e.key)) {
      const near = didYouMean(e.key, SPECIAL_PATHS);
      out.diagnostics.push({
        ruleId: 'unknown-setting',
        severity: 'warning',
        platforms: PLATFORMS,
        file: out.file,
        message:
          `\`${e.key}\` is not one of Codex's special paths (${SPECIAL_PATHS.join(', ')}): it names nothing, ` +
          `so its access applies nowhere${near ? `; did you mean \`${near}\`?` : ''}`,
        span: e.keySpan,
      });
    }
    if (e.value.kind === 'table') {
      for (const sub of e.value.entries.values()) expectOneOf(out, `${key}."${sub.key}"`, sub.value, ACCESS_VALUES);
    } else expectOneOf(out, key, e.value, ACCESS_VALUES);
  }
}

function profile(out: Out, name: string, t: TomlTable): void {
  const at = `permissions.${name}`;
  for (const e of t.entries.values()) {
    const key = `${at}.${e.key}`;
    switch (e.key) {
      case 'extends':
      case 'description':
        expectKind(out, key, e.value, 'string', 'a string');
        break;
      case 'glob_scan_max_depth':
        expectKind(out, key, e.value, 'integer', 'an integer');
        break;
      case 'workspace_roots':
        if (expectKind(out, key, e.value, 'table', 'a table'))
          for (const r of (e.value as TomlTable).entries.values())
            expectKind(out, `${key}."${r.key}"`, r.value, 'boolean', 'true or false');
        break;
      case 'filesystem':
        if (expectKind(out, key, e.value, 'table', 'a table')) filesystem(out, key, e.value as TomlTable);
        break;
      case 'network':
        if (expectKind(out, key, e.value, 'table', 'a table')) profileNetwork(out, key, e.value as TomlTable);
        break;
      default:
        unknownKey(out, e, 'a permission profile', profileKeys);
    }
  }
}

/** The sandbox keys of a Codex config checked as Codex reads them: errors where Codex refuses, warnings where it passes over. */
export function validateCodex(doc: TomlTable, file: string): Diagnostic[] {
  const out: Out = { file, diagnostics: [] };
  for (const e of doc.entries.values()) {
    switch (e.key) {
      case 'sandbox_mode':
        expectOneOf(out, e.key, e.value, SANDBOX_MODES);
        break;
      case 'default_permissions':
        expectKind(out, e.key, e.value, 'string', 'a string');
        break;
      case 'sandbox_workspace_write':
        if (!expectKind(out, e.key, e.value, 'table', 'a table')) break;
        for (const w of (e.value as TomlTable).entries.values()) {
          const key = `${e.key}.${w.key}`;
          if (w.key === 'writable_roots') {
            if (expectKind(out, key, w.value, 'array', 'an array of paths'))
              for (const item of (w.value as { items: readonly TomlValue[] }).items) expectKind(out, key, item, 'string', 'a path string');
          } else if (workspaceWriteKeys.includes(w.key)) expectKind(out, key, w.value, 'boolean', 'true or false');
          else unknownKey(out, w, '`[sandbox_workspace_write]`', workspaceWriteKeys);
        }
        break;
      case 'permissions':
        if (!expectKind(out, e.key, e.value, 'table', 'a table of profiles')) break;
        for (const p of (e.value as TomlTable).entries.values())
          if (expectKind(out, `permissions.${p.key}`, p.value, 'table', 'a table')) profile(out, p.key, p.value as TomlTable);
        break;
      case 'features':
        if (!expectKind(out, e.key, e.value, 'table', 'a table')) break;
        for (const f of (e.value as TomlTable).entries.values()) {
          if (f.key === 'network_proxy') expectKind(out, 'features.network_proxy', f.value, 'boolean', 'true or false');
          else if (didYouMean(f.key, ['network_proxy']) && f.key !== 'network_proxy') unknownKey(out, f, '`[features]`', ['network_proxy']);
        }
        break;
      case 'windows':
        if (!expectKind(out, e.key, e.value, 'table', 'a table')) break;
        for (const w of (e.value as TomlTable).entries.values()) {
          if (w.key === 'sandbox') expectOneOf(out, 'windows.sandbox', w.value, ['elevated', 'unelevated', 'mxc']);
          else if (!windowsKeys.includes(w.key)) unknownKey(out, w, '`[windows]`', windowsKeys);
        }
        break;
      case 'profile':
        // Measured: Codex 0.171.0 stops on it ("legacy `profile = …` config is no longer supported").
        error(
          out,
          e.keySpan,
          '`profile` (the legacy selector of a `[profiles.NAME]` table) is refused by Codex 0.171.0, which ' +
            'does not start: run `codex --profile NAME` with the settings in `$CODEX_HOME/NAME.config.toml` instead',
        );
        break;
      case 'profiles':
        // A legacy profile table is still read for its values: a sandbox_mode there is checked as Codex checks it.
        if (e.value.kind === 'table')
          for (const p of e.value.entries.values()) {
            const mode = p.value.kind === 'table' ? p.value.entries.get('sandbox_mode') : undefined;
            if (mode) expectOneOf(out, `profiles.${p.key}.sandbox_mode`, mode.value, SANDBOX_MODES);
          }
        break;
      default:
        if (!otherTopKeys.has(e.key) && didYouMean(e.key, sandboxTopKeys)) unknownKey(out, e, 'Codex config', sandboxTopKeys);
    }
  }
  return out.diagnostics;
}

/** A config named with --dialect codex that is no TOML table of Codex's: nothing to say but where it starts. */
export const codexNowhere = nowhere;
