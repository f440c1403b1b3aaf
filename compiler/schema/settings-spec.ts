/**
 * The shapes of the two JSON dialects, as their tools read them: every key
 * with its type, whether the tool requires it, and what the tool does with
 * a key it does not know at that level (`unknown`): `ignored` where its
 * schema is a plain zod object (unknown keys are stripped, silently: the
 * fail-open of sandbox-runtime #434), `refused` where it is `.strict()`.
 *
 * Sources: sandbox-runtime 0.0.83, dist/sandbox/sandbox-config.js
 * (SandboxRuntimeConfigSchema and the schemas it is made of) and
 * dist/utils/config-loader.js (loadConfig: JSON.parse, then safeParse; a
 * file that does not validate is refused); Claude Code, the settings
 * reference and sandboxing pages (code.claude.com/docs/en/settings,
 * /sandboxing), which list the `sandbox` keys, their defaults and the
 * permission rules the sandbox takes paths from.
 */

export type Spec =
  | {
      readonly type: 'object';
      readonly keys: Readonly<Record<string, Field>>;
      readonly required?: readonly string[];
      readonly unknown: 'ignored' | 'refused';
    }
  /** An object whose keys are the user's (a map). */
  | { readonly type: 'record'; readonly values: Spec }
  | { readonly type: 'array'; readonly items: Spec }
  | { readonly type: 'string'; readonly nonEmpty?: true; readonly absolute?: true; readonly oneOf?: readonly string[] }
  | { readonly type: 'boolean' }
  | { readonly type: 'number'; readonly integer?: true; readonly min?: number; readonly max?: number }
  /** A filesystem entry: a path string, or `{ "path": …, "literal": true }` (sandbox-runtime 0.0.83). */
  | { readonly type: 'path-entry' }
  /** Read by the tool, not by boxwright: any JSON value passes. */
  | { readonly type: 'any' };

export type Field = Spec & { readonly doc: string };

const strings = (doc: string): Field => ({ type: 'array', items: { type: 'string' }, doc });
const paths = (doc: string): Field => ({ type: 'array', items: { type: 'path-entry' }, doc });
const flag = (doc: string): Field => ({ type: 'boolean', doc });
const opaque = (doc: string): Field => ({ type: 'any', doc });

/** sandbox-runtime's `network` (NetworkConfigSchema: a plain object). */
const srtNetwork: Field = {
  type: 'object',
  unknown: 'ignored',
  required: ['allowedDomains', 'deniedDomains'],
  doc: "Network restrictions: every connection goes through srt's proxies, which allow only `allowedDomains`.",
  keys: {
    allowedDomains: strings('Domains the proxies allow (`*.example.com`, an optional `:port`); empty: no network.'),
    deniedDomains: strings('Domains denied before `allowedDomains` is consulted; a bare `*` denies all.'),
    deniedDomainReasons: {
      type: 'record',
      values: { type: 'string', nonEmpty: true },
      doc: 'A reason per `deniedDomains` entry, shown in violations.',
    },
    strictAllowlist: flag('Deny hosts not in `allowedDomains` without asking.'),
    deniedResolvedAddresses: strings('Addresses an allowed hostname must not resolve to.'),
    allowUnixSockets: strings('macOS only: unix socket paths the profile allows. Ignored on Linux (seccomp cannot filter by path).'),
    allowAllUnixSockets: flag('Allow every unix socket: on Linux the seccomp filter that blocks socket(AF_UNIX) is not applied.'),
    allowLocalBinding: flag('macOS: bind and connect to local ports directly. Linux: ignored (its own network namespace).'),
    allowMachLookup: strings('macOS only: extra Mach/XPC services.'),
    httpProxyPort: {
      type: 'number',
      integer: true,
      min: 1,
      max: 65535,
      doc: "An external HTTP proxy instead of srt's: it must do the filtering.",
    },
    socksProxyPort: {
      type: 'number',
      integer: true,
      min: 1,
      max: 65535,
      doc: "An external SOCKS proxy instead of srt's: it must do the filtering.",
    },
    mitmProxy: opaque('Route matching domains through an upstream MITM proxy.'),
    allowPlaintextHeaderSet: flag('Let a filterRequest allow set headers on plain HTTP.'),
    stripResponseHeaders: strings('Response headers never passed back.'),
    refuseOpaqueTunnels: flag('Refuse tunnels filterRequest cannot see into.'),
    requireHostMatch: flag('Answer 421 when Host, SNI and target disagree.'),
    ambiguousRequestTarget: {
      type: 'string',
      oneOf: ['refuse', 'asSpelled', 'normalize'],
      doc: 'What becomes of an ambiguous request target.',
    },
    tlsTerminate: opaque('Experimental in-process TLS termination.'),
    parentProxy: opaque('An upstream HTTP proxy for outbound connections.'),
  },
};

/** sandbox-runtime's `filesystem` (FilesystemConfigSchema: a plain object). */
const srtFilesystem: Field = {
  type: 'object',
  unknown: 'ignored',
  required: ['denyRead', 'allowWrite', 'denyWrite'],
  doc: 'Filesystem restrictions: reads are open except `denyRead` (re-opened by `allowRead`); writes are closed except `allowWrite` (narrowed by `denyWrite`).',
  keys: {
    disabled: flag('Turn filesystem enforcement off: no read or write rule is applied, the whole tree is writable.'),
    denyRead: paths('Paths (or patterns) the command cannot read.'),
    allowRead: paths('Paths re-opened for reading inside a `denyRead` region (allow beats deny for reads).'),
    allowWrite: paths('Paths the command can write (nothing else is writable).'),
    denyWrite: paths('Paths not writable inside `allowWrite` (deny beats allow for writes).'),
    allowGitConfig: flag('Let writes reach `.git/config` (the mandatory deny otherwise keeps it read-only).'),
  },
};

/** The whole settings file (SandboxRuntimeConfigSchema: a plain object; unknown keys are stripped). */
export const srtSpec: Spec = {
  type: 'object',
  unknown: 'ignored',
  required: ['network', 'filesystem'],
  keys: {
    network: srtNetwork,
    filesystem: srtFilesystem,
    credentials: opaque('Environment variables and files whose real values the command must not read.'),
    ignoreViolations: {
      type: 'record',
      values: { type: 'array', items: { type: 'string' } },
      doc: 'Violations not reported, per command pattern (nothing is allowed by it).',
    },
    enableWeakerNestedSandbox: flag('Linux: a weaker sandbox for Docker without privileged namespaces ("considerably weakens security").'),
    allowNestedUserNamespaces: flag(
      'Linux: let the command create user namespaces, in which `denyWrite` and the mandatory denies do not hold.',
    ),
    enableWeakerNetworkIsolation: flag('macOS: allow com.apple.trustd.agent (an exfiltration channel).'),
    allowAppleEvents: flag('macOS: allow Apple Events and Launch Services: launched applications run outside the sandbox.'),
    ripgrep: opaque('How ripgrep is run for the mandatory-deny scan (Linux).'),
    mandatoryDenySearchDepth: {
      type: 'number',
      integer: true,
      min: 1,
      max: 10,
      doc: 'Linux: how deep below the working directory the mandatory-deny scan looks (default 3).',
    },
    allowPty: flag('macOS: allow pseudo-terminals.'),
    seccomp: opaque('Linux: the apply-seccomp helper to use.'),
    bwrapPath: { type: 'string', nonEmpty: true, absolute: true, doc: 'Linux: the bubblewrap binary.' },
    socatPath: { type: 'string', nonEmpty: true, absolute: true, doc: 'Linux: the socat binary.' },
    javaAgentJarPath: { type: 'string', nonEmpty: true, absolute: true, doc: 'The JVM proxy agent.' },
    windows: opaque('Windows settings (sandbox user, WFP sublayer, proxy ports).'),
    git: opaque('Git settings injected into the sandbox (`safeDirectories`).'),
  },
};

/** Claude Code's `sandbox.filesystem`. */
const claudeFilesystem: Field = {
  type: 'object',
  unknown: 'ignored',
  doc:
    'Paths for sandboxed commands, merged with the paths of Read and Edit permission rules. Prefixes: ' +
    "`//` absolute, `~/` home, `/` relative to the settings file's directory, `./` or none relative " +
    'to the working directory.',
  keys: {
    allowWrite: strings('More paths sandboxed commands can write, beyond the working directory (merged with `Edit(...)` allow rules).'),
    denyWrite: strings('Paths sandboxed commands cannot write (merged with `Edit(...)` deny rules).'),
    denyRead: strings('Paths sandboxed commands cannot read (merged with `Read(...)` deny rules).'),
    allowRead: strings('Paths re-opened for reading inside `denyRead` regions.'),
    allowManagedReadPathsOnly: flag('Managed settings only: only managed `allowRead` paths count. Ignored in user and project settings.'),
    disabled: flag('Turn filesystem enforcement off (sandbox-runtime applies no read or write rule).'),
  },
};

const claudeNetwork: Field = {
  type: 'object',
  unknown: 'ignored',
  doc: 'Network settings of the sandbox proxies.',
  keys: {
    allowedDomains: strings('Domains sandboxed commands may reach (merged with `WebFetch(domain:…)` allow rules).'),
    deniedDomains: strings('Domains always denied.'),
    allowManagedDomainsOnly: flag('Managed settings only: only managed domains count. Ignored in user and project settings.'),
    allowUnixSockets: strings('macOS only: unix socket paths allowed. Ignored on Linux.'),
    allowAllUnixSockets: flag('Allow every unix socket (no seccomp socket filter on Linux).'),
    allowLocalBinding: flag('macOS only: bind to localhost ports.'),
    httpProxyPort: { type: 'number', doc: 'An external HTTP proxy port.' },
    socksProxyPort: { type: 'number', doc: 'An external SOCKS proxy port.' },
  },
};

const claudeSandbox: Field = {
  type: 'object',
  unknown: 'ignored',
  doc: 'The Bash sandbox (sandbox-runtime): off unless `enabled`.',
  keys: {
    enabled: flag('Sandbox Bash commands (default false).'),
    failIfUnavailable: flag(
      'Refuse to run commands when the sandbox cannot start (default false: a warning, then commands run unsandboxed).',
    ),
    autoAllowBashIfSandboxed: flag('Run sandboxed commands without asking (default true).'),
    allowUnsandboxedCommands: flag(
      'Let a command that fails in the sandbox be retried outside it (`dangerouslyDisableSandbox`; default true).',
    ),
    excludedCommands: strings('Commands that run outside the sandbox.'),
    ignoreViolations: { type: 'record', values: { type: 'array', items: { type: 'string' } }, doc: 'Violations not reported.' },
    network: claudeNetwork,
    filesystem: claudeFilesystem,
    credentials: opaque('Credential environment variables and files.'),
    ripgrep: opaque('How ripgrep is run.'),
    enableWeakerNetworkIsolation: flag('macOS: allow com.apple.trustd.agent.'),
    enableWeakerNestedSandbox: flag('Linux: a weaker sandbox for Docker without privileged namespaces.'),
    bwrapPath: { type: 'string', doc: 'Linux: the bubblewrap binary.' },
    socatPath: { type: 'string', doc: 'Linux: the socat binary.' },
    enabledPlatforms: strings('The platforms the sandbox is enabled on.'),
    allowAppleEvents: flag('macOS: allow Apple Events (launched applications run outside the sandbox).'),
    allowNestedUserNamespaces: flag('Linux: let commands create user namespaces (denies do not hold in them).'),
  },
};

const claudePermissions: Field = {
  type: 'object',
  unknown: 'ignored',
  doc: 'Permission rules. The sandbox takes paths from `Edit(...)` (write) and `Read(...)` (read) rules.',
  keys: {
    allow: strings('Rules allowed without asking; `Edit(path)` also makes the path writable in the sandbox.'),
    deny: strings('Rules refused; `Read(path)` and `Edit(path)` also deny the path in the sandbox.'),
    ask: strings('Rules that always ask.'),
    additionalDirectories: strings('More working directories (writable in the sandbox).'),
    defaultMode: { type: 'string', doc: 'The permission mode at start.' },
    disableBypassPermissionsMode: { type: 'string', doc: '`disable` to forbid bypassPermissions mode.' },
    allowManagedPermissionRulesOnly: flag('Managed settings only.'),
  },
};

/**
 * A Claude Code settings file: boxwright reads `sandbox` and `permissions`
 * and passes over the rest (Claude Code has many more keys: `model`,
 * `env`, `hooks`…), except a top-level key one typo away from those two.
 */
export const claudeSpec: Spec = {
  type: 'object',
  unknown: 'ignored',
  keys: {
    sandbox: claudeSandbox,
    permissions: claudePermissions,
  },
};

/** Top-level keys of Claude Code settings boxwright does not read but knows (no did-you-mean for them). */
export const claudeOtherKeys: readonly string[] = [
  '$schema',
  'apiKeyHelper',
  'awsAuthRefresh',
  'awsCredentialExport',
  'cleanupPeriodDays',
  'env',
  'includeCoAuthoredBy',
  'model',
  'hooks',
  'disableAllHooks',
  'statusLine',
  'outputStyle',
  'forceLoginMethod',
  'forceLoginOrgUUID',
  'enableAllProjectMcpServers',
  'enabledMcpjsonServers',
  'disabledMcpjsonServers',
  'enabledPlugins',
  'theme',
  'verbose',
  'alwaysThinkingEnabled',
  'spinnerTipsEnabled',
  'companyAnnouncements',
];
