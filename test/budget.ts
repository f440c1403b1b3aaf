/**
 * One knob for every test's fuzzing and generated-config budget (issue 37).
 * A file asks for its runs by its full-tier size, `runs(400)`; the tier
 * decides how many it gets:
 *
 * - `BOXWRIGHT_TEST_BUDGET=full` (or unset: `npm run test:all`, what CI
 *   runs, a file run by itself): every file's full size, as it states it.
 * - `BOXWRIGHT_TEST_BUDGET=fast` (`npm test`): a quarter of it, never under
 *   FLOOR runs (nor over the full size), so that each property still draws
 *   a spread of inputs on every change.
 * - `BOXWRIGHT_TEST_BUDGET=F`, a number above 0: F times the full size
 *   (2 doubles every file's, for a longer hunt), with the same floor.
 * - `BOXWRIGHT_FUZZ_RUNS=N` overrides every file's count outright (`=1`
 *   with a failing seed replays it).
 *
 * scripts/test.mjs sets BOXWRIGHT_TEST_BUDGET from its `--tier` unless it
 * is set already. The seeds do not change with the budget: a smaller run
 * draws the first inputs of the larger one.
 */

/** The fast tier's share of each file's full budget. */
export const FAST_SHARE = 0.25;
/** The fewest runs a property gets in a smaller budget (or its full size, when that is less). */
export const FLOOR = 25;

function share(): number {
  const knob = process.env['BOXWRIGHT_TEST_BUDGET'] ?? 'full';
  if (knob === 'full') return 1;
  if (knob === 'fast') return FAST_SHARE;
  const n = Number(knob);
  if (!Number.isFinite(n) || n <= 0)
    throw new Error(`BOXWRIGHT_TEST_BUDGET=${knob}: full, fast or a share above 0 (2 doubles every budget)`);
  return n;
}

/** How many runs a property whose full budget is `full` gets in this run. */
export function runs(full: number): number {
  const exact = process.env['BOXWRIGHT_FUZZ_RUNS'];
  if (exact !== undefined) {
    const n = Number(exact);
    if (!Number.isInteger(n) || n < 1) throw new Error(`BOXWRIGHT_FUZZ_RUNS=${exact}: a whole number of runs, 1 or more`);
    return n;
  }
  const s = share();
  if (s === 1) return full;
  return Math.max(Math.min(full, FLOOR), Math.ceil(full * s));
}
