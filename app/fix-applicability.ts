/**
 * Whether a fix is safe to apply unasked (issue 40): decided here, by what
 * the fix does to the config, never by the rule that offers it. The fix's
 * edits are applied to the text, the result is checked again as the
 * command checked the original (the caller's `recheck`: the same reader,
 * view and options), and the two access models are compared by the one
 * decision `diff --fail-on widen` makes (app/views/delta.ts: accessDelta,
 * then gateFailures). A fix is **safe** when that gate passes on every
 * platform: what each principal asks for and what it is given at every
 * path either revision names stays the same or narrows. Anything else is
 * **unsafe**: a widening, a result that does not parse or fit the schema
 * (no model to compare), a change this machine cannot judge (`--fs none`:
 * no facts), or a comparison that throws.
 *
 * The comparison is of what each revision grants, not of whether boxwright
 * accepts it: both sides count as accepted, since a fix that clears an
 * error lets the config start by design (that is the finding's point), and
 * a refused side would otherwise compare as "no access at all".
 *
 * Loaded only when an output carries fixes (JSON, SARIF) and a diagnostic
 * has one: each fix costs one more check of its config, and a text lint's
 * start-up loads none of this (test/cli/startup-budget.test.ts).
 */
import { PLATFORMS, type Diagnostic, type Fix, type Platform, type Verdict } from '../compiler/diagnostic.js';
import { applyFix, type Applicability, type JudgedFix } from '../rules/engine/fix.js';
import type { CheckResult } from './check.js';
import { accessDelta, gateFailures } from './views/delta.js';

/** Checks a text as the command checked the config it came from. */
export type Recheck = (text: string) => CheckResult;

const ran = Object.fromEntries(PLATFORMS.map((p) => [p, 'accepted'])) as Readonly<Record<Platform, Verdict>>;

/** Why a fix is unsafe, in words (for tests and readers); undefined when it is safe. */
export function unsafeBecause(before: CheckResult, fix: Fix, recheck: Recheck): string | undefined {
  if (!before.model) return 'the config it fixes has no access model to compare with';
  if (fix.edits.length === 0) return 'it has no edits';
  if (overlapping(fix)) return 'its edits overlap';
  let after: CheckResult;
  try {
    after = recheck(applyFix(before.text, fix));
  } catch (e) {
    return `the fixed text cannot be checked: ${(e as Error).message}`;
  }
  if (!after.model) return 'the fixed text does not parse or fit the schema';
  try {
    const delta = accessDelta(
      { model: before.model, verdicts: ran, diagnostics: before.diagnostics },
      { model: after.model, verdicts: ran, diagnostics: after.diagnostics },
      PLATFORMS,
    );
    const failures = gateFailures(delta);
    return failures.length ? failures.join('; ') : undefined;
  } catch (e) {
    return `the access before and after cannot be compared: ${(e as Error).message}`;
  }
}

/** The fix's applicability: safe only when nothing widens (unsafeBecause). */
export function applicabilityOf(before: CheckResult, fix: Fix, recheck: Recheck): Applicability {
  return unsafeBecause(before, fix, recheck) === undefined ? 'safe' : 'unsafe';
}

/**
 * How many distinct fixes of one file are judged: each is a whole check of
 * the file, so a config with thousands of findings would otherwise cost
 * thousands of checks. The fixes past it are unsafe, not judged (fail
 * closed: the work stays bounded and nothing unjudged is called safe).
 */
export const MAX_JUDGED_FIXES = 100;

/**
 * The checked config's diagnostics, each fix with its applicability; a
 * diagnostic without a fix is as it was. Fixes with the same edits (one
 * finding reported for several platforms) are judged once; past `limit`
 * distinct fixes, the rest are unsafe unjudged.
 */
export function judgeFixes(before: CheckResult, recheck: Recheck, limit = MAX_JUDGED_FIXES): Diagnostic[] {
  const judged = new Map<string, Applicability>();
  return before.diagnostics.map((d) => {
    if (!d.fix) return d;
    const key = JSON.stringify(d.fix.edits);
    let applicability = judged.get(key);
    if (applicability === undefined)
      judged.set(key, (applicability = judged.size < limit ? applicabilityOf(before, d.fix, recheck) : 'unsafe'));
    const fix: JudgedFix = { edits: d.fix.edits, applicability };
    return { ...d, fix };
  });
}

/** Edits that touch the same text: applyFix would apply them in an order the rule did not mean. */
function overlapping(fix: Fix): boolean {
  const sorted = [...fix.edits].sort((a, b) => a.start - b.start || a.end - b.end);
  return sorted.some((e, i) => i > 0 && e.start < sorted[i - 1]!.end);
}
