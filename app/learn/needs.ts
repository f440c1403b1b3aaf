/**
 * What a traced run needed, path by path, on the host: each access the
 * workload made (trace.ts), resolved through the filesystem view to the
 * canonical path it reached (grants name no links) and the links it went
 * through on the way (a link is in a sandbox's view only if its directory
 * is), and what the run's throw-away layers hold that no traced call
 * explains (session.ts's changes: the ground truth of what was written).
 * The collapse policy (policy.ts) turns these needs into grants.
 */
import { resolvePath, isUnder, type FsView } from '../../compiler/paths/index.js';
import mergedUsr from '../../compiler/paths/merged-usr.json' with { type: 'json' };
import type { Interpreter } from './interpreter.js';
import policy from './policy.json' with { type: 'json' };
import type { Access } from './trace.js';

/**
 * - `read`: a file's content; `stat`: a path's properties only (on Linux only a content grant shows them);
 * - `list`: a directory's names; `link`: a symbolic link the run went through;
 * - `write-file`: an existing file written or changed; `write-dir`: entries made or removed in a directory
 *   (the nearest one that exists on the host: what the run made inside it did not exist before);
 * - `exec`: a program or interpreter executed.
 */
export type NeedKind = 'read' | 'stat' | 'list' | 'link' | 'write-file' | 'write-dir' | 'exec';

/** What in the trace needed it: the first access, said in the config's comment. */
export interface Evidence {
  readonly syscall: string;
  readonly program: string;
  /** The path as the program named it (a link, a relative path made absolute). */
  readonly named: string;
  /** How this access came to need the path when it is not the path itself: `holds X`, `interpreter of Y`. */
  readonly via?: string;
}

export interface Need {
  readonly path: string;
  readonly kind: NeedKind;
  /** What the path is on the host. */
  readonly is: 'file' | 'dir' | 'other';
  readonly first: Evidence;
  count: number;
  /**
   * `write-dir` of a directory the run made, which was there when it ended: absent on the host. Its grant names
   * it rather than the directory it was made in (whose other entries the run did not touch).
   */
  readonly created?: true;
}

/** Something the run did that no grant can give, said in the report. */
export interface Unmet {
  readonly path: string;
  readonly what: string;
  readonly first: Evidence;
}

export interface NeedSet {
  readonly needs: readonly Need[];
  readonly unmet: readonly Unmet[];
  /** Sockets and addresses the run reached (or tried to): never granted. */
  readonly network: readonly { readonly target: string; readonly ok: boolean; readonly errno?: string; readonly first: Evidence }[];
  /** Paths the sandbox provides itself that the run used (its /proc, /dev). */
  readonly provided: readonly string[];
}

const SANDBOX_PROVIDED: readonly string[] = Object.keys(policy.sandboxProvided);
const MERGED_LINKS = new Set(mergedUsr.links.map((l) => l.link));

const parentOf = (p: string): string => (p.lastIndexOf('/') <= 0 ? '/' : p.slice(0, p.lastIndexOf('/')));

export interface NeedInputs {
  readonly accesses: readonly Access[];
  /** The throw-away layers' changes (throwaway.c): `f`, `d`, `l`, `o` entries, `w` whiteouts, `x` opaque directories. */
  readonly changes: readonly { readonly kind: string; readonly path: string }[];
  readonly view: FsView;
  /** What the kernel runs for a program (its `#!` interpreter or ELF loader), read from the host. */
  readonly interpreterOf: (program: string) => Interpreter | undefined;
}

export function deriveNeeds(inputs: NeedInputs): NeedSet {
  const { view } = inputs;
  const byKey = new Map<string, Need>();
  const unmet = new Map<string, Unmet>();
  const network = new Map<string, NeedSet['network'][number]>();
  const provided = new Set<string>();

  const add = (path: string, kind: NeedKind, is: Need['is'], first: Evidence, created?: true): void => {
    const key = `${kind}\0${path}`;
    const had = byKey.get(key);
    if (had) had.count++;
    else byKey.set(key, { path, kind, is, first, count: 1, ...(created ? { created } : {}) });
  };
  const miss = (path: string, what: string, first: Evidence): void => {
    if (!unmet.has(`${what}\0${path}`)) unmet.set(`${what}\0${path}`, { path, what, first });
  };
  const sandboxOwn = (p: string): string | undefined => SANDBOX_PROVIDED.find((s) => isUnder(p, s));

  /** The host's answer for a path: canonical, what it is, and the links on the way (as needs). */
  const resolve = (named: string, ev: Evidence): { path: string; is: Need['is'] } | undefined => {
    const r = resolvePath(view, named);
    for (const link of r.links) {
      if (MERGED_LINKS.has(link) || sandboxOwn(link)) continue;
      add(link, 'link', 'other', ev);
    }
    if (r.stop || r.facts.existence !== 'exists') return undefined;
    return { path: r.at, is: r.facts.kind ?? 'other' };
  };
  /** The nearest directory at or above `p` that exists on the host (what a run's new entries are made in). */
  const existingBelow = (p: string, ev: Evidence): { dir: string; below: string } | undefined => {
    for (let d = p; ; d = parentOf(d)) {
      const r = resolve(d, ev);
      if (r?.is === 'dir') return { dir: r.path, below: p.slice(d.length) };
      if (r) return undefined; // a file where a directory was made: the host changed under the run
      if (d === '/') return undefined;
    }
  };
  /**
   * The directory whose entries an entry made or removed at `p` changes: the nearest one on the host, or, when
   * `p` is in a directory the run made there and kept (`keptDirs`, from the throw-away layer), that new
   * directory: a grant of it is a grant of what the run made, where one of its parent would be all its siblings.
   */
  const changedDir = (p: string, ev: Evidence, unnamed?: true): { dir: string; created?: true } | undefined => {
    // O_TMPFILE names the directory the file is made in; every other call names the entry.
    const inDir = unnamed ? p : parentOf(p);
    const e = existingBelow(inDir, ev);
    if (!e) return undefined;
    const first = `${e.below}/${unnamed ? '' : p.slice(inDir.length + 1)}`.split('/').filter(Boolean)[0];
    const top = first && first !== '..' && first !== '.' ? (e.dir === '/' ? `/${first}` : `${e.dir}/${first}`) : undefined;
    return top && keptDirs.has(top) ? { dir: top, created: true } : { dir: e.dir };
  };
  const execNeed = (named: string, ev: Evidence, depth = 0): void => {
    const r = resolve(named, ev);
    if (!r)
      return miss(
        named,
        'executed a program the run made itself (Landlock never makes a written file executable; it is not on the host to grant)',
        ev,
      );
    // The kernel executes regular files only: anything else here is a host that changed under the run.
    if (r.is !== 'file') return;
    add(r.path, 'exec', r.is, ev);
    const interp = depth < 4 ? inputs.interpreterOf(r.path) : undefined;
    if (!interp) return;
    const via = interp.kind === 'script' ? `${interp.line}: the interpreter of ${r.path}` : `the dynamic loader of ${r.path} (PT_INTERP)`;
    const iev = { ...ev, named: interp.path, via };
    if (interp.kind === 'script') return execNeed(interp.path, iev, depth + 1);
    // The loader: executable under Landlock wherever a read grant shows it (the model's loaders).
    const l = resolve(interp.path, iev);
    if (l) add(l.path, 'read', l.is, iev);
  };

  // The directories the run made and kept: in the throw-away layer, and not on the host.
  const keptDirs = new Set(
    inputs.changes
      .filter((c) => c.kind === 'd' && !sandboxOwn(c.path))
      .filter((c) => {
        const r = resolvePath(view, c.path);
        return r.stop === 'absent';
      })
      .map((c) => c.path),
  );

  for (const a of inputs.accesses) {
    const ev: Evidence = { syscall: a.syscall, program: a.program, named: a.path };
    if (a.op === 'connect') {
      const target = a.address ?? a.path;
      const key = `${target}`;
      if (!network.has(key) || (a.ok && !network.get(key)!.ok))
        network.set(key, { target, ok: a.ok, ...(a.errno ? { errno: a.errno } : {}), first: ev });
      continue;
    }
    if (!a.ok) continue;
    const own = sandboxOwn(a.path);
    if (own) {
      if (own !== '/.boxwright') provided.add(own);
      continue;
    }
    switch (a.op) {
      case 'exec':
        execNeed(a.path, ev);
        break;
      case 'read':
      case 'stat':
      case 'list': {
        // Absent on the host: the run made it, and the need is where it was made.
        const r = resolve(a.path, ev);
        if (!r) break;
        const kind: NeedKind = r.is === 'dir' ? (a.op === 'list' ? 'list' : 'stat') : a.op === 'stat' ? 'stat' : 'read';
        add(r.path, kind, r.is, ev);
        break;
      }
      case 'write':
      case 'modify': {
        const r = resolve(a.path, ev);
        if (r) add(r.path, r.is === 'dir' ? 'write-dir' : 'write-file', r.is, ev);
        break;
      }
      case 'create':
      case 'remove': {
        // O_CREAT on a file that was there: a write of it, not a new entry.
        if (a.mayExist) {
          const r = resolve(a.path, ev);
          if (r && r.is !== 'dir') {
            add(r.path, 'write-file', r.is, ev);
            break;
          }
        }
        const changed = changedDir(a.path, ev, a.unnamed);
        if (changed === undefined) break;
        add(changed.dir, 'write-dir', 'dir', ev, changed.created);
        // A rename between directories: both must be in one writable mount (EXDEV across two).
        if (a.renamedWith && a.op === 'create') {
          const other = changedDir(a.renamedWith, ev);
          if (other && other.dir !== changed.dir) {
            const common = commonAncestor(changed.dir, other.dir);
            add(
              common,
              'write-dir',
              'dir',
              { ...ev, via: `a rename between ${other.dir} and ${changed.dir}, which must be in one mount` },
              common === changed.dir ? changed.created : undefined,
            );
          }
        }
        break;
      }
    }
  }

  // The ground truth: every entry of the throw-away layers must be a write some need explains
  // (a written file itself, or an entry below a directory whose entries were made or removed).
  const writtenFiles = new Set<string>();
  const writtenDirs = new Set<string>();
  for (const n of byKey.values())
    if (n.kind === 'write-file') writtenFiles.add(n.path);
    else if (n.kind === 'write-dir') writtenDirs.add(n.path);
  const explained = (p: string): boolean => {
    if (writtenFiles.has(p) || writtenDirs.has(p)) return true;
    for (let d = parentOf(p); ; d = parentOf(d)) {
      if (writtenDirs.has(d)) return true;
      if (d === '/') return false;
    }
  };
  for (const c of inputs.changes) {
    if (sandboxOwn(c.path)) continue;
    const onHost = resolvePath(view, c.path);
    const exists = !onHost.stop && onHost.facts.existence === 'exists';
    // A directory of the host in the upper layer is a copy-up for what changed inside it.
    if (c.kind === 'd' && exists) continue;
    if (explained(c.path)) continue;
    const ev: Evidence = { syscall: 'the throw-away layer', program: '(no traced call)', named: c.path };
    if (exists && c.kind !== 'w' && c.kind !== 'x' && onHost.facts.kind !== 'dir') {
      add(onHost.at, 'write-file', onHost.facts.kind ?? 'other', ev);
      writtenFiles.add(onHost.at);
    } else {
      const changed = changedDir(c.path, ev);
      if (changed) {
        add(changed.dir, 'write-dir', 'dir', ev, changed.created);
        writtenDirs.add(changed.dir);
      }
    }
  }

  return {
    needs: [...byKey.values()].sort((x, y) =>
      x.path < y.path ? -1 : x.path > y.path ? 1 : x.kind < y.kind ? -1 : x.kind > y.kind ? 1 : 0,
    ),
    unmet: [...unmet.values()],
    network: [...network.values()],
    provided: [...provided].sort(),
  };
}

export function commonAncestor(a: string, b: string): string {
  const x = a.split('/');
  const y = b.split('/');
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return x.slice(0, i).join('/') || '/';
}
