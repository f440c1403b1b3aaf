import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isSandboxConfigFile, sandboxConfigKind } from '../../compiler/schema/dialect.js';
import { peerFile } from '../../compiler/schema/peers.js';
import { cli } from '../cli-in-process.js';
import { repoRoot } from '../helpers.js';

const fixtures = 'test/peers/fixtures';

/** In process (test/cli-in-process.ts), from the checkout. */
const boxwright = (args: string[]) => cli(args, { env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '' } });

/** Each peer's file as found in the wild, and what lint calls it. */
const peers: readonly { readonly path: string; readonly what: string }[] = [
  { path: `${fixtures}/.vscode/settings.json`, what: 'VS Code settings' },
  { path: `${fixtures}/.gemini/sandbox-macos-custom.sb`, what: 'a macOS Seatbelt profile (.sb, as Gemini CLI uses)' },
];

describe("peers' own files (issue 36)", () => {
  for (const { path, what } of peers) {
    it(`${path}: passed over with a one-line note in the pre-commit mode, exit 0`, async () => {
      const r = await boxwright(['lint', '--only-configs', '--fs', 'none', path]);
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.equal(r.stdout, '0 errors, 0 warnings, 0 info\n');
      assert.equal(r.stderr, `boxwright: passed over ${path}: ${what}, which boxwright has no dialect for yet\n`);
    });
    it(`${path}: named explicitly, exit 2 with a message that says what it is`, async () => {
      const r = await boxwright(['lint', '--fs', 'none', path]);
      assert.equal(r.status, 2, r.stdout + r.stderr);
      const why = `is ${what}, which boxwright has no dialect for yet: it is not read as a Box, TYBA, sandbox-runtime or Claude Code config`;
      assert.equal(r.stdout, `${path}: not read: ${why}\n0 errors, 0 warnings, 0 info, 1 file not read\n`);
      assert.equal(r.stderr, `boxwright: cannot read ${path}: ${why}\n`);
    });
  }

  it('control: the same Codex and Gemini files read as boxwright dialects are refused (what the recognition prevents)', async () => {
    const codex = await boxwright(['lint', '--fs', 'none', '--dialect', 'box', `${fixtures}/.codex/config.toml`]);
    assert.equal(codex.status, 1);
    assert.match(codex.stdout, /unknown table `env`/);
    const gemini = await boxwright(['lint', '--fs', 'none', '--dialect', 'box', `${fixtures}/.gemini/sandbox-macos-custom.sb`]);
    assert.equal(gemini.status, 1);
    assert.match(gemini.stdout, /toml-syntax/);
  });

  it('a directory: its Codex config is linted as Codex (issue 39), the hidden peers directories are not walked', async () => {
    const r = await boxwright(['lint', '--fs', 'none', fixtures]);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.equal(
      r.stdout,
      `${fixtures}/codex-shared.toml (codex): macos accepted · linux accepted · windows accepted\n0 errors, 0 warnings, 0 info\n`,
    );
    assert.equal(r.stderr, '');
  });

  it("Codex's config.toml is a dialect now (issue 39): by its place and by its keys, linted, in the pre-commit mode too", async () => {
    for (const path of [`${fixtures}/.codex/config.toml`, `${fixtures}/codex-shared.toml`]) {
      const bytes = readFileSync(join(repoRoot, path));
      assert.equal(isSandboxConfigFile(bytes, path), true, path);
      const r = await boxwright(['lint', '--only-configs', '--fs', 'none', path]);
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /\(codex\): macos accepted/);
      assert.equal(r.stderr, '');
    }
  });

  it("none is one of the repository's sandbox configs (what diff --git and compile --out ask), each is its peer's", async () => {
    for (const { path, what } of peers) {
      const bytes = readFileSync(join(repoRoot, path));
      assert.equal(isSandboxConfigFile(bytes, path), false, path);
      const kind = sandboxConfigKind(bytes, path);
      assert.ok('peer' in kind && kind.peer.what === what, path);
    }
  });

  it('by content on standard input: a Seatbelt profile piped to lint is not read (exit 2), never 30 TOML errors', async () => {
    const profile = readFileSync(join(repoRoot, fixtures, '.gemini/sandbox-macos-custom.sb'));
    const r = await cli(['lint', '--fs', 'none', '-'], { stdin: profile, env: { ...process.env, NO_COLOR: '1' } });
    assert.equal(r.status, 2);
    assert.equal(
      r.stderr,
      'boxwright: cannot read <stdin>: is a macOS Seatbelt profile (.sb, as Gemini CLI uses), which boxwright has no dialect for yet: it is not read as a Box, TYBA, sandbox-runtime or Claude Code config\n',
    );
  });

  it('explain reads a Codex config as Codex, never as Box', async () => {
    const r = await boxwright(['explain', '--fs', 'none', `${fixtures}/.codex/config.toml`]);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /config\.toml \(codex\)/);
    assert.match(r.stdout, /writable_roots \/tmp\/build-cache/);
  });

  it('no sandbox config of a dialect is taken for a peer: the examples keep their dialects', async () => {
    for (const example of [
      'coding-agent.toml',
      'tyba-user-config.toml',
      'helper-execution.toml',
      'settings/srt-settings.json',
      'settings/project/.claude/settings.json',
    ]) {
      const path = join(repoRoot, 'examples', example);
      assert.equal(peerFile(readFileSync(path), path), undefined, example);
      assert.equal(isSandboxConfigFile(readFileSync(path), path), true, example);
    }
    // A Box config with a Codex-looking key beside its own `agent` is Box's to judge (Box's own keys win).
    const box = Buffer.from('approval_policy = "never"\n[agent.filesystem]\nread = ["~/project"]\n');
    assert.equal(peerFile(box, 'sandbox.toml'), undefined);
    // A Box server table with `filesystem` keeps the file Box's, whatever other server keys it has.
    const server = Buffer.from('[mcp_servers.search]\ncommand = "s"\nurl = "x"\n[mcp_servers.search.filesystem]\nread = ["~/index"]\n');
    assert.equal(peerFile(server, 'sandbox.toml'), undefined);
  });

  it('peers by content, away from their places: Codex keys, a Codex MCP server, Codex [tools] switches, Cursor keys, (version 1)', async () => {
    const codex = (text: string) => peerFile(Buffer.from(text), 'x.toml')?.format;
    assert.equal(codex('sandbox_mode = "read-only"\n'), 'codex');
    assert.equal(codex('[mcp_servers.gh]\ncommand = "npx"\n[mcp_servers.gh.env]\nTOKEN = "t"\n'), 'codex');
    assert.equal(codex('[tools]\nweb_search = true\n'), 'codex');
    assert.equal(codex('[mcp_servers.gh]\ncommand = "npx"\n'), undefined, 'a bare server is Box-shaped too: only its place tells');
    assert.equal(peerFile(Buffer.from('{"type": "workspace_readonly"}'), 'x.json')?.format, 'cursor');
    assert.equal(peerFile(Buffer.from(';; a profile\n(version 1)\n(deny default)\n'), 'profile')?.format, 'seatbelt');
    // A broken file at a peer's place is still the peer's: no TOML syntax errors for someone else's file.
    assert.equal(peerFile(Buffer.from('[agents\n'), 'repo/.codex/config.toml')?.format, 'codex');
  });
});
