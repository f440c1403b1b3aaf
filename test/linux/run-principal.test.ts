// `boxwright run --principal tool.NAME|mcp.NAME` with no `--` runs the
// principal's configured `command` and `args` (issue 22: it said "name the
// command after --"), and a principal is spelt one way in every message.
// The MCP server here also shows that `deny-open-to-others` is true: the
// agent's deny of ~/ncproj/.env leaves the file readable to a server that
// reads ~/ncproj (the issue's reproduction returned SECRET=1), while the
// agent itself reads the empty cover (the control).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { requireOrSkip } from '../helpers.js';
import { boxwright, bwrapAvailable } from './support.js';

const skip = requireOrSkip(bwrapAvailable, 'bubblewrap');

describe('boxwright run --principal: the configured command', { skip }, () => {
  let home = '';
  let config = '';
  before(() => {
    home = realpathSync(mkdtempSync(join(tmpdir(), 'boxwright-principal-')));
    mkdirSync(join(home, 'ncproj'));
    writeFileSync(join(home, 'ncproj', '.env'), 'SECRET=1\n');
    config = join(home, 'c.toml');
    writeFileSync(
      config,
      [
        '[agent.filesystem]',
        'read = ["~/ncproj", "/usr"]',
        'deny = ["~/ncproj/.env"]',
        'exec = ["/usr/bin/cat"]',
        '',
        '[mcp_servers.fs]',
        'command = "/usr/bin/cat"',
        `args = ["${join(home, 'ncproj', '.env')}"]`,
        '[mcp_servers.fs.filesystem]',
        'read = ["~/ncproj", "/usr"]',
        'exec = ["/usr/bin/cat"]',
        '',
        '[tools.bare.filesystem]',
        'read = ["/usr"]',
        '',
        '[tools.odd]',
        'command = ["/usr/bin/cat"]',
        '',
        '[tools.spaced]',
        'command = "/usr/bin/cat -n"',
        '[tools.spaced.filesystem]',
        'read = ["/usr"]',
        '',
      ].join('\n'),
    );
  });
  after(() => rmSync(home, { recursive: true, force: true }));
  const run = (...a: string[]) => boxwright(['run', config, '--home', home, ...a], { env: { XDG_CACHE_HOME: join(home, 'cache') } });

  it('mcp.fs with no `--` runs its command and args: it reads the file the agent denies (the agent reads the empty cover)', async () => {
    const server = await run('--principal', 'mcp.fs');
    assert.deepEqual([server.status, server.stdout, server.stderr], [0, 'SECRET=1\n', '']);
    const colon = await run('--principal', 'mcp:fs');
    assert.deepEqual([colon.status, colon.stdout], [0, 'SECRET=1\n'], 'the flag takes mcp:NAME too');
    const agent = await run('--', '/usr/bin/cat', join(home, 'ncproj', '.env'));
    assert.deepEqual([agent.status, agent.stdout], [0, '']);
    const lint = await boxwright(['lint', '--home', home, '--format', 'json', config]);
    const open = (
      JSON.parse(lint.stdout) as { files: { diagnostics: { ruleId: string; message: string; platforms: string[] }[] }[] }
    ).files[0]!.diagnostics.filter((d) => d.ruleId === 'deny-open-to-others');
    assert.deepEqual(
      open.map((d) => [d.platforms, d.message]),
      [
        [
          ['macos', 'linux'],
          `the agent's deny of ${join(home, 'ncproj', '.env')} holds in its own sandbox only: MCP server \`fs\` can read it (its \`read\` of ~/ncproj, line 10)`,
        ],
      ],
    );
  });
  it("-v names the configured command and where it is written; every line of the run, the launcher's included, has one prefix", async () => {
    const r = await run('--principal', 'mcp.fs', '-v');
    assert.equal(r.status, 0);
    const lines = r.stderr.trimEnd().split('\n');
    assert.ok(lines.length >= 4, r.stderr);
    assert.deepEqual(
      lines.filter((l) => !l.startsWith('boxwright run: ')),
      [],
      'one program, one prefix (it mixed boxwright run:, mcp.fs.run: and boxwright-sandbox:)',
    );
    assert.ok(
      lines.some((l) => l.startsWith('boxwright run: running "')),
      "the launcher's own -v line",
    );
    assert.ok(
      r.stderr
        .split('\n')
        .includes(`boxwright run: running mcp.fs's configured command (${config}:7): "/usr/bin/cat" "${join(home, 'ncproj', '.env')}"`),
      r.stderr,
    );
  });
  it('a principal with no command, or one that is not a string, says so and runs nothing (125)', async () => {
    const bare = await run('--principal', 'tool.bare');
    assert.equal(bare.status, 125);
    assert.equal(
      bare.stderr,
      `boxwright run: tool.bare has no configured \`command\` in ${config} (its table at line 13): name the command after --: boxwright run ${config} --principal tool.bare -- CMD [ARGS...]; the command did not run\n`,
    );
    const odd = await run('--principal', 'tool.odd');
    assert.equal(odd.status, 125);
    assert.match(
      odd.stderr,
      /^boxwright run: tool\.odd's configured command cannot be run: `command` is not a string \(.*c\.toml:17\); name the command after --, or write `command = "PROGRAM"` and `args = \["ARG", …\]`; the command did not run\n$/,
    );
  });
  it('a command with a space is one program name (no shell splits it): not found, 127', async () => {
    const r = await run('--principal', 'tool.spaced');
    assert.equal(r.status, 127, r.stderr);
    assert.match(r.stderr, /\/usr\/bin\/cat -n/);
  });
  it("the agent has no configured command: `--` is required (exit 2); an unknown principal lists the others in the flag's spelling", async () => {
    const agent = await run();
    assert.equal(agent.status, 2);
    assert.match(
      agent.stderr,
      /^boxwright run: name the command after --: boxwright run CONFIG -- CMD \[ARGS\.\.\.\] \(a tool or MCP server runs its configured `command` and `args` with --principal tool\.NAME\|mcp\.NAME and no --\)\n/,
    );
    const none = await run('--principal', 'mcp:nope', '--', '/usr/bin/true');
    assert.equal(none.status, 125);
    assert.equal(
      none.stderr,
      `boxwright run: ${config} has no principal mcp.nope (it has: agent, tool.bare, tool.odd, tool.spaced, mcp.fs; choose one with --principal agent|tool.NAME|mcp.NAME); the command did not run\n`,
    );
  });
});
