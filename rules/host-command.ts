import { defineRule } from './engine/engine.js';

/** When Claude Code runs each helper (the settings reference). */
const helpers: Readonly<Record<string, string>> = {
  apiKeyHelper: 'to get the API key',
  awsAuthRefresh: 'to refresh AWS credentials',
  awsCredentialExport: 'to export AWS credentials',
  otelHeadersHelper: 'to make telemetry headers',
  'statusLine.command': 'to draw the status line',
};

export const hostCommand = defineRule({
  meta: {
    id: 'host-command',
    seedRow:
      'Claude Code settings reference (hooks, apiKeyHelper, statusLine, MCP servers: run as the user, not in the Bash sandbox); issue 36',
    dialects: ['claude'],
    docs: {
      summary: 'A hook, helper or MCP server of a Claude Code settings file: Claude Code runs it as you, outside the sandbox.',
      details:
        'The sandbox confines the commands of the Bash tool only. A hook (`hooks.SessionStart`, `PreToolUse`, ' +
        '…), a helper (`apiKeyHelper`, `awsAuthRefresh`, `awsCredentialExport`, `otelHeadersHelper`, `statusLine`) ' +
        "and the project's MCP servers (`enableAllProjectMcpServers`, `enabledMcpjsonServers`) run as you, " +
        "with all your access, whatever `sandbox` says: one line in a project's `.claude/settings.json` " +
        'runs a script of the project on every session start. Each is a warning naming the command and when ' +
        'it runs, so that review reads it as code. `diff --fail-on widen` fails on each one added.',
      bad: {
        toml:
          '{\n  "sandbox": {"enabled": true, "failIfUnavailable": true, "allowUnsandboxedCommands": false},\n' +
          '  "hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "./scripts/setup.sh"}]}]}\n}',
        expect: ['3:41 warning macos,linux,windows'],
      },
      good: {
        toml: '{\n  "sandbox": {"enabled": true, "failIfUnavailable": true, "allowUnsandboxedCommands": false}\n}',
        expect: [],
      },
    },
  },
  messages: {
    hook: {
      severity: 'warning',
      platforms: ['macos', 'linux', 'windows'],
      text: (d: { key: string; command: string; qualifier?: string }) =>
        `\`${d.key}\` runs \`${d.command}\` as you, outside the sandbox, at every ${d.key.slice('hooks.'.length)} event${d.qualifier ? ` ${d.qualifier}` : ''}`,
      suggestion: 'Review the command as code; keep hooks in user settings unless the project needs them.',
    },
    helper: {
      severity: 'warning',
      platforms: ['macos', 'linux', 'windows'],
      text: (d: { key: string; command: string; when: string }) =>
        `\`${d.key}\` runs \`${d.command}\` as you, outside the sandbox, ${d.when}`,
      suggestion: 'Review the command as code; a helper in a project file runs whatever the project holds.',
    },
    mcp: {
      severity: 'warning',
      platforms: ['macos', 'linux', 'windows'],
      text: (d: { key: string; what: string }) => `\`${d.key}\` starts ${d.what} as you, outside the sandbox`,
      suggestion: 'Enable the MCP servers you reviewed by name, in user settings.',
    },
  },
  check(ctx) {
    for (const item of ctx.ir.runtime?.reach.items ?? []) {
      if (item.cls !== 'unsandboxed' || item.effect !== 'grants') continue;
      if (item.key.startsWith('hooks.') || item.key === 'hooks')
        ctx.report(
          'hook',
          { span: item.span },
          { key: item.key, command: item.value, ...(item.qualifier ? { qualifier: item.qualifier } : {}) },
        );
      else if (helpers[item.key])
        ctx.report('helper', { span: item.span }, { key: item.key, command: item.value, when: helpers[item.key]! });
      else if (item.key === 'enableAllProjectMcpServers')
        ctx.report('mcp', { span: item.span }, { key: item.key, what: "every MCP server of the project's .mcp.json" });
      else if (item.key === 'enabledMcpjsonServers')
        ctx.report('mcp', { span: item.span }, { key: item.key, what: `the MCP server \`${item.value}\`` });
    }
  },
});
