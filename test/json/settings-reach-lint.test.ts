/**
 * lint names what the settings gate fails on (issue 36), with its exact
 * output: a program sandbox-runtime runs from the project or a write grant
 * (`sandbox-bypass`, an error), each socket and the local binding that lead
 * out of the macOS sandbox (`socket-escape`), and the hooks, helpers and MCP
 * servers Claude Code runs outside it (`host-command`). The controls: the
 * same settings pointing at system programs, or without the sockets and
 * hooks, report none of them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkConfig } from '../../app/check.js';
import { machine } from '../lint-helpers.js';

const ours = new Set(['sandbox-bypass', 'socket-escape', 'host-command', 'violations-ignored', 'sandbox-off']);
const lint = (text: string, file: string): string[] =>
  checkConfig(Buffer.from(text), { file, view: machine, worktree: '/home/dev/project' })
    .diagnostics.filter((d) => ours.has(d.ruleId))
    .map((d) => `${d.span.start.line}:${d.span.start.column} ${d.severity} ${d.ruleId} [${d.platforms.join(',')}] ${d.message}`);

const srt = (extra: string, network = ''): string =>
  `{
  "network": {"allowedDomains": [], "deniedDomains": []${network}},
  "filesystem": {"denyRead": [], "allowWrite": [".", "~/work"], "denyWrite": []}${extra}
}
`;

describe('sandbox-bypass: programs sandbox-runtime runs, from the project or a write grant', () => {
  it('bwrapPath and seccomp.applyPath in the project, socatPath in a write grant (~/work): errors', () => {
    assert.deepEqual(
      lint(
        srt(
          ',\n  "bwrapPath": "/home/dev/project/tools/bwrap",\n  "socatPath": "/home/dev/work/socat",\n  "seccomp": {"applyPath": "/home/dev/project/apply-seccomp"}',
        ),
        'srt-settings.json',
      ),
      [
        '4:16 error sandbox-bypass [linux] `bwrapPath` is /home/dev/project/tools/bwrap, in the project and writable in the sandbox: sandbox-runtime runs it on the host to build the sandbox (a script there runs the command without bubblewrap); whoever writes it runs outside the sandbox, with all your access',
        '5:16 error sandbox-bypass [linux] `socatPath` is /home/dev/work/socat, writable in the sandbox: sandbox-runtime runs it on the host to bridge the network proxies; whoever writes it runs outside the sandbox, with all your access',
        '6:28 error sandbox-bypass [linux] `seccomp.applyPath` is /home/dev/project/apply-seccomp, in the project and writable in the sandbox: sandbox-runtime runs it to put the seccomp filter on the command (a script there runs the command unfiltered); whoever writes it runs outside the sandbox, with all your access',
      ],
    );
  });
  it('Claude Code: a relative ripgrep.command resolves in the project', () => {
    assert.deepEqual(
      lint(
        '{\n  "sandbox": {"enabled": true, "failIfUnavailable": true, "allowUnsandboxedCommands": false,\n    "ripgrep": {"command": "./node_modules/.bin/rg"}}\n}\n',
        '.claude/settings.json',
      ).filter((l) => l.includes('ripgrep')),
      [
        '3:28 error sandbox-bypass [linux] `sandbox.ripgrep.command` is /home/dev/project/node_modules/.bin/rg, in the project and writable in the sandbox: sandbox-runtime runs it on the host to find the mandatory denies (and trusts what it answers); whoever writes it runs outside the sandbox, with all your access',
      ],
    );
  });
  it('the weaker modes, read off the same reach as the gate: on is a warning at its key, off says nothing', () => {
    assert.deepEqual(lint(srt(',\n  "enableWeakerNestedSandbox": true,\n  "allowAppleEvents": false'), 'srt-settings.json'), [
      '4:3 warning sandbox-bypass [linux] `enableWeakerNestedSandbox` is on: a weaker Linux sandbox for Docker without privileged namespaces ("considerably weakens security")',
    ]);
  });
  it('control: system programs, and a bare name looked up on PATH, are not reported', () => {
    assert.deepEqual(
      lint(
        srt(',\n  "bwrapPath": "/usr/bin/bwrap",\n  "socatPath": "/usr/bin/socat",\n  "ripgrep": {"command": "rg"}'),
        'srt-settings.json',
      ),
      [],
    );
  });
});

describe('socket-escape: each socket and binding that leads out of the macOS sandbox, named', () => {
  it('docker.sock, Colima, a password-manager agent, another socket, allowLocalBinding', () => {
    const sockets =
      ',\n    "allowUnixSockets": ["/var/run/docker.sock", "/Users/dev/.colima/default/docker.sock",\n      "/Users/dev/Library/Group Containers/2BUA8C4S2C.com.1password/t/agent.sock", "/tmp/app.sock"],\n    "allowLocalBinding": true';
    assert.deepEqual(lint(srt('', sockets), 'srt-settings.json'), [
      "3:26 warning socket-escape [macos] `network.allowUnixSockets` allows /var/run/docker.sock: the Docker API, where a container with the host's `/` mounted is root on the host",
      "3:50 warning socket-escape [macos] `network.allowUnixSockets` allows /Users/dev/.colima/default/docker.sock: Colima's Docker API, one request from a container that mounts your home or the VM's root",
      '4:7 warning socket-escape [macos] `network.allowUnixSockets` allows /Users/dev/Library/Group Containers/2BUA8C4S2C.com.1password/t/agent.sock: a key or password-manager agent, which signs with your keys or hands out your secrets to whoever asks',
      '4:84 info socket-escape [macos] `network.allowUnixSockets` allows /tmp/app.sock (and every socket below it): the service behind it acts for the command, outside the sandbox',
      '5:5 warning socket-escape [macos] `network.allowLocalBinding` is on: the command can connect to every localhost port (databases, dev servers, debuggers, a Docker TCP API) and bind and accept on every address',
    ]);
  });
  it('control: no sockets, binding off', () => {
    assert.deepEqual(lint(srt('', ',\n    "allowUnixSockets": [], "allowLocalBinding": false'), 'srt-settings.json'), []);
  });
});

describe('host-command: what Claude Code runs as you, outside the sandbox', () => {
  const sandbox = '"sandbox": {"enabled": true, "failIfUnavailable": true, "allowUnsandboxedCommands": false}';
  it('hooks (with a matcher), helpers, the status line, MCP servers', () => {
    const text = `{
  ${sandbox},
  "hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "./scripts/setup.sh"}]}],
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "python3 .claude/check.py"}]}]},
  "apiKeyHelper": "~/bin/key.sh",
  "statusLine": {"type": "command", "command": "~/.claude/statusline.sh"},
  "enabledMcpjsonServers": ["github"]
}
`;
    assert.deepEqual(
      lint(text, '.claude/settings.json').filter((l) => l.includes('host-command')),
      [
        '3:41 warning host-command [macos,linux,windows] `hooks.SessionStart` runs `./scripts/setup.sh` as you, outside the sandbox, at every SessionStart event',
        '4:58 warning host-command [macos,linux,windows] `hooks.PreToolUse` runs `python3 .claude/check.py` as you, outside the sandbox, at every PreToolUse event matching Bash',
        '5:19 warning host-command [macos,linux,windows] `apiKeyHelper` runs `~/bin/key.sh` as you, outside the sandbox, to get the API key',
        '6:48 warning host-command [macos,linux,windows] `statusLine.command` runs `~/.claude/statusline.sh` as you, outside the sandbox, to draw the status line',
        '7:29 warning host-command [macos,linux,windows] `enabledMcpjsonServers` starts the MCP server `github` as you, outside the sandbox',
      ],
    );
  });
  it('control: a settings file with none of them', () => {
    assert.deepEqual(
      lint(`{\n  ${sandbox},\n  "disableAllHooks": true\n}\n`, '.claude/settings.json').filter((l) => l.includes('host-command')),
      [],
    );
  });
});

describe('host-trusted-path in the JSON dialects: what the host runs or trusts after the run, writable', () => {
  const why =
    "coding agents' own settings in the home: their hooks, MCP servers, helper commands and permission lists run or decide outside any sandbox the next time the agent starts";
  it('~/.claude and ~/.claude.json granted (sandbox-runtime), ~/.asdf and inside ~/.rvm (Claude Code): warnings where writable', () => {
    const ours = (l: string) => l.includes('host-trusted-path');
    const all = (text: string, file: string) =>
      checkConfig(Buffer.from(text), { file, view: machine, worktree: '/home/dev/project' })
        .diagnostics.filter((d) => ours(d.ruleId))
        .map((d) => `${d.span.start.line}:${d.span.start.column} ${d.severity} [${d.platforms.join(',')}] ${d.message}`);
    assert.deepEqual(
      all(srt('').replace('"allowWrite": [".", "~/work"]', '"allowWrite": ["~/.claude", "~/.claude.json"]'), 'srt-settings.json'),
      [
        `3:49 warning [macos] /home/dev/.claude is the host-trusted ~/.claude (an agent's own settings): the workload may write what the host runs or trusts after the run (${why})`,
        `3:62 warning [macos] /home/dev/.claude.json is the host-trusted ~/.claude.json (an agent's own settings): the workload may write what the host runs or trusts after the run (${why})`,
      ],
    );
    const claude =
      '{\n  "sandbox": {"enabled": true, "failIfUnavailable": true, "allowUnsandboxedCommands": false,\n    "filesystem": {"allowWrite": ["~/.asdf", "~/.rvm/bin"]}}\n}\n';
    assert.deepEqual(
      all(claude, '.claude/settings.json').map((l) => l.replace(/ \(language environments and version managers: .*\)$/, ' (…)')),
      [
        '3:35 warning [macos] /home/dev/.asdf is the host-trusted ~/.asdf (a language environment or version manager): the workload may write what the host runs or trusts after the run (…)',
        '3:46 warning [macos] /home/dev/.rvm/bin is inside the host-trusted ~/.rvm (a language environment or version manager): the workload may write what the host runs or trusts after the run (…)',
      ],
    );
  });
  it("inside a project write root, the project's existing .git is named once at the grant", () => {
    assert.deepEqual(
      lint(srt(''), 'srt-settings.json').length,
      0,
      'the three rules of this file say nothing of a plain project write root',
    );
    const r = checkConfig(Buffer.from(srt('')), { file: 'srt-settings.json', view: machine, worktree: '/home/dev/project' });
    assert.deepEqual(
      r.diagnostics.filter((d) => d.ruleId === 'host-trusted-path').map((d) => `${d.span.start.line}:${d.span.start.column} ${d.message}`),
      [
        '3:49 inside /home/dev/project, the host-trusted ~/project/.git (version-control metadata) is writable in the sandbox: sandbox-runtime keeps only its mandatory denies read-only, so the command may write what the host runs or trusts after the run',
      ],
    );
  });
  it("control: srt's own default writes (~/.claude/debug) are not reported", () => {
    const r = checkConfig(Buffer.from(srt('').replace('"allowWrite": [".", "~/work"]', '"allowWrite": []')), {
      file: 'srt-settings.json',
      view: machine,
      worktree: '/home/dev/project',
    });
    assert.deepEqual(
      r.diagnostics.filter((d) => d.ruleId === 'host-trusted-path'),
      [],
    );
  });
});

describe('violations-ignored: what ignoreViolations keeps from being reported (a substring match)', () => {
  it('a pattern that hides a whole tree is a warning, a narrower one an info; the control reports nothing', () => {
    assert.deepEqual(lint(srt(',\n  "ignoreViolations": {"*": ["/home"], "npm": ["/home/dev/.npm/_cacache"]}'), 'srt-settings.json'), [
      '4:3 warning violations-ignored [macos,linux] `ignoreViolations` hides every violation of every command whose report contains `/home` (a substring: every path below it): the sandbox still blocks them, and nobody is told a command tried',
      '4:3 info violations-ignored [macos,linux] `ignoreViolations` hides the violations of every command whose text contains `npm` whose report contains `/home/dev/.npm/_cacache` (a substring, not a path: every path that holds it): the sandbox still blocks them, unreported',
    ]);
    assert.deepEqual(lint(srt(''), 'srt-settings.json'), []);
  });
});

describe("sandbox-off: Read(…) denies with Claude Code's sandbox off", () => {
  it('say that they stop the Read tool, not cat in Bash; without Read denies the warning says only that the sandbox is off', () => {
    assert.deepEqual(
      lint('{\n  "permissions": {"deny": ["Read(~/.ssh/**)", "Read(./.env)", "Bash(rm:*)"]}\n}\n', '.claude/settings.json'),
      [
        "1:1 warning sandbox-off [macos,linux,windows] this file has no `sandbox` block: Claude Code runs Bash commands unsandboxed unless `sandbox.enabled` is true (its default is false), so the sandbox settings here apply only where another settings layer enables it; its `Read(…)` deny rules (Read(~/.ssh/**), Read(./.env)) then stop Claude's own Read tool, not `cat` in Bash",
      ],
    );
    assert.deepEqual(lint('{\n  "permissions": {"deny": ["Bash(rm:*)"]}\n}\n', '.claude/settings.json'), [
      '1:1 warning sandbox-off [macos,linux,windows] this file has no `sandbox` block: Claude Code runs Bash commands unsandboxed unless `sandbox.enabled` is true (its default is false), so the sandbox settings here apply only where another settings layer enables it',
    ]);
  });
});
