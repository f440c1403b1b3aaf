/**
 * The CLI's bundles (scripts/bundles.mjs). dist/cli/lint.cjs holds the
 * commands that need no target, and nothing of the targets or the sandbox;
 * bin/boxwright.cjs sends exactly those commands to it.
 *
 * The esbuild plugins that take start-up work out of the bundles
 * (scripts/esbuild-plugins.mjs) must not change what the bundled libraries
 * compute. string-width's is checked against the unmodified library itself:
 * both bundled by esbuild, one with the plugin and one without, and the
 * widths of strings that reach every branch the plugin touched (emoji
 * sequences, keycaps, CJK, combining and spacing marks, zero-width
 * characters, Hangul jamo, ANSI escapes) compared.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../helpers.js';

const require = createRequire(join(repoRoot, 'package.json'));
type Build = (options: Record<string, unknown>) => Promise<unknown>;
const esbuild = require('esbuild') as { build: Build };
const stringWidthEntry = require.resolve('string-width', { paths: [join(repoRoot, 'node_modules', 'yargs')] });

const SAMPLES = [
  'plain ascii',
  '',
  '\u001B[31mred\u001B[0m',
  '👍',
  '👍🏽',
  '👨‍👩‍👧‍👦',
  '🏳️‍🌈',
  '1️⃣',
  '#⃣',
  '☺',
  '☺️',
  '漢字かな',
  'ｱｲｳ ﾞﾟｰ',
  'e\u0301',
  'क्षि',
  '\u200B\u200D\u2060',
  '\u1100\u1161\u11A8 \u1100\u1100\u1161',
  'a\u0903b',
  '\uD800',
  'mixed 👍 漢 e\u0301 ok',
];

interface Metafile {
  readonly inputs: Readonly<Record<string, unknown>>;
}
interface Bundles {
  readonly LIGHT_COMMANDS: readonly string[];
  readonly LSP_COMMANDS: readonly string[];
  readonly buildBundles: (root: string, outDir: string, options?: { readable?: boolean }) => Promise<Record<string, Metafile>>;
}
const bundles = async (): Promise<Bundles> => (await import(pathToFileURL(join(repoRoot, 'scripts', 'bundles.mjs')).href)) as Bundles;

describe("the CLI's bundles", () => {
  const dir = mkdtempSync(join(tmpdir(), 'boxwright-bundles-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('lint.cjs holds the light commands and none of the targets, the runner or the sandbox', async () => {
    const { buildBundles, LIGHT_COMMANDS } = await bundles();
    const meta = await buildBundles(repoRoot, dir);
    const inputs = (name: string): string[] => Object.keys(meta[name]!.inputs);
    const lint = inputs('lint.cjs');
    for (const c of LIGHT_COMMANDS) assert.ok(lint.includes(`dist/app/cli/${c}.js`), `lint.cjs holds the ${c} command`);
    for (const c of ['compile', 'explain', 'run', 'doctor', 'diff', 'learn', 'learn-check'])
      assert.ok(!lint.includes(`dist/app/cli/${c}.js`), `lint.cjs has no ${c} command`);
    // What a lint needs of them: the host's Landlock ABI (landlock-unavailable), probed through the launcher's helper program.
    const probe = [
      'dist/targets/linux/run/sandbox/landlock-abi.js',
      'dist/targets/run/cache-dir.js',
      'dist/targets/linux/launcher/index.js',
      'dist/targets/linux/launcher/launch-file.js',
      'dist/targets/linux/arch.js',
    ];
    // And what the model asks of each platform (issue 38): the registry, each unit's entry and its model part.
    const decides = (f: string): boolean => /^dist\/targets\/(units\.js|[^/]+\/unit\.js|[^/]+\/model\/)/.test(f);
    assert.deepEqual(
      lint.filter((f) => /^dist\/targets\//.test(f) && !probe.includes(f) && !decides(f)),
      [],
    );
    assert.ok(lint.includes('dist/targets/linux/model/index.js'), "lint.cjs holds Linux's model part");
    // The full bundle does hold them: the test would see a broken plugin that drops everything.
    assert.ok(inputs('boxwright.cjs').some((f) => f.startsWith('dist/targets/linux/')));
    assert.ok(inputs('boxwright.cjs').includes('dist/app/cli/compile.js'));
    // Nor the fix loop of lint --fix/--diff and the `diff` package (issue 40): a fixing lint runs from the full bundle, which holds them.
    const fixing = (f: string) => ['dist/app/fix-apply.js', 'dist/app/cli/lint-fix.js'].includes(f) || /(^|\/)node_modules\/diff\//.test(f);
    assert.deepEqual(lint.filter(fixing), []);
    assert.equal(inputs('boxwright.cjs').filter(fixing).length >= 3, true);
    // The language server and vscode-languageserver are in lsp.cjs alone (issue 40): no other command reads them.
    const server = (f: string) => f.startsWith('dist/app/lsp/') || f.includes('node_modules/vscode-') || f === 'dist/app/cli/lsp.js';
    for (const name of ['lint.cjs', 'boxwright.cjs', 'run-fast.cjs']) assert.deepEqual(inputs(name).filter(server), [], name);
    const lsp = inputs('lsp.cjs');
    for (const f of ['dist/app/cli/lsp.js', 'dist/app/lsp/server.js', 'node_modules/vscode-languageserver/lib/node/main.js'])
      assert.ok(lsp.includes(f), `lsp.cjs holds ${f}`);
    // Nor another command, nor more of the targets than a lint's check needs.
    for (const c of ['lint', 'compile', 'run', 'learn']) assert.ok(!lsp.includes(`dist/app/cli/${c}.js`), `lsp.cjs has no ${c} command`);
    assert.deepEqual(
      lsp.filter((f) => /^dist\/targets\//.test(f) && !probe.includes(f) && !decides(f)),
      [],
    );
  });

  it('bin/boxwright.cjs sends exactly the light commands to lint.cjs and lsp to lsp.cjs, and lint.cjs refuses the others clearly', async () => {
    const { LIGHT_COMMANDS, LSP_COMMANDS } = await bundles();
    const bin = readFileSync(join(repoRoot, 'bin', 'boxwright.cjs'), 'utf8');
    const listed = /const LIGHT_COMMANDS = \[([^\]]*)\]/.exec(bin);
    assert.ok(listed, 'bin/boxwright.cjs lists LIGHT_COMMANDS');
    assert.deepEqual(JSON.parse(`[${listed[1]!.replaceAll("'", '"')}]`), LIGHT_COMMANDS);
    const lspListed = /const LSP_COMMANDS = \[([^\]]*)\]/.exec(bin);
    assert.ok(lspListed, 'bin/boxwright.cjs lists LSP_COMMANDS');
    assert.deepEqual(JSON.parse(`[${lspListed[1]!.replaceAll("'", '"')}]`), LSP_COMMANDS);
    // The wrong bundle for a command: exit 2 and one line that says so, never a stack trace.
    const lintBundle = join(repoRoot, 'dist', 'cli', 'lint.cjs');
    const r = spawnSync(
      process.execPath,
      ['-e', `require(${JSON.stringify(lintBundle)}).run(['compile', 'x.toml', '--target', 'linux', '--out', 'o'])`],
      { encoding: 'utf8' },
    );
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /^boxwright: internal error: the command module compile is not in dist\/cli\/lint\.cjs/);
  });

  it('bin/boxwright.cjs sends a lint with --fix, --unsafe-fixes or --diff to the full bundle; lint.cjs refuses one clearly', async () => {
    const { FIX_OPTIONS } = (await bundles()) as Bundles & { FIX_OPTIONS: readonly string[] };
    const bin = readFileSync(join(repoRoot, 'bin', 'boxwright.cjs'), 'utf8');
    const listed = /const FIX_OPTIONS = \[([^\]]*)\]/.exec(bin);
    assert.ok(listed, 'bin/boxwright.cjs lists FIX_OPTIONS');
    assert.deepEqual(JSON.parse(`[${listed[1]!.replaceAll("'", '"')}]`), FIX_OPTIONS);
    const tyba = '[sandbox]\nread_allow = ["~/.aws"]\n';
    const args = ['lint', '--fs', join(repoRoot, 'examples', 'machine.json'), '--diff', '-'];
    for (const flag of ['--diff', '--diff=true']) {
      const r = spawnSync(process.execPath, [join(repoRoot, 'bin', 'boxwright.cjs'), ...args.slice(0, -2), flag, '-'], {
        encoding: 'utf8',
        input: tyba,
      });
      assert.equal(r.status, 1, r.stderr);
      assert.match(r.stdout, /^--- a\/<stdin>\n/);
    }
    const lintBundle = join(repoRoot, 'dist', 'cli', 'lint.cjs');
    const r = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(lintBundle)}).run(${JSON.stringify(args)})`], {
      encoding: 'utf8',
      input: tyba,
    });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /^boxwright: internal error: lint --fix, --unsafe-fixes and --diff are not in dist\/cli\/lint\.cjs/);
  });
});

describe('esbuild plugins of the CLI bundle', () => {
  const dir = mkdtempSync(join(tmpdir(), 'boxwright-plugins-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const bundle = async (name: string, plugins: unknown[]): Promise<(s: string) => number> => {
    const outfile = join(dir, `${name}.mjs`);
    await esbuild.build({
      entryPoints: [stringWidthEntry],
      bundle: true,
      format: 'esm',
      platform: 'node',
      outfile,
      plugins,
      logLevel: 'silent',
    });
    return ((await import(pathToFileURL(outfile).href)) as { default: (s: string) => number }).default;
  };

  it("lazy-segmenter: string-width's widths are the library's, and no v-flag literal is left to validate at load", async () => {
    const { lazySegmenter } = (await import(pathToFileURL(join(repoRoot, 'scripts', 'esbuild-plugins.mjs')).href)) as {
      lazySegmenter: unknown;
    };
    const original = await bundle('original', []);
    const lazy = await bundle('lazy', [lazySegmenter]);
    for (const s of SAMPLES) assert.equal(lazy(s), original(s), `width of ${JSON.stringify(s)}`);
    // The samples did reach the emoji branch: a double-width emoji and a ZWJ family are 2 each.
    assert.equal(lazy('👨‍👩‍👧‍👦'), 2);
    const text = readFileSync(join(dir, 'lazy.mjs'), 'utf8');
    assert.doesNotMatch(text, /\/\^\\p\{RGI_Emoji\}\$\/v/, 'the RGI_Emoji literal is still a literal');
    assert.doesNotMatch(text, /new Intl\.Segmenter\(\);/, 'the segmenter is still made at import');
  });
});
