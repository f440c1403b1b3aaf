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
import type { Child, Executable, FsView, Lookup } from '../../compiler/paths/view.js';
// The modules, not the index (which loads the schema's validators): facts are read on run's fast path.
import { searchedPart } from '../../compiler/paths/host-trusted.js';
import { isUnder } from '../../compiler/paths/spelling.js';

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
  let sockets: readonly string[] | 'unknown' | undefined;
  let landlockAbi: number | 'unknown' | undefined;
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
    }),
  };
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
const LOOKUP_KINDS = new Set(['file', 'dir', 'other', 'absent', 'unknown']);
const isChildren = (v: unknown): v is Child[] =>
  Array.isArray(v) && v.every((c) => typeof c === 'object' && c !== null && isString((c as Child).name) && typeof (c as Child).dir === 'boolean' && Object.keys(c).length === 2);

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
  for (const e of f['executable']) if (!Array.isArray(e) || e.length !== 2 || !isString(e[0]) || !['yes', 'no', 'unknown'].includes(e[1] as string)) return 'facts.executable holds an entry that is not [path, yes|no|unknown]';
  const sockets = f['sockets'];
  if (sockets !== undefined) {
    const s = sockets as { scopes?: unknown; found?: unknown } | null;
    if (typeof s !== 'object' || s === null || !isStrings(s.scopes) || !(s.found === 'unknown' || isStrings(s.found))) return 'facts.sockets is not { scopes, found }';
  }
  const abi = f['landlockAbi'];
  if (abi !== undefined && abi !== 'unknown' && !(typeof abi === 'number' && Number.isInteger(abi) && abi >= 0)) return 'facts.landlockAbi is not an ABI';
  const listed = f['children'];
  if (listed !== undefined) {
    if (!Array.isArray(listed)) return 'facts.children is not a list';
    for (const c of listed) if (!Array.isArray(c) || c.length !== 2 || !isString(c[0]) || !(c[1] === 'unknown' || isChildren(c[1]))) return 'facts.children holds an entry that is not [path, entries]';
  }
  const texts = f['texts'];
  if (texts !== undefined) {
    if (!Array.isArray(texts)) return 'facts.texts is not a list';
    for (const t of texts) if (!Array.isArray(t) || t.length !== 2 || !isString(t[0]) || !(t[1] === null || isString(t[1]))) return 'facts.texts holds an entry that is not [path, text or null]';
  }
  for (const k of Object.keys(f)) if (!['lookups', 'executable', 'sockets', 'landlockAbi', 'children', 'texts'].includes(k)) return `facts has an unknown key ${JSON.stringify(k)}`;
  return undefined;
}

const sameLookup = (a: Lookup, b: Lookup): boolean => a.kind === b.kind && (a.kind !== 'symlink' || (b.kind === 'symlink' && a.target === b.target));

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
  if (facts.landlockAbi !== undefined && view.landlockAbi() !== facts.landlockAbi) return `the kernel's Landlock ABI was ${facts.landlockAbi}, is ${view.landlockAbi()}`;
  for (const [path, was] of facts.children ?? []) {
    const now = view.children(path);
    if (JSON.stringify(now === 'unknown' ? now : searchedPart(now)) !== JSON.stringify(was)) return `the directories or host-trusted names in ${path} changed`;
  }
  for (const [path, was] of facts.texts ?? []) {
    if (view.text(path) !== was) return `${path} changed`;
  }
  return undefined;
}

function describe(l: Lookup): string {
  return l.kind === 'symlink' ? `a link to ${l.target}` : l.kind === 'absent' ? 'absent' : l.kind === 'unknown' ? 'unreadable' : `a ${l.kind === 'dir' ? 'directory' : l.kind}`;
}
