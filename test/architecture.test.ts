/**
 * The folders are the pipeline, in import order (issue 12 item 2):
 *
 *   compiler/ root files < compiler/toml < compiler/schema < compiler/paths
 *   < compiler/ir < model/ < rules/ < targets/ < app/
 *
 * A file may import its own folder and any folder before it, never one
 * after it.
 *
 * targets/ holds the platforms, one unit a folder (issue 38:
 * targets/<os>/), each in parts tagged by stage: `targets/<os>/model/` is
 * of the model stage (what the platform decides), `targets/<os>/run/` of
 * the app stage (its runner and doctor), the rest of the folder of the
 * targets stage (its emitter). targets/run/ is the run-time side all units
 * share (app stage). The unit entries, `targets/<os>/unit.ts`, the unit
 * type `targets/unit.ts` and the registry `targets/units.ts`, name every
 * part of a unit, so they are of the last stage, app. So the stage order
 * holds inside a unit too: its model part imports neither its emitter nor
 * its runner, its emitter not its runner. No unit imports another; the
 * shared targets/ files reach a unit only through its entry (the
 * registry's imports), and nothing of the model, the rules or the
 * emitters reaches a unit but its own parts. And no two files import each
 * other, directly or round a longer cycle, in any folder.
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
/** The targets/ folders that are one platform each. */
const PLATFORM_FOLDERS: ReadonlySet<string> = new Set(PLATFORMS);
/** A unit's parts tagged by stage (a shared one directly under targets/, a unit's under targets/<os>/); the rest is the targets stage. */
const PART_STAGES: Readonly<Record<string, (typeof STAGES)[number]>> = { model: 'model', run: 'app' };
/** The registry, the unit type and each unit's entry: they name a unit's model part and data, so they are of the model stage. */
const UNIT_ENTRY = /^targets\/(units|unit|[^/]+\/unit)\.ts$/;
/**
 * The files of a unit the shared code may reach (its doors): its entry (the registry's), its emitter's
 * (targets/emit.ts), its runner's and doctor's (targets/run/load.ts).
 */
const UNIT_DOORS = /^targets\/[^/]+\/(unit|index|run\/runner|run\/doctor)\.ts$/;

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
  readonly kind: 'word' | 'string' | 'glob' | 'punct';
  /**
   * A word or punctuator as written; a string's value without its quotes; a simple template's (its
   * substitutions plain names: `./${platform}/index.js`) as a glob, each substitution a `*`.
   */
  readonly value: string;
  readonly line: number;
}

/**
 * The tokens of a TypeScript file that the import patterns need: words,
 * plain strings, punctuators. Comments are dropped; a template literal's
 * text is dropped (its `${…}` code is kept); a regular-expression literal
 * is dropped, recognised by what precedes it, as a parser would.
 */
/** A template whose substitutions are plain names (`./${platform}/index.js`): what a loader by folder name writes. */
const simpleTemplate = /^`[^`\\$]*(?:\$\{[\w.]+\}[^`\\$]*)*`/;

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
    } else if (c === '`' && simpleTemplate.test(text.slice(i, i + 300))) {
      const raw = simpleTemplate.exec(text.slice(i, i + 300))![0];
      out.push({ kind: 'glob', value: raw.slice(1, -1).replace(/\$\{[\w.]+\}/g, '*'), line });
      advance(i + raw.length);
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
    if (
      tok.value === 'import' &&
      next?.value === '(' &&
      (t[k + 2]?.kind === 'string' || t[k + 2]?.kind === 'glob') &&
      t[k + 3]?.value === ')'
    ) {
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
 * The files an import names: `./x.js` is the source `./x.ts`, or its
 * declaration `./x.d.ts` for a module the build generates
 * (compiler/schema/validators.js); data files stay as named. A glob
 * (`./${platform}/index.js`, a `*` a path segment) names every file it
 * matches: a loader by folder name imports each of them, as far as stages
 * and cycles go (none: the glob itself, so that the missing-file check fails).
 */
export function resolveImports(from: string, specifier: string): string[] {
  if (!specifier.includes('*')) return [resolveImport(from, specifier)];
  let dirs = [posix.dirname(from)];
  for (const part of specifier.split('/')) {
    if (part !== '*') dirs = dirs.map((d) => posix.normalize(posix.join(d, part)));
    else
      dirs = dirs.flatMap((d) =>
        existsSync(posix.join(repoRoot, d))
          ? readdirSync(posix.join(repoRoot, d))
              .filter((n) => statSync(posix.join(repoRoot, d, n)).isDirectory())
              .map((n) => `${d}/${n}`)
          : [],
      );
  }
  const found = dirs.map((d) => resolveImport(d, '.')).filter((f) => existsSync(posix.join(repoRoot, f)));
  return found.length ? found : [posix.normalize(posix.join(posix.dirname(from), specifier))];
}

function resolveImport(from: string, specifier: string): string {
  const target = posix.normalize(specifier === '.' ? from : posix.join(posix.dirname(from), specifier));
  if (!target.endsWith('.js')) return target;
  const source = target.replace(/\.js$/, '.ts');
  const declared = target.replace(/\.js$/, '.d.ts');
  return !existsSync(posix.join(repoRoot, source)) && existsSync(posix.join(repoRoot, declared)) ? declared : source;
}

function stageOf(path: string): number {
  const parts = path.split('/');
  if (parts[0] === 'targets') {
    if (UNIT_ENTRY.test(path)) return STAGES.indexOf('model');
    const part = parts.length > 2 && PART_STAGES[parts[1]!] ? parts[1]! : parts.length > 3 ? parts[2]! : '';
    return STAGES.indexOf(PART_STAGES[part] ?? 'targets');
  }
  const key = parts[0] === 'compiler' && parts.length > 2 ? `compiler/${parts[1]}` : parts[0]!;
  return (STAGES as readonly string[]).indexOf(key);
}

/** The unit a targets/ file belongs to: its platform folder, or `root` (the shared files and parts). */
function unitOf(path: string): string {
  const parts = path.split('/');
  return parts.length > 2 && !PART_STAGES[parts[1]!] ? parts[1]! : 'root';
}

/** Why an import of `to` from `from` goes against the pipeline, or undefined when it does not. */
function directionProblem(from: string, to: string): string | undefined {
  const a = stageOf(from);
  const b = stageOf(to);
  if (a < 0) return `${from} is in no stage of the pipeline (add its folder to STAGES in test/architecture.test.ts, in import order)`;
  if (b < 0) return `${to} is outside the pipeline's folders`;
  if (b > a) return `${STAGES[a]} comes before ${STAGES[b]} in the pipeline: it must not import it`;
  if (!to.startsWith('targets/')) return undefined;
  const ub = unitOf(to);
  if (ub === 'root') return undefined;
  const ua = from.startsWith('targets/') ? unitOf(from) : undefined;
  if (ua === ub) return undefined;
  if (ua !== undefined && ua !== 'root')
    return `targets/${ua} must not import targets/${ub}${PLATFORM_FOLDERS.has(ua) && PLATFORM_FOLDERS.has(ub) ? ': no platform imports another' : ''}`;
  if (ua === 'root')
    return UNIT_DOORS.test(to)
      ? undefined
      : `targets/ shared files reach a unit only through its entries (unit.ts, index.ts, run/runner.ts, run/doctor.ts), not ${to}`;
  // Outside targets/: the model, the rules reach no unit (they are asked: app/ hands the model parts in); app/ reaches a
  // unit's run part only through targets/run/load.ts, but for the exceptions listed below.
  if (STAGES[a] !== 'app') return `${STAGES[a]} reaches no platform unit (it is asked through the registry), not ${to}`;
  return APP_REACHES_UNIT.has(`${from} ${to}`) || !/^targets\/[^/]+\/run\//.test(to)
    ? undefined
    : `app/ reaches a unit's run part only through targets/run/load.ts, not ${to}`;
}

/**
 * app/ files that still reach into Linux's run part directly, each for a
 * reason of its own (the ratchet: a new one fails). The CLI's compile and
 * learn commands share bubblewrap's lookup, the launchers, vet and the
 * Landlock ABI probe with Linux's runner (compile's Linux hook is
 * compile-linux.ts, learn's tools learn-setup.ts); `learn` is Linux-only
 * (strace in bubblewrap). Moving them behind the unit is issue 38's part for app/cli.
 */
const APP_REACHES_UNIT: ReadonlySet<string> = new Set([
  'app/cli/compile-linux.ts targets/linux/run/sandbox/bwrap.ts',
  'app/cli/compile-linux.ts targets/linux/run/sandbox/launchers.ts',
  'app/cli/compile-linux.ts targets/linux/run/sandbox/vet.ts',
  'app/cli/learn-check.ts targets/linux/run/runner.ts',
  'app/cli/learn.ts targets/linux/run/sandbox/outcome.ts',
  'app/cli/learn.ts targets/linux/run/sandbox/run-request.ts',
  'app/cli/learn-setup.ts targets/linux/run/sandbox/bwrap.ts',
  'app/cli/learn-setup.ts targets/linux/run/sandbox/vet.ts',
  'app/cli/options.ts targets/linux/run/sandbox/landlock-abi.ts',
  'app/cli/run-common.ts targets/linux/run/sandbox/run-request.ts',
]);

export function directionViolations(sources: readonly Source[]): string[] {
  const out: string[] = [];
  for (const s of sources)
    for (const imp of relativeImports(s.text)) {
      for (const to of resolveImports(s.path, imp.specifier)) {
        const why = directionProblem(s.path, to);
        if (why) out.push(`${s.path}:${imp.line} imports ${imp.specifier}: ${why}`);
      }
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
      relativeImports(s.text).flatMap((i) => resolveImports(s.path, i.specifier)),
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
        .flatMap((i) => resolveImports(s.path, i.specifier).map((to) => ({ i, to })))
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
      { path: 'targets/emit.ts', text: "import { lowerView } from './linux/lower.js';\n" },
      { path: 'targets/macos/run/runner.ts', text: "import { vet } from '../../linux/run/sandbox/vet.js';\n" },
      { path: 'targets/linux/index.ts', text: "import type { Runner } from './run/runner.js';\n" },
      { path: 'targets/linux/model/plan.ts', text: "import { lowerView } from '../lower.js';\n" },
      { path: 'rules/x2.ts', text: "import { linuxModel } from '../targets/linux/model/index.js';\n" },
      { path: 'app/views/y.ts', text: "import { linuxRunner } from '../../targets/linux/run/runner.js';\n" },
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
      'targets/emit.ts:1 imports ./linux/lower.js: targets/ shared files reach a unit only through its entries (unit.ts, index.ts, run/runner.ts, run/doctor.ts), not targets/linux/lower.ts',
      'targets/macos/run/runner.ts:1 imports ../../linux/run/sandbox/vet.js: targets/macos must not import targets/linux: no platform imports another',
      'targets/linux/index.ts:1 imports ./run/runner.js: targets comes before app in the pipeline: it must not import it',
      'targets/linux/model/plan.ts:1 imports ../lower.js: model comes before targets in the pipeline: it must not import it',
      'rules/x2.ts:1 imports ../targets/linux/model/index.js: rules reaches no platform unit (it is asked through the registry), not targets/linux/model/index.ts',
      "app/views/y.ts:1 imports ../../targets/linux/run/runner.js: app/ reaches a unit's run part only through targets/run/load.ts, not targets/linux/run/runner.ts",
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
      'const m = await import(`./${platform}/index.js`); const n = `./${x}/n.js`;',
    ].join('\n');
    assert.deepEqual(
      relativeImports(text).map((i) => `${i.line} ${i.specifier}${i.typeOnly ? ' type' : ''}`),
      ['1 ./a.js', '2 ../b.js type', '5 ./c.js', '6 ./d.js', '11 ./h.js', '12 ./l.js', '13 ./*/index.js'],
    );
    // A loader by folder name imports every file its glob matches (targets/emit.ts: each platform's emitter).
    assert.deepEqual(resolveImports('targets/emit.ts', './*/index.js').sort(), PLATFORMS.map((p) => `targets/${p}/index.ts`).sort());
  });
});
