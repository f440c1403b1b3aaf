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
    return this.aroundOne.has(path) || atOrAbove(path).some((a) => this.at.has(a));
  }

  /** The longest of them `path` lies strictly under (`isStrictlyUnder(path, p)`). */
  nearestStrictlyAbove(path: string): string | undefined {
    const above = atOrAbove(path);
    for (let i = 1; i < above.length; i++) if (this.at.has(above[i]!)) return above[i];
    return undefined;
  }
}

/**
 * The paths at or inside each path, in their order, keyed by that path:
 * `grouped.get(a)` is `paths.filter((p) => isUnder(p, a))` (or undefined
 * where none is), for every `a` at once.
 */
export function insideEach(paths: readonly string[]): ReadonlyMap<string, readonly string[]> {
  const out = new Map<string, string[]>();
  for (const p of paths)
    for (const a of atOrAbove(p)) {
      const list = out.get(a);
      if (list) list.push(p);
      else out.set(a, [p]);
    }
  return out;
}
