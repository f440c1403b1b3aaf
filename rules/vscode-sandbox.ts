import { PLATFORMS } from '../compiler/diagnostic.js';
import { defineRule } from './engine/engine.js';

/** Reported by the VS Code front end (app/check-peers.ts), not by a check: VS Code's settings are linted, not modelled. */
export const vscodeSandbox = defineRule({
  meta: {
    id: 'vscode-sandbox',
    seedRow: "VS Code's agent sandbox settings (code.visualstudio.com/docs/agents/run/agent-sandboxing): chat.agent.sandbox.*",
    dialects: ['vscode'],
    docs: {
      summary:
        "VS Code's agent sandbox settings widen the sandbox: off, the network allowed (`allowNetwork`, a " +
        '`*` domain), a write path over the home or a host-trusted path.',
      details:
        'VS Code sandboxes the agent\'s terminal commands when `chat.agent.sandbox.enabled` is `"on"` (a ' +
        'fork of sandbox-runtime: bubblewrap and socat on Linux, Seatbelt on macOS); `"allowNetwork"` keeps ' +
        'the filesystem rules and opens the network, `"off"` (the default) runs commands unsandboxed. `chat.agent.sandbox.allowedNetworkDomains` ' +
        "with `*` allows every host. `chat.agent.sandbox.fileSystem.linux` and `.mac` take sandbox-runtime's " +
        'lists (`allowWrite`, `denyWrite`, `denyRead`, `allowRead`); an `allowWrite` at or above the home, ' +
        'or holding a host-trusted path, lets commands write what the host runs after them. A warning each, ' +
        'at the value; a key under `chat.agent.sandbox.` VS Code does not have is `unknown-setting`. No ' +
        '`explain` yet: its sandbox (`@vscode/sandbox-runtime` 0.0.1 on npm) runs here and agrees with the ' +
        'sandbox-runtime model but for three measured shapes (docs/dialects/vscode.md), which a model of ' +
        'the fork would need.',
      bad: {
        toml: '{\n  "chat.agent.sandbox.enabled": "allowNetwork"\n}',
        expect: ['2:33 warning macos,linux,windows'],
        readFrom: '/home/dev/project/.vscode/settings.json',
      },
      good: { toml: '{\n  "chat.agent.sandbox.enabled": "on"\n}', expect: [], readFrom: '/home/dev/project/.vscode/settings.json' },
    },
  },
  messages: {
    off: {
      severity: 'warning',
      platforms: PLATFORMS,
      text: (d: { how: string }) =>
        `${d.how}: VS Code runs the agent's terminal commands unsandboxed, so the sandbox settings here apply to nothing`,
      suggestion: 'Set "chat.agent.sandbox.enabled": "on".',
    },
    networkOpen: {
      severity: 'warning',
      platforms: PLATFORMS,
      text: (d: { how: string }) => `${d.how}: the agent's terminal commands reach every host on the network`,
      suggestion: 'Use "on" and list the hosts the commands need in "chat.agent.sandbox.allowedNetworkDomains".',
    },
    writable: {
      severity: 'warning',
      platforms: PLATFORMS,
      text: (d: { path: string; what: string }) =>
        `${d.path} is writable for the agent's commands, and it holds ${d.what}: they may write what the host runs or trusts after them`,
      suggestion: 'Name the directories the commands write, not one that holds your home or host-trusted files.',
    },
  },
});
