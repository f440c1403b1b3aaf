/**
 * Applying fixes (issue 40, `lint --fix`, `--unsafe-fixes`, `--diff`): the
 * loop ruff runs, over the engine's own judgement of each fix
 * (app/fix-applicability.ts). Each pass judges the fixes of the text as it
 * now is, takes those it may apply (safe ones; with `unsafe`, the others
 * too), drops any whose edits touch one already taken this pass (it comes
 * back next pass, at its new offsets), applies them together and checks the
 * text again. It stops when no fix is left to take, and fails closed when
 * that does not happen within `maxPasses`.
 *
 * Nothing is applied that the engine did not accept as a whole:
 * - a pass's result must still check: no syntax error, and an access model
 *   wherever the text had one (without one, as a misspelt key of a TOML
 *   config leaves it, the errors must go down);
 * - without `unsafe`, the fixes taken together must pass the same gate each
 *   passed alone (fixes that are safe one by one could in principle widen
 *   together), and so must the whole run, first text to last;
 * - a pass that fails these is retried one fix at a time, in order, and a
 *   fix that fails them alone is never applied (counted in `refused`).
 *
 * The edits are exact ranges of the text as written, so everything else
 * (comments, layout, the order of keys) is kept byte for byte.
 */
import type { Diagnostic, Fix } from '../compiler/diagnostic.js';
import { applicabilityOfFix, applyFix, type JudgedFix } from '../rules/engine/fix.js';
import type { CheckResult } from './check.js';
import { judgeFixes, unsafeBecause, type Recheck } from './fix-applicability.js';

type Edit = Fix['edits'][number];

/** How many passes a file gets: ruff allows 100, but each of ours re-judges every fix of the file (a check each). */
export const MAX_FIX_PASSES = 10;

export interface FixOptions {
  /** Apply fixes judged unsafe too (`--unsafe-fixes`). */
  readonly unsafe: boolean;
  readonly maxPasses?: number;
}

export interface FixOutcome {
  /** The last check, its diagnostics' fixes judged (what lint reports as remaining); the first one when `failure` is set. */
  readonly result: CheckResult;
  /** The fixed text (the original one when nothing was applied or `failure` is set). */
  readonly text: string;
  /** Fixes applied (a fix reported for several platforms counts once). */
  readonly applied: number;
  /** Passes that applied something. */
  readonly passes: number;
  /** Without `unsafe`: fixes judged unsafe that `--unsafe-fixes` would apply (each alone still checks). */
  readonly hidden: number;
  /** Fixes never applied because the text they make does not check (a syntax error, or the access model lost). */
  readonly refused: number;
  /** Why nothing may be written (the loop did not settle, or the fixes together widen access). */
  readonly failure?: string;
  /** Each pass: the text it started from and the fixes it applied to it, as judged there (what a test re-judges). */
  readonly log: readonly { readonly text: string; readonly fixes: readonly JudgedFix[] }[];
}

/** Whether two edits touch: they overlap, or one inserts where the other begins or ends (their order would be a guess). */
export function editsConflict(a: Edit, b: Edit): boolean {
  if (a.start > b.end || b.start > a.end) return false;
  const adjacentReplacements = (a.end === b.start || b.end === a.start) && a.start !== a.end && b.start !== b.end;
  return !adjacentReplacements;
}

/** A fix that can be applied as it says: it has edits and none of them touch each other. */
const wellFormed = (fix: Fix): boolean =>
  fix.edits.length > 0 && fix.edits.every((e, i) => e.start <= e.end && fix.edits.slice(i + 1).every((f) => !editsConflict(e, f)));

const SYNTAX_RULES = new Set(['toml-syntax', 'json-syntax']);
const errors = (r: CheckResult): number => r.diagnostics.filter((d) => d.severity === 'error').length;

/** Whether `after` still checks as well as `before` did (see the module comment). */
function stillChecks(before: CheckResult, after: CheckResult): boolean {
  if (after.diagnostics.some((d) => SYNTAX_RULES.has(d.ruleId))) return false;
  if (after.model) return true;
  return !before.model && errors(after) < errors(before);
}

/** The distinct fixes of the diagnostics, in the order of their first edit (then as reported). */
function distinctFixes(diagnostics: readonly Diagnostic[]): Fix[] {
  const seen = new Map<string, Fix>();
  for (const d of diagnostics) if (d.fix && wellFormed(d.fix) && !seen.has(key(d.fix))) seen.set(key(d.fix), d.fix);
  const first = (f: Fix) => Math.min(...f.edits.map((e) => e.start));
  return [...seen.values()].sort((a, b) => first(a) - first(b));
}

const key = (fix: Fix): string => JSON.stringify(fix.edits);

/** The whole text replaced: how a run's first and last texts are compared by the one gate. */
const wholeText = (from: string, to: string): Fix => ({ edits: [{ start: 0, end: from.length, text: to }] });

/**
 * Fixes one checked config. `recheck` checks a text as the command checked
 * the original (the same reader, view and options).
 */
export function applyFixes(start: CheckResult, recheck: Recheck, options: FixOptions): FixOutcome {
  const maxPasses = options.maxPasses ?? MAX_FIX_PASSES;
  // Each text is checked once: the judge checks each fix's result, and a pass that applies one fix alone makes the same text.
  let memo = new Map<string, CheckResult>();
  const checked: Recheck = (text) => {
    let r = memo.get(text);
    if (!r) memo.set(text, (r = recheck(text)));
    return r;
  };
  const may = (fix: Fix) => options.unsafe || applicabilityOfFix(fix) === 'safe';
  /** The result of applying `fix` to `before`'s text, when the engine accepts it (see the module comment). */
  const accepted = (before: CheckResult, fix: Fix): CheckResult | undefined => {
    const after = checked(applyFix(before.text, fix));
    if (!stillChecks(before, after)) return undefined;
    if (!options.unsafe && unsafeBecause(before, fix, checked) !== undefined) return undefined;
    return after;
  };

  let current = start;
  let diagnostics = judgeFixes(current, checked);
  let applied = 0;
  let passes = 0;
  const refusedNow = new Set<string>();
  const log: { text: string; fixes: JudgedFix[] }[] = [];
  for (;;) {
    const candidates = distinctFixes(diagnostics).filter((f) => may(f) && !refusedNow.has(key(f)));
    if (candidates.length === 0) break;
    // The fixes of this pass: in order, each one that touches none already taken.
    const taken: Fix[] = [];
    for (const f of candidates) if (!taken.some((t) => t.edits.some((e) => f.edits.some((g) => editsConflict(e, g))))) taken.push(f);
    let next = accepted(current, { edits: taken.flatMap((f) => f.edits) });
    let applying = taken;
    if (!next) {
      // Together they are not accepted: the first that is accepted alone; the others before it never will be on this text.
      applying = [];
      for (const f of taken) {
        next = accepted(current, f);
        if (next) {
          applying = [f];
          break;
        }
        refusedNow.add(key(f));
      }
    }
    if (!next) continue;
    if (passes === maxPasses)
      return failed(start, `the fixes did not settle after ${maxPasses} passes (each pass's fixes made more): nothing was written`);
    // The text changed: fixes refused on the old one are judged afresh on the new one.
    refusedNow.clear();
    const keep = memo.get(next.text);
    memo = new Map(keep ? [[next.text, keep]] : []);
    memo.set(start.text, start);
    log.push({ text: current.text, fixes: applying as JudgedFix[] });
    current = next;
    applied += applying.length;
    passes++;
    diagnostics = judgeFixes(current, checked);
  }
  if (!options.unsafe && applied > 0) {
    const widened = unsafeBecause(start, wholeText(start.text, current.text), checked);
    if (widened !== undefined) return failed(start, `the fixes together change access (${widened}): nothing was written`);
  }
  const left = distinctFixes(diagnostics);
  return {
    result: { ...current, diagnostics },
    text: current.text,
    applied,
    passes,
    hidden: options.unsafe
      ? 0
      : left.filter((f) => applicabilityOfFix(f) === 'unsafe' && stillChecks(current, checked(applyFix(current.text, f)))).length,
    refused: refusedNow.size,
    log,
  };

  function failed(first: CheckResult, failure: string): FixOutcome {
    return {
      result: { ...first, diagnostics: judgeFixes(first, checked) },
      text: first.text,
      applied: 0,
      passes,
      hidden: 0,
      refused: 0,
      failure,
      log,
    };
  }
}
