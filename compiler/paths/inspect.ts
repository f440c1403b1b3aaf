import type { FsView } from './view.js';

export interface PathFacts {
  readonly existence: 'exists' | 'absent' | 'unknown';
  readonly kind?: 'file' | 'dir' | 'other';
  /** The first component that is a symbolic link, and where the whole path resolves. */
  readonly symlink?: { readonly link: string; readonly resolved: string };
}

const maxHops = 40;

/**
 * Walk the path component by component through the view, following links
 * as the kernel would, to learn whether it exists, what it is, and whether
 * any component of it is a symbolic link (grants must name the target).
 */
export function inspectPath(view: FsView, path: string): PathFacts {
  const pending = path.split('/').filter((p) => p !== '');
  let current = '';
  let firstLink: string | undefined;
  let hops = 0;
  let last: 'file' | 'dir' | 'other' = 'dir';
  while (pending.length) {
    const part = pending.shift()!;
    if (part === '.') continue;
    if (part === '..') {
      current = current.slice(0, current.lastIndexOf('/'));
      continue;
    }
    const next = `${current}/${part}`;
    const found = view.lookup(next);
    if (found.kind === 'unknown') return withLink({ existence: 'unknown' }, firstLink, path);
    if (found.kind === 'absent') return withLink({ existence: 'absent' }, firstLink, resolvedSoFar(next, pending));
    if (found.kind === 'symlink') {
      if (++hops > maxHops) return withLink({ existence: 'absent' }, firstLink ?? next, next);
      firstLink ??= next;
      const target = found.target;
      pending.unshift(...target.split('/').filter((p) => p !== ''));
      if (target.startsWith('/')) current = '';
      continue;
    }
    if (pending.length && found.kind !== 'dir') return withLink({ existence: 'absent' }, firstLink, resolvedSoFar(next, pending));
    current = next;
    last = found.kind;
  }
  return withLink({ existence: 'exists', kind: last }, firstLink, current || '/');
}

function resolvedSoFar(at: string, rest: string[]): string {
  return [at, ...rest].join('/');
}

function withLink(facts: PathFacts, link: string | undefined, resolved: string): PathFacts {
  return link ? { ...facts, symlink: { link, resolved } } : facts;
}
