/**
 * Linux's model part (issue 38): what the mount view, Landlock and
 * seccomp give each principal at each path, as the generic model
 * (model/model.ts) asks it; the plan (./plan.ts) builds the sandbox from
 * these cells, and the emitters (targets/linux/lower.ts) spell the plan.
 */
import { dirname } from 'node:path';
import type { Grant, Principal, SandboxHolds } from '../../../compiler/ir/types.js';
import { isUnder } from '../../../compiler/paths/index.js';
import loaderData from '../../../compiler/paths/loaders.json' with { type: 'json' };
import { absent, access, type Cell, empty } from '../../../model/cell.js';
import type { Mechanism } from '../../../model/facts.js';
import { fixed, isDeny, reads, writes } from '../../../model/grant-kinds.js';
import type { PathIndex } from '../../../model/path-index.js';
import type { LinuxExec, PlatformModel } from '../../../model/platform.js';

/**
 * Linux's explicit read requirement: a read tree over the path, or, for an
 * exact-file write, a read_file of the same file. An exec grant never
 * satisfies it, and a read_file never covers a directory named in `write`.
 */
function linuxReadCover(ix: PathIndex, path: string, scope: 'tree' | 'file'): Grant | undefined {
  const s = ix.summary(path, 'linux');
  return s.readTree ?? (scope === 'file' ? s.readFile : undefined);
}

/**
 * The scope Linux's read requirement is judged on: a `write` tree that names
 * an existing file is one file, which a read_file of the same file covers;
 * a read_file never covers a directory named in `write`.
 */
function coverScope(g: Grant): 'tree' | 'file' {
  return g.scope === 'file' || g.facts.kind === 'file' ? 'file' : 'tree';
}

/** The platform table's loader directories: an agent read of one makes its programs executable. */
const loaderDirectories: ReadonlySet<string> = new Set(loaderData.loaderDirectories);

/**
 * What a denied path (a deny's own path) is in the view: covered where a
 * tree above it is mounted, absent otherwise. Inside another deny nothing
 * of that deny's tree is mounted, so this one is what that one is (inside
 * its cover, or absent with it), never covered on its own by a tree the
 * outer deny keeps out of the view: walked out deny by deny in a loop, each
 * answer kept (a config of thousands of nested denies asked each chain
 * again, one frame and one summary per deny).
 */
function deniedAt(ix: PathIndex, denied: string, x: LinuxExec, hostTree: (t: Grant | undefined, at: string) => Grant | undefined): Cell {
  let byExec = deniedMemo.get(ix);
  if (!byExec) deniedMemo.set(ix, (byExec = new WeakMap()));
  let memo = byExec.get(x);
  if (!memo) byExec.set(x, (memo = new Map()));
  const chain: string[] = [];
  let out: Cell | undefined;
  for (let d = denied; out === undefined; ) {
    const hit = memo.get(d);
    if (hit) {
      out = hit;
      break;
    }
    chain.push(d);
    if (d === '/') {
      out = absent;
      break;
    }
    const parent = dirname(d);
    const above = ix.summary(parent, 'linux');
    if (above.existingDeny) d = above.existingDeny.path!;
    else out = hostTree(above.readTree, parent) || hostTree(above.writeTree, parent) || above.execTree ? empty : absent;
  }
  for (const d of chain) memo.set(d, out);
  return out;
}

const deniedMemo = new WeakMap<PathIndex, WeakMap<LinuxExec, Map<string, Cell>>>();

function linuxAt(ix: PathIndex, path: string, x: LinuxExec, plain = false): Cell {
  const summary = ix.summary(path, 'linux');
  // The trees that show the host here: the private tmpfs only at its own root.
  const hostTree = (t: Grant | undefined, at: string): Grant | undefined =>
    t !== undefined && t === x.privateTmp && at !== t.path ? undefined : t;
  // A copy only where the private tmpfs changes it: most summaries are shared, and this is asked per grant and platform.
  const readTree = hostTree(summary.readTree, path);
  const writeTree = hostTree(summary.writeTree, path);
  const s = readTree === summary.readTree && writeTree === summary.writeTree ? summary : { ...summary, readTree, writeTree };
  // A denied path is covered by an empty placeholder where a mount above it
  // shows it (a read, write or exec tree strictly above: the cover sits in
  // that mount); a tree at the denied path or below it is not mounted at
  // all, and what lies below a denied directory is inside its empty cover:
  // absent either way.
  if (s.existingDeny) {
    const denied = s.existingDeny.path!;
    if (path !== denied || denied === '/') return absent;
    return deniedAt(ix, denied, x, hostTree);
  }
  const execGrant = s.execFile ?? s.execTree;
  const read = !!(s.readTree ?? s.readFile ?? execGrant);
  // A host-trusted carve-out is bound read-only over the tree's writable mount; a write_file at the path names it.
  const treeWrite = !!s.writeTree && (plain || !s.readOnly) && !!linuxReadCover(ix, s.writeTree.path!, coverScope(s.writeTree));
  const write = treeWrite || !!(s.writeFile && linuxReadCover(ix, path, 'file'));
  const mounted = read || write;
  // The sandbox's own /proc is mounted noexec. bubblewrap cannot mount a
  // tree non-executable: without Landlock, whatever is readable runs.
  const exec =
    mounted &&
    !isUnder(path, '/proc') &&
    (!x.confined || !!execGrant || x.loaders.has(path) || (!!s.readTree && loaderDirectories.has(s.readTree.path!)));
  return access({ read: mounted, write, exec });
}

const privateTmpfs = fixed('private-tmpfs');

const ownProc = fixed('own-proc');

const noMetadataTree = fixed('no-metadata-tree');

const emptyCoverFile: Mechanism = Object.freeze({ kind: 'empty-cover', of: 'file' });

const emptyCoverDir: Mechanism = Object.freeze({ kind: 'empty-cover', of: 'dir' });

const execGrantReadable = fixed('exec-grant-readable');

const toolMountsExecutable = fixed('tool-mounts-executable');

const mountsExecutable = fixed('mounts-executable');

const loaderDirectory = fixed('loader-directory');

const namesWithoutContent: Cell = Object.freeze({ kind: 'refused', because: Object.freeze({ kind: 'names-without-content' }) });

const denyTargetAbsent: Cell = Object.freeze({ kind: 'refused', because: Object.freeze({ kind: 'deny-target-absent' }) });

function linuxMechanism(p: Principal, g: Grant, cell: Cell, _holds: SandboxHolds, confined: boolean): Mechanism | undefined {
  if (g.implicit?.privateTmpfs) return privateTmpfs;
  // The one decision of the cover's kind, which the plan reads: an empty file over anything that is not a
  // directory (a socket too: a directory cannot be mounted on it); an unknown kind is covered as a directory.
  // Before /proc: a deny inside a read of /proc is covered in the sandbox's own /proc like any other.
  if (g.access === 'deny' && cell.kind === 'empty')
    return g.facts.kind === 'file' || g.facts.kind === 'other' ? emptyCoverFile : emptyCoverDir;
  if (g.path && isUnder(g.path, '/proc')) return ownProc;
  if (g.access === 'metadata') return noMetadataTree;
  if (g.access === 'exec' && cell.kind === 'access') return cell.write && confined ? execWritable : execGrantReadable;
  if (cell.kind === 'access' && cell.exec)
    // Under Landlock an agent's read is executable only as a loader directory; an exec grant over it says so itself.
    return p.kind === 'tool'
      ? toolMountsExecutable
      : !confined
        ? mountsExecutable
        : g.path && loaderDirectories.has(g.path)
          ? loaderDirectory
          : cell.write
            ? execWritable
            : undefined;
  return undefined;
}

const execWritable = fixed('exec-writable');

export const linuxModel: PlatformModel = {
  at: (cx, path, plain) => linuxAt(cx.ix, path, cx.linuxExec, plain),
  mechanism: linuxMechanism,
  // Refused before the cell: a write with no read over it (a writable mount also exposes reads), a list (a mount gives
  // content or nothing), a deny of a path that does not exist (nothing to cover).
  before: (g, ix) => {
    if (writes(g) && !g.implicit) {
      const readCover = linuxReadCover(ix, g.path!, coverScope(g));
      if (readCover) return { readCover };
      const partialReads = ix.treesBelow(g.path!, 'linux').filter(reads).concat(ix.filesAt(g.path!, 'linux').filter(reads));
      return { refused: { kind: 'refused', because: { kind: 'write-without-read-cover', partialReads } } };
    }
    if (g.access === 'list') return { refused: namesWithoutContent };
    if (isDeny(g) && g.facts.existence === 'absent' && !g.implicit) return { refused: denyTargetAbsent };
    return undefined;
  },
  fileEntryGivesTree: () => true,
  // The ones a mount shows it: each ancestor a mount point of its own.
  pinsDeny: (cell) => cell.kind === 'empty',
  pinsTrusted: true,
  // A read-only mount, which needs an existing target (a mount point made on the host inside a write tree would be a file the workload left behind).
  carvable: (t) => !t.parentOf && t.facts.existence === 'exists',
  carvesMissingParents: false,
  deniesFuturePaths: false,
  privateTmpOwn: true,
  ownSandbox: true,
  elsewhere: () => ({ cell: absent, fact: { kind: 'ungranted', regime: 'mount-view' } }),
  // No mechanism of its own for them: only what the mount view leaves out.
  closedSecrets: () => [],
  // The file bind-mounted alone: a mount point, which cannot be renamed or deleted.
  rewriteInPlace: 'file-bind',
  // Bound read-only over itself; one the workload creates the launcher finds in its listing after the run and moves aside.
  hostTrusted: { readOnly: 'read-only-bind', created: 'quarantined-after-run' },
};
