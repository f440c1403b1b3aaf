/**
 * What Codex's own sandbox gives the commands it runs at each path, per
 * platform, for a Codex config.toml (the IR's `runtime.codex`, its grants
 * made by compiler/ir/codex.ts). docs/dialects/codex.md gives each
 * statement with its source; the Linux column is checked against
 * `codex sandbox` 0.171.0 itself (test/linux/codex-differential.test.ts).
 *
 * Linux (bubblewrap): the host read-only at `/` where reads are open (else
 * only the read entries), then the writable roots bound writable where
 * they exist (an absent one is skipped), `none` entries closed, and under
 * every writable root the protected names read-only: an existing one bound
 * over itself, an absent one an empty read-only tmpfs. The deepest entry
 * at or above a path decides (a deeper `read` in a writable root is
 * read-only, a deeper `write` in a read tree writable), a protected name
 * deepest of all, except that a `none` closes its whole tree (a deeper
 * entry reaches nothing: measured). macOS (Seatbelt) and Windows (the sandbox user's ACLs)
 * give the same rights from the same entries, except that an absent
 * protected name is refused its creation there with no placeholder.
 * danger-full-access is no sandbox on any platform.
 */
import { byPlatform, PLATFORMS, type Platform } from '../compiler/diagnostic.js';
import type { Grant, PolicyIR, Principal } from '../compiler/ir/types.js';
import { isUnder } from '../compiler/paths/index.js';
import { access, absent, denied, empty, scratch, type Cell } from './cell.js';
import type { Mechanism } from './facts.js';
import type { GrantAccess, PrincipalAccess } from './access.js';
import { withCombined } from './combined.js';
import type { Enforcer } from './enforcer.js';
import { peerPrincipalAccess } from './peer-access.js';

const depth = (p: string): number => (p === '/' ? 0 : p.split('/').length - 1);
const full = access({ read: true, write: true, exec: true });
const readable = access({ read: true, exec: true });
const requestedOf: Readonly<Record<string, Cell>> = {
  read: readable,
  'read-write': full,
  'deny-read': denied,
  'deny-write': readable,
};
const everywhere: Readonly<Record<Platform, boolean>> = Object.freeze(byPlatform(() => true));
const nowhere: Readonly<Record<Platform, boolean>> = Object.freeze(byPlatform(() => false));
const fixed = (kind: Mechanism['kind']): Mechanism => Object.freeze({ kind }) as Mechanism;
const placeholder = fixed('codex-protected-placeholder');
const absentRoot = fixed('codex-absent-root');
const noSandbox = fixed('codex-no-sandbox');
const pattern = fixed('srt-pattern');

/** The entry that decides a path: the deepest at or above it, a protected name over any other at its depth, then `none`, `read`, `write`. */
function deciding(grants: readonly Grant[], path: string): Grant | undefined {
  // At one path a `write` beats a `read` (measured: a workspace root named `read` and `:workspace_roots "." = "write"` is writable).
  const rank = (g: Grant): number => (g.access === 'deny-write' ? 3 : g.access === 'deny-read' ? 2 : g.access === 'read-write' ? 1 : 0);
  let by: Grant | undefined;
  for (const g of grants) {
    if (!g.path || !isUnder(path, g.path)) continue;
    // A writable root that does not exist is skipped on Linux: it opens nothing (nor does it shadow what is above).
    if (g.access === 'read-write' && g.facts.existence === 'absent') continue;
    if (!by || depth(g.path) > depth(by.path!) || (depth(g.path) === depth(by.path!) && rank(g) > rank(by))) by = g;
  }
  return by;
}

/** Whether an existing writable root holds the path (where bubblewrap can make a mount point). */
function writableExisting(grants: readonly Grant[], path: string): boolean {
  return deciding(grants, path)?.access === 'read-write';
}

/** A directory bubblewrap makes in its root tmpfs: `/`, the working directory, an ancestor of a mounted entry. */
function madeBySandbox(grants: readonly Grant[], cwd: string, path: string): boolean {
  if (path === '/' || path === cwd || isUnder(cwd, path)) return true;
  return grants.some((g) => g.path && g.facts.existence !== 'absent' && g.path !== path && isUnder(g.path, path));
}

/**
 * What Codex's sandbox does on one platform (one entry a platform it has a
 * sandbox for): its cell at a path the entries decide, once full access and
 * a closing `none` are set aside, and the fact behind an absent protected
 * name where it differs from the request.
 */
interface CodexPlatform {
  readonly at: (ir: PolicyIR, grants: readonly Grant[], path: string) => Cell;
  readonly absentProtected?: Mechanism;
  /** It has no sandbox there (`unsupported`): nothing is granted, whatever the config. */
  readonly none?: true;
}

/** The cell of the deciding entry, on every platform but for an absent protected name. */
function entryCell(by: Grant): Cell {
  return by.access === 'deny-read' ? denied : by.access === 'read' || by.access === 'deny-write' ? readable : full;
}

/**
 * Linux (bubblewrap): an absent `read`, `none` or protected entry inside a
 * writable root is an empty read-only tmpfs at its first missing component;
 * with reads closed, the root is a tmpfs of the sandbox's own.
 */
const bubblewrap: CodexPlatform = {
  at: (ir, grants, path) => {
    // A `read` or `none` entry that does not exist inside a writable root gets an empty read-only tmpfs at its first
    // missing component, as the protected names do (found by the differential test: the component is not writable then).
    const held = grants.find(
      (g) =>
        (g.access === 'read' || g.access === 'deny-read') &&
        g.firstAbsent &&
        isUnder(path, g.firstAbsent) &&
        writableExisting(grants, g.firstAbsent),
    );
    if (held) return path === held.firstAbsent ? empty : absent;
    const by = deciding(grants, path);
    // Reads closed: bubblewrap's root is a tmpfs of the sandbox's own, and the directories it makes there for the
    // mount points and the working directory are writable scratch (measured: a file made there vanishes with the run).
    if (!by) return ir.runtime!.codex!.readsOpen ? readable : madeBySandbox(grants, ir.runtime!.cwd, path) ? scratch : absent;
    // An absent protected name is an empty read-only tmpfs.
    if (by.access === 'deny-write' && by.facts.existence === 'absent') return path === by.path ? empty : absent;
    return entryCell(by);
  },
  absentProtected: placeholder,
};

/** macOS (Seatbelt) and Windows (the sandbox user's ACLs): the entries' rights; an absent protected name is refused its creation. */
const rulesOnly: CodexPlatform = {
  at: (ir, grants, path) => {
    const by = deciding(grants, path);
    return by ? entryCell(by) : ir.runtime!.codex!.readsOpen ? readable : absent;
  },
};

/** Codex's entries, one a platform it has a sandbox for. */
const codexPlatforms: Readonly<Partial<Record<Platform, CodexPlatform>>> = { macos: rulesOnly, linux: bubblewrap, windows: rulesOnly };

/** A platform Codex 0.171.0 has no sandbox for: nothing runs under it, and nothing is granted. */
const unsupported: CodexPlatform = { at: () => absent, none: true };
const unsupportedFact = Object.freeze({ kind: 'codex-ungranted', regime: 'unsupported' } as const);

function cellAt(ir: PolicyIR, grants: readonly Grant[], path: string, platform: Platform): Cell {
  const c = ir.runtime!.codex!;
  if (c.mode === 'danger-full-access' || grants.some((g) => g.implicit && g.path === '/' && g.access === 'read-write')) return full;
  // A `none` closes its whole tree: Codex's mount there cannot be entered, so a deeper `read` or `write` reaches nothing
  // (found by the differential test: `a = "none"` with `a/b = "read"` leaves a/b unreadable).
  // A deeper `write` is bound back over it, though (measured: `e = "none"` with `e/f = "write"` leaves e/f readable and writable).
  const closing = grants.filter((g) => g.access === 'deny-read' && g.path && g.facts.existence !== 'absent' && isUnder(path, g.path));
  const reopened = (n: Grant): boolean =>
    grants.some(
      (w) =>
        w.access === 'read-write' &&
        w.path &&
        w.facts.existence !== 'absent' &&
        w.path !== n.path &&
        isUnder(w.path, n.path!) &&
        isUnder(path, w.path),
    );
  if (closing.some((n) => !reopened(n))) return denied;
  return (codexPlatforms[platform] ?? unsupported).at(ir, grants, path);
}

export function codexPrincipalAccess(ir: PolicyIR, p: Principal): PrincipalAccess {
  const grants = p.grants;
  const c = ir.runtime!.codex!;
  const isFull = c.mode === 'danger-full-access' || grants.some((g) => g.implicit && g.path === '/' && g.access === 'read-write');
  const at = (path: string, platform: Platform): Cell => cellAt(ir, grants, path, platform);
  const rows = grants.map((g): GrantAccess => {
    const requested = requestedOf[g.access] ?? readable;
    const notes: Partial<Record<Platform, Mechanism>> = {};
    const effective: Record<Platform, Cell> = byPlatform(() => absent);
    if (!g.path) {
      for (const platform of PLATFORMS) notes[platform] = pattern;
      return { grant: g, requested, effective, notes, disclosures: {}, applies: nowhere };
    }
    for (const platform of PLATFORMS) {
      effective[platform] = at(g.path, platform);
      if (isFull) notes[platform] = noSandbox;
      else if (g.access === 'deny-write' && g.facts.existence === 'absent') {
        const m = codexPlatforms[platform]?.absentProtected;
        if (m) notes[platform] = m;
      } else if (g.access === 'read-write' && g.facts.existence === 'absent') notes[platform] = absentRoot;
    }
    return { grant: g, requested, effective, notes, disclosures: {}, applies: everywhere };
  });
  const regime = isFull ? 'full-access' : c.readsOpen ? 'reads-open' : 'reads-closed';
  const elsewhereCell = isFull ? full : c.readsOpen ? readable : absent;
  // Codex's own protected names are grants of the IR (compiler/ir/codex.ts).
  return peerPrincipalAccess(
    p,
    rows,
    at,
    byPlatform((platform) =>
      !isFull && (codexPlatforms[platform] ?? unsupported).none
        ? { cell: absent, fact: unsupportedFact }
        : { cell: elsewhereCell, fact: { kind: 'codex-ungranted', regime }, ...(isFull ? { mechanism: noSandbox } : {}) },
    ),
  );
}

/** Codex's enforcer: what its own sandbox does with a config.toml. */
export const codexEnforcer: Enforcer = {
  dialects: ['codex'],
  principalAccess: ({ ir }, p) => {
    const pa = codexPrincipalAccess(ir, p);
    return { ...pa, grants: withCombined(pa.grants) };
  },
};
