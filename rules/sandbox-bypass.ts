import { posix } from 'node:path';
import { PLATFORMS, type Platform } from '../compiler/diagnostic.js';
import { isUnder } from '../compiler/paths/index.js';
import { defineRule } from './engine/engine.js';
import { setting, tool } from './runtime-util.js';

/**
 * The programs sandbox-runtime 0.0.83 runs to build its Linux sandbox, by
 * their key (linux-sandbox-utils.js: `bwrapPath ?? 'bwrap'`, socat for the
 * proxy bridges, `ripgrep.command` for the mandatory-deny scan, the
 * apply-seccomp helper that puts the filter on the command).
 */
const hostPrograms: Readonly<Record<string, string>> = {
  bwrapPath: 'runs it on the host to build the sandbox (a script there runs the command without bubblewrap)',
  socatPath: 'runs it on the host to bridge the network proxies',
  'ripgrep.command': 'runs it on the host to find the mandatory denies (and trusts what it answers)',
  'seccomp.applyPath': 'runs it to put the seccomp filter on the command (a script there runs the command unfiltered)',
};

/**
 * sandbox-runtime switches that weaken or bypass the sandbox, each with the
 * platforms it acts on and what it does (README, Security Limitations and
 * Other Configuration).
 */
const switches: readonly { key: string; platforms: readonly Platform[]; what: string }[] = [
  {
    key: 'enableWeakerNestedSandbox',
    platforms: ['linux'],
    what: 'a weaker Linux sandbox for Docker without privileged namespaces ("considerably weakens security")',
  },
  {
    key: 'allowNestedUserNamespaces',
    platforms: ['linux'],
    what: 'the command may create user namespaces, in which `denyWrite` and the mandatory denies do not hold',
  },
  {
    key: 'network.allowAllUnixSockets',
    platforms: ['macos', 'linux'],
    what: 'every unix socket is allowed (Linux: the seccomp filter blocking socket(AF_UNIX) is not applied), so a docker.sock or an agent socket is a way out',
  },
  {
    key: 'allowAppleEvents',
    platforms: ['macos'],
    what: 'Apple Events and Launch Services are allowed: an application the command opens runs outside the sandbox',
  },
  { key: 'enableWeakerNetworkIsolation', platforms: ['macos'], what: 'com.apple.trustd.agent is reachable, an exfiltration channel' },
];

export const sandboxBypass = defineRule({
  meta: {
    id: 'sandbox-bypass',
    seedRow:
      'Claude Code #32285, #34044, #12515 (the sandbox silently off); sandboxing docs: allowUnsandboxedCommands, ' +
      'excludedCommands, failIfUnavailable; sandbox-runtime README, Security Limitations',
    dialects: ['srt', 'claude'],
    docs: {
      summary:
        'A setting that lets a command run outside the sandbox, or weakens it: unsandboxed retries, excluded ' +
        'commands, a sandbox that silently does not start, weaker modes.',
      details:
        'Claude Code: `allowUnsandboxedCommands` (default true) lets a command that fails in the sandbox ' +
        'be retried outside it with `dangerouslyDisableSandbox`; `excludedCommands` run outside it; and ' +
        'when the sandbox cannot start (bubblewrap, socat or ripgrep missing, an unsupported platform) Claude ' +
        'Code warns and runs commands unsandboxed unless `failIfUnavailable` is true (code.claude.com/docs/en/sandboxing; ' +
        'anthropics/claude-code#32285, #34044, #12515 report it happening without a visible warning). Native ' +
        'Windows has no Claude Code sandbox at all. sandbox-runtime: `enableWeakerNestedSandbox`, `allowNestedUserNamespaces`, ' +
        '`allowAllUnixSockets`, `allowAppleEvents`, `enableWeakerNetworkIsolation` weaken it as its README ' +
        'says, and `httpProxyPort`/`socksProxyPort` hand the network filtering to a proxy it does not control. ' +
        'A warning on the platforms each acts on. A program sandbox-runtime runs to build its Linux sandbox ' +
        '(`bwrapPath`, `socatPath`, `ripgrep.command`, `seccomp.applyPath`; Claude Code: under `sandbox`) ' +
        'that lies in the project or in a write grant is an error: whoever writes it runs outside the sandbox ' +
        '(a `bwrapPath` script that runs the command without bubblewrap reads `~/.ssh` under the real sandbox-runtime 0.0.83).',
      bad: {
        toml: '{\n  "sandbox": {"enabled": true, "excludedCommands": ["docker"], "failIfUnavailable": true, "allowUnsandboxedCommands": false}\n}',
        expect: ['2:52 warning macos,linux,windows', '2:85 warning windows'],
      },
      good: {
        toml: '{\n  "filesystem": {"denyRead": [], "allowWrite": [], "denyWrite": []},\n  "network": {"allowedDomains": [], "deniedDomains": []}\n}',
        expect: [],
      },
    },
  },
  messages: {
    unsandboxedRetry: {
      severity: 'warning',
      platforms: ['macos', 'linux'],
      text: (d: { how: string }) =>
        `${d.how}: a command that fails in the sandbox can be retried outside it (\`dangerouslyDisableSandbox\`), with all your access`,
      suggestion: 'Set "allowUnsandboxedCommands": false (strict sandbox mode).',
    },
    excluded: {
      severity: 'warning',
      platforms: PLATFORMS,
      text: (d: { command: string }) =>
        `\`${d.command}\` is an excluded command: Claude Code runs it outside the sandbox, with all your access`,
      suggestion: 'Remove it from excludedCommands, or grant what it needs inside the sandbox.',
    },
    failOpen: {
      severity: 'warning',
      platforms: ['macos', 'linux'],
      text: (d: { how: string }) =>
        `${d.how}: if the sandbox cannot start (on Linux: bubblewrap, socat or ripgrep missing), Claude ` +
        `Code runs commands unsandboxed (anthropics/claude-code#32285, #34044, #12515)`,
      suggestion: 'Set "failIfUnavailable": true, so that commands are refused instead.',
    },
    windowsUnsandboxed: {
      severity: 'warning',
      platforms: ['windows'],
      text: () => 'Claude Code has no sandbox on native Windows: without `failIfUnavailable`, Bash commands run unsandboxed there',
      suggestion: 'Run Claude Code in WSL2 on Windows, and set "failIfUnavailable": true.',
    },
    windowsRefused: {
      severity: 'warning',
      platforms: ['windows'],
      text: () => 'Claude Code has no sandbox on native Windows, and `failIfUnavailable` is true: Bash commands are refused there',
      suggestion: 'Run Claude Code in WSL2 on Windows.',
    },
    weakened: {
      severity: 'warning',
      platforms: ['macos', 'linux'],
      text: (d: { key: string; what: string }) => `\`${d.key}\` is on: ${d.what}`,
      suggestion: 'Turn it off unless the commands cannot run without it, and then only in user settings, never a project file.',
    },
    hostProgram: {
      severity: 'error',
      platforms: ['linux'],
      text: (d: { key: string; path: string; where: string; what: string }) =>
        `\`${d.key}\` is ${d.path}, ${d.where}: sandbox-runtime ${d.what}; whoever writes it runs outside the sandbox, with all your access`,
      suggestion: 'Point it at a system binary outside the project and every write grant (/usr/bin/bwrap), or leave it unset.',
    },
    externalProxy: {
      severity: 'warning',
      platforms: PLATFORMS,
      text: (d: { key: string }) =>
        `\`${d.key}\` hands the network to an external proxy: ${'sandbox-runtime'} starts none of its own, so \`allowedDomains\` is that proxy's to enforce`,
    },
  },
  explains: {
    'srt-sandbox-unavailable': () =>
      'Claude Code has no sandbox on native Windows: commands run unsandboxed unless failIfUnavailable refuses them',
  },
  check(ctx) {
    const ir = ctx.ir;
    if (ir.dialect === 'claude') {
      if (setting(ir, 'enabled')?.value !== true) return;
      const retry = setting(ir, 'allowUnsandboxedCommands');
      if (retry?.value !== false)
        ctx.report(
          'unsandboxedRetry',
          { span: retry?.span ?? ir.runtime!.settings.get('sandbox')!.keySpan },
          { how: retry ? '`allowUnsandboxedCommands` is true' : '`allowUnsandboxedCommands` is not set (its default is true)' },
        );
      const excluded = setting(ir, 'excludedCommands');
      if (Array.isArray(excluded?.value) && excluded.value.length)
        ctx.report('excluded', { span: excluded.span }, { command: (excluded.value as unknown[]).map(String).join('`, `') });
      const fail = setting(ir, 'failIfUnavailable');
      const at = fail?.span ?? ir.runtime!.settings.get('sandbox')!.keySpan;
      if (fail?.value !== true) {
        ctx.report(
          'failOpen',
          { span: at },
          { how: fail ? '`failIfUnavailable` is false' : '`failIfUnavailable` is not set (its default is false)' },
        );
        ctx.report('windowsUnsandboxed', { span: at });
      } else ctx.report('windowsRefused', { span: at });
    }
    // The switches as the settings' reach holds them (the facts diff compares): an item while on, at its key.
    const prefix = ir.dialect === 'claude' ? 'sandbox.' : '';
    const reach = ir.runtime?.reach.items ?? [];
    for (const s of switches) {
      const on = reach.find((i) => i.key === prefix + s.key && i.value === 'true' && !i.byDefault);
      if (on) ctx.report('weakened', { span: on.span, platforms: s.platforms }, { key: s.key, what: s.what });
    }
    for (const key of ['network.httpProxyPort', 'network.socksProxyPort']) {
      const w = setting(ir, key);
      if (w !== undefined) ctx.report('externalProxy', { span: w.keySpan }, { key });
    }
    const writes = (path: string): boolean => {
      const c = ctx.access.principals[0]?.effectiveAt(path, 'linux');
      return c?.kind === 'access' && c.write;
    };
    for (const item of reach) {
      const what = item.cls === 'host-program' && item.key.startsWith(prefix) ? hostPrograms[item.key.slice(prefix.length)] : undefined;
      // A bare name is looked up on PATH, as the host's shell would: only a path names a file the project may hold.
      if (!what || !item.value.includes('/')) continue;
      const path = posix.resolve(ir.runtime!.cwd, item.value);
      const inProject = isUnder(path, ir.runtime!.cwd);
      const writable = writes(path);
      if (!inProject && !writable) continue;
      const where =
        inProject && writable ? 'in the project and writable in the sandbox' : inProject ? 'in the project' : 'writable in the sandbox';
      ctx.report('hostProgram', { span: item.span }, { key: item.key, path, where, what });
    }
    void tool;
  },
});
