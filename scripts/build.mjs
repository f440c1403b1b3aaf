// Build, in three steps:
// 1. tsc type-checks everything and emits dist/ (the tests run from there);
// 2. the JSON Schemas are compiled ahead of time into standalone ajv code,
//    so that no schema is compiled at start-up;
// 3. esbuild bundles the CLI into dist/bundle/, one file per lazily loaded
//    command, because loading hundreds of small modules (chevrotain's lodash
//    imports alone) costs more start-up time than everything else together.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
execFileSync(process.execPath, [tsc, '-p', root], { stdio: 'inherit', cwd: root });
execFileSync(process.execPath, [join(root, 'scripts', 'gen-validators.mjs')], { stdio: 'inherit', cwd: root });

const esbuild = await import('esbuild');
await esbuild.build({
  entryPoints: { boxwright: join(root, 'dist', 'compiler', 'cli', 'entry.js') },
  outdir: join(root, 'dist', 'bundle'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  // yargs and others use require() for Node built-ins inside ESM.
  banner: { js: "import { createRequire as __bwCreateRequire } from 'node:module'; const require = __bwCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
