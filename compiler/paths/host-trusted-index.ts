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
  /** Every path at or above one of them. */
  private readonly aroundOne = new Set<string>();

  constructor(paths: Iterable<string>) {
    this.at = new Set(paths);
    for (const p of this.at) for (const a of atOrAbove(p)) this.aroundOne.add(a);
  }

  /** Whether the path is at, inside or around one of them: `isUnder(path, p) || isUnder(p, path)` for some p. */
  near(path: string): boolean {
    return this.aroundOne.has(path) || this.nearestStrictlyAbove(path) !== undefined;
  }

  /** The longest of them `path` lies strictly under (`isStrictlyUnder(path, p)`): atOrAbove's order, without its array (most paths asked are a name or two below one). */
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
