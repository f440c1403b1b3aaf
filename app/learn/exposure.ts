/**
 * What a read tree of a directory would give that the run did not read:
 * the boundaries inside it (boundaries.ts: protected paths, system
 * secrets, boxwright's own output), a host-trusted path inside it the run
 * read nothing of, and a project secret (policy.json `projectSecrets`: a
 * `.env`, a project `.npmrc`, a key) found by name below it. The collapse
 * policy (policy.ts) asks it of every read tree it would grant: a collapse
 * goes around what it finds (a narrower directory, or the exact files), a
 * directory the run needed whole (listed, a link's, written) keeps its
 * secrets out with a `deny`.
 *
 * Project secrets are found through the filesystem view (the host), by
 * name, below the directories where users and projects keep their files:
 * the home and the workspace (policy.ts says which). The system's own
 * secrets are named by path (policy.json `systemSecrets`); a system tree
 * holds packages' public files (and /etc/ssl/certs public `*.pem`
 * certificates), so a name there says nothing. The search is bounded: a directory it could not search
 * whole (too many entries, one it may not read) counts as holding a
 * secret, so that what learn grants never rests on a search it did not
 * finish.
 */
import { isStrictlyUnder, isUnder, type FsView } from '../../compiler/paths/index.js';
import { boundariesInside, boundaryAt, type Boundary } from './boundaries.js';
import type { Need } from './needs.js';
import policy from './policy.json' with { type: 'json' };

/** The entries one search looks through before it counts its directory as unsearchable. */
export const SEARCH_LIMIT = 200_000;
/** The entries all the searches of one decision look through at most (each directory is searched once). */
const TOTAL_LIMIT = 1_000_000;

export interface Exposed {
  readonly path: string;
  readonly reason: string;
  /** A project secret (deniable: not a boundary, which is never granted at all), or a search that could not finish. */
  readonly kind: 'boundary' | 'host-trusted' | 'project-secret' | 'unsearched';
}

const SECRET_NAMES: readonly { readonly re: RegExp; readonly reason: string }[] = Object.entries(policy.projectSecrets).map(
  ([pattern, reason]) => ({
    re: new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`),
    reason,
  }),
);

/** Why a name is a project secret, or undefined. */
export function secretName(name: string): string | undefined {
  return SECRET_NAMES.find((s) => s.re.test(name))?.reason;
}

const join = (dir: string, name: string): string => (dir === '/' ? `/${name}` : `${dir}/${name}`);

export class Exposure {
  /** Each searched directory's project secrets (all of them, read or not), or why it could not be searched whole. */
  private readonly searched = new Map<string, readonly { path: string; reason: string }[] | 'unsearched'>();
  private spent = 0;
  private readonly read: readonly string[];

  constructor(
    private readonly o: {
      readonly view: FsView;
      readonly boundaries: readonly Boundary[];
      readonly needs: readonly Need[];
      /** Directories not searched for project secrets (outside the home and the workspace, a system tree). */
      readonly unsearched: (dir: string) => boolean;
    },
  ) {
    // What the run read, looked at, ran or wrote (a secret it used, it needed: a grant of its directory may reach it).
    this.read = o.needs.map((n) => n.path);
  }

  private readByRun(p: string): boolean {
    return this.read.some((r) => isUnder(r, p));
  }

  /** The project secrets below `dir` (at any depth), or `unsearched`. */
  secretsIn(dir: string): readonly { path: string; reason: string }[] | 'unsearched' {
    if (this.o.unsearched(dir)) return [];
    for (const [root, found] of this.searched)
      if (isUnder(dir, root) && found !== 'unsearched') return found.filter((s) => isStrictlyUnder(s.path, dir));
    const had = this.searched.get(dir);
    if (had) return had;
    const found: { path: string; reason: string }[] = [];
    const start = Math.min(SEARCH_LIMIT, TOTAL_LIMIT - this.spent);
    let budget = start;
    let result: typeof found | 'unsearched' = found;
    const stack = [dir];
    while (stack.length) {
      const d = stack.pop()!;
      const children = this.o.view.children(d);
      if (children === 'unknown' || (budget -= children.length) < 0) {
        result = 'unsearched';
        break;
      }
      for (const c of children) {
        const p = join(d, c.name);
        const why = secretName(c.name);
        if (why) found.push({ path: p, reason: why });
        else if (c.dir && !this.o.unsearched(p)) stack.push(p);
      }
    }
    this.spent += start - Math.max(budget, 0);
    this.searched.set(dir, result);
    return result === 'unsearched' ? result : found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /**
   * The project secrets below `dir` the run did not read, or `unsearched`. A secret directory the run used
   * part of (`.aws/config`) is its entries the run did not use, at any depth.
   */
  unreadSecretsIn(dir: string): readonly { path: string; reason: string }[] | 'unsearched' {
    const all = this.secretsIn(dir);
    if (all === 'unsearched') return all;
    const out: { path: string; reason: string }[] = [];
    let budget = SEARCH_LIMIT;
    // A grant at or inside a secret directory the run used (it wrote there): what it did not use in it stays out.
    const within = this.secretAround(dir);
    const stack = within ? [{ path: dir, reason: within }] : [...all];
    while (stack.length) {
      const s = stack.pop()!;
      if (!this.readByRun(s.path)) {
        out.push(s);
        continue;
      }
      if (this.read.includes(s.path) && this.o.view.lookup(s.path).kind !== 'dir') continue;
      const children = this.o.view.children(s.path);
      if (children === 'unknown' || (budget -= children.length) < 0) return 'unsearched';
      for (const c of children) stack.push({ path: join(s.path, c.name), reason: `in ${s.path}: ${s.reason}` });
    }
    return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** Why `dir` is, or is inside, a project secret (by the name of it or of an ancestor where secrets are searched for). */
  private secretAround(dir: string): string | undefined {
    for (let d = dir; d !== '/' && !this.o.unsearched(d); d = d.slice(0, d.lastIndexOf('/')) || '/') {
      const why = secretName(d.slice(d.lastIndexOf('/') + 1));
      if (why) return why;
    }
    return undefined;
  }

  /**
   * What a read tree of `dir` would give that the run did not read, the
   * first thing found: a boundary at or in it, a host-trusted path in it
   * (when `hostTrusted`: a collapse never covers one the run did not read),
   * a project secret in it, or a search that could not finish.
   */
  of(dir: string, o: { hostTrusted: boolean }): Exposed | undefined {
    const b = boundaryAt(dir, this.o.boundaries, false) ?? boundariesInside(dir, this.o.boundaries)[0];
    if (b) return { path: b.path, reason: b.reason, kind: 'boundary' };
    if (o.hostTrusted) {
      const t = this.o.boundaries.find(
        (x) =>
          x.why === 'host-trusted' &&
          isStrictlyUnder(x.path, dir) &&
          this.o.view.lookup(x.path).kind !== 'absent' &&
          !this.readByRun(x.path),
      );
      if (t) return { path: t.path, reason: `host-trusted: ${t.reason}`, kind: 'host-trusted' };
    }
    const s = this.unreadSecretsIn(dir);
    if (s === 'unsearched')
      return {
        path: dir,
        reason: `it could not be searched whole for project secrets (more than ${SEARCH_LIMIT} entries, or unreadable)`,
        kind: 'unsearched',
      };
    const first = s[0];
    return first ? { path: first.path, reason: `a project secret: ${first.reason}`, kind: 'project-secret' } : undefined;
  }
}
