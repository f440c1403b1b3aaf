/**
 * Which platforms report a fact: the question rules and views ask the
 * model instead of naming platforms (issue 38, "the shared pipeline asks").
 * Each answer is in PLATFORMS order, so a report's platform list reads the
 * same whichever platforms a fact comes from; a platform added to
 * PLATFORMS is asked with the others, with no edit here.
 */
import { PLATFORMS, type Platform } from '../compiler/diagnostic.js';
import type { PrincipalAccess } from './access.js';
import type { AccessModel, ReadableCredential } from './model.js';
import type { Cell } from './cell.js';
import type { Fact, FactKind } from './facts.js';

/** The platforms whose entry in a per-platform record passes `test` (an absent entry never does). */
export function platformsWhere<T>(
  record: Readonly<Partial<Record<Platform, T>>>,
  test: (value: T, platform: Platform) => boolean,
): Platform[] {
  return PLATFORMS.filter((p) => {
    const value = record[p];
    return value !== undefined && test(value, p);
  });
}

/** The platforms whose fact (one per platform: a note, a mechanism) is of kind `kind`. */
export function platformsReporting(record: Readonly<Partial<Record<Platform, Fact>>>, kind: FactKind): Platform[] {
  return platformsWhere(record, (f) => f.kind === kind);
}

/** Each platform's fact of kind `kind` among its list (a grant's disclosures), where it has one. */
export function factsOfKind<K extends FactKind>(
  record: Readonly<Partial<Record<Platform, readonly Fact[]>>>,
  kind: K,
): [Platform, Extract<Fact, { kind: K }>][] {
  const out: [Platform, Extract<Fact, { kind: K }>][] = [];
  for (const p of PLATFORMS) {
    const fact = record[p]?.find((f): f is Extract<Fact, { kind: K }> => f.kind === kind);
    if (fact) out.push([p, fact]);
  }
  return out;
}

/** Each platform's note (one fact per platform) of kind `kind`, where it has one. */
export function notesOfKind<K extends FactKind>(
  record: Readonly<Partial<Record<Platform, Fact>>>,
  kind: K,
): [Platform, Extract<Fact, { kind: K }>][] {
  const out: [Platform, Extract<Fact, { kind: K }>][] = [];
  for (const p of PLATFORMS) {
    const fact = record[p];
    if (fact?.kind === kind) out.push([p, fact as Extract<Fact, { kind: K }>]);
  }
  return out;
}

/**
 * The platforms where the principal has no sandbox at all: what it runs
 * there runs with the user's access (Claude Code on native Windows, the
 * model's `srt-sandbox-unavailable`, for any of its principals). A setting that tunes the sandbox
 * means nothing there.
 */
export function unsandboxedPlatforms(model: { readonly principals: readonly PrincipalAccess[] }): Platform[] {
  return PLATFORMS.filter((p) => model.principals.some((pa) => pa.elsewhere[p].mechanism?.kind === 'srt-sandbox-unavailable'));
}

/**
 * The known credential files a principal reads, with the platform whose
 * model says so (a `credential-readable` fact each): Windows' open reads
 * today (the model's `windowsReadable`). Views ask this, and say each on
 * its platform, instead of naming the platform.
 */
export function readableCredentials(model: AccessModel): { readonly platform: Platform; readonly readable: ReadableCredential }[] {
  return model.windowsReadable.map((readable) => ({ platform: 'windows', readable }));
}

type Refusal = Extract<Cell, { kind: 'refused' }>['because'];

/** Each platform whose cell is refused for a reason of kind `kind`, with that reason. */
export function refusals<K extends Refusal['kind']>(
  cells: Readonly<Partial<Record<Platform, Cell>>>,
  kind: K,
): [Platform, Extract<Refusal, { kind: K }>][] {
  const out: [Platform, Extract<Refusal, { kind: K }>][] = [];
  for (const p of PLATFORMS) {
    const c = cells[p];
    if (c?.kind === 'refused' && c.because.kind === kind) out.push([p, c.because as Extract<Refusal, { kind: K }>]);
  }
  return out;
}

/** The platforms whose cell is refused for a reason of kind `kind`. */
export function platformsRefusing(cells: Readonly<Partial<Record<Platform, Cell>>>, kind: Refusal['kind']): Platform[] {
  return refusals(cells, kind).map(([p]) => p);
}
