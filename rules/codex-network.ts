import { PLATFORMS } from '../compiler/diagnostic.js';
import { defineRule } from './engine/engine.js';
import { codexOf, codexSetting } from './codex-util.js';

export const codexNetwork = defineRule({
  meta: {
    id: 'codex-network',
    seedRow: "openai/codex#33351: a profile's network.domains enforces nothing without features.network_proxy",
    dialects: ['codex'],
    docs: {
      summary:
        "Codex's commands reach the network directly: `network_access = true`, or a profile's `network.enabled` " +
        'without the proxy, whose domain list then enforces nothing.',
      details:
        'In `workspace-write`, `[sandbox_workspace_write] network_access = true` lets commands open any ' +
        "connection; a permission profile's `network.enabled = true` does the same. Codex applies a profile's " +
        '`network.domains` only through its network proxy, which runs only with `features.network_proxy ' +
        '= true`: without it the domain list is not enforced, and direct network stays open (openai/codex#33351; ' +
        "measured with `codex sandbox` 0.171.0: a connection to the host's loopback succeeds with the domains " +
        'set and the feature off, and is refused with the feature on, the command given proxy variables ' +
        'instead). A warning at the setting that opens the network; another at each domain list the proxy ' +
        'does not enforce.',
      bad: {
        toml:
          'default_permissions = "dev"\n[permissions.dev.filesystem]\n":root" = "read"\n[permissions.dev.network]\n' +
          'enabled = true\ndomains = { "pypi.org" = "allow" }',
        expect: ['5:11 warning macos,linux,windows', '6:11 warning macos,linux,windows'],
      },
      good: {
        toml:
          'default_permissions = "dev"\n[features]\nnetwork_proxy = true\n[permissions.dev.filesystem]\n":root" = "read"\n' +
          '[permissions.dev.network]\nenabled = true\ndomains = { "pypi.org" = "allow" }',
        expect: [],
      },
    },
  },
  messages: {
    direct: {
      severity: 'warning',
      platforms: PLATFORMS,
      text: (d: { how: string }) =>
        `${d.how}: Codex's commands reach the network directly, any host and the host's loopback services (no proxy decides)`,
      suggestion: 'Turn the network off, or set `features.network_proxy = true` and list the domains the commands need.',
    },
    unenforced: {
      severity: 'warning',
      platforms: PLATFORMS,
      text: () =>
        '`network.domains` is not enforced: Codex applies domain rules only through its network proxy, and ' +
        '`features.network_proxy` is not true, so direct network stays open to every host (openai/codex#33351)',
      suggestion: 'Set `network_proxy = true` under `[features]`.',
    },
  },
  check(ctx) {
    const c = codexOf(ctx.ir);
    if (!c || c.mode === 'danger-full-access') return;
    const proxy = codexSetting(ctx.ir, 'features.network_proxy')?.value === true;
    if (c.mode === 'workspace-write' && c.network === 'direct') {
      const s = codexSetting(ctx.ir, 'sandbox_workspace_write.network_access');
      if (s) ctx.report('direct', { span: s.span }, { how: '`network_access = true`' });
    }
    if (c.mode !== 'profile') return;
    for (const [key, s] of ctx.ir.runtime!.settings) {
      if (c.network === 'direct' && /^permissions\.[^.]+\.network\.enabled$/.test(key) && s.value === true)
        ctx.report('direct', { span: s.span }, { how: `\`${key} = true\`` });
      if (!proxy && /^permissions\.[^.]+\.network\.domains$/.test(key)) ctx.report('unenforced', { span: s.span });
    }
  },
});
