// targets/linux/seccomp holds what boxwright ships, and exports only what
// something imports:
//
//  - every module of the folder is imported, for use (not only re-exported),
//    by product code (compiler/, model/, rules/, targets/, app/): a module
//    only the tests or benchmarks run belongs in test/support/seccomp/;
//  - every name a module of the folder exports is imported by name from
//    somewhere in the repository (product, tests, bench, scripts), directly
//    or through index.ts's re-exports.
//
// Imports are read from the sources, comments dropped: static `import` and
// `export … from`, and `const { … } = await import(…)` with a literal path
// or `join(repoRoot, 'dist', …)`.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { posix } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from '../helpers.js';

const FOLDER = 'targets/linux/seccomp';
const PRODUCT = ['compiler', 'model', 'rules', 'targets', 'app'];
const EVERYWHERE = [...PRODUCT, 'test', 'bench', 'scripts'];

interface Import {
  readonly from: string;
  /** The module imported, repository-relative, `.ts` for a TypeScript source. */
  readonly to: string;
  /** The names imported (`*` for a namespace import). */
  readonly names: readonly string[];
  readonly reexport: boolean;
}

function sources(): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(posix.join(repoRoot, dir)).sort()) {
      const rel = `${dir}/${name}`;
      if (name === 'node_modules') continue;
      if (statSync(posix.join(repoRoot, rel)).isDirectory()) walk(rel);
      else if (/\.(ts|mjs)$/.test(name) && !name.endsWith('.d.ts'))
        out.push({ path: rel, text: readFileSync(posix.join(repoRoot, rel), 'utf8') });
    }
  };
  for (const top of EVERYWHERE) walk(top);
  return out;
}

const withoutComments = (text: string): string => text.replace(/\/\*[^]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
const namesOf = (list: string): string[] =>
  list
    .split(',')
    .map((n) =>
      n
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0]!
        .trim(),
    )
    .filter((n) => n !== '');

function importsOf(path: string, text: string): Import[] {
  const code = withoutComments(text);
  const out: Import[] = [];
  const resolve = (specifier: string): string => {
    const target = specifier.startsWith('.') ? posix.normalize(posix.join(posix.dirname(path), specifier)) : specifier;
    // a built module under dist/ is its source
    return target.replace(/^dist\//, '').replace(/\.js$/, '.ts');
  };
  for (const m of code.matchAll(/\b(import|export)\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'([^']+)'/g)) {
    out.push({ from: path, to: resolve(m[3]!), names: namesOf(m[2]!), reexport: m[1] === 'export' });
  }
  for (const m of code.matchAll(/\bimport\s+\*\s+as\s+\w+\s+from\s*'([^']+)'/g))
    out.push({ from: path, to: resolve(m[1]!), names: ['*'], reexport: false });
  for (const m of code.matchAll(/const\s*\{([^}]*)\}\s*=\s*await\s+import\(\s*(?:'([^']+)'|join\(\s*repoRoot\s*,([^)]*)\))/g)) {
    const names = namesOf(m[1]!.replace(/:\s*\w+/g, ''));
    const specifier =
      m[2] ??
      m[3]!
        .split(',')
        .map((p) => p.trim().replace(/^'|'$/g, ''))
        .join('/');
    out.push({
      from: path,
      to: m[2] !== undefined ? resolve(specifier) : specifier.replace(/^dist\//, '').replace(/\.js$/, '.ts'),
      names,
      reexport: false,
    });
  }
  return out;
}

function exportsOf(text: string): string[] {
  const code = withoutComments(text);
  const own = [...code.matchAll(/^export\s+(?:declare\s+)?(?:const|let|function|class|interface|type|enum)\s+(\w+)/gm)].map((m) => m[1]!);
  const listed = [...code.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm)].flatMap((m) =>
    m[1]!
      .split(',')
      .map((n) =>
        n
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)
          .pop()!
          .trim(),
      )
      .filter((n) => n !== ''),
  );
  return [...own, ...listed];
}

const all = sources();
const imports = all.flatMap((s) => importsOf(s.path, s.text));
const modules = all.filter((s) => s.path.startsWith(`${FOLDER}/`) && s.path.endsWith('.ts'));
const isProduct = (path: string): boolean => PRODUCT.includes(path.split('/')[0]!);

describe(`${FOLDER}: what it exports is used`, () => {
  it('reads the imports it judges by (a sanity check of the reader)', () => {
    assert.ok(modules.length >= 10, String(modules.length));
    assert.ok(
      imports.some((i) => i.from === 'targets/linux/index.ts' && i.to === `${FOLDER}/index.ts` && i.names.includes('compileSeccomp')),
    );
    assert.ok(imports.some((i) => i.from === 'bench/run-start.mjs' && i.names.includes('seccompPathLengths')));
    assert.ok(imports.some((i) => i.from === `${FOLDER}/index.ts` && i.reexport && i.names.includes('resolvePolicy')));
  });

  it('every module is imported, for use, by product code', () => {
    const unused = modules
      .map((m) => m.path)
      .filter((path) => path !== `${FOLDER}/index.ts` && !imports.some((i) => i.to === path && !i.reexport && isProduct(i.from)));
    assert.deepEqual(unused, [], 'only tests or benchmarks use these: move them to test/support/seccomp/');
  });

  it('every exported name is imported by name somewhere', () => {
    const importedFrom = (path: string, name: string): boolean =>
      imports.some((i) => i.to === path && !i.reexport && (i.names.includes(name) || i.names.includes('*'))) ||
      // through a re-export (index.ts), imported from there
      imports.some((i) => i.to === path && i.reexport && i.names.includes(name) && importedFrom(i.from, name));
    const unused = modules.flatMap((m) =>
      exportsOf(m.text)
        .filter((name) => !importedFrom(m.path, name))
        .map((name) => `${m.path}: ${name}`),
    );
    assert.deepEqual(unused, [], 'exported, but nothing imports them: drop the export (or the code)');
  });
});
