// Whether dist/ is already the build of this checkout as it is now, so that
// a second build of the same sources can be skipped.
//
// npm builds a checkout twice in a row: `npm install` (or `npm ci`) runs
// `prepare`, then `npm pack` runs `prepack`, which builds again (pre-commit
// does both for every hook install; `npm install -g <path>` after a pack
// builds a third time). The build is deterministic, so the second one writes
// the same files: it is skipped when the stamp the last build wrote matches.
//
// The stamp (dist/.build-stamp.json) holds a fingerprint of every input —
// every file of the checkout outside what .gitignore keeps out of it (its
// path and bytes), Node's version and architecture, and the C compiler
// found for each architecture — and the list of what the build wrote, each
// file with its size. Any change to either means a build: an edited or new
// source, another Node, a cross compiler installed since, a file under dist/
// deleted or changed in size. The V8 code caches (*.cache, *.cache.json) are
// left out of the list: runs write them, and they are not the build's.
//
// Trusting the stamp trusts no more than the build already did: whatever
// can write dist/ (a workload with the checkout writable) can write
// node_modules/ beside it, whose tsc, esbuild and ajv every build runs, and
// neither is in git for a reviewer to see. `npm publish` builds from scratch
// all the same (scripts/prepare.mjs).
//
//   node scripts/build.mjs --if-changed   what prepare and npm test run
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const STAMP = '.build-stamp.json';
// What .gitignore keeps out of the checkout, and git's own directory: none is an input.
const notInputs = /^(node_modules|dist|\.git|tmp|bench\/out)(\/|$)|\.tsbuildinfo$|\.tgz$|^\.package\.json\.unpacked$/;

/** Files under `dir`, relative to `root`, `/`-separated, sorted, skipping what `skip` matches. */
function filesUnder(root, dir, skip) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) =>
      relative(root, join(e.parentPath ?? e.path, e.name))
        .split(sep)
        .join('/'),
    )
    .filter((f) => !skip(f))
    .sort();
}

/** A hash of the build's inputs: the checkout's files and the tools that build them. */
export function fingerprint(root, compilers) {
  const hash = createHash('sha256');
  hash.update(`node ${process.version} ${process.arch}\n`);
  for (const [arch, cc] of Object.entries(compilers)) hash.update(`cc ${arch} ${cc ?? '-'}\n`);
  // node_modules and .git are skipped whole, not walked: readdirSync's
  // recursion would enter them, so the top level is listed first.
  const top = readdirSync(root, { withFileTypes: true }).filter((e) => !notInputs.test(e.name));
  for (const entry of top.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const files = entry.isDirectory()
      ? filesUnder(root, join(root, entry.name), (f) => notInputs.test(f))
      : entry.isFile()
        ? [entry.name]
        : [];
    for (const f of files) {
      const bytes = readFileSync(join(root, f));
      hash.update(`${f}\0${bytes.length}\0`);
      hash.update(bytes);
    }
  }
  return hash.digest('hex');
}

/**
 * A V8 code cache and the list of commands it holds (`X.cache`, `X.cache.json`, and either while it is
 * written aside: bin/boxwright.cjs): a run writes them, for any of the three bundles, whenever it
 * first runs a command. The list was counted as an output, so the first `parse`, or the first cached
 * `run`, made the next `npm test` build again, and the pack's prepare too.
 */
const codeCache = /\.cache(\.json)?(\.\d+\.tmp)?$/;

/** What the build wrote under dist/: each file and its size, code caches and the stamp left out. */
function outputs(root) {
  const dist = join(root, 'dist');
  return filesUnder(root, dist, (f) => codeCache.test(f) || f === `dist/${STAMP}`).map((f) => [f, statSync(join(root, f)).size]);
}

/** Whether dist/ holds the build of `inputs`, untouched since. */
export function upToDate(root, inputs) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(join(root, 'dist', STAMP), 'utf8'));
  } catch {
    return false;
  }
  if (stamp.inputs !== inputs) return false;
  try {
    return JSON.stringify(outputs(root)) === JSON.stringify(stamp.outputs);
  } catch {
    return false;
  }
}

/** Written last, by a build that succeeded. */
export function writeStamp(root, inputs) {
  writeFileSync(join(root, 'dist', STAMP), `${JSON.stringify({ inputs, outputs: outputs(root) }, null, 1)}\n`);
}
