/**
 * Cursor's sandbox.json and VS Code's agent sandbox settings
 * (`chat.agent.sandbox.*`), linted (issue 39): their keys checked with a
 * did-you-mean, what widens the sandbox named (rules/cursor-sandbox.ts,
 * rules/vscode-sandbox.ts), no model: neither tool's sandbox runs here, so
 * boxwright says what the file asks for, not what a machine gives.
 * VS Code's settings are JSON with comments and trailing commas: both are
 * blanked (offsets kept) before the strict JSON parser reads them.
 */
import { posix } from 'node:path';
import type { Diagnostic, Platform, Verdict } from '../compiler/diagnostic.js';
import { compareDiagnostics, PLATFORMS, verdictsOf } from '../compiler/diagnostic.js';
import type { JsonObject, JsonValue } from '../compiler/json/ast.js';
import { parseJson } from '../compiler/json/index.js';
import { findHostTrusted, isUnder } from '../compiler/paths/index.js';
import type { FsView } from '../compiler/paths/view.js';
import { didYouMean } from '../compiler/schema/did-you-mean.js';
import type { Span } from '../compiler/span.js';
import type { TomlComment } from '../compiler/toml/ast.js';
import { cursorSandbox } from '../rules/cursor-sandbox.js';
import { jsonSyntax } from '../rules/json-syntax.js';
import { vscodeSandbox } from '../rules/vscode-sandbox.js';

export interface PeerCheckOptions {
  readonly file: string;
  readonly view: FsView;
  readonly worktree: string;
  readonly platforms?: readonly Platform[];
}

export interface PeerChecked {
  readonly file: string;
  readonly bytes: Uint8Array;
  readonly text: string;
  readonly dialect: 'cursor' | 'vscode';
  readonly diagnostics: readonly Diagnostic[];
  readonly verdicts: Record<Platform, Verdict>;
  readonly comments: readonly TomlComment[];
}

/** JSONC to JSON of the same length: comments and trailing commas become spaces (line breaks kept), strings untouched. */
export function blankJsonc(text: string): string {
  const out = text.split('');
  let i = 0;
  let lastComma = -1;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      lastComma = -1;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      i++;
    } else if (c === '/' && text[i + 1] === '/') {
      for (; i < text.length && text[i] !== '\n'; i++) out[i] = ' ';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      for (; i < stop; i++) if (text[i] !== '\n') out[i] = ' ';
    } else {
      if (c === ',') lastComma = i;
      else if ((c === '}' || c === ']') && lastComma >= 0) {
        out[lastComma] = ' ';
        lastComma = -1;
      } else if (!/\s/.test(c)) lastComma = -1;
      i++;
    }
  }
  return out.join('');
}

/** Whether VS Code settings hold agent sandbox settings: what makes them a config to lint, and not passed over. */
export function hasVscodeSandbox(bytes: Uint8Array): boolean {
  const parsed = parseJson(blankJsonc(Buffer.from(bytes).toString('utf8')));
  return parsed.document?.kind === 'object' && [...parsed.document.members.keys()].some((k) => k.startsWith('chat.agent.sandbox.'));
}

/** The keys of Cursor's sandbox.json (and what the language server completes). */
export const cursorKeys = [
  'type',
  'additionalReadwritePaths',
  'additionalReadonlyPaths',
  'additionalReadPaths',
  'readBoundary',
  'disableTmpWrite',
  'enableSharedBuildCache',
  'networkPolicy',
];
/** VS Code's agent sandbox settings. */
export const vscodeKeys = [
  'chat.agent.sandbox.enabled',
  'chat.agent.sandbox.enabledWindows',
  'chat.agent.sandbox.allowedNetworkDomains',
  'chat.agent.sandbox.deniedNetworkDomains',
  'chat.agent.sandbox.fileSystem.linux',
  'chat.agent.sandbox.fileSystem.mac',
];

export function checkPeerSettings(bytes: Uint8Array, options: PeerCheckOptions, dialect: 'cursor' | 'vscode'): PeerChecked {
  const { file, view } = options;
  const raw = Buffer.from(bytes).toString('utf8');
  const parsed = parseJson(blankJsonc(raw));
  const out: Diagnostic[] = [];
  const platforms = options.platforms ?? PLATFORMS;
  const finish = (): PeerChecked => {
    const kept = out
      .map((d) => ({ ...d, platforms: d.platforms.filter((p) => platforms.includes(p)) }))
      .filter((d) => d.platforms.length > 0)
      .sort(compareDiagnostics);
    return { file, bytes, text: raw, dialect, diagnostics: kept, verdicts: verdictsOf(kept), comments: [] };
  };
  if (!parsed.document) {
    for (const e of parsed.errors)
      out.push({
        ruleId: jsonSyntax.meta.id,
        severity: 'error',
        platforms: PLATFORMS,
        file,
        message: jsonSyntax.messages.syntax.text({ message: e.message }),
        span: e.span,
      });
    return finish();
  }
  const doc = parsed.document;
  const base = { platforms: PLATFORMS, file };
  const schema = (span: Span, message: string): void => void out.push({ ...base, ruleId: 'schema', severity: 'error', message, span });
  const unknown = (key: string, span: Span, known: readonly string[], where: string): void => {
    const near = didYouMean(key, known);
    out.push({
      ...base,
      ruleId: 'unknown-setting',
      severity: 'warning',
      span,
      message: `\`${key}\` is not a key of ${where}: it is passed over, so what it says has no effect${near ? `; did you mean \`${near}\`?` : ''}`,
    });
  };
  if (doc.kind !== 'object') {
    schema(doc.span, 'a settings file holds a JSON object');
    return finish();
  }
  const report = <R extends typeof cursorSandbox | typeof vscodeSandbox>(
    rule: R,
    id: keyof R['messages'] & string,
    span: Span,
    data: object,
  ): void => {
    const m = (rule.messages as Record<string, { severity: Diagnostic['severity']; text: (d: never) => string; suggestion?: unknown }>)[
      id
    ]!;
    out.push({ ...base, ruleId: rule.meta.id, severity: m.severity, span, message: m.text(data as never) });
  };
  const home = view.home;
  const held = (written: string): string | undefined => {
    const p =
      written === '~' ? home : written.startsWith('~/') ? posix.join(home, written.slice(2)) : posix.resolve(options.worktree, written);
    if (isUnder(home, p)) return 'your home';
    // Those that exist: what the command could rewrite today (a name not there yet is a candidate in every tree).
    const found = findHostTrusted(view, [{ path: p, tree: true }], []).paths.filter((t) => !t.parentOf && t.facts.existence === 'exists');
    return found.length
      ? `the host-trusted ${found
          .slice(0, 3)
          .map((t) => `${t.path} (${t.label})`)
          .join(', ')}`
      : undefined;
  };
  const strings = (v: JsonValue | undefined): { value: string; span: Span }[] =>
    v?.kind === 'array'
      ? v.items.filter((i) => i.kind === 'string').map((i) => ({ value: (i as { value: string }).value, span: i.span }))
      : [];
  if (dialect === 'cursor') cursor(doc);
  else vscode(doc);
  return finish();

  function cursor(o: JsonObject): void {
    for (const m of o.members.values()) if (!cursorKeys.includes(m.key)) unknown(m.key, m.keySpan, cursorKeys, "Cursor's sandbox.json");
    const type = o.members.get('type')?.value;
    if (type && (type.kind !== 'string' || !['workspace_readwrite', 'workspace_readonly', 'insecure_none'].includes(type.value)))
      schema(type.span, '`type` is one of "workspace_readwrite", "workspace_readonly", "insecure_none"');
    else if (type?.kind === 'string' && type.value === 'insecure_none') report(cursorSandbox, 'off', type.span, {});
    const net = o.members.get('networkPolicy')?.value;
    if (net?.kind === 'object') {
      for (const m of net.members.values())
        if (!['default', 'allow', 'deny'].includes(m.key)) unknown(m.key, m.keySpan, ['default', 'allow', 'deny'], '`networkPolicy`');
      const d = net.members.get('default')?.value;
      if (d?.kind === 'string' && d.value === 'allow')
        report(cursorSandbox, 'networkOpen', d.span, { how: '`networkPolicy.default` is "allow"' });
      for (const a of strings(net.members.get('allow')?.value))
        if (a.value === '*') report(cursorSandbox, 'networkOpen', a.span, { how: '`networkPolicy.allow` holds `*`' });
    }
    for (const p of strings(o.members.get('additionalReadwritePaths')?.value)) {
      const what = held(p.value);
      if (what) report(cursorSandbox, 'writable', p.span, { path: p.value, what });
    }
    const tmp = o.members.get('disableTmpWrite');
    if (!(tmp?.value.kind === 'boolean' && tmp.value.value)) report(cursorSandbox, 'tmpWrite', tmp?.value.span ?? doc.span, {});
  }

  function vscode(o: JsonObject): void {
    const sandbox = [...o.members.values()].filter((m) => m.key.startsWith('chat.agent.sandbox.'));
    for (const m of sandbox) if (!vscodeKeys.includes(m.key)) unknown(m.key, m.keySpan, vscodeKeys, "VS Code's agent sandbox settings");
    const enabled = o.members.get('chat.agent.sandbox.enabled');
    const v = enabled?.value;
    const value = v?.kind === 'string' ? v.value : v?.kind === 'boolean' ? (v.value ? 'on' : 'off') : undefined;
    if (v && value === undefined) schema(v.span, '`chat.agent.sandbox.enabled` is "on", "allowNetwork" or "off"');
    else if (value === 'allowNetwork')
      report(vscodeSandbox, 'networkOpen', v!.span, { how: '`chat.agent.sandbox.enabled` is "allowNetwork"' });
    else if (value !== 'on' && value !== undefined && value !== 'allowNetwork')
      value === 'off'
        ? report(vscodeSandbox, 'off', v!.span, { how: '`chat.agent.sandbox.enabled` is off' })
        : schema(v!.span, '`chat.agent.sandbox.enabled` is "on", "allowNetwork" or "off"');
    else if (!enabled && sandbox.length)
      report(vscodeSandbox, 'off', sandbox[0]!.keySpan, {
        how: 'this file does not set `chat.agent.sandbox.enabled` (its default is off)',
      });
    for (const a of strings(o.members.get('chat.agent.sandbox.allowedNetworkDomains')?.value))
      if (a.value === '*') report(vscodeSandbox, 'networkOpen', a.span, { how: '`chat.agent.sandbox.allowedNetworkDomains` holds `*`' });
    for (const os of ['linux', 'mac']) {
      const fs = o.members.get(`chat.agent.sandbox.fileSystem.${os}`)?.value;
      if (fs?.kind !== 'object') continue;
      const lists = ['allowWrite', 'denyWrite', 'denyRead', 'allowRead'];
      for (const m of fs.members.values())
        if (!lists.includes(m.key)) unknown(m.key, m.keySpan, lists, `\`chat.agent.sandbox.fileSystem.${os}\``);
      for (const p of strings(fs.members.get('allowWrite')?.value)) {
        const what = held(p.value);
        if (what) report(vscodeSandbox, 'writable', p.span, { path: p.value, what });
      }
    }
  }
}
