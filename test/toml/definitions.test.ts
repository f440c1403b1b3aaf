/**
 * Production builds the parser with chevrotain's definition checks off
 * (`skipValidations: true`) because they cost start-up time. This test
 * builds it with the checks on, so nothing is hidden. The chevrotain lexer
 * that is now the differential oracle of the hand-written one
 * (chevrotain-lexer.ts, lexer.test.ts) is checked the same way: no
 * definition errors or warnings, every mode can use the first-character
 * optimisation (`ensureOptimizations`), and the checked lexer tokenizes
 * exactly like the unchecked one the differential test uses.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chevrotain } from '../../compiler/toml/chevrotain.js';
import { createTomlParser } from '../../compiler/toml/parser.js';
import { tomlTokens } from '../../compiler/toml/tokens.js';
import { chevrotainTomlLexer, createTomlLexer } from './chevrotain-lexer.js';

const SAMPLE = [
  '# comment',
  'title = "TOML \\u00e9"',
  "lit = 'C:\\path'",
  'ml = """',
  'a "quoted" line\\',
  '  continued"""',
  "mll = '''",
  "raw '' text'''",
  'int = -1_000',
  'hex = 0xDEAD_beef',
  'flt = 6.626e-34',
  'inf = -inf',
  'dt = 1979-05-27 07:32:00.999-07:00',
  'ld = 1979-05-27',
  'lt = 07:32:00',
  'bool = true',
  '1979-05-27 = "date as key"',
  'true.inf.nan = 1',
  '1.2 = 3',
  '"quoted key" . bare = { x = [1, [2, {y = "z"}], ], w = 2 }',
  '[table . "sub"]',
  'arr = [',
  '  1, # inside',
  '  2,',
  ']',
  '[[aot]]',
  '!bad = @',
  '',
].join('\r\n');

describe('chevrotain definitions', () => {
  test('lexer: no definition errors or warnings with validations on, optimised modes', () => {
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...a: unknown[]) => {
      warnings.push(a.join(' '));
    };
    try {
      const { lexer } = createTomlLexer(true);
      assert.deepEqual(lexer.lexerDefinitionErrors, []);
      assert.deepEqual((lexer as unknown as { lexerDefinitionWarning: unknown[] }).lexerDefinitionWarning, []);
      assert.deepEqual(warnings, []);
    } finally {
      console.warn = warn;
    }
  });

  test('the validated oracle lexer tokenizes exactly like the unvalidated one', () => {
    const checked = createTomlLexer(true).lexer.tokenize(SAMPLE);
    const prod = chevrotainTomlLexer().lexer.tokenize(SAMPLE);
    const view = (r: typeof prod) => ({
      tokens: r.tokens.map((t) => `${t.tokenType.name}@${t.startOffset}:${JSON.stringify(t.image)}`),
      comments: (r.groups['comments'] ?? []).map((t) => `${t.startOffset}:${t.image}`),
      errors: r.errors.map((e) => `${e.offset}+${e.length}`),
    });
    assert.deepEqual(view(checked), view(prod));
    assert.ok(prod.tokens.length > 60, String(prod.tokens.length));
    assert.equal(prod.errors.length, 2); // "!" and "@"
  });

  test('parser: grammar validations pass (no ambiguities, no left recursion, unique occurrences)', () => {
    const tokens = tomlTokens();
    const warnings: string[] = [];
    const log = console.log;
    const warn = console.warn;
    console.log = console.warn = (...a: unknown[]) => {
      warnings.push(a.join(' '));
    };
    try {
      const parser = createTomlParser(tokens, { validate: true });
      assert.deepEqual((parser as unknown as { definitionErrors: unknown[] }).definitionErrors, []);
    } finally {
      console.log = log;
      console.warn = warn;
    }
    assert.deepEqual(warnings, []);
  });

  test("parser: recording on a layer (production) leaves the parser as recording in place (chevrotain's way) does", () => {
    const api = chevrotain();
    const tokens = tomlTokens();
    const layered = createTomlParser(tokens);
    const inPlace = createTomlParser(tokens, { recordInPlace: true });
    // the same recorded grammar, hence the same lookahead and the same parse
    assert.equal(
      JSON.stringify(api.serializeGrammar(Object.values(layered.getGAstProductions()))),
      JSON.stringify(api.serializeGrammar(Object.values(inPlace.getGAstProductions()))),
    );
    // the same object afterwards: its class right above it (no layer left), then the class's base (parser-base.ts), then
    // chevrotain's; the same own properties (no recording method left on it)
    const classOf = (p: object): object => Object.getPrototypeOf(p) as object;
    assert.equal(classOf(classOf(classOf(layered))), api.EmbeddedActionsParser.prototype);
    assert.equal(classOf(classOf(classOf(inPlace))), api.EmbeddedActionsParser.prototype);
    // the class differs only by the two switches of recording.ts
    const switches = ['enableRecording', 'disableRecording'];
    assert.deepEqual(
      Object.getOwnPropertyNames(classOf(layered)).filter((n) => !switches.includes(n)),
      Object.getOwnPropertyNames(classOf(inPlace)),
    );
    for (const n of switches) assert.ok(Object.hasOwn(classOf(layered), n) && !Object.hasOwn(classOf(inPlace), n), n);
    assert.deepEqual(Object.getOwnPropertyNames(layered), Object.getOwnPropertyNames(inPlace));
    assert.equal(layered.RECORDING_PHASE, false);
    for (const name of ['CONSUME', 'CONSUME2', 'SUBRULE', 'OR', 'MANY', 'OPTION', 'consume', 'or', 'LA', 'ACTION']) {
      assert.ok(!Object.hasOwn(layered, name), name);
      assert.equal(
        (layered as unknown as Record<string, unknown>)[name],
        (api.EmbeddedActionsParser.prototype as unknown as Record<string, unknown>)[name],
        name,
      );
    }
  });
});
