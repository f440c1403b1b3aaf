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
import type { Executable, FsView, Lookup } from '../../compiler/paths/index.js';

export interface RecordedFacts {
  /** Every lookup, in the order first asked: [path, answer]. */
  readonly lookups: readonly (readonly [string, Lookup])[];
  readonly executable: readonly (readonly [string, Executable])[];
  /** The bound sockets under `scopes` (granted paths), or not asked. */
  readonly sockets?: { readonly scopes: readonly string[]; readonly found: readonly string[] | 'unknown' };
  readonly landlockAbi?: number | 'unknown';
}

export interface Recorder {
  readonly view: FsView;
  /** What was asked; `scopes`: the granted paths, under which sockets matter. */
  facts(scopes: readonly string[]): RecordedFacts;
}

const under = (path: string, dir: string): boolean => dir === '/' || path === dir || path.startsWith(dir + '/');

export function socketsUnder(sockets: readonly string[] | 'unknown', scopes: readonly string[]): readonly string[] | 'unknown' {
  return sockets === 'unknown' ? 'unknown' : sockets.filter((s) => scopes.some((d) => under(s, d))).sort();
}

/** A view that answers as `view` does and remembers each question and answer. */
export function recordingView(view: FsView): Recorder {
  const lookups = new Map<string, Lookup>();
  const executable = new Map<string, Executable>();
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
  };
  return {
    view: recording,
    facts: (scopes) => ({
      lookups: [...lookups],
      executable: [...executable],
      ...(sockets !== undefined ? { sockets: { scopes: [...scopes].sort(), found: socketsUnder(sockets, scopes) } } : {}),
      ...(landlockAbi !== undefined ? { landlockAbi } : {}),
    }),
  };
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
  return undefined;
}

function describe(l: Lookup): string {
  return l.kind === 'symlink' ? `a link to ${l.target}` : l.kind === 'absent' ? 'absent' : l.kind === 'unknown' ? 'unreadable' : `a ${l.kind === 'dir' ? 'directory' : l.kind}`;
}
