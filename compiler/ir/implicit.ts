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
 * The temp directory, one concept with a spelling per platform: each
 * platform's path, its mark (`private-tmpfs`: Linux's private tmpfs at
 * /tmp, TMPDIR=/tmp, never the host's /tmp; `temp`: a directory of the
 * run's own), and its words for a TYBA session and for a Box principal's
 * `private_tmp = true`. macOS: a profile parameter (`(param "TMPDIR")`,
 * sandbox-exec -D) that `boxwright run` makes under the cache root, never
 * the host's shared /private/tmp; Windows: TYBA's %TEMP%, and for
 * private_tmp a directory of the principal's own that apply.ps1 makes
 * empty and undo.ps1 removes, with TMP and TEMP naming it. In the order
 * the grants are listed (explain and the goldens show them so).
 */
const TEMP_DIRS: readonly {
  readonly platform: Platform;
  readonly mark: 'private-tmpfs' | 'temp';
  readonly parameter?: 'TMPDIR';
  readonly tyba: { readonly path: string; readonly reason: string };
  readonly privateTmp: { readonly path: (principal: string) => string; readonly reason: string };
}[] = [
  {
    platform: 'linux',
    mark: 'private-tmpfs',
    tyba: { path: '/tmp', reason: "the temp directory: a private tmpfs, not the host's /tmp" },
    privateTmp: { path: () => '/tmp', reason: "private_tmp: a private tmpfs at /tmp, not the host's /tmp" },
  },
  {
    platform: 'macos',
    mark: 'temp',
    parameter: 'TMPDIR',
    tyba: {
      path: '$TMPDIR',
      reason:
        "the temp directory: the session's own, which boxwright run makes for the command and removes after it " +
        "(sandbox-exec -D TMPDIR=…), never the host's shared /private/tmp",
    },
    privateTmp: {
      path: () => '$TMPDIR',
      reason:
        "private_tmp: a directory of the run's own, which boxwright run makes (0700, under the cache root) and removes after it " +
        "(sandbox-exec -D TMPDIR=…), never the host's shared /private/tmp",
    },
  },
  {
    platform: 'windows',
    mark: 'temp',
    tyba: { path: '%TEMP%', reason: 'the temp directory' },
    privateTmp: {
      path: windowsPrivateTemp,
      reason: "private_tmp: a directory of the run's own, which apply.ps1 makes empty and undo.ps1 removes (TMP and TEMP name it)",
    },
  },
];

/** A TYBA session's temp directory: each platform's spelling (TEMP_DIRS). */
export function tybaTempGrants(span: Span): Grant[] {
  return TEMP_DIRS.map((t) => implicit('read-write', t.tyba.path, t.tyba.reason, [t.platform], span, t.mark, implicitFacts, t.parameter));
}

/**
 * A Box principal's `private_tmp = true`: TYBA's temp directory, one concept
 * (the same implicit grants, each platform's spelling), written by the
 * config, so each grant points at the key (`span`).
 */
export function privateTempGrants(principal: string, span: Span): Grant[] {
  return TEMP_DIRS.map((t) =>
    implicit('read-write', t.privateTmp.path(principal), t.privateTmp.reason, [t.platform], span, t.mark, implicitFacts, t.parameter, true),
  );
}
