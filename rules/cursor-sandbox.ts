import { PLATFORMS } from '../compiler/diagnostic.js';
import { defineRule } from './engine/engine.js';

/** Reported by the Cursor front end (app/check-peers.ts), not by a check: Cursor's sandbox.json is linted, not modelled. */
export const cursorSandbox = defineRule({
  meta: {
    id: 'cursor-sandbox',
    seedRow:
      "Cursor's sandbox.json reference (cursor.com/docs/reference/sandbox): what widens the sandbox of the agent's terminal commands",
    dialects: ['cursor'],
    docs: {
      summary:
        "Cursor's sandbox.json widens the sandbox: off (`insecure_none`), the network open to every host, " +
        'a read-write path over the home or a host-trusted path, `/tmp` writable.',
      details:
        "Cursor runs the agent's terminal commands in its sandbox as `sandbox.json` says (`~/.cursor/sandbox.json`, " +
        'then the workspace\'s `.cursor/sandbox.json` over it). `type: "insecure_none"` turns the sandbox ' +
        'off; `networkPolicy.default: "allow"` or an `allow` entry `*` opens the network to every host; ' +
        'an `additionalReadwritePaths` entry at or above the home, or holding a host-trusted path (the catalog ' +
        '`host-trusted-path` uses: shell start-up files, `.git`, agent and editor configs), lets commands ' +
        'write what the host runs after them; without `disableTmpWrite: true` commands write `/tmp` and ' +
        'the system temp directories, shared with every process of the machine. A warning each, at the value ' +
        '(none is enforced by an oracle here: Cursor does not run on this machine, so there is no `explain` ' +
        'for this file).',
      bad: {
        toml: '{\n  "networkPolicy": {"default": "allow"},\n  "disableTmpWrite": true\n}',
        expect: ['2:32 warning macos,linux,windows'],
        readFrom: '/home/dev/project/.cursor/sandbox.json',
      },
      good: {
        toml: '{\n  "networkPolicy": {"default": "deny", "allow": ["registry.npmjs.org"]},\n  "disableTmpWrite": true\n}',
        expect: [],
        readFrom: '/home/dev/project/.cursor/sandbox.json',
      },
    },
  },
  messages: {
    off: {
      severity: 'warning',
      platforms: PLATFORMS,
      text: () => '`type` is "insecure_none": Cursor runs the agent\'s commands with no sandbox, with all your access',
    },
    networkOpen: {
      severity: 'warning',
      platforms: PLATFORMS,
      text: (d: { how: string }) => `${d.how}: the agent's commands reach every host on the network`,
      suggestion: 'Set "default": "deny" and list the hosts the commands need in "allow".',
    },
    writable: {
      severity: 'warning',
      platforms: PLATFORMS,
      text: (d: { path: string; what: string }) =>
        `${d.path} is read-write for the agent's commands, and it holds ${d.what}: they may write what the host runs or trusts after them`,
      suggestion: 'Name the directories the commands write, not one that holds your home or host-trusted files.',
    },
    tmpWrite: {
      severity: 'warning',
      platforms: PLATFORMS,
      text: () =>
        "`disableTmpWrite` is not true: the agent's commands write /tmp and the system temp directories, which every process of the machine shares",
      suggestion: 'Set "disableTmpWrite": true (and "enableSharedBuildCache" for build caches).',
    },
  },
});
