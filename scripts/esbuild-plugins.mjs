// esbuild plugins for the CLI bundle, each removing start-up work that the
// bundled libraries do eagerly at import time. Measured in bench/cold-lint.mjs.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** yargs' `import … from 'assert'` → a shim that loads node:assert only on failure. */
export const lazyAssert = {
  name: 'lazy-assert',
  setup(build) {
    build.onResolve({ filter: /^(node:)?assert$/ }, (args) =>
      args.importer.includes(`${'/'}yargs${'/'}`) ? { path: join(here, 'shims', 'assert.mjs') } : undefined,
    );
  },
};

/**
 * string-width (used by yargs' help layout) creates an Intl.Segmenter at
 * import, which loads ICU segmentation data (~12 ms) even when no help is
 * printed. Create it on first use instead; the library's logic is unchanged.
 */
export const lazySegmenter = {
  name: 'lazy-segmenter',
  setup(build) {
    build.onLoad({ filter: /[\\/]string-width[\\/]index\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const eager = 'const segmenter = new Intl.Segmenter();';
      if (!source.includes(eager)) throw new Error(`lazy-segmenter: ${args.path} changed; review the plugin`);
      const lazy = 'let segmenterInstance;\nconst segmenter = { segment: (s) => (segmenterInstance ??= new Intl.Segmenter()).segment(s) };';
      return { contents: source.replace(eager, lazy), loader: 'js' };
    });
  },
};

/**
 * compiler/toml/chevrotain.ts finds chevrotain's prebuilt bundle at run time,
 * for the unbundled dist/ the tests use. In the CLI bundle, esbuild bundles
 * chevrotain itself (tree-shaken), so the loader becomes a plain import.
 */
export const bundledChevrotain = {
  name: 'bundled-chevrotain',
  setup(build) {
    build.onLoad({ filter: /[\\/]compiler[\\/]toml[\\/]chevrotain\.js$/ }, () => ({
      contents: "import * as api from 'chevrotain';\nexport function chevrotain() { return api; }\n",
      loader: 'js',
      resolveDir: here,
    }));
  },
};
