/**
 * The folders are the pipeline, in import order (issue 12 item 2):
 *
 *   compiler/ root files < compiler/toml < compiler/schema < compiler/paths
 *   < compiler/ir < model/ < rules/ < targets/ < app/
 *
 * A file may import its own folder and any folder before it, never one
 * after it. Inside targets/: a platform folder (targets/linux, macos,
 * windows) imports the targets/ root files and itself, never another
 * platform; the root files import a platform only through its
 * entry, `targets/<os>/index.ts` (the registry's loaders). Inside
 * app/platforms/ (each platform's run-time side) the same: a platform folder
 * imports the app/platforms root files and itself, never another platform;
 * nothing before app/ imports it (the stages). And no two files
 * of app/ import each other, directly or round a longer cycle.
 *
 * Every relative import counts: static, `import type` (a type cycle is a
 * cycle for the reader too) and dynamic `import()`. They are read from the
 * sources by a small lexer (below), so that an import named in a comment
 * or a string does not count.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { posix } from 'node:path';
import { describe, it } from 'node:test';
import { PLATFORMS } from '../compiler/diagnostic.js';
import { repoRoot } from './helpers.js';

interface Source {
  /** Repository-relative, forward slashes: `app/cli/diff.ts`. */
  readonly path: string;
  readonly text: string;
}

/** The pipeline's stages, first to last; compiler/ root files are `compiler`. */
const STAGES = [
  'compiler',
  'compiler/toml',
  'compiler/json',
  'compiler/schema',
  'compiler/paths',
  'compiler/ir',
  'model',
  'rules',
  'targets',
  'app',
] as const;
const TOP = ['compiler', 'model', 'rules', 'targets', 'app'] as const;
/** The targets/ folders that lower for one platform each. */
const PLATFORM_FOLDERS: ReadonlySet<string> = new Set(PLATFORMS);

function readSources(): Source[] {
  const out: Source[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(posix.join(repoRoot, dir)).sort()) {
      const rel = `${dir}/${name}`;
      if (statSync(posix.join(repoRoot, rel)).isDirectory()) walk(rel);
      else if (name.endsWith('.ts')) out.push({ path: rel, text: readFileSync(posix.join(repoRoot, rel), 'utf8') });
    }
  };
  for (const top of TOP) walk(top);
  return out;
}

interface Token {
  readonly kind: 'word' | 'string' | 'punct';
  /** A word or punctuator as written; a string's value without its quotes. */
  readonly value: string;
  readonly line: number;
}

/**
 * The tokens of a TypeScript file that the import patterns need: words,
 * plain strings, punctuators. Comments are dropped; a template literal's
 * text is dropped (its `${…}` code is kept); a regular-expression literal
 * is dropped, recognised by what precedes it, as a parser would.
 */
export function tokens(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let line = 1;
  const templates: number[] = []; // the brace depth at each open `${`
  let depth = 0;
  const advance = (to: number): void => {
    for (; i < to && i < text.length; i++) if (text[i] === '\n') line++;
  };
  const regexMayStart = (): boolean => {
    const last = out[out.length - 1];
    if (!last) return true;
    if (last.kind === 'word') return /^(return|typeof|case|do|else|in|of|void|yield|await|delete|new|throw)$/.test(last.value);
    if (last.kind === 'string') return false;
    return !/^[)\]}]$/.test(last.value);
  };
  /** From inside a template's text to its end, or into a `${`. */
  const templateText = (): void => {
    while (i < text.length) {
      if (text[i] === '\\') advance(i + 2);
      else if (text[i] === '`') return advance(i + 1);
      else if (text[i] === '$' && text[i + 1] === '{') {
        advance(i + 2);
        templates.push(depth++);
        return;
      } else advance(i + 1);
    }
  };
  while (i < text.length) {
    const c = text[i]!;
    const n = text[i + 1];
    if (c === '/' && n === '/') {
      const end = text.indexOf('\n', i);
      advance(end < 0 ? text.length : end);
    } else if (c === '/' && n === '*') {
      const end = text.indexOf('*/', i + 2);
      advance(end < 0 ? text.length : end + 2);
    } else if (c === '"' || c === "'") {
      const at = line;
      let j = i + 1;
      let value = '';
      while (j < text.length && text[j] !== c && text[j] !== '\n') {
        if (text[j] === '\\') j++;
        value += text[j];
        j++;
      }
      advance(j + 1);
      out.push({ kind: 'string', value, line: at });
    } else if (c === '`') {
      advance(i + 1);
      templateText();
      out.push({ kind: 'punct', value: '`…`', line });
    } else if (c === '/' && regexMayStart()) {
      let j = i + 1;
      let inClass = false;
      while (j < text.length && text[j] !== '\n' && (inClass || text[j] !== '/')) {
        if (text[j] === '\\') j++;
        else if (text[j] === '[') inClass = true;
        else if (text[j] === ']') inClass = false;
        j++;
      }
      j++;
      while (j < text.length && /[a-z]/.test(text[j]!)) j++;
      advance(j);
      out.push({ kind: 'punct', value: '/…/', line });
    } else if (/\s/.test(c)) advance(i + 1);
    else if (/[\w$]/.test(c)) {
      let j = i;
      while (j < text.length && /[\w$]/.test(text[j]!)) j++;
      out.push({ kind: 'word', value: text.slice(i, j), line });
      advance(j);
    } else {
      if (c === '{') depth++;
      if (c === '}') {
        depth--;
        if (templates.length && templates[templates.length - 1] === depth) {
          templates.pop();
          advance(i + 1);
          templateText();
          continue;
        }
      }
      out.push({ kind: 'punct', value: c, line });
      advance(i + 1);
    }
  }
  return out;
}

export interface Import {
  readonly specifier: string;
  readonly typeOnly: boolean;
  readonly line: number;
}

/** Every relative import of a file: `import … from`, `export … from`, `import '…'`, `import('…')`. */
export function relativeImports(text: string): Import[] {
  const t = tokens(text);
  const found: Import[] = [];
  /** The tokens between `import`/`export` and `from` in a declaration: names, `type`, `*`, `as`, braces, commas. */
  const clause = (k: number): boolean => t[k]?.kind === 'word' || ['{', '}', ',', '*'].includes(t[k]?.value ?? '');
  for (let k = 0; k < t.length; k++) {
    const tok = t[k]!;
    if (tok.kind !== 'word' || (tok.value !== 'import' && tok.value !== 'export') || t[k - 1]?.value === '.') continue;
    const next = t[k + 1];
    if (tok.value === 'import' && next?.value === '(' && t[k + 2]?.kind === 'string' && t[k + 3]?.value === ')') {
      found.push({ specifier: t[k + 2]!.value, typeOnly: false, line: tok.line });
      continue;
    }
    if (tok.value === 'import' && next?.kind === 'string') {
      found.push({ specifier: next.value, typeOnly: false, line: tok.line });
      continue;
    }
    let j = k + 1;
    while (j < t.length && clause(j) && !(t[j]!.value === 'from' && t[j + 1]?.kind === 'string')) j++;
    if (t[j]?.value === 'from' && t[j + 1]?.kind === 'string')
      found.push({ specifier: t[j + 1]!.value, typeOnly: next?.value === 'type', line: tok.line });
  }
  return found.filter((f) => f.specifier.startsWith('.'));
}

/**
 * The file an import names: `./x.js` is the source `./x.ts`, or its
 * declaration `./x.d.ts` for a module the build generates
 * (compiler/schema/validators.js); data files stay as named.
 */
function resolveImport(from: string, specifier: string): string {
  const target = posix.normalize(posix.join(posix.dirname(from), specifier));
  if (!target.endsWith('.js')) return target;
  const source = target.replace(/\.js$/, '.ts');
  const declared = target.replace(/\.js$/, '.d.ts');
  return !existsSync(posix.join(repoRoot, source)) && existsSync(posix.join(repoRoot, declared)) ? declared : source;
}

function stageOf(path: string): number {
  const parts = path.split('/');
  const key = parts[0] === 'compiler' && parts.length > 2 ? `compiler/${parts[1]}` : parts[0]!;
  return (STAGES as readonly string[]).indexOf(key);
}

/** `root`, or the first folder under targets/. */
function targetsPart(path: string): string {
  const parts = path.split('/');
  return parts.length > 2 ? parts[1]! : 'root';
}

/** Why an import of `to` from `from` goes against the pipeline, or undefined when it does not. */
function directionProblem(from: string, to: string): string | undefined {
  const a = stageOf(from);
  const b = stageOf(to);
  if (a < 0) return `${from} is in no stage of the pipeline (add its folder to STAGES in test/architecture.test.ts, in import order)`;
  if (b < 0) return `${to} is outside the pipeline's folders`;
  if (b > a) return `${STAGES[a]} comes before ${STAGES[b]} in the pipeline: it must not import it`;
  if (a === b && STAGES[a] === 'targets') {
    const pa = targetsPart(from);
    const pb = targetsPart(to);
    if (pa === pb || pb === 'root') return undefined;
    if (pa === 'root')
      return /^targets\/[^/]+\/index\.ts$/.test(to)
        ? undefined
        : `targets/ root files reach a platform only through its index.ts (the registry), not ${to}`;
    return `targets/${pa} must not import targets/${pb}${PLATFORM_FOLDERS.has(pa) && PLATFORM_FOLDERS.has(pb) ? ': no platform imports another' : ''}`;
  }
  if (from.startsWith('app/platforms/') && to.startsWith('app/platforms/')) {
    const pa = platformsPart(from);
    const pb = platformsPart(to);
    if (pa !== pb && pa !== 'root' && pb !== 'root')
      return `app/platforms/${pa} must not import app/platforms/${pb}: no platform imports another`;
  }
  return undefined;
}

/** `root`, or the first folder under app/platforms/. */
function platformsPart(path: string): string {
  const parts = path.split('/');
  return parts.length > 3 ? parts[2]! : 'root';
}

export function directionViolations(sources: readonly Source[]): string[] {
  const out: string[] = [];
  for (const s of sources)
    for (const imp of relativeImports(s.text)) {
      const to = resolveImport(s.path, imp.specifier);
      const why = directionProblem(s.path, to);
      if (why) out.push(`${s.path}:${imp.line} imports ${imp.specifier}: ${why}`);
    }
  return out;
}

/**
 * Each import cycle among the source files, in any folder (a strongly connected component of two or more, or a file
 * importing itself), as a path. Type-only imports count: a type cycle is a cycle for the reader too (issue 38).
 */
export function importCycles(sources: readonly Source[]): string[][] {
  const graph = new Map<string, string[]>();
  for (const s of sources)
    graph.set(
      s.path,
      relativeImports(s.text).map((i) => resolveImport(s.path, i.specifier)),
    );
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || graph.get(v)?.includes(v)) cycles.push(scc.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return cycles;
}

describe('architecture: the folders are the pipeline, in import order (issue 12)', () => {
  const sources = readSources();

  it('reads every source file of the five folders, and their imports', () => {
    for (const top of TOP)
      assert.ok(
        sources.some((s) => s.path.startsWith(`${top}/`)),
        `no .ts file under ${top}/`,
      );
    const imports = sources.reduce((n, s) => n + relativeImports(s.text).length, 0);
    // A floor, so that a scanner that silently finds nothing cannot pass: there are over 500 today.
    assert.ok(imports > 400, `only ${imports} relative imports found`);
  });

  it('every relative import names a file that exists (the scanner reads them right)', () => {
    const missing = sources.flatMap((s) =>
      relativeImports(s.text)
        .map((i) => ({ i, to: resolveImport(s.path, i.specifier) }))
        .filter(({ to }) => !existsSync(posix.join(repoRoot, to)))
        .map(({ i }) => `${s.path}:${i.line} ${i.specifier}`),
    );
    assert.deepEqual(missing, []);
  });

  it('no file imports a later stage; no platform imports another', () => {
    assert.deepEqual(directionViolations(sources), []);
  });

  it('no import cycle between files, in any folder', () => {
    assert.deepEqual(importCycles(sources), []);
  });

  it('the checks fail on a reversed import, a platform importing another, and an app cycle', () => {
    const fixture: Source[] = [
      { path: 'compiler/toml/lexer.ts', text: "import { checkConfig } from '../../app/check.js';\n" },
      { path: 'model/model.ts', text: "import type { Rule } from '../rules/engine.js';\n" },
      { path: 'rules/x.ts', text: "export { y } from '../targets/target.js';\n" },
      { path: 'targets/macos/profile.ts', text: "const lower = await import('../linux/lower.js');\n" },
      { path: 'targets/registry.ts', text: "import { lowerView } from './linux/lower.js';\n" },
      { path: 'app/platforms/macos/runner.ts', text: "import { vet } from '../linux/sandbox/vet.js';\n" },
      { path: 'targets/linux/index.ts', text: "import type { Runner } from '../../app/platforms/index.js';\n" },
      {
        path: 'compiler/paths/host.ts',
        text: "// import { buildIR } from '../ir/build.js';\nconst s = \"import x from '../ir/build.js'\";\n",
      },
      { path: 'app/format/diff.ts', text: "import type { ConfigDiff } from '../cli/diff.js';\n" },
      { path: 'app/cli/diff.ts', text: "const { diffText } = await import('../format/diff.js');\n" },
    ];
    assert.deepEqual(directionViolations(fixture), [
      'compiler/toml/lexer.ts:1 imports ../../app/check.js: compiler/toml comes before app in the pipeline: it must not import it',
      'model/model.ts:1 imports ../rules/engine.js: model comes before rules in the pipeline: it must not import it',
      'rules/x.ts:1 imports ../targets/target.js: rules comes before targets in the pipeline: it must not import it',
      'targets/macos/profile.ts:1 imports ../linux/lower.js: targets/macos must not import targets/linux: no platform imports another',
      'targets/registry.ts:1 imports ./linux/lower.js: targets/ root files reach a platform only through its index.ts (the registry), not targets/linux/lower.ts',
      'app/platforms/macos/runner.ts:1 imports ../linux/sandbox/vet.js: app/platforms/macos must not import app/platforms/linux: no platform imports another',
      'targets/linux/index.ts:1 imports ../../app/platforms/index.js: targets comes before app in the pipeline: it must not import it',
    ]);
    assert.deepEqual(importCycles(fixture), [['app/cli/diff.ts', 'app/format/diff.ts']]);
  });

  it('the scanner: comments, strings, templates and regular expressions are not imports', () => {
    const text = [
      "import { a } from './a.js';",
      'import type {',
      '  B,',
      "} from '../b.js';",
      "export * from './c.js';",
      "import './d.js';",
      "/* import { e } from './e.js'; */",
      "const url = 'https://example.org/*'; // import('./f.js')",
      "const re = /['\"]/g; const t = `${'`'} import('./g.js') ${x}`;",
      "const s = \"import('./i.js')\"; export const j = 1; export function k() { return 'from'; }",
      "const h = await import('./h.js');",
      "export { l } from './l.js';",
    ].join('\n');
    assert.deepEqual(
      relativeImports(text).map((i) => `${i.line} ${i.specifier}${i.typeOnly ? ' type' : ''}`),
      ['1 ./a.js', '2 ../b.js type', '5 ./c.js', '6 ./d.js', '11 ./h.js', '12 ./l.js'],
    );
  });
});
