import { PLATFORMS } from '../compiler/diagnostic.js';
import { didYouMean } from '../compiler/schema/did-you-mean.js';
import { BUILTIN_PROFILES } from '../compiler/schema/codex.js';
import { defineRule } from './engine/engine.js';
import { codexOf, codexSetting, profileNames } from './codex-util.js';

export const codexProfileMissing = defineRule({
  meta: {
    id: 'codex-profile-missing',
    seedRow: 'Codex 0.171.0: "permissions profile `dev` extends undefined profile `nope`"',
    dialects: ['codex'],
    docs: {
      summary:
        'A permission profile names one that does not exist (`default_permissions` or `extends`): Codex ' +
        'refuses the config; or `sandbox_mode` makes the profiles unused.',
      details:
        'Codex resolves `default_permissions` to a built-in profile (`:read-only`, `:workspace`, `:danger-full-access`) ' +
        'or a `[permissions.NAME]` table, and each `extends` the same way; a name that is neither (or a ' +
        'cycle) stops Codex: `codex sandbox` 0.171.0 prints "permissions profile `dev` extends undefined ' +
        'profile `nope`" and runs nothing. An error at the name, with the nearest profile that exists. A ' +
        "`sandbox_mode` in the file wins over `default_permissions` (Codex's permissions page: the older " +
        'settings are used instead): a warning at `default_permissions`, which then applies nothing.',
      bad: {
        toml: 'default_permissions = "dev"\n[permissions.dev]\nextends = ":workspce"',
        expect: ['3:11 error macos,linux,windows'],
      },
      good: { toml: 'default_permissions = "dev"\n[permissions.dev]\nextends = ":workspace"', expect: [] },
    },
  },
  messages: {
    missing: {
      severity: 'error',
      platforms: PLATFORMS,
      text: (d: { key: string; name: string; near: string | undefined }) =>
        `\`${d.key}\` names the profile \`${d.name}\`, which is neither a built-in (${BUILTIN_PROFILES.join(', ')}) ` +
        `nor a \`[permissions.${d.name}]\` table: Codex refuses the config${d.near ? `; did you mean \`${d.near}\`?` : ''}`,
    },
    shadowed: {
      severity: 'warning',
      platforms: PLATFORMS,
      text: () =>
        '`default_permissions` is not used: `sandbox_mode` is set, and Codex then uses the older sandbox settings instead of permission profiles',
      suggestion: 'Remove `sandbox_mode` (and `[sandbox_workspace_write]`) to use the profile, or remove `default_permissions`.',
    },
  },
  check(ctx) {
    const c = codexOf(ctx.ir);
    if (!c) return;
    const perm = codexSetting(ctx.ir, 'default_permissions');
    if (perm && c.mode !== 'profile') {
      ctx.report('shadowed', { span: perm.keySpan });
      return;
    }
    if (c.mode !== 'profile') return;
    const names = profileNames(ctx.ir);
    const known = [...BUILTIN_PROFILES, ...names];
    const check = (key: string): void => {
      const s = codexSetting(ctx.ir, key);
      if (typeof s?.value !== 'string' || known.includes(s.value)) return;
      ctx.report('missing', { span: s.span }, { key, name: s.value, near: didYouMean(s.value, known) });
    };
    check('default_permissions');
    for (const n of names) check(`permissions.${n}.extends`);
  },
});
