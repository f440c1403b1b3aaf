import { PLATFORMS } from '../compiler/diagnostic.js';
import type { Ungranted } from '../model/facts.js';
import { defineRule } from './engine/engine.js';
import { codexOf, codexSetting } from './codex-util.js';
import { top } from './runtime-util.js';

const ungrantedText: Readonly<Record<Extract<Ungranted, { kind: 'codex-ungranted' }>['regime'], string>> = {
  'reads-open': 'readable and executable (Codex binds the host read-only), not writable',
  'reads-closed': 'not there: the profile reads only what its filesystem entries name (no `:root`)',
  'full-access': 'no sandbox (danger-full-access): everything you can do',
  unsupported: 'Codex has no sandbox for this platform: nothing runs under it',
};

export const codexFullAccess = defineRule({
  meta: {
    id: 'codex-full-access',
    seedRow: 'Codex config reference: sandbox_mode = "danger-full-access", the built-in :danger-full-access profile',
    dialects: ['codex'],
    docs: {
      summary: 'The Codex config runs commands with no sandbox: `danger-full-access`.',
      details:
        '`sandbox_mode = "danger-full-access"`, or a permission profile that is or extends `:danger-full-access`, ' +
        "turns Codex's sandbox off: commands run with all your access, every file writable and the network " +
        "open (Codex's config reference; measured with `codex sandbox` 0.171.0). A warning on every platform " +
        'at the value that says it.',
      bad: { toml: 'sandbox_mode = "danger-full-access"', expect: ['1:16 warning macos,linux,windows'] },
      good: { toml: 'sandbox_mode = "workspace-write"', expect: [] },
    },
  },
  messages: {
    fullAccess: {
      severity: 'warning',
      platforms: PLATFORMS,
      text: (d: { how: string }) =>
        `${d.how}: Codex runs commands with no sandbox, with all your access (every file writable, the network open)`,
      suggestion: 'Use "workspace-write" (or a permission profile), and name the extra directories the commands write in `writable_roots`.',
    },
  },
  explains: {
    'codex-no-sandbox': () => 'no sandbox: danger-full-access gives commands all your access',
    'codex-ungranted': (f) => ungrantedText[f.regime],
  },
  check(ctx) {
    const c = codexOf(ctx.ir);
    if (!c) return;
    const mode = codexSetting(ctx.ir, 'sandbox_mode');
    if (c.mode === 'danger-full-access')
      ctx.report('fullAccess', { span: mode?.span ?? top }, { how: '`sandbox_mode` is "danger-full-access"' });
    else if (c.mode === 'profile' && c.fullAccess) {
      const at = codexSetting(ctx.ir, 'default_permissions');
      ctx.report(
        'fullAccess',
        { span: at?.span ?? top },
        { how: `the permission profile \`${c.profile}\` is (or extends) :danger-full-access` },
      );
    }
  },
});
