#!/usr/bin/env node
'use strict';
// The boxwright command. It loads the bundled CLI (dist/cli/boxwright.cjs,
// built by `npm run build`, which npm runs on install) through a V8 code
// cache: start-up is most of a lint's time, and compiling ~400 KB of
// JavaScript at every run would double it. The cache is written at build
// time by running the CLI once; a cache from another Node version is
// rejected by V8, and then the CLI simply compiles as usual (and refreshes
// the cache when it can write it).
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { Script } = require('node:vm');
const Module = require('node:module');

const file = join(__dirname, '..', 'dist', 'cli', 'boxwright.cjs');
const cacheFile = `${file}.cache`;
let source;
try {
  source = readFileSync(file, 'utf8');
} catch {
  process.stderr.write('boxwright: the CLI is not built; run `npm run build` (npm ci does it)\n');
  process.exit(2);
}
let cachedData;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  cachedData = undefined;
}
const script = new Script(Module.wrap(source), { filename: file, cachedData });
const refresh = cachedData === undefined || script.cachedDataRejected || process.env.BOXWRIGHT_WRITE_CODE_CACHE === '1';
const mod = { exports: {}, filename: file, id: file };
script.runInThisContext()(mod.exports, Module.createRequire(file), mod, file, join(__dirname, '..', 'dist', 'cli'));
if (refresh) {
  process.once('exit', () => {
    try {
      writeFileSync(cacheFile, script.createCachedData());
    } catch {
      // A read-only install keeps working without a cache.
    }
  });
}
mod.exports.run(process.argv.slice(2));
