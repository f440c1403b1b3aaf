import { PLATFORMS } from '../compiler/diagnostic.js';
import { defineRule } from './engine/engine.js';

/**
 * Claude Code keys honoured only in managed settings (the settings
 * reference: "Only honored when set by managed settings; ignored in
 * user/project settings").
 */
const managedOnly = [
  'sandbox.network.allowManagedDomainsOnly',
  'sandbox.filesystem.allowManagedReadPathsOnly',
  'permissions.allowManagedPermissionRulesOnly',
];

export const managedOnlySetting = defineRule({
  meta: {
    id: 'managed-only',
    seedRow:
      'Claude Code settings reference: allowManagedDomainsOnly, allowManagedReadPathsOnly, allowManagedPermissionRulesOnly are managed-only',
    dialects: ['claude'],
    docs: {
      summary: 'A Claude Code setting that is honoured only in managed settings, written in a user, project or local file: ignored.',
      details:
        '`sandbox.network.allowManagedDomainsOnly`, `sandbox.filesystem.allowManagedReadPathsOnly` and `permissions.allowManagedPermissionRulesOnly` ' +
        'lock the other layers out, so Claude Code reads them only from the managed settings file (managed-settings.json) ' +
        'and ignores them elsewhere (code.claude.com/docs/en/settings). In `.claude/settings.json` they ' +
        'look like a lock and lock nothing. A warning at the key; a file named managed-settings.json is ' +
        'the managed one.',
      bad: {
        toml: '{\n  "sandbox": {"enabled": true, "network": {"allowManagedDomainsOnly": true}}\n}',
        expect: ['2:44 warning macos,linux,windows'],
      },
      good: { toml: '{\n  "sandbox": {"enabled": true, "network": {"allowedDomains": ["github.com"]}}\n}', expect: [] },
    },
  },
  messages: {
    ignored: {
      severity: 'warning',
      platforms: PLATFORMS,
      text: (d: { key: string }) =>
        `\`${d.key}\` is honoured only in managed settings (managed-settings.json): Claude Code ignores it in this file`,
      suggestion: 'Move it to the managed settings file, or remove it.',
    },
  },
  check(ctx) {
    if (ctx.ir.runtime?.scope === 'managed') return;
    for (const key of managedOnly) {
      const w = ctx.ir.runtime?.settings.get(key);
      if (w?.value === true) ctx.report('ignored', { span: w.keySpan }, { key });
    }
  },
});
