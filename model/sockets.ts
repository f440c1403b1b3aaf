/**
 * The sockets a grant reaches (GrantAccess.sockets) and what the abstract socket namespace is to a sandbox.
 */
import type { Platform } from '../compiler/diagnostic.js';
import type { Grant, PolicyIR } from '../compiler/ir/types.js';
import { isUnder } from '../compiler/paths/index.js';
import { appliesOn } from './path-index.js';
import type { AbstractSockets } from './facts.js';
import type { PrincipalAccess } from './access.js';

/**
 * The machine's bound unix sockets, and whether they are in JavaScript's
 * string order (both views give them so): then the sockets under a path
 * are found in the run of those that begin with it, not by a scan of all.
 */
export interface SocketTable {
  readonly paths: readonly string[];
  readonly sorted: boolean;
}

export function socketTable(paths: readonly string[]): SocketTable {
  let sorted = true;
  for (let i = 1; i < paths.length && sorted; i++) sorted = paths[i - 1]! <= paths[i]!;
  return { paths, sorted };
}

/** The sockets under `path`, in the table's order. */
export function socketsBelow(t: SocketTable, path: string): string[] {
  if (!t.sorted) return t.paths.filter((s) => isUnder(s, path));
  const { paths } = t;
  let lo = 0;
  let hi = paths.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (paths[mid]! < path) lo = mid + 1;
    else hi = mid;
  }
  const out: string[] = [];
  for (let i = lo; i < paths.length && paths[i]!.startsWith(path); i++) if (isUnder(paths[i]!, path)) out.push(paths[i]!);
  return out;
}

export function socketsUnder(
  g: Grant,
  at: PrincipalAccess['effectiveAt'],
  sockets: SocketTable,
): Partial<Record<Platform, readonly string[]>> | undefined {
  if (g.implicit || !g.path || g.access === 'deny' || g.scope !== 'tree' || !sockets.paths.length) return undefined;
  const under = socketsBelow(sockets, g.path);
  if (!under.length) return undefined;
  const linux = appliesOn(g, 'linux')
    ? under.filter((s) => {
        const c = at(s, 'linux');
        return c.kind === 'access' && c.read;
      })
    : [];
  // macOS decides a unix-socket connect with network-outbound, which no principal gets for unix sockets
  // (a direct network exception reaches IP peers only): the file rules do not open them.
  return linux.length ? { linux } : undefined;
}

/**
 * Landlock's abstract-unix-socket scope (ABI 6) keeps a sandbox from
 * connecting to the host's abstract sockets; the helper applies it where
 * the kernel has it.
 */
export function abstractSockets(ir: PolicyIR): AbstractSockets {
  if (ir.linux.exec !== 'landlock') return 'reachable';
  const abi = ir.linux.landlockAbi;
  return abi === 'unknown' ? 'scoped-from-abi-6' : abi >= 6 ? 'scoped' : 'reachable';
}
