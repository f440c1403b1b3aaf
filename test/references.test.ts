// Paths named in the product's comments and docs stay true: a reference to
// a repository file (compiler/…, model/…, rules/…, targets/…, app/…, test/…,
// bench/…, scripts/…, docs/…) names one that exists. Stale ones sent readers
// to files that had moved (rules/registry.ts, rules/fix.ts) or gone
// (bench/launcher.mjs), and package.json's `files` named a JSON file that
// no longer existed.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot, requireOrSkip } from './helpers.js';

const TOP = ['compiler', 'model', 'rules', 'targets', 'app', 'test', 'bench', 'scripts', 'docs'];
const reference = new RegExp(`(?<![\\w./@-])((?:${TOP.join('|')})/[\\w.-]+(?:/[\\w.-]+)*\\.(?:ts|c|h|json|mjs|cjs|md))\\b`, 'g');

/** The repository's files that hold prose about it: product code, scripts, benches and the docs. */
function sources(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', ...TOP, '*.md', 'bin'], { cwd: repoRoot, encoding: 'utf8' });
  return listed.split('\0').filter((f) => /\.(ts|c|h|mjs|cjs|md)$/.test(f) && !f.startsWith('test/') && f !== 'CHANGELOG.md');
}

describe('references', () => {
  it('every repository path named in a comment or a doc exists', (t) => {
    const skip = requireOrSkip(existsSync(join(repoRoot, '.git')), 'a git checkout (the files to read are what git lists)');
    if (skip) return t.skip(skip);
    const stale: string[] = [];
    for (const f of sources()) {
      const lines = readFileSync(join(repoRoot, f), 'utf8').split('\n');
      lines.forEach((line, i) => {
        for (const m of line.matchAll(reference)) {
          const path = m[1]!;
          // A usage line's placeholder (test/x/y.test.ts, test/dir/file.test.ts) names no file.
          if (/^test\/(x|dir)\//.test(path)) continue;
          if (!existsSync(join(repoRoot, path))) stale.push(`${f}:${i + 1}: ${path}`);
        }
      });
    }
    assert.deepEqual(stale, []);
  });

  it("package.json's files name what exists", () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { files: string[] };
    const missing = pkg.files.filter((f) => !f.startsWith('dist/') && !existsSync(join(repoRoot, f)));
    assert.deepEqual(missing, []);
  });
});
