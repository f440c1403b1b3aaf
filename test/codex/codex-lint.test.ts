/**
 * Each Codex lint finding (issue 39) with its exact text and place, against
 * examples/machine.json (home /home/dev, a project with a .git there).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lintText } from '../lint-helpers.js';

const found = (text: string): string[] =>
  lintText(text, '/home/dev/project/.codex/config.toml').diagnostics.map(
    (d) => `${d.span.start.line}:${d.span.start.column} ${d.severity} ${d.ruleId} [${d.platforms.join(',')}] ${d.message}`,
  );

describe('Codex config.toml: each finding, exactly', () => {
  it('danger-full-access', () => {
    assert.deepEqual(found('sandbox_mode = "danger-full-access"\n'), [
      '1:16 warning codex-full-access [macos,linux,windows] `sandbox_mode` is "danger-full-access": Codex runs commands with no sandbox, with all your access (every file writable, the network open)',
    ]);
  });
  it('network_access = true', () => {
    assert.deepEqual(found('sandbox_mode = "workspace-write"\n[sandbox_workspace_write]\nnetwork_access = true\n'), [
      "3:18 warning codex-network [macos,linux,windows] `network_access = true`: Codex's commands reach the network directly, any host and the host's loopback services (no proxy decides)",
    ]);
  });
  it('a domain list without the proxy feature', () => {
    const text =
      'default_permissions = "dev"\n[permissions.dev.filesystem]\n":root" = "read"\n[permissions.dev.network]\ndomains = { "pypi.org" = "allow" }\n';
    assert.deepEqual(found(text), [
      '5:11 warning codex-network [macos,linux,windows] `network.domains` is not enforced: Codex applies domain rules only through its network proxy, and `features.network_proxy` is not true, so direct network stays open to every host (openai/codex#33351)',
    ]);
  });
  it('a profile that extends a missing one, with the nearest', () => {
    assert.deepEqual(found('default_permissions = "dev"\n[permissions.dev]\nextends = "bse"\n[permissions.base]\n'), [
      '3:11 error codex-profile-missing [macos,linux,windows] `permissions.dev.extends` names the profile `bse`, which is neither a built-in (:read-only, :workspace, :danger-full-access) nor a `[permissions.bse]` table: Codex refuses the config; did you mean `base`?',
    ]);
  });
  it('a writable root over the home', () => {
    assert.deepEqual(
      found('sandbox_mode = "workspace-write"\n[sandbox_workspace_write]\nwritable_roots = ["/home"]\n').filter((l) =>
        l.includes('codex-'),
      ),
      [
        '3:19 warning codex-writable-root [macos,linux,windows] the writable root /home holds your home: Codex keeps only .git, .codex, .agents and .aws read-only under it, so commands may write the rest',
      ],
    );
  });
  it('a writable root over a credential', () => {
    assert.deepEqual(
      found('sandbox_mode = "workspace-write"\n[sandbox_workspace_write]\nwritable_roots = ["~/.aws"]\n').filter((l) =>
        l.includes('codex-'),
      ),
      [
        '3:19 warning codex-writable-root [macos,linux,windows] the writable root ~/.aws holds known credentials (~/.aws): Codex keeps only .git, .codex, .agents and .aws read-only under it, so commands may write the rest',
      ],
    );
  });
  it('a writable root that holds a host-trusted path (the same catalog as the other dialects)', () => {
    const lines = found('sandbox_mode = "workspace-write"\n[sandbox_workspace_write]\nwritable_roots = ["~/project/.git/hooks"]\n');
    // Codex keeps ~/project/.git read-only (the working directory's protected name), but a root inside it is bound writable.
    assert.deepEqual(
      lines.map((l) => l.slice(0, l.indexOf(': the workload'))),
      [
        '3:19 warning host-trusted-path [macos,linux] /home/dev/project/.git/hooks is inside the host-trusted ~/project/.git (version-control metadata)',
        '3:19 warning host-trusted-path [macos,linux] /home/dev/project/.git/hooks is the host-trusted ~/project/.git/hooks (what git runs from a git directory)',
      ],
    );
  });
  it('an absent writable root', () => {
    assert.deepEqual(found('sandbox_mode = "workspace-write"\n[sandbox_workspace_write]\nwritable_roots = ["/srv/none"]\n'), [
      '3:19 warning codex-writable-root [linux] the writable root /srv/none does not exist: Codex skips it, so nothing there is writable (the command cannot create it)',
    ]);
  });
  it('default_permissions beside sandbox_mode is unused', () => {
    assert.deepEqual(found('sandbox_mode = "read-only"\ndefault_permissions = ":workspace"\n'), [
      '2:1 warning codex-profile-missing [macos,linux,windows] `default_permissions` is not used: `sandbox_mode` is set, and Codex then uses the older sandbox settings instead of permission profiles',
    ]);
  });
  it('the legacy `profile` selector, which Codex 0.171.0 refuses, and a bad sandbox_mode in a legacy profile table', () => {
    assert.deepEqual(found('profile = "ci"\n[profiles.ci]\nsandbox_mode = "read-olny"\n'), [
      '1:1 error schema [macos,linux,windows] `profile` (the legacy selector of a `[profiles.NAME]` table) is refused by Codex 0.171.0, which does not start: run `codex --profile NAME` with the settings in `$CODEX_HOME/NAME.config.toml` instead',
      '3:16 error schema [macos,linux,windows] `profiles.ci.sandbox_mode` is `read-olny`, which Codex refuses (it does not start): one of `read-only`, `workspace-write`, `danger-full-access`; did you mean `read-only`?',
    ]);
  });
  it('the rest of the file is passed over without a finding', () => {
    const text =
      'model = "o3"\napproval_policy = "on-request"\n[mcp_servers.gh]\ncommand = "npx"\n[mcp_servers.gh.env]\nT = "x"\n[tui]\nthemes = 1\n';
    assert.deepEqual(found(text), []);
  });
});
