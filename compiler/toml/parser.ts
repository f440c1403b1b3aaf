/**
 * The chevrotain parser. Embedded actions build the tree directly (no CST).
 *
 *   document    := ( header | arrayHeader | keyval )*     (newlines are skipped in
 *                                                         key mode; EOL checks offsets)
 *   header      := "[" key "]" EOL
 *   arrayHeader := "[[" key "]]" EOL
 *   keyval      := key "=" value EOL?        (EOL only at the top level)
 *   key         := KeyPart ( "." KeyPart )*
 *   value       := Scalar | array | inlineTable
 *   array       := "[" ( value ( "," value )* ","? )? "]"
 *   inlineTable := "{" ( keyval ( "," keyval )* )? "}"
 *
 * Every rule is recorded by chevrotain (and checked with validations on in a
 * test). Lines, headers and keys run through chevrotain's OR / MANY. Values
 * are LL(1) on their first token: at run time `valueAt` dispatches on it
 * directly, and arrays and inline tables are parsed by plain recursive
 * methods that call CONSUME, instead of SUBRULE -> OPTION -> OR chains. That
 * is faster and keeps a nesting level at 2-3 stack frames, so the depth limit
 * (checked before recursing) of 1000 levels fits on the default stack.
 *
 * Before every step that can fail the parser records what it expected in
 * `expect`; driver.ts turns that into a message. Hot paths avoid per-call
 * closures: OR alternatives and MANY bodies are created once, state flows
 * through fields.
 */
import type { IToken, TokenType } from 'chevrotain';
import type { Span } from '../span.js';
import type { TomlError, TomlValue } from './ast.js';
import { type Builder, type KeySeg, type MutTable, newTable } from './builder.js';
import { chevrotain } from './chevrotain.js';
import { Expect, KEY_DEPTH_MESSAGE, MAX_DEPTH, TomlSyntaxError } from './errors.js';
import { MAX_LOOKAHEAD, PrecomputedLookahead } from './lookahead.js';
import { recordOnLayer } from './recording.js';
import { memberIndices, type TomlTokens } from './tokens.js';
import { Nodes } from './nodes.js';
import type { LineTable } from './spans.js';
import { lineParser } from './parser-base.js';
import type { ParserOptions, TomlParser } from './parser-types.js';

export type { ParserOptions, TomlParser } from './parser-types.js';

const PLACEHOLDER: Span = { start: { offset: 0, line: 1, column: 1 }, end: { offset: 0, line: 1, column: 1 } };

let instance: TomlParser | undefined;

export function tomlParser(tokens: TomlTokens): TomlParser {
  if (instance === undefined) instance = createTomlParser(tokens);
  return instance;
}

export function createTomlParser(T: TomlTokens, options: ParserOptions = {}): TomlParser {
  const api = chevrotain();
  const EOF: TokenType = api.EOF;
  const validate = options.validate === true;
  const recordInPlace = options.recordInPlace === true;
  const lookaheadStrategy = options.lookahead ?? new PrecomputedLookahead(new Map([...T.all, EOF].map((t) => [t.name, t])));
  // token type indices of a category and its members, for dispatch on the next token
  const members = memberIndices;
  const newlineMap = members(T.Newline);
  const scalarIdx = members(T.Scalar);
  const openArrayIdx = members(T.OpenArray);
  const openInlineIdx = members(T.OpenInline);
  const commaIdx = members(T.Comma);
  const keyPartIdx = members(T.KeyPart);

  class Parser extends lineParser(api, T, newlineMap) {
    /** Key segments after the first one, collected by `dottedKey`. */
    private moreSegs: KeySeg[] | undefined = undefined;
    /** Builds keys and scalar values from tokens. */
    private readonly nodes = new Nodes(T.KeyEquals);
    declare exportLexerState: () => number;
    declare importLexerState: (state: number) => void;

    constructor() {
      super(T.all as TokenType[], { maxLookahead: MAX_LOOKAHEAD, lookaheadStrategy, recoveryEnabled: false, skipValidations: !validate });
      this.performSelfAnalysis();
    }

    begin(builder: Builder, errors: TomlError[], lines: LineTable): void {
      this.nodes.begin(lines, errors);
      this.b = builder;
      this.diag = errors;
      this.lines = lines;
      this.baseDepth = 0;
      this.resync();
    }

    end(): void {
      this.nodes.end();
      this.b = undefined as unknown as Builder;
      this.diag = undefined as unknown as TomlError[];
      this.lines = undefined as unknown as LineTable;
      this.target = undefined as unknown as MutTable;
      this.input = [];
    }

    resync(): void {
      this.target = this.b.current;
      this.depth = this.baseDepth;
      this.inlineDepth = 0;
      this.moreSegs = undefined;
      this.expect = Expect.LineStart;
    }

    // ------------------------------------------------------------ rules

    private readonly lineAlts = [
      {
        ALT: () => {
          this.SUBRULE(this.header);
        },
      },
      {
        ALT: () => {
          this.SUBRULE(this.arrayHeader);
        },
      },
      // top-level key/values are parsed in place (a SUBRULE per line costs)
      {
        ALT: () => {
          this.keyvalBody();
        },
      },
    ];

    private readonly lineBody = (): void => {
      if (!this.RECORDING_PHASE) {
        this.itemIdx = this.exportLexerState();
        this.expect = Expect.LineStart;
        this.headerDone = false;
      }
      this.OR(this.lineAlts);
    };

    readonly document = this.RULE('document', () => {
      this.MANY(this.lineBody);
    });

    private readonly dottedKey = (): void => {
      this.sameLine(this.expect);
      this.CONSUME(T.Dot);
      this.expect = Expect.KeyAfterDot;
      this.sameLine(Expect.KeyAfterDot);
      const t = this.CONSUME2(T.KeyPart);
      if (!this.RECORDING_PHASE) {
        this.lastKey = t;
        (this.moreSegs ??= []).push(this.nodes.keySeg(t));
      }
    };

    /** The segments collected by `dottedKey` (a method, so TypeScript does not narrow the field). */
    private collected(): KeySeg[] | undefined {
      return this.moreSegs;
    }

    /** The segments of a key whose first token is `first`. */
    private keyPath(first: IToken): KeySeg[] {
      this.moreSegs = undefined;
      this.lastKey = first;
      const seg = this.RECORDING_PHASE ? undefined : this.nodes.keySeg(first);
      this.MANY(this.dottedKey);
      if (seg === undefined) return [];
      const segs = [seg];
      const more = this.collected();
      if (more !== undefined) for (const s of more) segs.push(s);
      return segs;
    }

    readonly header = this.RULE('header', () => {
      const open = this.CONSUME(T.LBracket);
      this.expect = Expect.HeaderKey;
      this.sameLine(Expect.HeaderKey);
      const first = this.CONSUME(T.KeyPart);
      this.expect = Expect.HeaderClose;
      const segs = this.keyPath(first);
      this.noEqualsInHeader(Expect.HeaderClose);
      this.expect = Expect.HeaderClose;
      this.sameLine(Expect.HeaderClose);
      const close = this.CONSUME(T.RBracket);
      if (!this.RECORDING_PHASE) this.startSection(segs, this.lines.span(open.startOffset, close.startOffset + 1), false);
      this.endOfLine(Expect.EndOfLineAfterHeader);
    });

    readonly arrayHeader = this.RULE('arrayHeader', () => {
      const open = this.CONSUME(T.LLBracket);
      this.expect = Expect.ArrayHeaderKey;
      this.sameLine(Expect.ArrayHeaderKey);
      const first = this.CONSUME(T.KeyPart);
      this.expect = Expect.ArrayHeaderClose;
      const segs = this.keyPath(first);
      this.noEqualsInHeader(Expect.ArrayHeaderClose);
      this.expect = Expect.ArrayHeaderClose;
      this.sameLine(Expect.ArrayHeaderClose);
      const close = this.CONSUME(T.RRBracket);
      if (!this.RECORDING_PHASE) this.startSection(segs, this.lines.span(open.startOffset, close.startOffset + 2), true);
      this.endOfLine(Expect.EndOfLineAfterHeader);
    });

    /** `key = value` (dotted keys included): top-level lines, and the key/values of inline tables. */
    private keyvalBody(): void {
      const first = this.CONSUME(T.KeyPart);
      this.moreSegs = undefined;
      this.lastKey = first;
      // decode the first key now: an unterminated quoted key is the better error
      const name = this.RECORDING_PHASE ? '' : this.nodes.keyName(first);
      const span = this.nodes.keySpan;
      this.expect = Expect.Equals;
      this.MANY1(this.dottedKey);
      const more = this.collected();
      if (this.RECORDING_PHASE || this.lastKey.tokenType !== T.KeyEquals) {
        this.expect = Expect.Equals;
        this.sameLine(Expect.Equals);
        this.CONSUME(T.Equals);
      }
      this.expect = Expect.Value;
      if (this.RECORDING_PHASE) {
        this.valueAt(1);
        return;
      }
      const target = this.target;
      if (more === undefined) {
        const value = this.valueAt(1);
        // a line with garbage after the value must not define the key
        if (this.inlineDepth === 0) this.endOfLine(Expect.EndOfLineAfterValue);
        this.b.set(target, name, span, value);
        return;
      }
      const extra = more.length;
      if (this.depth + extra > MAX_DEPTH) throw new TomlSyntaxError(KEY_DEPTH_MESSAGE, first);
      this.depth += extra;
      const segs: KeySeg[] = [{ name, span }];
      for (const m of more) segs.push(m);
      const value = this.valueAt(1);
      this.depth -= extra;
      if (this.inlineDepth === 0) this.endOfLine(Expect.EndOfLineAfterValue);
      this.b.setDotted(target, segs, value);
    }

    /** Only recorded (inline tables call `keyvalBody` directly at run time). */
    readonly keyval = this.RULE('keyval', () => {
      this.keyvalBody();
    });

    /** The recorded alternatives of `value` at call site `i` (distinct occurrence indices). */
    private recordedValueAlts(i: number) {
      return [
        {
          ALT: () => {
            this.consume(i, T.Scalar);
          },
        },
        {
          ALT: () => {
            this.subrule(i, this.array);
          },
        },
        {
          ALT: () => {
            this.subrule(i, this.inlineTable);
          },
        },
      ];
    }

    private readonly valueAltsBySite = [[], this.recordedValueAlts(1), this.recordedValueAlts(2), this.recordedValueAlts(3)];

    /**
     * A value at call site `site`. Chevrotain records the grammar
     * (Scalar | array | inlineTable); at run time the alternative is picked
     * from the next token (the grammar is LL(1) here) and arrays and inline
     * tables are parsed by plain recursive methods: no rule-invocation frames,
     * so 1000 levels of nesting fit on the stack, and it is faster.
     */
    private valueAt(site: number): TomlValue {
      if (this.RECORDING_PHASE) {
        this.or(site, this.valueAltsBySite[site]!);
        return undefined as unknown as TomlValue;
      }
      const t = this.LA(1);
      const k = t.tokenTypeIdx;
      if (scalarIdx[k] === true) {
        this.consume(site, T.Scalar);
        return this.nodes.scalar(t);
      }
      if (openArrayIdx[k] === true) {
        this.enter();
        return this.arrayBody();
      }
      if (openInlineIdx[k] === true) {
        this.enter();
        return this.inlineBody();
      }
      throw new TomlSyntaxError('', t, this.expect);
    }

    private startsValue(t: IToken): boolean {
      const k = t.tokenTypeIdx;
      return scalarIdx[k] === true || openArrayIdx[k] === true || openInlineIdx[k] === true;
    }

    // recorded shape of the array body
    private readonly recFirstItem = (): void => {
      this.valueAt(2);
      this.MANY(this.recNextItem);
      this.OPTION2(this.recTrailingComma);
    };
    private readonly recNextItem = (): void => {
      this.CONSUME(T.Comma);
      this.valueAt(3);
    };
    private readonly recTrailingComma = (): void => {
      this.CONSUME2(T.Comma);
    };

    /** `[ value, ... ]` */
    private arrayBody(): TomlValue {
      const open = this.CONSUME(T.OpenArray);
      this.depth++;
      this.expect = Expect.ArrayClose;
      const items: TomlValue[] = [];
      if (this.RECORDING_PHASE) {
        this.OPTION(this.recFirstItem);
      } else if (this.startsValue(this.LA(1))) {
        items.push(this.valueAt(2));
        while (commaIdx[this.LA(1).tokenTypeIdx] === true) {
          if (!this.startsValue(this.LA(2))) {
            this.CONSUME2(T.Comma); // trailing comma
            break;
          }
          this.CONSUME(T.Comma);
          items.push(this.valueAt(3));
        }
      }
      this.expect = Expect.ArrayClose;
      const close = this.CONSUME(T.RBracketArray);
      this.depth--;
      if (this.RECORDING_PHASE) return undefined as unknown as TomlValue;
      return { kind: 'array', items, span: this.lines.span(open.startOffset, close.startOffset + 1) };
    }

    readonly array = this.RULE('array', (): TomlValue => this.arrayBody());

    // recorded shape of the inline table body
    private readonly recInlineContent = (): void => {
      this.SUBRULE(this.keyval);
      this.MANY(this.recInlineNext);
    };
    private readonly recInlineNext = (): void => {
      this.CONSUME(T.Comma);
      this.SUBRULE2(this.keyval);
    };

    /** `{ key = value, ... }` */
    private inlineBody(): TomlValue {
      const open = this.CONSUME(T.OpenInline);
      const saved = this.target;
      const table = newTable('inline', PLACEHOLDER);
      this.target = table;
      this.depth++;
      this.inlineDepth++;
      this.expect = Expect.InlineClose;
      if (this.RECORDING_PHASE) {
        this.OPTION(this.recInlineContent);
      } else if (keyPartIdx[this.LA(1).tokenTypeIdx] === true) {
        this.keyvalBody();
        for (;;) {
          this.expect = Expect.InlineClose;
          if (commaIdx[this.LA(1).tokenTypeIdx] !== true) break;
          this.CONSUME(T.Comma);
          this.expect = Expect.InlineKey;
          this.keyvalBody();
        }
      }
      this.expect = Expect.InlineClose;
      const close = this.CONSUME(T.RBrace);
      this.depth--;
      this.inlineDepth--;
      this.target = saved;
      if (this.RECORDING_PHASE) return undefined as unknown as TomlValue;
      table.span = this.lines.span(open.startOffset, close.startOffset + 1);
      return table;
    }

    readonly inlineTable = this.RULE('inlineTable', (): TomlValue => this.inlineBody());
  }

  if (!recordInPlace) recordOnLayer(Parser, api.EmbeddedActionsParser);
  return new Parser() as unknown as TomlParser;
}
