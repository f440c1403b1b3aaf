/**
 * A trie over path components. Coverage questions ("does a read tree cover
 * this write?") walk from the root to one path: O(depth), whatever the
 * number of grants.
 */
export class PathTrie<T> {
  private readonly root: Node<T> = { children: new Map(), items: [] };

  add(path: string, item: T): void {
    let node = this.root;
    forEachComponent(path, (part) => {
      let next = node.children.get(part);
      if (!next) {
        next = { children: new Map(), items: [] };
        node.children.set(part, next);
      }
      node = next;
      return true;
    });
    node.items.push(item);
  }

  /**
   * The items at the root, then at each component of the path down to the
   * path itself (as far as the trie goes): index i holds depth i.
   */
  chain(path: string): readonly (readonly T[])[] {
    const out: (readonly T[])[] = [this.root.items];
    let node: Node<T> | undefined = this.root;
    forEachComponent(path, (part) => {
      node = node!.children.get(part);
      if (!node) return false;
      out.push(node.items);
      return true;
    });
    return out;
  }

  /** The nearest item at the path or above it that passes `test`. */
  nearest(path: string, test: (item: T) => boolean): T | undefined {
    const chain = this.chain(path);
    for (let i = chain.length - 1; i >= 0; i--) {
      for (const item of chain[i]!) if (test(item)) return item;
    }
    return undefined;
  }

  /** Whether any item sits at the path or above it. */
  covers(path: string): boolean {
    return this.chain(path).some((items) => items.length > 0);
  }

  /** Items at the path itself. */
  at(path: string): readonly T[] {
    const chain = this.chain(path);
    return chain.length === depth(path) + 1 ? chain[chain.length - 1]! : [];
  }

  /** Items strictly below the path, in path order. */
  below(path: string): T[] {
    let start: Node<T> | undefined = this.root;
    forEachComponent(path, (part) => {
      start = start!.children.get(part);
      return start !== undefined;
    });
    if (!start) return [];
    const out: T[] = [];
    const walk = (n: Node<T>): void => {
      for (const key of [...n.children.keys()].sort()) {
        const child = n.children.get(key)!;
        out.push(...child.items);
        walk(child);
      }
    };
    walk(start);
    return out;
  }
}

interface Node<T> {
  readonly children: Map<string, Node<T>>;
  readonly items: T[];
}

/** Calls `visit` with each non-empty component, until it returns false. */
function forEachComponent(path: string, visit: (part: string) => boolean): void {
  let start = 0;
  const n = path.length;
  while (start < n) {
    while (start < n && path.charCodeAt(start) === 47) start++;
    if (start >= n) return;
    let end = path.indexOf('/', start);
    if (end < 0) end = n;
    if (!visit(path.slice(start, end))) return;
    start = end + 1;
  }
}

function depth(path: string): number {
  let d = 0;
  forEachComponent(path, () => {
    d++;
    return true;
  });
  return d;
}
