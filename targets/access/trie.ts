/**
 * A trie over path components. Coverage questions ("does a read tree cover
 * this write?") walk from the root to one path: O(depth), whatever the
 * number of grants.
 */
export class PathTrie<T> {
  private readonly root: Node<T> = { children: new Map(), items: [] };

  add(path: string, item: T): void {
    let node = this.root;
    for (const part of components(path)) {
      let next = node.children.get(part);
      if (!next) {
        next = { children: new Map(), items: [] };
        node.children.set(part, next);
      }
      node = next;
    }
    node.items.push(item);
  }

  /** Items at the path itself. */
  at(path: string): readonly T[] {
    return this.node(path)?.items ?? [];
  }

  /** Items at the path and at each of its ancestors, nearest first. */
  ancestorsOrSelf(path: string): T[] {
    const found: T[][] = [this.root.items];
    let node: Node<T> | undefined = this.root;
    for (const part of components(path)) {
      node = node.children.get(part);
      if (!node) break;
      found.push(node.items);
    }
    return found.reverse().flat();
  }

  /** Items strictly below the path, in path order. */
  below(path: string): T[] {
    const start = this.node(path);
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

  private node(path: string): Node<T> | undefined {
    let node: Node<T> | undefined = this.root;
    for (const part of components(path)) {
      node = node.children.get(part);
      if (!node) return undefined;
    }
    return node;
  }
}

interface Node<T> {
  readonly children: Map<string, Node<T>>;
  readonly items: T[];
}

function components(path: string): string[] {
  return path.split('/').filter((p) => p !== '');
}
