/**
 * What a sandbox-runtime or Claude Code settings file reaches beyond its
 * filesystem lists, as data: each setting that lets the sandboxed command
 * (or something the tool runs for it) reach further is a `ReachItem`, with
 * its class and what it reaches; each that holds it back is one too, with
 * the opposite effect. Computed once, here, from the document; `diff`
 * compares it (app/views/settings-delta.ts) and the rules read it: no
 * second reading of the settings.
 *
 * Every setting is either modelled (an item, the domain list, the
 * filesystem lists the IR's grants hold, or a key known to reach nothing)
 * or listed in `unmodelled` with its value: a change there is one boxwright
 * cannot judge, never "no change".
 *
 * Sources: sandbox-runtime 0.0.83 dist/sandbox/sandbox-config.js (the
 * schema; bwrapPath, socatPath, ripgrep, seccomp.applyPath and
 * javaAgentJarPath are the programs it runs or loads), sandbox-manager.js;
 * Claude Code's settings reference (hooks, apiKeyHelper and the other
 * helpers run as the user, outside the sandbox).
 */
import type { JsonObject, JsonValue } from '../json/ast.js';
import { toPlain } from '../json/parser.js';
import type { Span } from '../span.js';

export type ReachClass = 'network' | 'strength' | 'unsandboxed' | 'host-program' | 'permission';

export interface ReachItem {
  readonly cls: ReachClass;
  /** The setting's dotted key, as the file spells it (`sandbox.network.allowUnixSockets`). */
  readonly key: string;
  /** What it reaches: a socket, a command, a program, a rule; `true` for a switch. */
  readonly value: string;
  /** `grants`: present, it adds reach; `restricts`: present, it takes reach away. */
  readonly effect: 'grants' | 'restricts';
  /** Where it is written (the array item, or the key of a switch). */
  readonly span: Span;
  /** Whether the file says it, or the tool's default does (a switch that is on unless turned off). */
  readonly byDefault?: true;
  /** What narrows when it acts (a hook's matcher): part of what it is. */
  readonly qualifier?: string;
}

export interface SettingsReach {
  readonly items: readonly ReachItem[];
  /** `allowedDomains` as written, with its key: compared by the hosts each entry covers. */
  readonly allowedDomains: { readonly key: string; readonly entries: readonly string[] };
  /** Every setting boxwright does not model, by dotted key, with its value as canonical JSON. */
  readonly unmodelled: ReadonlyMap<string, string>;
}

/** Claude Code's helper settings: each a command Claude Code runs as you, outside the sandbox. */
const helpers = ['apiKeyHelper', 'awsAuthRefresh', 'awsCredentialExport', 'otelHeadersHelper'];

/** Keys that change no reach: messages, appearance, the model. */
const neutral = {
  srt: ['network.deniedDomainReasons'],
  claude: [
    '$schema',
    'cleanupPeriodDays',
    'includeCoAuthoredBy',
    'model',
    'theme',
    'verbose',
    'alwaysThinkingEnabled',
    'spinnerTipsEnabled',
    'companyAnnouncements',
    'outputStyle',
    'forceLoginMethod',
    'forceLoginOrgUUID',
    'sandbox.network.deniedDomainReasons',
  ],
};

/** The filesystem lists, read into the IR's grants (compiler/ir/settings.ts): the access model compares them. */
const filesystemKeys = ['filesystem.denyRead', 'filesystem.allowRead', 'filesystem.allowWrite', 'filesystem.denyWrite'];

const canonical = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(canonical)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
        )
      : v;

export const canonicalJson = (v: unknown): string => JSON.stringify(canonical(v));

function at(root: JsonObject | undefined, dotted: string): { value: JsonValue; keySpan: Span } | undefined {
  let o: JsonObject | undefined = root;
  const parts = dotted.split('.');
  for (let i = 0; i < parts.length; i++) {
    const m = o?.members.get(parts[i]!);
    if (!m) return undefined;
    if (i === parts.length - 1) return m;
    o = m.value.kind === 'object' ? m.value : undefined;
  }
  return undefined;
}

export function settingsReach(doc: JsonValue, claude: boolean): SettingsReach {
  const root = doc.kind === 'object' ? doc : undefined;
  const sb = claude ? 'sandbox.' : '';
  const items: ReachItem[] = [];
  const modelled = new Set<string>(claude ? neutral.claude : neutral.srt);
  const mark = (key: string) => modelled.add(key);
  /** Each string of an array setting, as an item. */
  const list = (cls: ReachClass, key: string, effect: ReachItem['effect']) => {
    mark(key);
    const m = at(root, key);
    if (m?.value.kind !== 'array') return;
    for (const item of m.value.items)
      items.push({ cls, key, value: item.kind === 'string' ? item.value : canonicalJson(toPlain(item)), effect, span: item.span });
  };
  /** A switch: an item while it is on (`when`: its value that counts; `fallback`: what it is when not written). */
  const flag = (cls: ReachClass, key: string, effect: ReachItem['effect'], on = true, fallback = false) => {
    mark(key);
    const m = at(root, key);
    const value = m?.value.kind === 'boolean' ? m.value.value : m ? undefined : fallback;
    if (value === on)
      items.push({ cls, key, value: String(on), effect, span: m?.keySpan ?? doc.span, ...(m ? {} : { byDefault: true as const }) });
    else if (m && value === undefined) modelled.delete(key);
  };
  /** A scalar or object whose presence is the reach (a program's path, a proxy port): its value, as canonical JSON unless a string. */
  const value = (cls: ReachClass, key: string, effect: ReachItem['effect'] = 'grants') => {
    mark(key);
    const m = at(root, key);
    if (!m) return;
    const plain = toPlain(m.value);
    items.push({ cls, key, value: typeof plain === 'string' ? plain : canonicalJson(plain), effect, span: m.value.span });
  };

  for (const k of filesystemKeys) mark(sb + k);
  mark(`${sb}filesystem.allowGitConfig`);
  flag('strength', `${sb}filesystem.disabled`, 'grants');
  // Network: domains by cover, sockets and bindings, external proxies.
  mark(`${sb}network.allowedDomains`);
  const domains = at(root, `${sb}network.allowedDomains`);
  const entries = domains?.value.kind === 'array' ? domains.value.items.flatMap((i) => (i.kind === 'string' ? [i.value] : [])) : [];
  list('network', `${sb}network.deniedDomains`, 'restricts');
  list('network', `${sb}network.allowUnixSockets`, 'grants');
  list('network', `${sb}network.allowMachLookup`, 'grants');
  list('network', `${sb}network.deniedResolvedAddresses`, 'restricts');
  flag('network', `${sb}network.allowAllUnixSockets`, 'grants');
  flag('network', `${sb}network.allowLocalBinding`, 'grants');
  flag('network', `${sb}network.strictAllowlist`, 'restricts');
  value('network', `${sb}network.httpProxyPort`);
  value('network', `${sb}network.socksProxyPort`);
  // The sandbox's strength.
  for (const k of [
    'enableWeakerNestedSandbox',
    'allowNestedUserNamespaces',
    'enableWeakerNetworkIsolation',
    'allowAppleEvents',
    'allowPty',
  ])
    flag('strength', sb + k, 'grants');
  // Programs the tool runs (or loads) on the host: whoever writes them runs outside the sandbox.
  for (const k of [
    'bwrapPath',
    'socatPath',
    'javaAgentJarPath',
    'ripgrep.command',
    'ripgrep.args',
    'ripgrep.argv0',
    'seccomp.applyPath',
    'seccomp.argv0',
    // srt-win, spawned by the library on Windows (its own schema warns it may sit in a write grant).
    'windows.srtWin.path',
  ])
    value('host-program', sb + k);
  if (claude) {
    // Claude Code's sandbox is off unless enabled, and fails open unless told not to.
    flag('strength', 'sandbox.enabled', 'grants', false, false);
    flag('strength', 'sandbox.failIfUnavailable', 'grants', false, false);
    flag('unsandboxed', 'sandbox.allowUnsandboxedCommands', 'grants', true, true);
    flag('permission', 'sandbox.autoAllowBashIfSandboxed', 'grants', true, true);
    list('unsandboxed', 'sandbox.excludedCommands', 'grants');
    flag('network', 'sandbox.network.allowManagedDomainsOnly', 'restricts');
    flag('permission', 'sandbox.filesystem.allowManagedReadPathsOnly', 'restricts');
    list('permission', 'permissions.allow', 'grants');
    list('permission', 'permissions.deny', 'restricts');
    list('permission', 'permissions.ask', 'restricts');
    // additionalDirectories are write grants of the IR: the access model compares them.
    mark('permissions.additionalDirectories');
    const mode = at(root, 'permissions.defaultMode');
    mark('permissions.defaultMode');
    if (mode?.value.kind === 'string' && !['default', 'plan'].includes(mode.value.value))
      items.push({ cls: 'permission', key: 'permissions.defaultMode', value: mode.value.value, effect: 'grants', span: mode.value.span });
    else if (mode && mode.value.kind !== 'string') modelled.delete('permissions.defaultMode');
    value('permission', 'permissions.disableBypassPermissionsMode', 'restricts');
    flag('permission', 'permissions.allowManagedPermissionRulesOnly', 'restricts');
    for (const k of helpers) value('unsandboxed', k);
    value('unsandboxed', 'statusLine.command');
    mark('statusLine.type');
    mark('statusLine.padding');
    hookItems(root, items);
    mark('hooks');
    flag('unsandboxed', 'disableAllHooks', 'restricts');
    flag('unsandboxed', 'enableAllProjectMcpServers', 'grants');
    list('unsandboxed', 'enabledMcpjsonServers', 'grants');
    list('unsandboxed', 'disabledMcpjsonServers', 'restricts');
  }
  const unmodelled = new Map<string, string>();
  if (root) collect(root, '', modelled, unmodelled);
  return { items, allowedDomains: { key: `${sb}network.allowedDomains`, entries }, unmodelled };
}

/**
 * Claude Code's hooks, `{ "Event": [{ "matcher": …, "hooks": [{ "type": "command", "command": … }] }] }`:
 * one item per hook, named with its event, qualified by its matcher.
 */
function hookItems(root: JsonObject | undefined, items: ReachItem[]): void {
  const hooks = at(root, 'hooks');
  if (hooks?.value.kind !== 'object') {
    if (hooks)
      items.push({
        cls: 'unsandboxed',
        key: 'hooks',
        value: canonicalJson(toPlain(hooks.value)),
        effect: 'grants',
        span: hooks.value.span,
      });
    return;
  }
  for (const [event, m] of hooks.value.members) {
    const groups = m.value.kind === 'array' ? m.value.items : [m.value];
    for (const g of groups) {
      const plain = toPlain(g) as { matcher?: unknown; hooks?: unknown } | null;
      const inner = g.kind === 'object' ? g.members.get('hooks')?.value : undefined;
      const each = inner?.kind === 'array' ? inner.items : [g];
      for (const h of each) {
        const hook = toPlain(h) as { command?: unknown } | null;
        const command = hook && typeof hook === 'object' && typeof hook.command === 'string' ? hook.command : canonicalJson(hook);
        const matcher =
          plain && typeof plain === 'object' && typeof plain.matcher === 'string' && plain.matcher ? plain.matcher : undefined;
        items.push({
          cls: 'unsandboxed',
          key: `hooks.${event}`,
          value: command,
          effect: 'grants',
          span: h.span,
          ...(matcher ? { qualifier: `matching ${matcher}` } : {}),
        });
      }
    }
  }
}

/** Every leaf not modelled (and every empty object), by dotted key. */
function collect(o: JsonObject, prefix: string, modelled: ReadonlySet<string>, out: Map<string, string>): void {
  for (const [k, m] of o.members) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (modelled.has(key)) continue;
    if (m.value.kind === 'object' && m.value.members.size) collect(m.value, key, modelled, out);
    else out.set(key, canonicalJson(toPlain(m.value)));
  }
}
