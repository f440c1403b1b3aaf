/**
 * `boxwright lsp --stdio` through a real client someone else wrote:
 * Neovim's built-in LSP client (Debian's neovim, 0.7.2), headless, runs the
 * built command (bin/boxwright.cjs, the lsp.cjs bundle) and drives it from
 * test/lsp/nvim-client.lua: it opens a Box config with an astral character
 * before a finding on the same line, and records the diagnostics as they
 * came and as Neovim placed them (byte columns), a key's hover and a
 * rule's, the keys completed in a table, the quick fixes offered, the
 * buffer after Neovim applied one, the diagnostics of the fixed text, and
 * how the server ended when the client stopped it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { repoRoot, requireOrSkip } from '../helpers.js';

const nvim = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
const hasNvim = nvim.status === 0 && /^NVIM v0\.([7-9]|\d\d)\./.test(nvim.stdout);

interface Range {
  readonly start: { readonly line: number; readonly character: number };
  readonly end: { readonly line: number; readonly character: number };
}
interface Published {
  readonly range: Range;
  readonly code: string;
  readonly severity: number;
  readonly message: string;
}
interface Results {
  readonly error?: string;
  readonly initialized: boolean;
  readonly diagnostics: Published[];
  readonly shown: { lnum: number; col: number; end_lnum: number; end_col: number; code: string }[];
  readonly hover_key: { contents: { kind: string; value: string } };
  readonly hover_rule: { contents: { kind: string; value: string } };
  readonly completion: string[];
  readonly actions: { title: string; isPreferred: boolean }[];
  readonly fixed: string;
  readonly after: Published[];
  readonly exit: { code: number; signal: number };
}

const range = (line: number, start: number, end: number): Range => ({ start: { line, character: start }, end: { line, character: end } });

describe("Neovim's LSP client and boxwright lsp", () => {
  const dir = mkdtempSync(join(tmpdir(), 'boxwright-nvim-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('diagnostics at their ranges, hover, completion, a quick fix applied, and a clean shutdown', (t) => {
    const skip = requireOrSkip(hasNvim, 'Neovim 0.7 or later (its built-in LSP client)', 'apt-get install neovim');
    if (skip) return t.skip(skip);
    const file = join(dir, 'agent.toml');
    // 😀 is two UTF-16 code units and four UTF-8 bytes: the second finding of line 2 starts at character 17, byte 19.
    writeFileSync(file, '[agent.filesystem]\nread = ["~/😀/", "/usr//lib"]\nexec = ["/usr/bin/git"]\n');
    const out = join(dir, 'out.json');
    const cmd = [
      process.execPath,
      join(repoRoot, 'bin', 'boxwright.cjs'),
      'lsp',
      '--stdio',
      '--fs',
      join(repoRoot, 'examples', 'machine.json'),
    ];
    const r = spawnSync('nvim', ['--headless', '--clean', '-c', `luafile ${join(repoRoot, 'test', 'lsp', 'nvim-client.lua')}`], {
      env: { ...process.env, BOXWRIGHT_LSP_CMD: JSON.stringify(cmd), BOXWRIGHT_LSP_FILE: file, BOXWRIGHT_LSP_OUT: out },
      encoding: 'utf8',
      cwd: dir,
    });
    assert.equal(r.status, 0, r.stderr);
    const got = JSON.parse(readFileSync(out, 'utf8')) as Results;
    assert.equal(got.error, undefined);
    assert.equal(got.initialized, true);

    assert.deepEqual(
      got.diagnostics.map((d) => [d.code, d.severity, d.range]),
      [
        ['windows-open-reads', 2, range(0, 1, 6)],
        ['missing-path', 1, range(1, 8, 15)],
        ['noncanonical-path', 1, range(1, 8, 15)],
        ['exec-not-confined', 3, range(1, 8, 15)],
        ['noncanonical-path', 1, range(1, 17, 28)],
        ['exec-dependencies', 2, range(2, 8, 22)],
      ],
    );
    assert.equal(
      got.diagnostics[4]!.message,
      '`/usr//lib` is not canonical: it has an empty component (`//`); write /usr/lib\nsuggestion: Name the path as /usr/lib.',
    );
    assert.equal(
      got.diagnostics[5]!.message,
      "/usr/bin/git cannot start in the agent's sandbox on Linux: its ELF interpreter /lib64/ld-linux-x86-64.so.2 is not in the view [linux]\n" +
        'suggestion: Add to [agent.filesystem]: read = ["/usr/lib64"]',
    );
    // Neovim turned the UTF-16 characters into byte columns: past 😀, two more.
    assert.deepEqual(
      got.shown.map((d) => [d.code, d.lnum, d.col, d.end_lnum, d.end_col]),
      [
        ['windows-open-reads', 0, 1, 0, 6],
        ['exec-not-confined', 1, 8, 1, 17],
        ['missing-path', 1, 8, 1, 17],
        ['noncanonical-path', 1, 8, 1, 17],
        ['noncanonical-path', 1, 19, 1, 30],
        ['exec-dependencies', 2, 8, 2, 22],
      ],
    );

    // Hover on the key `read`: its description from the Box schema; on `"/usr//lib"`: the rule's documentation.
    assert.deepEqual(got.hover_key.contents, {
      kind: 'markdown',
      value: '`agent.filesystem.read`\n\nRead-only subtrees (content reads, no writes).',
    });
    assert.equal(got.hover_rule.contents.kind, 'markdown');
    assert.match(got.hover_rule.contents.value, /^## `noncanonical-path`\n\nA path is not in its canonical spelling\.\n/);

    // Completion on the empty last line of [agent.filesystem]: the table's keys, in the schema's order.
    assert.deepEqual(got.completion, [
      'read',
      'write',
      'read_file',
      'write_file',
      'list',
      'deny',
      'metadata',
      'exec',
      'workspace',
      'private_tmp',
    ]);

    // The quick fixes of lines 2 and 3: the renames are safe (preferred), adding the loader's directory widens access.
    assert.deepEqual(got.actions, [
      { title: 'Name the path as ~/😀', isPreferred: true },
      { title: 'Name the path as /usr/lib', isPreferred: true },
      { title: 'Add to [agent.filesystem]: read = ["/usr/lib64"] (widens access)', isPreferred: false },
    ]);
    assert.equal(got.fixed, '[agent.filesystem]\nread = ["~/😀/", "/usr/lib"]\nexec = ["/usr/bin/git"]\n');
    // The fixed text, checked again: the finding is gone, the others stay where they were.
    assert.deepEqual(
      got.after.map((d) => [d.code, d.range]),
      [
        ['windows-open-reads', range(0, 1, 6)],
        ['missing-path', range(1, 8, 15)],
        ['noncanonical-path', range(1, 8, 15)],
        ['exec-not-confined', range(1, 8, 15)],
        ['exec-dependencies', range(2, 8, 22)],
      ],
    );
    // stop_client: shutdown, then exit; the server ends with 0, as the protocol says after a shutdown.
    assert.deepEqual(got.exit, { code: 0, signal: 0 });
  });
});
