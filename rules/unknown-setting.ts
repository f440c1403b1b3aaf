import { PLATFORMS } from '../compiler/diagnostic.js';
import { defineRule } from './engine/engine.js';

/** Reported by the settings schema (compiler/schema/validate-json.ts), not by a check. */
export const unknownSetting = defineRule({
  meta: {
    id: 'unknown-setting',
    seedRow: 'sandbox-runtime #434: unknown config keys are silently ignored, so a misspelt denyWrite fails open',
    dialects: ['srt', 'claude', 'codex'],
    docs: {
      summary: 'A settings key the tool does not read: it is passed over without a word, so what it says has no effect.',
      details:
        'sandbox-runtime validates its settings with zod objects that are not `.strict()` ' +
        '(dist/sandbox/sandbox-config.js: SandboxRuntimeConfigSchema, NetworkConfigSchema, ' +
        'FilesystemConfigSchema), and zod strips a key it does not know: `"denyWirte": ["~/.ssh"]` loads, ' +
        "runs, and protects nothing (sandbox-runtime #434). Claude Code's `sandbox` and `permissions` " +
        'blocks pass over keys they do not know the same way. A warning at the key on every platform, with ' +
        'the nearest key the tool does read and the rename as a fix, but for a key already written: ' +
        '`denyWirte` renamed beside a `denyWrite` would make JSON.parse keep the renamed list and drop the ' +
        'other. The rename is unsafe when the key starts to grant or boxwright cannot judge what it starts ' +
        'to say (`lint --unsafe-fixes` applies it). A key the tool refuses instead (inside a `.strict()` object) is a `schema` error.',
      bad: {
        toml: '{\n  "sandbox": {"enabled": true, "filesystem": {"denyWirte": ["~/.ssh"]}}\n}',
        expect: ['2:47 warning macos,linux,windows'],
      },
      good: {
        toml: '{\n  "sandbox": {"enabled": true, "filesystem": {"denyWrite": ["~/.ssh"]}}\n}',
        expect: [],
      },
    },
  },
  messages: {
    unknown: { severity: 'warning', platforms: PLATFORMS, text: (d: { message: string }) => d.message },
  },
});
