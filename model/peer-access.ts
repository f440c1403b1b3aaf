/**
 * A principal's access under a peer's sandbox (sandbox-runtime, Codex):
 * the grants and cells its enforcer decided, and what a peer's sandbox
 * has none of. Its protected names are grants of the IR (the peer's front
 * end makes them), so boxwright carves nothing out; it confines execution
 * by its mounts alone; and it has no exec grants, so no program's loader
 * or libraries are missing from its view by construction of a grant.
 */
import type { Platform } from '../compiler/diagnostic.js';
import type { Principal } from '../compiler/ir/types.js';
import type { Elsewhere, GrantAccess, PrincipalAccess } from './access.js';
import type { Cell } from './cell.js';

export function peerPrincipalAccess(
  principal: Principal,
  grants: readonly GrantAccess[],
  effectiveAt: (path: string, platform: Platform) => Cell,
  elsewhere: Readonly<Record<Platform, Elsewhere>>,
): PrincipalAccess {
  return {
    principal,
    grants,
    linuxExec: 'mounts',
    linuxMissing: () => [],
    hostTrusted: [],
    trustedSingles: [],
    trustedNames: [],
    network: {},
    effectiveAt,
    elsewhere,
  };
}
