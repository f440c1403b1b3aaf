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
 * `import … from 'node:child_process'` → a shim that loads the module on
 * first use (scripts/shims/child-process.mjs says why). For dist/cli/lint.cjs,
 * whose commands run no program but the rare Landlock probe.
 */
export const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(build) {
    build.onResolve({ filter: /^(node:)?child_process$/ }, () => ({ path: join(here, 'shims', 'child-process.mjs') }));
  },
};

/**
 * `import … from 'node:tty'` → a shim whose isatty answers from fstat where
 * that is certain (scripts/shims/tty.mjs says why). For dist/cli/lint.cjs:
 * the CLI's io asks whether standard input is a terminal at every start.
 */
export const lazyTty = {
  name: 'lazy-tty',
  setup(build) {
    build.onResolve({ filter: /^(node:)?tty$/ }, () => ({ path: join(here, 'shims', 'tty.mjs') }));
  },
};

/**
 * yargs' constructor calls `.version()`, which guesses the program's version
 * by walking up from the entry point to a package.json and reading it (~4 ms
 * of every start, measured in a CPU profile of a cold lint). boxwright
 * turns yargs' version option off (`.version(false)`: it has its own
 * `--version`), so the guess is thrown away; skip the walk.
 */
export const noGuessVersion = {
  name: 'no-guess-version',
  setup(build) {
    build.onLoad({ filter: /[\\/]yargs[\\/]build[\\/]lib[\\/]yargs-factory\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const guess = "[kGuessVersion]() {\n        const obj = this[kPkgUp]();\n        return obj.version || 'unknown';\n    }";
      if (!source.includes(guess)) throw new Error(`no-guess-version: ${args.path} changed; review the plugin`);
      return { contents: source.replace(guess, "[kGuessVersion]() {\n        return 'unknown';\n    }"), loader: 'js' };
    });
  },
};

/**
 * string-width (used by yargs' help layout), two start-up costs of its
 * import, each paid even when no help is printed:
 * - it creates an Intl.Segmenter, which loads ICU segmentation data (~12 ms);
 * - it has three `/…/v` regular-expression literals, and V8 validates a
 *   literal when it compiles the function holding it, code cache or not:
 *   `\p{RGI_Emoji}` with the v flag builds the whole emoji sequence set
 *   (~10 ms, measured: `node -e` of a script holding the literal in a
 *   function that never runs, against `node -e 0`), the other two ~1.5 ms.
 * Both are made on first use instead (a `new RegExp` on the same pattern and
 * flags, built once); the library's logic is unchanged. A printable-ASCII
 * string (all of boxwright's help) takes string-width's fast path and never
 * builds them.
 */
const LAZY_REGEXPS = ['visibleCharacterRegex', 'spacingMarkRegex', 'rgiEmojiRegex'];
export const lazySegmenter = {
  name: 'lazy-segmenter',
  setup(build) {
    build.onLoad({ filter: /[\\/]string-width[\\/]index\.js$/ }, async (args) => {
      let source = await readFile(args.path, 'utf8');
      const changed = (what) => new Error(`lazy-segmenter: ${args.path} changed (${what}); review the plugin`);
      const eager = 'const segmenter = new Intl.Segmenter();';
      if (!source.includes(eager)) throw changed('the segmenter');
      source = source.replace(
        eager,
        'let segmenterInstance;\nconst segmenter = { segment: (s) => (segmenterInstance ??= new Intl.Segmenter()).segment(s) };',
      );
      // Only string-width 8 has the `v` literals (cliui's 7.x has none).
      if (!/\/v;$/m.test(source)) return { contents: source, loader: 'js' };
      for (const name of LAZY_REGEXPS) {
        const declaration = new RegExp(`^const ${name} = \\/(.+)\\/v;$`, 'm').exec(source);
        if (!declaration || /`|\$\{/.test(declaration[1])) throw changed(name);
        const lazy = `let ${name}Instance;\nconst ${name} = () => (${name}Instance ??= new RegExp(String.raw\`${declaration[1]}\`, 'v'));`;
        source = source
          .replace(declaration[0], '\0')
          .replace(new RegExp(`\\b${name}\\b`, 'g'), `${name}()`)
          .replace('\0', () => lazy);
      }
      if (/\/v[;,)]/.test(source)) throw changed('another v-flag literal');
      return { contents: source, loader: 'js' };
    });
  },
};

/**
 * chevrotain in the CLI bundle.
 *
 * compiler/toml/chevrotain.ts finds chevrotain's prebuilt bundle at run time,
 * for the unbundled dist/ the tests use. In the CLI bundle, esbuild bundles
 * chevrotain itself (tree-shaken), so the loader becomes a plain import.
 *
 * And one start-up cost of chevrotain's own: at import, `applyMixins` copies
 * the ~200 methods of the parser's ten traits onto `Parser.prototype` one by
 * one. V8 keeps a fresh class prototype in fast mode and rebuilds its
 * property descriptors on each addition, so the copy is quadratic: ~2.5 ms
 * of every start (bench/toml-cold.mjs). Putting the prototype in dictionary
 * mode first (adding two scratch properties and deleting the earlier one)
 * makes each addition a hash insert; V8 makes the prototype fast again when
 * the first parser is created. The prototype ends up with the same
 * properties in the same order; nothing else changes.
 */
const APPLY_MIXINS_HEAD = 'export function applyMixins(derivedCtor, baseCtors) {\n';
const APPLY_MIXINS_DICTIONARY_MODE = `${APPLY_MIXINS_HEAD}    {
        // boxwright (scripts/esbuild-plugins.mjs): dictionary mode before ~200 additions
        const proto = derivedCtor.prototype;
        proto.__boxwrightScratch1 = 0;
        proto.__boxwrightScratch2 = 0;
        delete proto.__boxwrightScratch1;
        delete proto.__boxwrightScratch2;
    }
`;

export const bundledChevrotain = {
  name: 'bundled-chevrotain',
  setup(build) {
    build.onLoad({ filter: /[\\/]compiler[\\/]toml[\\/]chevrotain\.js$/ }, () => ({
      contents: "import * as api from 'chevrotain';\nexport function chevrotain() { return api; }\n",
      loader: 'js',
      resolveDir: here,
    }));
    build.onLoad({ filter: /[\\/]chevrotain[\\/]lib[\\/]src[\\/]parse[\\/]parser[\\/]utils[\\/]apply_mixins\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.startsWith(APPLY_MIXINS_HEAD)) throw new Error(`bundled-chevrotain: ${args.path} changed; review the plugin`);
      return { contents: source.replace(APPLY_MIXINS_HEAD, APPLY_MIXINS_DICTIONARY_MODE), loader: 'js' };
    });
  },
};
