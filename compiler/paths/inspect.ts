import type { FsView } from './view.js';

export interface PathFacts {
  readonly existence: 'exists' | 'absent' | 'unknown';
  readonly kind?: 'file' | 'dir' | 'other';
  /**
   * The first component that is a symbolic link, and where the whole path
   * resolves; `loop` when following links never ends (more than 40 hops, as
   * the kernel's ELOOP): then it resolves to nothing.
   */
  readonly symlink?: { readonly link: string; readonly resolved: string; readonly loop?: true };
}

const maxHops = 40;

/**
 * Walk the path component by component through the view, following links
 * as the kernel would, to learn whether it exists, what it is, and whether
 * any component of it is a symbolic link (grants must name the target).
 */
export function inspectPath(view: FsView, path: string): PathFacts {
  // Longer than any platform takes (the config is refused for it before the
  // model, rules/unrepresentable-path.ts): not worth a walk of its ancestors.
  if (path.length > longestPath) return unknownFacts;
  let memo = memos.get(view);
  if (!memo) memos.set(view, (memo = new Map()));
  const hit = memo.get(path);
  if (hit) return hit;
  // The ancestors not inspected yet, nearest first, then inspected from the
  // top down so that each finds its parent's facts in the memo: a loop, not
  // the recursion that a path of 60,000 components exhausted the stack with.
  // Every ancestor of a clean path is clean: the check is made once.
  const chain = [path];
  if (isClean(path) && memo.size < maxMemo) for (let p = parentOf(path); p !== undefined && !memo.has(p); p = parentOf(p)) chain.push(p);
  for (let i = chain.length - 1; i >= 0; i--)
    memo.set(chain[i]!, inspectUncached(view, chain[i]!, memo, i < chain.length - 1 || isClean(chain[i]!)));
  return memo.get(path)!;
}

/** The longest path any platform takes: Windows' extended-length paths, in UTF-16 code units (Linux takes 4,095 bytes, Seatbelt about 1 KB). */
export const longestPath = 32_767;

/** Per view: facts of paths already inspected, so siblings share their parent's walk. */
const memos = new WeakMap<FsView, Map<string, PathFacts>>();
const maxMemo = 1_000_000;

/** A clean absolute path (no `//`, `.` or `..`; not `/`): its parent's facts decide its own in one lookup. */
function isClean(path: string): boolean {
  const slash = path.lastIndexOf('/');
  return slash > 0 && slash < path.length - 1 && !path.includes('//') && !hasDotComponent(path);
}

/** The parent of a clean path, or undefined at the top (`/a`). */
function parentOf(path: string): string | undefined {
  const slash = path.lastIndexOf('/');
  return slash > 0 ? path.slice(0, slash) : undefined;
}

function inspectUncached(view: FsView, path: string, memo: Map<string, PathFacts>, clean: boolean): PathFacts {
  // A clean absolute path whose parent is a known, link-free directory needs
  // one lookup, not a walk: a config with thousands of grants in the same
  // directories costs one lookup per grant.
  const parent = clean ? parentOf(path) : undefined;
  const pf = parent === undefined ? undefined : memo.get(parent);
  if (pf && !pf.symlink && pf.existence === 'exists' && pf.kind === 'dir') {
    const found = view.lookup(path);
    if (found.kind === 'absent') return absentFacts;
    if (found.kind === 'unknown') return unknownFacts;
    if (found.kind !== 'symlink') return existing[found.kind];
  }
  if (pf && !pf.symlink && pf.existence === 'absent') return absentFacts;
  return resolvePath(view, path).facts;
}

// Facts without a link carry no data: one object each, shared by every path they describe.
export const absentFacts: PathFacts = Object.freeze({ existence: 'absent' });
const unknownFacts: PathFacts = Object.freeze({ existence: 'unknown' });
const existing: Readonly<Record<'file' | 'dir' | 'other', PathFacts>> = {
  file: Object.freeze({ existence: 'exists', kind: 'file' }),
  dir: Object.freeze({ existence: 'exists', kind: 'dir' }),
  other: Object.freeze({ existence: 'exists', kind: 'other' }),
};

/** A walk's end: the facts, where it ended, and why it stopped early if it did. */
export interface Resolution {
  readonly facts: PathFacts;
  /**
   * The path with every link on the way followed: the whole path when it
   * exists, or the component the walk could not pass.
   */
  readonly at: string;
  /** Why the walk stopped at `at` before the end: that component is absent, or not a directory, or one link too many, or the view cannot say. */
  readonly stop?: 'absent' | 'not-a-directory' | 'too-many-links' | 'unknown';
  /**
   * Every symbolic link the walk followed, in order, each at its own
   * resolved location (its directory has no link left in it): what a view
   * must hold for the path to resolve there as it does here.
   */
  readonly links: readonly string[];
}

/**
 * The walk itself, without the memo: component by component through the
 * view, following links as the kernel would. inspectPath answers from it;
 * so does the Linux runner's command lookup inside a sandbox
 * (targets/linux/view.ts), through a view of the sandbox's mounts.
 */
export function resolvePath(view: FsView, path: string): Resolution {
  // The components still to walk, last first: pop and push are O(1), where shift and unshift moved the whole array each step.
  const pending = path
    .split('/')
    .filter((p) => p !== '')
    .reverse();
  let current = '';
  let firstLink: string | undefined;
  const links: string[] = [];
  let hops = 0;
  let last: 'file' | 'dir' | 'other' = 'dir';
  while (pending.length) {
    const part = pending.pop()!;
    if (part === '.') continue;
    if (part === '..') {
      current = current.slice(0, current.lastIndexOf('/'));
      continue;
    }
    const next = `${current}/${part}`;
    const found = view.lookup(next);
    if (found.kind === 'unknown') return { facts: withLink(unknownFacts, firstLink, path), at: next, stop: 'unknown', links };
    if (found.kind === 'absent')
      return { facts: withLink(absentFacts, firstLink, resolvedSoFar(next, pending)), at: next, stop: 'absent', links };
    if (found.kind === 'symlink') {
      if (++hops > maxHops)
        return {
          facts: { existence: 'absent', symlink: { link: firstLink ?? next, resolved: next, loop: true } },
          at: next,
          stop: 'too-many-links',
          links,
        };
      firstLink ??= next;
      links.push(next);
      const target = found.target;
      for (const p of target.split('/').reverse()) if (p !== '') pending.push(p);
      if (target.startsWith('/')) current = '';
      continue;
    }
    if (pending.length && found.kind !== 'dir')
      return { facts: withLink(absentFacts, firstLink, resolvedSoFar(next, pending)), at: next, stop: 'not-a-directory', links };
    current = next;
    last = found.kind;
  }
  return { facts: withLink(existing[last], firstLink, current || '/'), at: current || '/', links };
}

/** A `.` or `..` component (`/\/\.\.?(\/|$)/`), found without a regular expression. */
function hasDotComponent(path: string): boolean {
  for (let i = path.indexOf('/.'); i >= 0; i = path.indexOf('/.', i + 1)) {
    const next = i + 2 < path.length ? path.charCodeAt(i + 2) : 47;
    if (next === 47) return true;
    if (next === 46 && (i + 3 >= path.length || path.charCodeAt(i + 3) === 47)) return true;
  }
  return false;
}

/** `at` and the components still pending (`rest` is last first). */
function resolvedSoFar(at: string, rest: string[]): string {
  return [at, ...rest.slice().reverse()].join('/');
}

function withLink(facts: PathFacts, link: string | undefined, resolved: string): PathFacts {
  return link ? { ...facts, symlink: { link, resolved } } : facts;
}
