/**
 * What the peers' front ends (settings.ts: sandbox-runtime and Claude Code;
 * codex.ts: Codex) make of an entry the same way: a grant whose path did
 * not resolve, and where a peer mounts over an absent path.
 */
import { posix } from 'node:path';
import type { PathFacts } from '../paths/index.js';
import type { Span } from '../span.js';
import type { Access, Grant } from './types.js';

/** An entry whose path did not resolve (a glob, a relative path): a grant with no path, and why, for the rules to report. */
export function unresolvedGrant(
  list: Grant['list'],
  access: Access,
  written: string,
  span: Span,
  problem: string,
  pattern?: string,
): Grant {
  return {
    list,
    access,
    scope: 'tree',
    written,
    span,
    facts: { existence: 'unknown' },
    expandProblem: problem,
    ...(pattern ? { pattern } : {}),
  };
}

/** The first missing component of an absent path (where a peer's mount point for it goes), asking `facts` upward. */
export function firstAbsentOf(path: string, facts: (path: string) => PathFacts): string {
  let first = path;
  for (let up = posix.dirname(first); up !== first && facts(up).existence === 'absent'; up = posix.dirname(up)) first = up;
  return first;
}
