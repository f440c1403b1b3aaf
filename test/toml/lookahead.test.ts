/**
 * The parser's precomputed lookahead (compiler/toml/lookahead.ts,
 * lookahead-paths.ts) against chevrotain's own:
 *
 *  - the checked-in table is exactly what chevrotain's LLk analysis
 *    computes from the recorded grammar today (lookahead-gen.ts);
 *  - for every OR / MANY / OPTION of the grammar, the function built from
 *    the table and the one chevrotain's LLkLookaheadStrategy builds decide
 *    the same on every sequence of two tokens of the vocabulary (end of
 *    input included), so the parser takes the same path on any input.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import type { IToken, OptionalProductionType, TokenType } from 'chevrotain';
import { chevrotain } from '../../compiler/toml/chevrotain.js';
import { PrecomputedLookahead } from '../../compiler/toml/lookahead.js';
import { MAX_LOOKAHEAD } from '../../compiler/toml/lookahead-paths.js';
import { tomlTokens } from '../../compiler/toml/tokens.js';
import { computeLookaheadPaths, LOOKAHEAD_PATHS_FILE, productionsOf, recordedRules, renderLookaheadPaths } from './lookahead-gen.js';

describe('precomputed lookahead', () => {
  test('lookahead-paths.ts is what chevrotain computes from the grammar today', () => {
    const expected = renderLookaheadPaths(computeLookaheadPaths());
    assert.equal(readFileSync(LOOKAHEAD_PATHS_FILE, 'utf8'), expected,
      'compiler/toml/lookahead-paths.ts is stale: run `node scripts/build.mjs && node dist/test/toml/lookahead-gen.js`');
  });

  test('its lookahead functions decide like chevrotain\'s LLk ones on every two-token sequence', () => {
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
