import type { Span } from './span.js';

export type Severity = 'error' | 'warning' | 'info';
/**
 * Every platform's name, and its name for people (explain's column headers
 * and notes), in output order: the one list of them, which Platform,
 * PLATFORMS and platformNames are read from. A platform is a unit in
 * targets/<os>/, registered in targets/units.ts; its name is here because
 * the front end and every stage's diagnostics, verdicts and cells are keyed
 * by it before any unit is loaded (ARCHITECTURE.md, "How to add a platform").
 */
const platformTable = { macos: 'macOS', linux: 'Linux', windows: 'Windows' } as const;

export type Platform = keyof typeof platformTable;
/**
 * Every platform, in output order. A table of what each platform does is a
 * `Record<Platform, …>` (the type checker names a missing platform); a value
 * the same for all is `byPlatform(…)`.
 */
export const PLATFORMS: readonly Platform[] = Object.keys(platformTable) as Platform[];

/** Each platform's name for people. */
export const platformNames: Readonly<Record<Platform, string>> = platformTable;

/** A value per platform, in PLATFORMS order, made by `f`. */
export function byPlatform<T>(f: (platform: Platform) => T): Record<Platform, T> {
  const out = {} as Record<Platform, T>;
  for (const platform of PLATFORMS) out[platform] = f(platform);
  return out;
}

export interface RelatedLocation {
  readonly message: string;
  readonly span: Span;
}

/**
 * One finding. `span` is the offending TOML value (or key), never the whole
 * table. A rule whose result differs by platform emits one diagnostic per
 * severity, each naming the platforms it applies to.
 */
export interface Diagnostic {
  readonly ruleId: string;
  readonly severity: Severity;
  readonly platforms: readonly Platform[];
  readonly message: string;
  readonly file: string;
  readonly span: Span;
  readonly related?: readonly RelatedLocation[];
  /** The seed's "available alternative", with its caution where it widens access. */
  readonly suggestion?: string;
  /** The suggestion as edits of the config, where it is a config change (editors apply it; a test lints the result). */
  readonly fix?: Fix;
  /** It says only that the result depends on machine facts the view lacks (`--fs none`): the text format collapses these into one line per file unless -v. */
  readonly machineDependent?: true;
  /**
   * Which of its rule's findings this is (the rule's message id): diagnostics
   * of one rule, finding, severity and platforms say the same thing at
   * different places, and the text format shows them as one (issue 36).
   */
  readonly finding?: string;
}

/**
 * Text edits of the config, applied together: each replaces the text from
 * `start` to `end` (offsets in the decoded text, UTF-16 code units, `end`
 * exclusive; equal offsets insert).
 */
export interface Fix {
  readonly edits: readonly { readonly start: number; readonly end: number; readonly text: string }[];
}

export type Verdict = 'refused' | 'accepted-with-warnings' | 'accepted';

/**
 * refused: an error for the platform; accepted-with-warnings: a warning;
 * accepted: info at most.
 */
export function verdictFor(diagnostics: readonly Diagnostic[], platform: Platform): Verdict {
  let verdict: Verdict = 'accepted';
  for (const d of diagnostics) {
    if (!d.platforms.includes(platform)) continue;
    if (d.severity === 'error') return 'refused';
    if (d.severity === 'warning') verdict = 'accepted-with-warnings';
  }
  return verdict;
}

export function verdictsOf(diagnostics: readonly Diagnostic[]): Record<Platform, Verdict> {
  return byPlatform((platform) => verdictFor(diagnostics, platform));
}

const severityRank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Source order, then severity, then rule id: stable output for goldens. */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return (
    a.span.start.offset - b.span.start.offset ||
    a.span.end.offset - b.span.end.offset ||
    severityRank[a.severity] - severityRank[b.severity] ||
    (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0) ||
    (a.message < b.message ? -1 : a.message > b.message ? 1 : 0)
  );
}
