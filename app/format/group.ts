import type { Diagnostic, Platform } from '../../compiler/diagnostic.js';
import { PLATFORMS } from '../../compiler/diagnostic.js';
import type { Span } from '../../compiler/span.js';

/** One finding as the text format shows it: its first place, and the other places that say the same. */
export interface Finding {
  readonly diagnostic: Diagnostic;
  /** The other places of the same finding, in the file's order. */
  readonly also: readonly Span[];
}

/** A message's words with its paths left out: what two places of one finding say alike (`/a/x.pem`, `**\/*.key`, `~/.ssh`). */
const words = (message: string): string => message.replace(/[^\s`'"(),;]*\/[^\s`'"(),;]*/g, '…');

/**
 * One finding: one rule's one message, severity, platforms and remedy, in
 * the same words but for the paths (a suggestion that names the place, or a
 * message that differs in more than its path, is a finding of its own).
 */
const key = (d: Diagnostic): string =>
  [d.ruleId, d.finding, d.severity, d.platforms.join(','), d.suggestion ?? '', words(d.message)].join('\u0000');

/**
 * Diagnostics that say one thing, as one finding each (issue 36): one rule's
 * one finding with one severity, reported at one place for several
 * platforms, is one diagnostic naming them all; reported at several places
 * for the same platforms and with the same suggestion, it is the first
 * place's diagnostic with the others as its places. A 4 KB settings file gets a line per finding, not one per
 * pattern per platform. Only the rules' own diagnostics are grouped (a
 * finding id); a syntax or schema error is shown where it is.
 */
export function groupFindings(diagnostics: readonly Diagnostic[]): Finding[] {
  // Per place: the same words for several platforms are one diagnostic.
  const merged: Diagnostic[] = [];
  for (const d of diagnostics) {
    const same = d.finding
      ? merged.find(
          (m) =>
            m.ruleId === d.ruleId &&
            m.finding === d.finding &&
            m.severity === d.severity &&
            m.message === d.message &&
            m.span.start.offset === d.span.start.offset,
        )
      : undefined;
    if (!same) {
      merged.push(d);
      continue;
    }
    const platforms: Platform[] = PLATFORMS.filter((p) => same.platforms.includes(p) || d.platforms.includes(p));
    merged[merged.indexOf(same)] = { ...same, platforms };
  }
  // Across places: the first one leads.
  const findings: { diagnostic: Diagnostic; also: Span[] }[] = [];
  const leaders = new Map<string, { diagnostic: Diagnostic; also: Span[] }>();
  for (const d of merged) {
    const k = d.finding ? key(d) : undefined;
    const leader = k ? leaders.get(k) : undefined;
    if (leader) {
      if (!leader.also.some((s) => s.start.offset === d.span.start.offset) && leader.diagnostic.span.start.offset !== d.span.start.offset)
        leader.also.push(d.span);
      continue;
    }
    const finding = { diagnostic: d, also: [] as Span[] };
    findings.push(finding);
    if (k) leaders.set(k, finding);
  }
  return findings;
}
