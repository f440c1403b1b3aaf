/**
 * scripts/build-stamp.mjs: when a build of a checkout is skipped because
 * dist/ already holds the build of the same sources (npm builds a checkout
 * at install and again at pack). Skipped only when nothing the build reads
 * changed and nothing it wrote is gone; test/install.test.ts shows the skip
 * in a real `npm install -g <path>` after `npm pack`.
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './helpers.js';

type Stamp = {
  fingerprint(root: string, compilers: Record<string, string | undefined>): string;
  upToDate(root: string, inputs: string): boolean;
  writeStamp(root: string, inputs: string): void;
};
const { fingerprint, upToDate, writeStamp } = (await import(pathToFileURL(join(repoRoot, 'scripts', 'build-stamp.mjs')).href)) as Stamp;

const scratch = mkdtempSync(join(tmpdir(), 'boxwright-stamp-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
let n = 0;

/** A checkout with a source, a dependency, git metadata and a build in dist/, stamped. */
function builtCheckout(): string {
  const root = join(scratch, `checkout-${n++}`);
  const files: Record<string, string> = {
    'package.json': '{"name":"x"}\n',
    'compiler/a.ts': 'export const a = 1;\n',
    'node_modules/dep/index.js': 'module.exports = 1;\n',
    '.git/HEAD': 'ref: refs/heads/main\n',
    'dist/compiler/a.js': 'export const a = 1;\n',
    'dist/cli/boxwright.cjs': '"use strict";\n',
  };
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), text);
  }
  writeStamp(root, fingerprint(root, { x86_64: 'gcc' }));
  return root;
}
const current = (root: string, compilers: Record<string, string | undefined> = { x86_64: 'gcc' }) =>
  upToDate(root, fingerprint(root, compilers));

describe('build stamp', () => {
  it('the same sources, tools and outputs: up to date', () => {
    assert.equal(current(builtCheckout()), true);
  });
  it('what is not an input changes nothing: node_modules, .git, a tarball, a code cache a run wrote', () => {
    const root = builtCheckout();
    appendFileSync(join(root, 'node_modules', 'dep', 'index.js'), '// changed\n');
    writeFileSync(join(root, '.git', 'index'), 'x');
    writeFileSync(join(root, 'x-0.1.0.tgz'), 'x');
    writeFileSync(join(root, 'dist', 'cli', 'boxwright.cjs.cache'), 'v8');
    // A first cached `run` writes run-fast.cjs's cache and its list; a first `parse` adds itself to lint.cjs's list.
    writeFileSync(join(root, 'dist', 'cli', 'run-fast.cjs.cache'), 'v8');
    writeFileSync(join(root, 'dist', 'cli', 'run-fast.cjs.cache.json'), '{"commands":["run"]}\n');
    writeFileSync(join(root, 'dist', 'cli', 'lint.cjs.cache.json'), '{"commands":["lint","parse"]}\n');
    assert.equal(current(root), true);
  });
  it('an edited, new or deleted source means a build', () => {
    for (const change of [
      (root: string) => appendFileSync(join(root, 'compiler', 'a.ts'), '// edited\n'),
      (root: string) => writeFileSync(join(root, 'compiler', 'b.ts'), 'export {};\n'),
      (root: string) => unlinkSync(join(root, 'compiler', 'a.ts')),
      (root: string) => writeFileSync(join(root, 'README.md'), '# x\n'),
    ]) {
      const root = builtCheckout();
      change(root);
      assert.equal(current(root), false, String(change));
    }
  });
  it('another compiler, or none, means a build', () => {
    const root = builtCheckout();
    assert.equal(current(root, { x86_64: 'clang' }), false);
    assert.equal(current(root, { x86_64: undefined }), false);
    assert.equal(current(root, { x86_64: 'gcc', aarch64: 'aarch64-linux-gnu-gcc' }), false);
  });
  it('an output deleted, changed in size or added means a build; no stamp means a build', () => {
    for (const change of [
      (root: string) => unlinkSync(join(root, 'dist', 'compiler', 'a.js')),
      (root: string) => appendFileSync(join(root, 'dist', 'cli', 'boxwright.cjs'), '// more\n'),
      (root: string) => writeFileSync(join(root, 'dist', 'compiler', 'stale.js'), ''),
      (root: string) => unlinkSync(join(root, 'dist', '.build-stamp.json')),
      (root: string) => rmSync(join(root, 'dist'), { recursive: true }),
    ]) {
      const root = builtCheckout();
      change(root);
      assert.equal(current(root), false, String(change));
    }
  });
});
