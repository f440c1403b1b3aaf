// The CLI's bundles, as scripts/build.mjs makes them and bench/profile.mjs
// copies them (readable: whitespace and esbuild's `// path` comments kept).
// CommonJS, so that bin/boxwright.cjs can load them through a V8 code cache.
//
//   dist/cli/boxwright.cjs  every command
//   dist/cli/lint.cjs       the commands that need no target and no sandbox
//                           (LIGHT_COMMANDS): the front end, the model, the
//                           rules and the formats. bin/boxwright.cjs loads it
//                           for those, so that a lint — every pre-commit
//                           hook's — neither reads nor deserialises the
//                           three targets, the launcher and the runner
//                           (~30% of the full bundle's bytes; bench/README.md)
//   dist/cli/run-fast.cjs   `boxwright run` from the cache (targets/linux/run/run-fast.ts)
//   dist/cli/lsp.cjs        `boxwright lsp` (LSP_COMMANDS), the language server:
//                           vscode-languageserver is in no other bundle, so no
//                           other command reads or compiles it
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundledChevrotain, lazyAssert, lazyChildProcess, lazySegmenter, lazyTty, noGuessVersion } from './esbuild-plugins.mjs';

/** The commands dist/cli/lint.cjs holds; bin/boxwright.cjs keeps the same list. */
export const LIGHT_COMMANDS = ['lint', 'parse', 'schema', 'rules'];

/**
 * app/cli/main.ts imports each command's module on demand. In a bundle that
 * holds only some commands (`keep`), the others' modules are a module that
 * says the bundle was the wrong one (bin/boxwright.cjs never sends them
 * there: a bug if it shows).
 */
const onlyCommands = (bundle, keep) => ({
  name: `only-commands-of-${bundle}`,
  setup(build) {
    const command = /^\.\/([a-z-]+)\.js$/;
    build.onResolve({ filter: command }, (args) => {
      if (args.kind !== 'dynamic-import' || !args.importer.endsWith(join('app', 'cli', 'main.js'))) return undefined;
      const name = command.exec(args.path)[1];
      return keep(name) ? undefined : { path: name, namespace: `not-in-${bundle}` };
    });
    build.onLoad({ filter: /.*/, namespace: `not-in-${bundle}` }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`the command module ${args.path} is not in dist/cli/${bundle} (bin/boxwright.cjs chose the wrong bundle)`)});`,
      loader: 'js',
    }));
  },
});

/** The commands of dist/cli/lsp.cjs: the language server, and vscode-languageserver with it, which no other bundle holds. */
export const LSP_COMMANDS = ['lsp'];

/**
/**
 * `lint --fix`, `--unsafe-fixes` and `--diff` (app/cli/lint-fix.ts, the fix
 * loop and the `diff` package) run from the full bundle: bin/boxwright.cjs
 * sends a lint with one of FIX_OPTIONS there, so lint.cjs, which every plain
 * lint loads, holds none of it (the start-up budget). In lint.cjs the module
 * is one that says the bundle was the wrong one.
 */
export const FIX_OPTIONS = ['--fix', '--unsafe-fixes', '--diff'];
const fixesNotInLint = {
  name: 'fixes-not-in-lint',
  setup(build) {
    build.onResolve({ filter: /^\.\/lint-fix\.js$/ }, (args) =>
      args.kind === 'dynamic-import' && args.importer.endsWith(join('app', 'cli', 'lint.js'))
        ? { path: 'lint-fix', namespace: 'fixes-not-in-lint' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'fixes-not-in-lint' }, () => ({
      contents: `throw new Error('lint --fix, --unsafe-fixes and --diff are not in dist/cli/lint.cjs (bin/boxwright.cjs chose the wrong bundle)');`,
      loader: 'js',
    }));
  },
};

/**
 * Builds the four into outDir; returns each one's esbuild metafile (what it holds) by file name.
 * `only` builds just those bundles, and `lintPlugins` go first in lint.cjs's: the start-up budget's
 * control (test/cli/startup-budget.test.ts) builds a lint.cjs into which the runner has crept.
 */
export async function buildBundles(root, outDir, { readable = false, only, lintPlugins = [] } = {}) {
  const esbuild = await import('esbuild');
  const bundle = (entry, out, extra) =>
    esbuild.build({
      entryPoints: [join(root, 'dist', ...entry.split('/'))],
      outfile: join(outDir, out),
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      minifySyntax: true,
      minifyWhitespace: !readable,
      minifyIdentifiers: !readable,
      legalComments: readable ? 'none' : 'linked',
      define: { 'import.meta.url': '__boxwrightBundleUrl' },
      banner: { js: "const __boxwrightBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
      logLevel: 'warning',
      metafile: true,
      ...extra,
    });
  const plugins = [bundledChevrotain, lazyAssert, lazySegmenter, noGuessVersion];
  const builds = {
    'boxwright.cjs': () =>
      bundle('app/cli/entry.js', 'boxwright.cjs', {
        plugins: [onlyCommands('boxwright.cjs', (c) => !LSP_COMMANDS.includes(c)), ...plugins],
      }),
    'lint.cjs': () =>
      bundle('app/cli/entry.js', 'lint.cjs', {
        plugins: [
          ...lintPlugins,
          onlyCommands('lint.cjs', (c) => LIGHT_COMMANDS.includes(c)),
          fixesNotInLint,
          lazyChildProcess,
          lazyTty,
          ...plugins,
        ],
      }),
    'lsp.cjs': () =>
      bundle('app/cli/entry.js', 'lsp.cjs', { plugins: [onlyCommands('lsp.cjs', (c) => LSP_COMMANDS.includes(c)), ...plugins] }),
    // Small enough that a run from the cache pays for no front end.
    'run-fast.cjs': () => bundle('targets/linux/run/run-fast.js', 'run-fast.cjs', { legalComments: 'none' }),
  };
  const metafiles = {};
  for (const [name, build] of Object.entries(builds)) if (!only || only.includes(name)) metafiles[name] = (await build()).metafile;
  for (const name of Object.keys(metafiles)) assertAscii(join(outDir, name));
  return metafiles;
}

/**
 * A bundle must be ASCII. esbuild escapes non-ASCII characters in strings
 * and identifiers, but not in a regular-expression literal; one such
 * character makes Node decode the whole ~1 MB file into a two-byte string
 * (every start reads it: ~4 ms more under load, measured in bench/README.md)
 * instead of a one-byte one. Write `\u00b9` in the pattern instead.
 */
function assertAscii(file) {
  const bytes = readFileSync(file);
  const at = bytes.findIndex((b) => b > 0x7f);
  if (at < 0) return;
  const line = bytes.subarray(0, at).toString('latin1').split('\n').length;
  const around = bytes.subarray(Math.max(0, at - 60), at + 20).toString('utf8');
  throw new Error(
    `${file}:${line}: a non-ASCII byte in the bundle (a regular-expression literal? write the character as \\u escape): ${JSON.stringify(around)}`,
  );
}
