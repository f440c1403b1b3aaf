import type { ProgramFacts } from './elf.js';
import { TEXT_LIMIT, type Child, type FsView, type Lookup } from './view.js';
import { parseJson, toPlain } from '../json/index.js';
import { validateManifest } from '../schema/validators.js';

/** A program file as a manifest records it: its ELF loader and libraries, or its `#!` line. */
export type ManifestProgram =
  | {
      readonly elf: {
        readonly interpreter?: string;
        readonly needed?: readonly string[];
        readonly runpath?: readonly string[];
        readonly rpath?: readonly string[];
      };
    }
  | { readonly script: string };

export interface Manifest {
  readonly home: string;
  readonly entries: Readonly<
    Record<string, 'file' | 'dir' | 'socket' | { readonly symlink: string } | { readonly text: string } | ManifestProgram>
  >;
  /** The kernel's Landlock ABI (0: none); absent: unknown. */
  readonly landlockAbi?: number;
  /** The machine's architecture, for its programs (default x86_64). */
  readonly arch?: 'x86_64' | 'aarch64';
  /** The dynamic loader's cache: soname → path; absent: unknown. */
  readonly ldCache?: Readonly<Record<string, string>>;
  /** PATH: where command names are looked up; absent: unknown. */
  readonly path?: readonly string[];
}

export class ManifestError extends Error {}

interface ManifestProblem {
  readonly instancePath: string;
  readonly keyword: string;
  readonly params: Record<string, unknown>;
}

const kinds =
  '"file", "dir", "socket", { "symlink": "TARGET" }, { "text": "CONTENT" }, { "elf": { … } } or { "script": "INTERPRETER [ARG]" }';

/** The first schema error in words that name the key or entry, not ajv's JSON pointers. */
function schemaProblem(errors: readonly ManifestProblem[], data: unknown): string {
  const first = errors[0];
  if (!first) return 'not a filesystem manifest';
  const segments =
    first.instancePath === ''
      ? []
      : first.instancePath
          .slice(1)
          .split('/')
          .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const [top, entry, inner] = segments;
  const known = 'known keys: "home", "entries", "landlockAbi", "arch", "ldCache", "path", "description", "$schema"';
  if (top === undefined) {
    if (first.keyword === 'type') return 'a manifest is a JSON object: { "home": "/home/you", "entries": { … } }';
    if (first.keyword === 'required') return `the key "${String(first.params['missingProperty'])}" is missing`;
    if (first.keyword === 'additionalProperties')
      return `unknown key "${String(first.params['additionalProperty'])}" at the top level (${known})`;
  }
  if (top === 'home')
    return first.keyword === 'type'
      ? '"home" must be a string: the absolute directory ~ expands to'
      : `"home" must be an absolute path, not ${JSON.stringify((data as { home?: unknown }).home)}`;
  if (top === 'entries' && entry === undefined) {
    if (first.keyword === 'type') return '"entries" must be an object: { "/absolute/path": "file" | "dir" | … }';
    const bad = errors.find((e) => e.keyword === 'propertyNames')?.params['propertyName'];
    return `the entry ${JSON.stringify(bad ?? '')} is not an absolute path: every key of "entries" starts with /`;
  }
  if (top === 'entries' && entry !== undefined) {
    const value = (data as { entries: Record<string, unknown> }).entries[entry];
    if (inner === 'symlink' || (value !== null && typeof value === 'object' && 'symlink' in value))
      return `the entry "${entry}": a symlink's target must be a string, as readlink(2) returns it`;
    if (inner === 'text' || (value !== null && typeof value === 'object' && 'text' in value))
      return `the entry "${entry}": a file's text must be a string of at most ${TEXT_LIMIT} bytes`;
    if (inner === 'elf' || (value !== null && typeof value === 'object' && 'elf' in value))
      return (
        `the entry "${entry}": an ELF program is { "elf": { "interpreter": "/lib64/ld-linux-x86-64.so.2", ` +
        `"needed": ["libc.so.6"], "runpath": [], "rpath": [] } } (every key optional)`
      );
    if (inner === 'script' || (value !== null && typeof value === 'object' && 'script' in value))
      return `the entry "${entry}": a script is { "script": "INTERPRETER [ARGUMENT]" }, its #! line without the #!`;
    return `the entry "${entry}" is ${JSON.stringify(value)}: an entry's kind is ${kinds}`;
  }
  return `not a filesystem manifest at ${first.instancePath || 'the top level'}`;
}

/**
 * A machine described as data (`--fs FILE.json`): listed paths have their
 * kind, their parents are directories, everything else is absent. This is
 * what lets CI lint a config for a machine it is not running on.
 */
export function manifestView(text: string, source: string): FsView {
  // The project's own JSON parser: its errors carry a span (V8's messages differ between Node versions, and say no line).
  const parsed = parseJson(text);
  const bad = parsed.errors[0];
  if (parsed.document === undefined || bad !== undefined) {
    const at = bad?.span.start ?? { line: 1, column: 1 };
    throw new ManifestError(`${source}:${at.line}:${at.column}: not valid JSON: ${bad?.message ?? 'no document'}`);
  }
  // JSON.parse keeps the last of a key given twice, silently: which entry the machine has would be a guess.
  const twice = parsed.duplicates[0];
  if (twice !== undefined)
    throw new ManifestError(
      `${source}:${twice.kept.start.line}:${twice.kept.start.column}: the key ${JSON.stringify(twice.key)} is given twice ` +
        `(first at ${twice.ignored.start.line}:${twice.ignored.start.column}): say it once`,
    );
  const data = toPlain(parsed.document);
  if (!validateManifest(data)) {
    throw new ManifestError(
      `${source}: not a filesystem manifest: ${schemaProblem(validateManifest.errors ?? [], data)} (\`boxwright schema --dialect manifest\` prints its schema)`,
    );
  }
  const manifest = data as Manifest;
  const kinds = new Map<string, Lookup>([['/', { kind: 'dir' }]]);
  const sockets: string[] = [];
  const texts = new Map<string, string>();
  const programs = new Map<string, ProgramFacts>();
  const machine = manifest.arch === 'aarch64' ? 183 : 62;
  for (const [path, kind] of Object.entries(manifest.entries)) {
    const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
    if (kind === 'socket') sockets.push(clean);
    if (typeof kind === 'object' && 'text' in kind) {
      if (Buffer.byteLength(kind.text, 'utf8') > TEXT_LIMIT)
        throw new ManifestError(
          `${source}: not a filesystem manifest: the entry "${path}": a file's text must be a string of at most ${TEXT_LIMIT} bytes`,
        );
      texts.set(clean, kind.text);
    } else if (typeof kind === 'object' && !('symlink' in kind)) programs.set(clean, programOf(kind, machine));
    kinds.set(
      clean,
      kind === 'socket'
        ? { kind: 'other' }
        : typeof kind === 'string'
          ? { kind }
          : 'symlink' in kind
            ? { kind: 'symlink', target: kind.symlink }
            : { kind: 'file' },
    );
    for (let p = parentOf(clean); p !== '/' && !kinds.has(p); p = parentOf(p)) kinds.set(p, { kind: 'dir' });
  }
  // Each directory's entries, from the paths (a parent of a listed path is a directory).
  let listings: Map<string, Child[]> | undefined;
  const children = (dir: string): readonly Child[] => {
    if (!listings) {
      listings = new Map();
      for (const [path, found] of kinds) {
        if (path === '/') continue;
        const parent = parentOf(path);
        let list = listings.get(parent);
        if (!list) listings.set(parent, (list = []));
        list.push({ name: path.slice(parent === '/' ? 1 : parent.length + 1), dir: found.kind === 'dir' });
      }
      for (const list of listings.values()) list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    }
    return listings.get(dir) ?? [];
  };
  return {
    description: `manifest ${source}`,
    knowsFacts: true,
    home: manifest.home,
    lookup: (path) => kinds.get(path) ?? { kind: 'absent' },
    // A manifest lists kinds, not modes.
    executable: () => 'unknown',
    sockets: () => [...sockets].sort(),
    landlockAbi: () => manifest.landlockAbi ?? 'unknown',
    children,
    text: (path) => texts.get(path) ?? null,
    program: (path) => programs.get(path) ?? unknownProgram,
    cachedLibrary: (soname) =>
      manifest.ldCache === undefined ? 'unknown' : Object.hasOwn(manifest.ldCache, soname) ? manifest.ldCache[soname]! : 'none',
    commandPath: () => manifest.path ?? 'unknown',
  };
}

const unknownProgram: ProgramFacts = Object.freeze({ kind: 'unknown' });

/** A recorded program as the facts the host would read from the file. */
function programOf(p: ManifestProgram, machine: number): ProgramFacts {
  if ('script' in p) {
    const line = p.script.replace(/^[ \t]+/, '').replace(/[ \t]+$/, '');
    const space = line.search(/[ \t]/);
    if (line === '') return { kind: 'malformed', problem: 'its #! line names no interpreter (execve fails with ENOEXEC)' };
    return space < 0
      ? { kind: 'script', interpreter: line }
      : { kind: 'script', interpreter: line.slice(0, space), argument: line.slice(space).replace(/^[ \t]+/, '') };
  }
  const e = p.elf;
  return {
    kind: 'elf',
    elfClass: 64,
    machine,
    type: 'dyn',
    ...(e.interpreter !== undefined ? { interpreter: e.interpreter } : {}),
    needed: e.needed ?? [],
    runpath: e.runpath ?? [],
    rpath: e.rpath ?? [],
    noDefaultLib: false,
  };
}

function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}
