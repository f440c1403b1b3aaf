/**
 * The parser's lookahead, computed at build time.
 *
 * At construction a chevrotain parser works out, for every OR / MANY /
 * OPTION of the grammar, which token sequences choose which alternative (a
 * walk over the recorded grammar, lodash-heavy): about half of the
 * parser's construction, paid by every process on its first parse. Those
 * sequences depend on the grammar only, so the build computes them, by
 * chevrotain itself, from the grammar (scripts/gen-lookahead.mjs writes
 * dist/compiler/toml/lookahead-paths.js; nothing is checked in, so the
 * table cannot go stale; test/toml/lookahead.test.ts checks that the
 * functions built here decide exactly as chevrotain's own on every sequence
 * of tokens). This strategy builds the lookahead functions from that table:
 * the same decisions, first matching alternative first, as chevrotain's
 * LLkLookaheadStrategy.
 *
 * `validate` (only called when a parser is built with validations on, in
 * the tests) is chevrotain's own.
 */
import type { ILookaheadStrategy, ILookaheadValidationError, IOrAlt, OptionalProductionType, Rule, TokenType } from 'chevrotain';
import { chevrotain } from './chevrotain.js';
import { LOOKAHEAD_PATHS } from './lookahead-paths.js';
import { memberIndices } from './tokens.js';

/** The tokens of lookahead the grammar needs (the parser's maxLookahead; the build's table is computed for it). */
export const MAX_LOOKAHEAD = 2;

/** The parser as a lookahead function sees it. */
interface Lookahead {
  LA(howMuch: number): { tokenTypeIdx: number };
}

/** One token of a path: the token type indices it matches (a type and, for a category, its members). */
type Matcher = boolean[];

/** The key of a production in the table. */
export function productionKey(kind: 'Alternation' | OptionalProductionType, occurrence: number): string {
  return `${kind}:${occurrence}`;
}

export class PrecomputedLookahead implements ILookaheadStrategy {
  private readonly matchers = new Map<string, Matcher>();

  constructor(private readonly tokensByName: ReadonlyMap<string, TokenType>) {}

  validate(options: { rules: Rule[]; tokenTypes: TokenType[]; grammarName: string }): ILookaheadValidationError[] {
    return new (chevrotain().LLkLookaheadStrategy)({ maxLookahead: MAX_LOOKAHEAD }).validate(options);
  }

  buildLookaheadForAlternation(options: {
    prodOccurrence: number;
    rule: Rule;
    maxLookahead: number;
    hasPredicates: boolean;
    dynamicTokensEnabled: boolean;
  }): (orAlts?: IOrAlt<unknown>[]) => number | undefined {
    const alts = this.paths(
      options.rule,
      productionKey('Alternation', options.prodOccurrence),
      options.maxLookahead,
      options.dynamicTokensEnabled,
    );
    if (!options.hasPredicates && alts.every((paths) => paths.every((p) => p.length === 1))) {
      // LL(1): a table from the next token's type to the first alternative that starts with it
      const choice: number[] = [];
      alts.forEach((paths, alt) => {
        for (const p of paths)
          p[0]!.forEach((on, idx) => {
            if (on && choice[idx] === undefined) choice[idx] = alt;
          });
      });
      return function (this: Lookahead): number | undefined {
        return choice[this.LA(1).tokenTypeIdx];
      };
    }
    const hasPredicates = options.hasPredicates;
    return function (this: Lookahead, orAlts?: IOrAlt<unknown>[]): number | undefined {
      for (let alt = 0; alt < alts.length; alt++) {
        const gate = hasPredicates ? orAlts?.[alt]?.GATE : undefined;
        if (gate !== undefined && gate.call(this) === false) continue;
        if (anyPathMatches(this, alts[alt]!)) return alt;
      }
      return undefined;
    };
  }

  buildLookaheadForOptional(options: {
    prodOccurrence: number;
    prodType: OptionalProductionType;
    rule: Rule;
    maxLookahead: number;
    dynamicTokensEnabled: boolean;
  }): () => boolean {
    const [paths] = this.paths(
      options.rule,
      productionKey(options.prodType, options.prodOccurrence),
      options.maxLookahead,
      options.dynamicTokensEnabled,
    );
    if (paths === undefined)
      throw new Error(
        `the lookahead table has no alternative for ${options.prodType} ${options.prodOccurrence} in rule ${options.rule.name}`,
      );
    if (paths.every((p) => p.length === 1)) {
      const enter: boolean[] = [];
      for (const p of paths)
        p[0]!.forEach((on, idx) => {
          if (on) enter[idx] = true;
        });
      return function (this: Lookahead): boolean {
        return enter[this.LA(1).tokenTypeIdx] === true;
      };
    }
    return function (this: Lookahead): boolean {
      return anyPathMatches(this, paths);
    };
  }

  /** The table's paths of a production, as matchers. */
  private paths(rule: Rule, key: string, maxLookahead: number, dynamicTokens: boolean): Matcher[][][] {
    if (maxLookahead !== MAX_LOOKAHEAD || dynamicTokens) {
      throw new Error(
        `the lookahead table is computed for maxLookahead ${MAX_LOOKAHEAD} and no dynamic tokens (scripts/gen-lookahead.mjs)`,
      );
    }
    const alts = LOOKAHEAD_PATHS[rule.name]?.[key];
    if (alts === undefined)
      throw new Error(
        `the lookahead table has no ${key} in rule ${rule.name}: build again (scripts/gen-lookahead.mjs computes it from the grammar)`,
      );
    return alts.map((paths) => paths.map((path) => path.map((name) => this.matcher(name))));
  }

  private matcher(name: string): Matcher {
    let m = this.matchers.get(name);
    if (m === undefined) {
      const type = this.tokensByName.get(name);
      if (type === undefined)
        throw new Error(
          `the lookahead table names an unknown token type ${name}: build again (scripts/gen-lookahead.mjs computes it from the grammar)`,
        );
      m = memberIndices(type);
      this.matchers.set(name, m);
    }
    return m;
  }
}

/** Whether the next tokens match one of `paths` (an empty path always matches). */
function anyPathMatches(parser: Lookahead, paths: readonly Matcher[][]): boolean {
  next: for (const path of paths) {
    for (let i = 0; i < path.length; i++) {
      if (path[i]![parser.LA(i + 1).tokenTypeIdx] !== true) continue next;
    }
    return true;
  }
  return false;
}
