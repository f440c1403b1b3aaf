/**
 * The language server (app/lsp/server.ts) in process, spoken to by
 * vscode-languageserver's own client connection over in-memory pipes
 * (test/lsp/session.ts): every dialect's diagnostics at the protocol's
 * positions (lines broken at `\r` too, a kept byte order mark), a change,
 * hover on keys, completion in TOML tables, headers and JSON objects, a
 * quick fix's edit and title, the document bound, and what a hostile
 * client's framing does. test/lsp/neovim.test.ts runs the built command
 * under a real editor's client.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { CodeAction, CompletionItem, Diagnostic, Hover } from 'vscode-languageserver/node';
import { boundedFraming } from '../../app/lsp/framing.js';
import { keyAt, scanJsonKeys } from '../../app/lsp/key-scan.js';
import { scanTomlKeys } from '../../app/lsp/toml-keys.js';
import { MAX_INPUT_BYTES } from '../../app/input/read-input.js';
import { repoRoot } from '../helpers.js';
import { type Session, session } from './session.js';

const range = (line: number, start: number, end: number, endLine = line) => ({
  start: { line, character: start },
  end: { line: endLine, character: end },
});
const summary = (ds: Diagnostic[]) => ds.map((d) => [d.code, d.range]);

async function open(s: Session, uri: string, text: string): Promise<Diagnostic[]> {
  await s.client.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'plaintext', version: 1, text } });
  return s.diagnostics(uri);
}
const hover = (s: Session, uri: string, line: number, character: number) =>
  s.client.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line, character } }) as Promise<Hover | null>;
const complete = (s: Session, uri: string, line: number, character: number) =>
  s.client.sendRequest('textDocument/completion', { textDocument: { uri }, position: { line, character } }) as Promise<CompletionItem[]>;

const project = 'file:///home/dev/project';

describe('boxwright lsp, in process', () => {
  it("publishes every dialect's diagnostics at the protocol's positions, and passes over a file that is no config", async () => {
    const s = await session();
    // sandbox-runtime settings with lines broken at `\r` (JSON whitespace): the protocol counts them as lines, boxwright's spans count `\n` only.
    const srt = await open(
      s,
      `${project}/srt.json`,
      '{\r  "filesystem": { "denyRead": [], "allowWrite": ["/tmp//x"], "denyWrite": [], "allowRed": [] },\r' +
        '  "network": { "allowedDomains": [], "deniedDomains": [] }\r}\r',
    );
    assert.deepEqual(summary(srt), [
      ['absent-path', range(1, 49, 58)],
      ['unknown-setting', range(1, 78, 88)],
    ]);
    assert.equal(
      srt[1]!.message,
      'sandbox-runtime does not read `allowRed` in `filesystem` (did you mean `allowRead`?): ' +
        'it is passed over without a word, so whatever it says has no effect\nsuggestion: rename `allowRed` to `allowRead`',
    );
    const claude = await open(s, `${project}/.claude/settings.json`, '{ "sandbox": { "enabled": true } }\n');
    assert.deepEqual(summary(claude), [
      ['sandbox-bypass', range(0, 2, 11)],
      ['sandbox-bypass', range(0, 2, 11)],
      ['sandbox-bypass', range(0, 2, 11)],
    ]);
    const codex = await open(s, 'file:///home/dev/.codex/config.toml', 'sandbox_mode = "workspace-writ"\n');
    assert.deepEqual(summary(codex), [['schema', range(0, 15, 31)]]);
    const vscode = await open(s, `${project}/.vscode/settings.json`, '{\n  // the agent\n  "chat.agent.sandbox.enabled": false,\n}\n');
    assert.deepEqual(summary(vscode), [['vscode-sandbox', range(2, 32, 37)]]);
    // Box and TYBA: a kept byte order mark moves every character one on (the TOML parser drops it, the editor's text has it).
    const box = await open(s, `${project}/bom.toml`, '\uFEFF[agent.filesystem]\nread = ["/usr//lib"]\n');
    assert.deepEqual(summary(box), [
      ['windows-open-reads', range(0, 2, 7)],
      ['noncanonical-path', range(1, 8, 19)],
      ['exec-not-confined', range(1, 8, 19)],
    ]);
    const tyba = await open(s, `${project}/tyba.toml`, '[sandbox]\nread_alow = []\n');
    assert.deepEqual(summary(tyba), [['schema', range(1, 0, 9)]]);
    assert.deepEqual(await open(s, `${project}/package.json`, '{ "name": "x", "version": "1.0.0" }\n'), []);
    assert.deepEqual(await open(s, `${project}/Cargo.toml`, '[package]\nname = "x"\n\n[dependencies]\n'), []);
    // Someone else's file is offered no keys; a new one, the keys of a config.
    assert.deepEqual(await complete(s, `${project}/Cargo.toml`, 2, 0), []);
    assert.deepEqual(await open(s, `${project}/new.toml`, ''), []);
    assert.deepEqual(
      (await complete(s, `${project}/new.toml`, 0, 0)).map((i) => i.label),
      ['agent', 'tools', 'mcp_servers', 'experimental-features', 'sandbox'],
    );
    s.end();
  });

  it('checks again on a change, and a quick fix is the edit that removes its finding, titled by whether it widens access', async () => {
    const s = await session();
    const uri = `${project}/agent.toml`;
    await open(s, uri, '[agent.filesystem]\nread = ["/usr//lib"]\nexec = ["/usr/bin/git"]\n');
    const actions = (await s.client.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: range(1, 0, 30, 2),
      context: { diagnostics: [] },
    })) as CodeAction[];
    assert.deepEqual(
      actions.map((a) => [a.title, a.isPreferred, a.kind, a.edit?.changes?.[uri]]),
      [
        ['Name the path as /usr/lib', true, 'quickfix', [{ range: range(1, 8, 19), newText: '"/usr/lib"' }]],
        [
          'Add to [agent.filesystem]: read = ["/usr/lib64"] (widens access)',
          false,
          'quickfix',
          [{ range: range(1, 19, 19), newText: ', "/usr/lib64"' }],
        ],
      ],
    );
    // The first fix, sent as an editor sends it (an incremental change): its finding is gone.
    await s.client.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ range: range(1, 8, 19), text: '"/usr/lib"' }],
    });
    assert.deepEqual(
      (await s.diagnostics(uri)).map((d) => d.code),
      ['windows-open-reads', 'exec-not-confined', 'exec-dependencies'],
    );
    s.end();
  });

  it("hovers a key with its schema's description, in TOML (headers, dotted keys, inline tables) and JSON", async () => {
    const s = await session();
    const uri = `${project}/inline.toml`;
    await open(s, uri, 'agent = { filesystem = { read = ["/usr"] } }\n[tools.fmt]\nfilesystem.exec = []\n');
    assert.deepEqual(await hover(s, uri, 0, 26), {
      contents: { kind: 'markdown', value: '`agent.filesystem.read`\n\nRead-only subtrees (content reads, no writes).' },
    });
    assert.match(JSON.stringify(await hover(s, uri, 2, 12)), /tools\.fmt\.filesystem\.exec/);
    assert.match(JSON.stringify(await hover(s, uri, 1, 2)), /Explicitly declared tools, by name/);
    // A value, with no finding there: nothing to say.
    assert.equal(await hover(s, uri, 0, 31), null);
    const srt = `${project}/hover.json`;
    await open(
      s,
      srt,
      '{ "network": { "allowedDomains": [], "deniedDomains": [] }, "filesystem": { "denyRead": [], "allowWrite": [], "denyWrite": [] } }',
    );
    assert.deepEqual((await hover(s, srt, 0, 20))?.contents, {
      kind: 'markdown',
      value: '`network.allowedDomains`\n\nDomains the proxies allow (`*.example.com`, an optional `:port`); empty: no network.',
    });
    s.end();
  });

  it("completes a table's keys: a TOML key, a TOML header (tables only), a JSON member (quoted), a Codex table", async () => {
    const s = await session();
    const box = `${project}/complete.toml`;
    await open(s, box, '[agent.]\n[agent.filesystem]\nwr\n');
    assert.deepEqual(
      (await complete(s, box, 0, 7)).map((i) => [i.label, i.textEdit]),
      [
        ['filesystem', { range: range(0, 7, 7), newText: 'filesystem' }],
        ['network', { range: range(0, 7, 7), newText: 'network' }],
      ],
    );
    const typed = await complete(s, box, 2, 2);
    assert.deepEqual(typed[1]?.textEdit, { range: range(2, 0, 2), newText: 'write' });
    assert.equal(typed.length, 10);
    const srt = `${project}/complete.json`;
    await open(s, srt, '{ "filesystem": { }, "network": { "allowedDomains": [], "deniedDomains": [] } }');
    const members = await complete(s, srt, 0, 17);
    assert.deepEqual(
      members.map((i) => i.label),
      ['disabled', 'denyRead', 'allowRead', 'allowWrite', 'denyWrite', 'allowGitConfig'],
    );
    assert.deepEqual(members[1]!.textEdit, { range: range(0, 17, 17), newText: '"denyRead"' });
    const codex = 'file:///home/dev/.codex/config.toml';
    await open(s, codex, '[sandbox_workspace_write]\n\n');
    assert.deepEqual(
      (await complete(s, codex, 1, 0)).map((i) => i.label),
      ['writable_roots', 'network_access', 'exclude_tmpdir_env_var', 'exclude_slash_tmp'],
    );
    s.end();
  });

  it('refuses a document past the most boxwright reads with one diagnostic, and goes on', async () => {
    const s = await session();
    const uri = `${project}/huge.toml`;
    const big = await open(s, uri, `[agent.filesystem]\nread = []\n#${'x'.repeat(MAX_INPUT_BYTES)}\n`);
    assert.deepEqual(big, [
      {
        range: range(0, 0, 0),
        severity: 1,
        source: 'boxwright',
        message: `not checked: the document is ${MAX_INPUT_BYTES + 31} bytes, larger than 16 MiB, the most boxwright reads`,
      },
    ]);
    assert.deepEqual(await complete(s, uri, 2, 0), []);
    assert.deepEqual(await open(s, `${project}/small.toml`, '[agent.filesystem]\nread = ["/usr"]\n').then((d) => d.length > 0), true);
    s.end();
  });

  it('a hostile client: a message that is no JSON, one with no length, and one too long, each passed over; the server answers the next', async () => {
    const s = await session(undefined, 4096);
    const uri = `${project}/after.toml`;
    s.toServer.write('Content-Length: 9\r\n\r\n{"bad": ,');
    s.toServer.write('Content-Type: text/plain\r\n\r\n');
    s.toServer.write(`Content-Length: 5000\r\n\r\n${'x'.repeat(5000)}`);
    assert.equal((await open(s, uri, '[agent.filesystem]\nread = ["/usr//lib"]\n')).length > 0, true);
    assert.match(JSON.stringify(await hover(s, uri, 1, 1)), /agent\.filesystem\.read/);
    assert.deepEqual(s.shown, [
      'boxwright lsp: a message of 5000 bytes was dropped: longer than any holding a document of 16 MiB, the most boxwright reads',
    ]);
    assert.equal(s.broken, undefined);
    s.end();
  });
});

describe('the framing bound (app/lsp/framing.ts)', () => {
  const through = async (chunks: readonly (string | Buffer)[], maxBody: number) => {
    const dropped: number[] = [];
    const broken: string[] = [];
    const t = boundedFraming({ dropped: (n) => void dropped.push(n), broken: (r) => void broken.push(r) }, maxBody);
    const bodies: string[] = [];
    t.on('data', (c: Buffer) => bodies.push(c.toString()));
    for (const c of chunks) t.write(c);
    t.end();
    await new Promise((r) => t.on('end', r));
    return { bodies, dropped, broken };
  };
  const msg = (body: string) => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

  it('gives each body whole, however the stream is cut, and drops only the one too long', async () => {
    const stream = Buffer.from(msg('{"a":1}') + msg('x'.repeat(40)) + msg('{"é":"😀"}') + 'Content-Type: x\r\n\r\n' + msg('{}'));
    // Cut in bytes: through a character's UTF-8 bytes too.
    for (const cut of [1, 3, 7, stream.length]) {
      const chunks: Buffer[] = [];
      for (let i = 0; i < stream.length; i += cut) chunks.push(stream.subarray(i, i + cut));
      const r = await through(chunks, 32);
      // A header with no length: an empty body, which the reader reports as no JSON.
      assert.deepEqual(r.bodies, ['{"a":1}', '{"é":"😀"}', '', '{}'], `cut every ${cut}`);
      assert.deepEqual(r.dropped, [40]);
      assert.deepEqual(r.broken, []);
    }
  });

  it('stops at a header that never ends', async () => {
    const r = await through([`Content-Length: 5\r\nX-Pad: ${'p'.repeat(9000)}`], 32);
    assert.deepEqual(r.bodies, []);
    assert.deepEqual(r.broken, ["a message header runs past 8192 bytes without its blank line: not the protocol's framing"]);
  });
});

describe('boxwright lsp --stdio, the command (bin/boxwright.cjs, dist/cli/lsp.cjs)', () => {
  const frame = (m: object) => {
    const body = JSON.stringify(m);
    return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  };
  const initialize = frame({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });
  const run = (input: string) =>
    spawnSync(process.execPath, [join(repoRoot, 'bin', 'boxwright.cjs'), 'lsp', '--stdio', '--fs', 'none'], { input, encoding: 'utf8' });

  it('answers every message of a piped input before it ends: 0 after a shutdown, 1 without one, 2 for a header that never ends', () => {
    const shutdown = run(`${initialize}Content-Length: 3\r\n\r\n{{{${frame({ jsonrpc: '2.0', id: 1, method: 'shutdown', params: null })}`);
    assert.equal(shutdown.status, 0, shutdown.stderr);
    assert.match(shutdown.stdout, /^Content-Length: \d+\r\n\r\n\{"jsonrpc":"2\.0","id":0,"result":\{"capabilities":/);
    assert.ok(shutdown.stdout.endsWith('Content-Length: 38\r\n\r\n{"jsonrpc":"2.0","id":1,"result":null}'), shutdown.stdout);
    const cut = run(initialize);
    assert.equal(cut.status, 1, cut.stderr);
    assert.match(cut.stdout, /"serverInfo":\{"name":"boxwright"/);
    const broken = run(`Content-Length: 5\r\n${'x'.repeat(9000)}`);
    assert.equal(broken.status, 2);
    assert.equal(
      broken.stderr,
      "boxwright lsp: a message header runs past 8192 bytes without its blank line: not the protocol's framing\n",
    );
  });

  it('refuses to start without --stdio, and with an option lint would refuse', () => {
    const r = spawnSync(process.execPath, [join(repoRoot, 'bin', 'boxwright.cjs'), 'lsp'], { input: '', encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.equal(
      r.stderr,
      'boxwright lsp: --stdio is required: the server speaks the protocol on standard input and output, its only transport\n',
    );
    const fs = spawnSync(process.execPath, [join(repoRoot, 'bin', 'boxwright.cjs'), 'lsp', '--stdio', '--platform', 'beos'], {
      input: '',
      encoding: 'utf8',
    });
    assert.equal(fs.status, 2);
    assert.equal(fs.stderr, 'boxwright lsp: unknown platform `beos`: choose from macos, linux, windows\n');
  });
});

describe('where the keys are (app/lsp/toml-keys.ts, key-scan.ts)', () => {
  it('TOML: headers, dotted and quoted keys, inline tables; nothing inside strings or arrays', () => {
    const text = [
      '[agent.filesystem]',
      'read = [["[not.a.header]"], """',
      '[nor.this]',
      '"""]',
      '"quoted key".x = { a = 1, b.c = [1, {d = 2}] }',
      "[[tools.'fmt'.filesystem]]",
    ].join('\n');
    const scan = scanTomlKeys(text, -1);
    assert.deepEqual(
      scan.keys.map((k) => [k.path.join('/'), text.slice(k.start, k.end)]),
      [
        ['agent', 'agent'],
        ['agent/filesystem', 'filesystem'],
        ['agent/filesystem/read', 'read'],
        ['agent/filesystem/quoted key', '"quoted key"'],
        ['agent/filesystem/quoted key/x', 'x'],
        ['agent/filesystem/quoted key/x/a', 'a'],
        ['agent/filesystem/quoted key/x/b', 'b'],
        ['agent/filesystem/quoted key/x/b/c', 'c'],
        ['agent/filesystem/quoted key/x/b/c/d', 'd'],
        ['tools', 'tools'],
        ['tools/fmt', "'fmt'"],
        ['tools/fmt/filesystem', 'filesystem'],
      ],
    );
    assert.equal(keyAt(scan, text.indexOf('filesystem]]') + 3)?.path.join('.'), 'tools.fmt.filesystem');
    // Deep nesting reads on without exhausting the stack.
    assert.deepEqual(scanTomlKeys(`a = ${'['.repeat(100000)}`, -1).keys.length, 1);
  });

  it('JSON: member keys with their paths (escapes read), comments passed over; the key being typed', () => {
    const text = '{ "a\\"b": { /* "no": 1 */ "c": [ { "d": 1 } ] }, // "nor": 2\n "e": {"f';
    const scan = scanJsonKeys(text, text.length);
    assert.deepEqual(
      scan.keys.map((k) => k.path.join('/')),
      ['a"b', 'a"b/c', 'a"b/c/[]/d', 'e', 'e/f'],
    );
    assert.deepEqual(scan.context, { parent: ['e'], start: text.length - 2, end: text.length, header: false, json: true });
    // Nesting past any settings file's is read on, not kept: no stack, no key.
    assert.equal(scanJsonKeys(`${'['.repeat(100000)}{"x": 1}`, -1).keys.length, 0);
  });
});
