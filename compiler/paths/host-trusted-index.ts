/**
 * "At, inside or around" between many paths at once: a config's write
 * grants and the host-trusted paths found for them. Asked of every pair
 * with `isUnder`, it is quadratic in write trees (each adds ten project
 * names), and one lint of 20,000 trees ran 13 minutes. A path has few
 * ancestors by its spelling, so sets of them answer the same questions in
 * time linear in the paths (times their depth).
 */

/**
 * Every `a` with `isUnder(path, a)` (spelling.ts), exactly and each once:
 * the path itself, then the prefixes that end before a `/`, longest first,
 * `/` and `` for an absolute path last. isUnder compares spellings, so this
 * does too (a doubled or trailing `/` is a spelling like any other).
 */
export function atOrAbove(path: string): string[] {
  const out = [path];
  for (let i = path.length - 1; i > 0; i--) if (path.charCodeAt(i) === 47) out.push(path.slice(0, i));
  if (path.charCodeAt(0) === 47) {
    // `/` is under itself and above every absolute path; `//x` already has it as a prefix.
    if (path !== '/' && path.charCodeAt(1) !== 47) out.push('/');
    out.push('');
  }
  return out;
}

/** A set of paths (write roots), asked about another path. */
export class NearPaths {
  private readonly at: ReadonlySet<string>;
  /** The paths in JavaScript's string order, for "one lies inside": those with a prefix follow one another. Made once asked. */
  private sorted: string[] | undefined;

  constructor(paths: Iterable<string>) {
    this.at = new Set(paths);
  }

  /** The paths, each once. */
  paths(): IterableIterator<string> {
    return this.at.values();
  }

  /** Whether the path is at, inside or around one of them: `isUnder(path, p) || isUnder(p, path)` for some p. */
  near(path: string): boolean {
    return this.nearestStrictlyAbove(path) !== undefined || this.atOrAboveOne(path);
  }

  /**
   * Whether one of them is at or inside the path (`path` is in atOrAbove(p)
   * for some p): itself, or one that starts with it and a `/`; `/` and ``
   * are above every absolute path. A binary search, where a set of every
   * ancestor of every path cost a string for each.
   */
  atOrAboveOne(path: string): boolean {
    if (this.at.has(path)) return true;
    const sorted = (this.sorted ??= [...this.at].sort());
    const prefix = path === '' || path === '/' ? '/' : `${path}/`;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    return lo < sorted.length && sorted[lo]!.startsWith(prefix);
  }

  /**
   * The longest of them `path` lies strictly under (`isStrictlyUnder(path, p)`):
   * atOrAbove's order, without its array (most paths asked are a name or two below one).
   */
  nearestStrictlyAbove(path: string): string | undefined {
    for (let i = path.length - 1; i > 0; i--) {
      if (path.charCodeAt(i) !== 47) continue;
      const a = path.slice(0, i);
      if (this.at.has(a)) return a;
    }
    if (path.charCodeAt(0) !== 47) return undefined;
    if (path !== '/' && path.charCodeAt(1) !== 47 && this.at.has('/')) return '/';
    return this.at.has('') ? '' : undefined;
  }
}

/**
 * The paths at or inside each path, in their order, keyed by that path:
 * `grouped.get(a)` is `paths.filter((p) => isUnder(p, a))` (or undefined
 * where none is), for every `a` at once.
 */
export function insideEach(paths: readonly string[]): ReadonlyMap<string, readonly string[]> {
  const out = new Map<string, string[]>();
  for (const p of paths) for (const a of atOrAbove(p)) pushAt(out, a, p);
  return out;
}

/** Appends to the list a map holds for a key, making it on the first. */
export function pushAt<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * The names some key lies at or inside, by the directory that holds each
 * (`/p/.git/hooks` → `/p` holds `.git`), of the given names (the project
 * names): one pass over the keys, each scanned once, instead of a question
 * per name of every tree.
 */
export function namesHolding(keys: Iterable<string>, names: ReadonlySet<string>): Map<string, Set<string>> {
  // A component starting otherwise is none of them, told without a slice.
  const firstChars = new Set([...names].map((n) => n.charCodeAt(0)));
  const out = new Map<string, Set<string>>();
  for (const key of keys) {
    for (let start = 1; start < key.length; ) {
      let end = key.indexOf('/', start);
      if (end < 0) end = key.length;
      if (firstChars.has(key.charCodeAt(start))) {
        const name = key.slice(start, end);
        if (names.has(name)) {
          const dir = start === 1 ? '/' : key.slice(0, start - 1);
          const set = out.get(dir);
          if (set) set.add(name);
          else out.set(dir, new Set([name]));
        }
      }
      start = end + 1;
    }
  }
  return out;
}
