/**
 * The parser's precomputed lookahead (compiler/toml/lookahead.ts, over the
 * table scripts/gen-lookahead.mjs computes from the grammar at build)
 * against chevrotain's own:
 *
 *  - the built table is exactly what chevrotain's LLk analysis computes
 *    from the recorded grammar now (the build ran the generator on this
 *    grammar);
 *  - for every OR / MANY / OPTION of the grammar, the function built from
 *    the table and the one chevrotain's LLkLookaheadStrategy builds decide
 *    the same on every sequence of two tokens of the vocabulary (end of
 *    input included), so the parser takes the same path on any input.
 *
 * It writes nothing: the generator is the table's only writer.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { IToken, OptionalProductionType, Rule, TokenType } from 'chevrotain';
import { chevrotain } from '../../compiler/toml/chevrotain.js';
import { MAX_LOOKAHEAD, PrecomputedLookahead } from '../../compiler/toml/lookahead.js';
import { LOOKAHEAD_PATHS } from '../../compiler/toml/lookahead-paths.js';
import { tomlTokens } from '../../compiler/toml/tokens.js';
import { repoRoot } from '../helpers.js';

type Kind = 'Alternation' | OptionalProductionType;
interface Analysis {
  recordedRules(): Rule[];
  productionsOf(rule: Rule): { kind: Kind; idx: number }[];
  computeLookaheadPaths(): Record<string, Record<string, string[][][]>>;
}
const analysis = async (): Promise<Analysis> =>
  (
    (await import(pathToFileURL(join(repoRoot, 'scripts', 'gen-lookahead.mjs')).href)) as { lookaheadAnalysis(): Promise<Analysis> }
  ).lookaheadAnalysis();

describe('precomputed lookahead', () => {
  test('the built table is what chevrotain computes from the grammar now', async () => {
    const { computeLookaheadPaths } = await analysis();
    assert.deepEqual(
      LOOKAHEAD_PATHS,
      computeLookaheadPaths(),
      "dist/compiler/toml/lookahead-paths.js is not the grammar's: build again (node scripts/build.mjs)",
    );
  });

  test("its lookahead functions decide like chevrotain's LLk ones on every two-token sequence", async () => {
    const { recordedRules, productionsOf } = await analysis();
    const api = chevrotain();
    const T = tomlTokens();
    const types: TokenType[] = [...T.all, api.EOF];
    const ours = new PrecomputedLookahead(new Map(types.map((t) => [t.name, t])));
    const theirs = new api.LLkLookaheadStrategy({ maxLookahead: MAX_LOOKAHEAD });
    const token = (t: TokenType): IToken => ({ image: '', startOffset: 0, tokenTypeIdx: t.tokenTypeIdx!, tokenType: t });
    let decisions = 0;
    let productions = 0;
    for (const rule of recordedRules()) {
      for (const { kind, idx } of productionsOf(rule)) {
        productions++;
        const base = { prodOccurrence: idx, rule, maxLookahead: MAX_LOOKAHEAD, dynamicTokensEnabled: false };
        type Decide = (this: unknown) => unknown;
        let fa: Decide;
        let fb: Decide;
        if (kind === 'Alternation') {
          const opts = { ...base, hasPredicates: false };
          fa = ours.buildLookaheadForAlternation(opts) as Decide;
          fb = theirs.buildLookaheadForAlternation(opts) as Decide;
        } else {
          const opts = { ...base, prodType: kind as OptionalProductionType };
          fa = ours.buildLookaheadForOptional(opts) as Decide;
          fb = theirs.buildLookaheadForOptional(opts) as Decide;
        }
        const seen = new Set<string>();
        for (const t1 of types) {
          for (const t2 of types) {
            const la = [token(t1), token(t2), token(api.EOF), token(api.EOF)];
            const self = { LA: (i: number) => la[i - 1]!, LA_FAST: (i: number) => la[i - 1]! };
            const a = fa.call(self);
            const b = fb.call(self);
            assert.equal(a, b, `${rule.name} ${kind} ${idx} on ${t1.name} ${t2.name}`);
            seen.add(String(b));
            decisions++;
          }
        }
        // a decision that never varies would make this comparison hollow
        assert.ok(seen.size >= 2, `${rule.name} ${kind} ${idx}: always ${[...seen]}`);
      }
    }
    assert.ok(productions >= 15, String(productions));
    assert.ok(decisions > 15 * 1000, String(decisions));
  });
});
