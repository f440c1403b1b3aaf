import { PLATFORMS } from '../compiler/diagnostic.js';
import type { Ungranted } from '../model/facts.js';
import { defineRule } from './engine/engine.js';
import { setting, top } from './runtime-util.js';

/** What sandbox-runtime gives where no grant names the path, on or off (explain's "everything else"). */
const srtUngrantedText: Readonly<Record<Extract<Ungranted, { kind: 'srt-ungranted' }>['regime'], string>> = {
  off: 'no sandbox: everything you can do',
  seatbelt: 'readable (reads are open unless denyRead says otherwise), not writable',
  bubblewrap: "readable and executable (the host is bound read-only at /), not writable; /dev and /proc are the sandbox's own",
  unavailable: 'Claude Code runs no sandbox on native Windows: with failIfUnavailable off, commands run unsandboxed',
  unsupported: 'sandbox-runtime has no sandbox for this platform: it does not start, so nothing runs under it',
  'sandbox-account':
    'what the srt-sandbox account may do on its own: nothing in your profile but the tool directories ' +
    "of the install's profile grant; elsewhere what the Users group may",
};

export const sandboxOff = defineRule({
  meta: {
    id: 'sandbox-off',
    seedRow: 'Claude Code settings reference: sandbox.enabled (default false); sandbox-runtime FilesystemConfigSchema: filesystem.disabled',
    dialects: ['srt', 'claude'],
    docs: {
      summary: 'The settings turn the sandbox off: Claude Code without `sandbox.enabled: true`, or `filesystem.disabled`.',
      details:
        'Claude Code sandboxes Bash commands only when `sandbox.enabled` is true; its default is false (code.claude.com/docs/en/settings, ' +
        '`sandbox`), so a file that configures `sandbox.filesystem` without enabling it configures nothing ' +
        '(fujibee/agmsg#362 documents the surprise), unless another settings layer enables it: this file ' +
        "alone leaves commands unsandboxed, and `explain` shows the whole tree writable. sandbox-runtime's " +
        '`filesystem.disabled: true` applies no read or write rule at all (FilesystemConfigSchema: "Disable ' +
        "all filesystem policy enforcement\"; getFsWriteConfig gives `allowOnly: ['/']`). A warning on every platform.",
      bad: { toml: '{\n  "sandbox": {"filesystem": {"denyRead": ["~/.aws"]}}\n}', expect: ['2:3 warning macos,linux,windows'] },
      good: {
        toml: '{\n  "sandbox": {"enabled": true, "failIfUnavailable": true, "allowUnsandboxedCommands": false, "filesystem": {"denyRead": ["~/.aws"]}}\n}',
        expect: [],
      },
    },
  },
  messages: {
    notEnabled: {
      severity: 'warning',
      platforms: PLATFORMS,
      text: (d: { how: string; readDenies: readonly string[] }) =>
        `${d.how}: Claude Code runs Bash commands unsandboxed unless \`sandbox.enabled\` is true (its default ` +
        `is false), so the sandbox settings here apply only where another settings layer enables it${
          d.readDenies.length
            ? `; its \`Read(…)\` deny rules (${d.readDenies.slice(0, 3).join(', ')}` +
              `${d.readDenies.length > 3 ? `, and ${d.readDenies.length - 3} more` : ''}) ` +
              `then stop Claude's own Read tool, not \`cat\` in Bash`
            : ''
        }`,
      suggestion:
        'Set "enabled": true in "sandbox" (and "failIfUnavailable": true, so that a missing dependency stops commands instead of unsandboxing them).',
    },
    disabled: {
      severity: 'warning',
      platforms: PLATFORMS,
      text: () =>
        '`filesystem.disabled` is true: sandbox-runtime applies no read or write rule, the whole filesystem is writable by the command',
      suggestion: 'Remove `disabled` and list what the command may write.',
    },
  },
  explains: {
    'srt-sandbox-off': () => 'no sandbox: the settings turn it off, so the command has all your access',
    'srt-ungranted': (f) => srtUngrantedText[f.regime],
  },
  check(ctx) {
    const ir = ctx.ir;
    if (ir.dialect === 'claude') {
      const enabled = setting(ir, 'enabled');
      if (enabled?.value === true) {
        const d = setting(ir, 'filesystem.disabled');
        if (d?.value === true) ctx.report('disabled', { span: d.keySpan });
        return;
      }
      const sandbox = ir.runtime?.settings.get('sandbox');
      const how = enabled
        ? '`sandbox.enabled` is false'
        : sandbox
          ? 'this file does not set `sandbox.enabled`'
          : 'this file has no `sandbox` block';
      // Without the sandbox a Read(…) deny is a permission of Claude's Read tool alone: a Bash command reads the file.
      const readDenies = (ir.principals[0]?.grants ?? [])
        .filter((g) => g.list === 'permissions.deny' && g.access === 'deny-read')
        .map((g) => g.written);
      ctx.report('notEnabled', { span: enabled?.span ?? sandbox?.keySpan ?? top }, { how, readDenies });
      return;
    }
    const d = setting(ir, 'filesystem.disabled');
    if (d?.value === true) ctx.report('disabled', { span: d.keySpan });
  },
});
