/**
 * The machine facts a check relied on, recorded as it asked them, and
 * asked again: what lets `boxwright run` reuse a compiled sandbox only
 * while the disk still answers every question the check asked the same
 * way. The recorder sits between the check and its filesystem view, so it
 * sees every question any stage asked (the one view object), whatever
 * stage asked it.
 *
 * Sockets are the one fact that changes all the time (/proc/net/unix lists
 * every socket any program binds): what the model reads of them is only
 * those under a granted path, so that is what is recorded and compared.
 */
import type { ProgramFacts } from '../../../../compiler/paths/elf.js';
import type { Child, Executable, FsView, Lookup } from '../../../../compiler/paths/view.js';
// The modules, not the index (which loads the schema's validators): facts are read on run's fast path.
import { searchedPart } from '../../../../compiler/paths/host-trusted.js';
import { isUnder } from '../../../../compiler/paths/spelling.js';

export interface RecordedFacts {
  /** Every lookup, in the order first asked: [path, answer]. */
  readonly lookups: readonly (readonly [string, Lookup])[];
  readonly executable: readonly (readonly [string, Executable])[];
  /** The bound sockets under `scopes` (granted paths), or not asked. */
  readonly sockets?: { readonly scopes: readonly string[]; readonly found: readonly string[] | 'unknown' };
  readonly landlockAbi?: number | 'unknown';
  /** Every directory listed (the search for host-trusted paths), with the part of it the search reads (searchedPart). */
  readonly children?: readonly (readonly [string, readonly Child[] | 'unknown'])[];
  /** Every small file read (a `.git` file, a `commondir`), with its content. */
  readonly texts?: readonly (readonly [string, string | null])[];
  /** What program files say of how they start (an execution closure's questions), in the order first asked. */
  readonly programs?: readonly (readonly [string, ProgramFacts])[];
  /** The loader cache's answers, per soname asked. */
  readonly libraries?: readonly (readonly [string, string])[];
  readonly commandPath?: readonly string[] | 'unknown';
}

export interface Recorder {
  readonly view: FsView;
  /** What was asked; `scopes`: the granted paths, under which sockets matter. */
  facts(scopes: readonly string[]): RecordedFacts;
}

export function socketsUnder(sockets: readonly string[] | 'unknown', scopes: readonly string[]): readonly string[] | 'unknown' {
  return sockets === 'unknown' ? 'unknown' : sockets.filter((s) => scopes.some((d) => isUnder(s, d))).sort();
}

/** A view that answers as `view` does and remembers each question and answer. */
export function recordingView(view: FsView): Recorder {
  const lookups = new Map<string, Lookup>();
  const executable = new Map<string, Executable>();
  const children = new Map<string, readonly Child[] | 'unknown'>();
  const texts = new Map<string, string | null>();
  const programs = new Map<string, ProgramFacts>();
  const libraries = new Map<string, string>();
  let sockets: readonly string[] | 'unknown' | undefined;
  let landlockAbi: number | 'unknown' | undefined;
  let commandPath: readonly string[] | 'unknown' | undefined;
  const recording: FsView = {
    description: view.description,
    knowsFacts: view.knowsFacts,
    home: view.home,
    lookup(path) {
      const hit = lookups.get(path);
      if (hit) return hit;
      const found = view.lookup(path);
      lookups.set(path, found);
      return found;
    },
    executable(path) {
      const hit = executable.get(path);
      if (hit) return hit;
      const found = view.executable(path);
      executable.set(path, found);
      return found;
    },
    sockets: () => (sockets ??= view.sockets()),
    landlockAbi: () => (landlockAbi ??= view.landlockAbi()),
    children(path) {
      const hit = children.get(path);
      if (hit) return hit;
      // The part the search reads, and nothing more: what is recorded is what the check saw.
      const listed = view.children(path);
      const found = listed === 'unknown' ? listed : searchedPart(listed);
      children.set(path, found);
      return found;
    },
    text(path) {
      if (texts.has(path)) return texts.get(path)!;
      const found = view.text(path);
      texts.set(path, found);
      return found;
    },
    program(path) {
      let found = programs.get(path);
      if (!found) programs.set(path, (found = view.program(path)));
      return found;
    },
    cachedLibrary(soname) {
      let found = libraries.get(soname);
      if (found === undefined) libraries.set(soname, (found = view.cachedLibrary(soname)));
      return found;
    },
    commandPath: () => (commandPath ??= view.commandPath()),
  };
  return {
    view: recording,
    facts: (scopes) => ({
      lookups: [...lookups],
      executable: [...executable],
      ...(sockets !== undefined ? { sockets: { scopes: [...scopes].sort(), found: socketsUnder(sockets, scopes) } } : {}),
      ...(landlockAbi !== undefined ? { landlockAbi } : {}),
      ...(children.size ? { children: [...children] } : {}),
      ...(texts.size ? { texts: [...texts] } : {}),
      ...(programs.size ? { programs: [...programs] } : {}),
      ...(libraries.size ? { libraries: [...libraries] } : {}),
      ...(commandPath !== undefined ? { commandPath } : {}),
    }),
  };
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
const LOOKUP_KINDS = new Set(['file', 'dir', 'other', 'absent', 'unknown']);
const isChildren = (v: unknown): v is Child[] =>
  Array.isArray(v) &&
  v.every(
    (c) =>
      typeof c === 'object' &&
      c !== null &&
      isString((c as Child).name) &&
      typeof (c as Child).dir === 'boolean' &&
      Object.keys(c).length === 2,
  );

function lookupProblem(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null) return 'not an object';
  const { kind, target } = v as { kind?: unknown; target?: unknown };
  if (kind === 'symlink') return isString(target) ? undefined : 'a symlink without a target';
  return isString(kind) && LOOKUP_KINDS.has(kind) ? undefined : `an unknown kind ${JSON.stringify(kind)}`;
}

/** Why `v` (parsed JSON, from a cache entry) is not RecordedFacts, or undefined: what the cast in a reader would otherwise assume. */
export function factsProblem(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'facts is not an object';
  const f = v as Record<string, unknown>;
  if (!Array.isArray(f['lookups'])) return 'facts.lookups is not a list';
  for (const l of f['lookups']) {
    if (!Array.isArray(l) || l.length !== 2 || !isString(l[0])) return 'facts.lookups holds an entry that is not [path, answer]';
    const why = lookupProblem(l[1]);
    if (why) return `facts.lookups: ${JSON.stringify(l[0])} is ${why}`;
  }
  if (!Array.isArray(f['executable'])) return 'facts.executable is not a list';
  for (const e of f['executable'])
    if (!Array.isArray(e) || e.length !== 2 || !isString(e[0]) || !['yes', 'no', 'unknown'].includes(e[1] as string))
      return 'facts.executable holds an entry that is not [path, yes|no|unknown]';
  const sockets = f['sockets'];
  if (sockets !== undefined) {
    const s = sockets as { scopes?: unknown; found?: unknown } | null;
    if (typeof s !== 'object' || s === null || !isStrings(s.scopes) || !(s.found === 'unknown' || isStrings(s.found)))
      return 'facts.sockets is not { scopes, found }';
  }
  const abi = f['landlockAbi'];
  if (abi !== undefined && abi !== 'unknown' && !(typeof abi === 'number' && Number.isInteger(abi) && abi >= 0))
    return 'facts.landlockAbi is not an ABI';
  const listed = f['children'];
  if (listed !== undefined) {
    if (!Array.isArray(listed)) return 'facts.children is not a list';
    for (const c of listed)
      if (!Array.isArray(c) || c.length !== 2 || !isString(c[0]) || !(c[1] === 'unknown' || isChildren(c[1])))
        return 'facts.children holds an entry that is not [path, entries]';
  }
  const texts = f['texts'];
  if (texts !== undefined) {
    if (!Array.isArray(texts)) return 'facts.texts is not a list';
    for (const t of texts)
      if (!Array.isArray(t) || t.length !== 2 || !isString(t[0]) || !(t[1] === null || isString(t[1])))
        return 'facts.texts holds an entry that is not [path, text or null]';
  }
  const programs = f['programs'];
  if (programs !== undefined) {
    if (!Array.isArray(programs)) return 'facts.programs is not a list';
    for (const e of programs) {
      if (!Array.isArray(e) || e.length !== 2 || !isString(e[0])) return 'facts.programs holds an entry that is not [path, facts]';
      const why = programProblem(e[1]);
      if (why) return `facts.programs: ${JSON.stringify(e[0])} ${why}`;
    }
  }
  const libraries = f['libraries'];
  if (
    libraries !== undefined &&
    !(Array.isArray(libraries) && libraries.every((e) => Array.isArray(e) && e.length === 2 && isString(e[0]) && isString(e[1])))
  )
    return 'facts.libraries is not a list of [soname, answer]';
  const path = f['commandPath'];
  if (path !== undefined && path !== 'unknown' && !isStrings(path)) return 'facts.commandPath is not a list of directories';
  for (const k of Object.keys(f))
    if (!['lookups', 'executable', 'sockets', 'landlockAbi', 'children', 'texts', 'programs', 'libraries', 'commandPath'].includes(k))
      return `facts has an unknown key ${JSON.stringify(k)}`;
  return undefined;
}

/** Why `v` is not ProgramFacts (compiler/paths/elf.ts), or undefined. */
function programProblem(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null) return 'is not an object';
  const p = v as Record<string, unknown>;
  switch (p['kind']) {
    case 'other':
    case 'unknown':
      return undefined;
    case 'malformed':
      return isString(p['problem']) ? undefined : 'is malformed without a problem';
    case 'script':
      return isString(p['interpreter']) && (p['argument'] === undefined || isString(p['argument']))
        ? undefined
        : 'is a script without an interpreter';
    case 'elf':
      return (p['elfClass'] === 32 || p['elfClass'] === 64) &&
        typeof p['machine'] === 'number' &&
        ['exec', 'dyn', 'other'].includes(p['type'] as string) &&
        (p['interpreter'] === undefined || isString(p['interpreter'])) &&
        isStrings(p['needed']) &&
        isStrings(p['runpath']) &&
        isStrings(p['rpath']) &&
        typeof p['noDefaultLib'] === 'boolean'
        ? undefined
        : "is not an ELF program's facts";
    default:
      return `has an unknown kind ${JSON.stringify(p['kind'])}`;
  }
}

const sameLookup = (a: Lookup, b: Lookup): boolean =>
  a.kind === b.kind && (a.kind !== 'symlink' || (b.kind === 'symlink' && a.target === b.target));

/** The first recorded fact `view` now answers differently, in words; undefined when all still hold. */
export function changedFact(facts: RecordedFacts, view: FsView): string | undefined {
  for (const [path, was] of facts.lookups) {
    const now = view.lookup(path);
    if (!sameLookup(was, now)) return `${path} was ${describe(was)}, is ${describe(now)}`;
  }
  for (const [path, was] of facts.executable) {
    const now = view.executable(path);
    if (now !== was) return `${path}: executable was ${was}, is ${now}`;
  }
  if (facts.sockets) {
    const now = socketsUnder(view.sockets(), facts.sockets.scopes);
    if (JSON.stringify(now) !== JSON.stringify(facts.sockets.found)) return 'the unix sockets bound under the granted paths changed';
  }
  if (facts.landlockAbi !== undefined && view.landlockAbi() !== facts.landlockAbi)
    return `the kernel's Landlock ABI was ${facts.landlockAbi}, is ${view.landlockAbi()}`;
  for (const [path, was] of facts.children ?? []) {
    const now = view.children(path);
    if (JSON.stringify(now === 'unknown' ? now : searchedPart(now)) !== JSON.stringify(was))
      return `the directories or host-trusted names in ${path} changed`;
  }
  for (const [path, was] of facts.texts ?? []) {
    if (view.text(path) !== was) return `${path} changed`;
  }
  for (const [path, was] of facts.programs ?? [])
    if (JSON.stringify(view.program(path)) !== JSON.stringify(was)) return `${path} changed: what it needs to start is not what it was`;
  for (const [soname, was] of facts.libraries ?? []) {
    const now = view.cachedLibrary(soname);
    if (now !== was) return `the loader's cache gave ${was} for ${soname}, now ${now}`;
  }
  if (facts.commandPath !== undefined && JSON.stringify(view.commandPath()) !== JSON.stringify(facts.commandPath)) return 'PATH changed';
  return undefined;
}

function describe(l: Lookup): string {
  return l.kind === 'symlink'
    ? `a link to ${l.target}`
    : l.kind === 'absent'
      ? 'absent'
      : l.kind === 'unknown'
        ? 'unreadable'
        : `a ${l.kind === 'dir' ? 'directory' : l.kind}`;
}
