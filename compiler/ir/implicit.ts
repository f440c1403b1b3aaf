import type { Platform } from '../diagnostic.js';
import type { PathFacts } from '../paths/index.js';
import type { Span } from '../span.js';
import type { Access, Grant } from './types.js';

const implicitFacts: PathFacts = { existence: 'exists', kind: 'dir' };

/** A grant boxwright makes, not the config: marked implicit so that the path rules leave it alone. */
export function implicit(
  access: Access,
  path: string,
  reason: string,
  platforms: readonly Platform[],
  span: Span,
  temp?: 'private-tmpfs' | 'temp',
  facts: PathFacts = implicitFacts,
  parameter?: 'TMPDIR',
  privateTmp?: true,
): Grant {
  const marks = temp === 'private-tmpfs' ? { privateTmpfs: true as const, temp: true as const } : temp ? { temp: true as const } : {};
  return {
    list: 'implicit',
    access,
    scope: 'tree',
    written: path,
    path,
    facts,
    span,
    implicit: { reason, platforms, ...marks, ...(parameter ? { parameter } : {}), ...(privateTmp ? { privateTmp } : {}) },
  };
}

/** The Windows spelling of a Box principal's private temp directory: one of its own under %TEMP%, which apply.ps1 makes and undo.ps1 removes. */
export const windowsPrivateTemp = (principal: string): string => `%TEMP%\\boxwright-tmp-${principal}`;

/**
 * A Box principal's `private_tmp = true`: TYBA's temp directory, one concept
 * (the same implicit grants, each platform's spelling), written by the
 * config, so each grant points at the key (`span`). Linux a private tmpfs
 * at /tmp (TMPDIR=/tmp), never the host's /tmp; macOS a directory of the
 * run's own, a profile parameter (`(param "TMPDIR")`, sandbox-exec -D)
 * that `boxwright run` makes under the cache root; Windows a directory of
 * the principal's own that apply.ps1 makes empty and undo.ps1 removes,
 * with TMP and TEMP naming it.
 */
export function privateTempGrants(principal: string, span: Span): Grant[] {
  return [
    implicit(
      'read-write',
      '/tmp',
      "private_tmp: a private tmpfs at /tmp, not the host's /tmp",
      ['linux'],
      span,
      'private-tmpfs',
      implicitFacts,
      undefined,
      true,
    ),
    implicit(
      'read-write',
      '$TMPDIR',
      "private_tmp: a directory of the run's own, which boxwright run makes (0700, under the cache root) and removes after it (sandbox-exec -D TMPDIR=…), never the host's shared /private/tmp",
      ['macos'],
      span,
      'temp',
      implicitFacts,
      'TMPDIR',
      true,
    ),
    implicit(
      'read-write',
      windowsPrivateTemp(principal),
      "private_tmp: a directory of the run's own, which apply.ps1 makes empty and undo.ps1 removes (TMP and TEMP name it)",
      ['windows'],
      span,
      'temp',
      implicitFacts,
      undefined,
      true,
    ),
  ];
}
