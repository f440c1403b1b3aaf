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
        'sandbox-runtime validates its settings with zod objects that are not `.strict()` (dist/sandbox/sandbox-config.js: ' +
        'SandboxRuntimeConfigSchema, NetworkConfigSchema, FilesystemConfigSchema), and zod strips a key ' +
        'it does not know: `"denyWirte": ["~/.ssh"]` loads, runs, and protects nothing (sandbox-runtime ' +
        "#434). Claude Code's `sandbox` and `permissions` blocks pass over keys they do not know the same " +
        'way. A warning at the key on every platform, with the nearest key the tool does read. A key the ' +
        'tool refuses instead (inside a `.strict()` object) is a `schema` error.',
      bad: {
        toml:
          '{\n  "filesystem": {"denyRead": [], "allowWrite": [], "denyWrite": [], "denyWirte": ["~/.ssh"]},\n' +
          '  "network": {"allowedDomains": [], "deniedDomains": []}\n}',
        expect: ['2:69 warning macos,linux,windows'],
      },
      good: {
        toml: '{\n  "filesystem": {"denyRead": [], "allowWrite": [], "denyWrite": ["~/.ssh"]},\n  "network": {"allowedDomains": [], "deniedDomains": []}\n}',
        expect: [],
      },
    },
  },
  messages: {
    unknown: { severity: 'warning', platforms: PLATFORMS, text: (d: { message: string }) => d.message },
  },
});
