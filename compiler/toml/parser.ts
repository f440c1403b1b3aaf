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
 * Before every step that can fail the parser records what it expected in
 * `expect`; driver.ts turns that into a message. Nesting depth is checked
 * before recursing, so hostile input cannot overflow the stack.
 *
 * Hot paths avoid per-call closures: the alternatives of OR and the bodies
 * of MANY are created once, and state flows through fields.
 */
import type { EmbeddedActionsParser, IToken, TokenType } from 'chevrotain';
import type { Span } from '../span.js';
import type { TomlError, TomlValue } from './ast.js';
import { Builder, type KeySeg, type MutTable, newTable } from './builder.js';
import { chevrotain } from './chevrotain.js';
import { DEPTH_MESSAGE, Expect, KEY_DEPTH_MESSAGE, MAX_DEPTH } from './errors.js';
import type { TomlTokens } from './lexer.js';
import type { LineTable } from './spans.js';
import { decodeAtom, decodeBasicString, decodeLiteralString } from './values.js';

/** Length of the bare key at the start of `img`. */
function bareKeyLength(img: string): number {
  let i = 0;
  for (; i < img.length; i++) {
    const c = img.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x3d) break;
  }
  return i;
}

/** A syntax error raised by our own checks (not by chevrotain). */
export class TomlSyntaxError extends Error {
  constructor(message: string, readonly token: IToken, readonly expect?: Expect) {
    super(message);
  }
}

export interface TomlParser extends EmbeddedActionsParser {
  /** Starts a new document. */
  begin(builder: Builder, errors: TomlError[], lines: LineTable): void;
  /** Resets per-line state after an error. */
  resync(): void;
  /** Drops the references to the finished document. */
  end(): void;
  document(): void;
  expect: Expect;
  /** Token index (currIdx) before the top-level item being parsed. */
  itemIdx: number;
  /** False while a table header is being parsed, until its table is set up. */
  headerDone: boolean;
  exportLexerState(): number;
  importLexerState(state: number): void;
  /** The next token (LA(1)). */
  peek(): IToken;
}

const PLACEHOLDER: Span = { start: { offset: 0, line: 1, column: 1 }, end: { offset: 0, line: 1, column: 1 } };

let instance: TomlParser | undefined;

export function tomlParser(tokens: TomlTokens): TomlParser {
  if (instance === undefined) instance = createTomlParser(tokens, false);
  return instance;
}

export function createTomlParser(T: TomlTokens, validate: boolean): TomlParser {
  const api = chevrotain();
  const EOF: TokenType = api.EOF;
  /** Token type indices that count as a newline (the Newline category and its members). */
  const newlineMap: Record<number, boolean> = { ...T.Newline.categoryMatchesMap, [T.Newline.tokenTypeIdx!]: true };

  class Parser extends api.EmbeddedActionsParser {
    expect: Expect = Expect.LineStart;
    itemIdx = -1;
    headerDone = false;
    depth = 0;
    baseDepth = 0;
    /** Number of inline tables being parsed (0: top-level key/value). */
    inlineDepth = 0;
    b!: Builder;
    diag!: TomlError[];
    lines!: LineTable;
    target!: MutTable;
    /** Key segments after the first one, collected by `dottedKey`. */
    private moreSegs: KeySeg[] | undefined = undefined;
    /** The last key token consumed (a KeyEquals token includes the "="). */
    private lastKey!: IToken;
    /** The span computed by the last `keyName` call. */
    private keySpan!: Span;
    /** Items of the array being parsed. */
    private items: TomlValue[] = [];
    private reportBase = 0;
    /** `key = ` token text -> key (bounded; cleared per document). */
    private readonly keyCache = new Map<string, string>();
    declare exportLexerState: () => number;
    declare importLexerState: (state: number) => void;

    private readonly report = (rel: number, len: number, message: string): void => {
      const start = this.reportBase + rel;
      this.diag.push({ message, span: this.lines.span(start, start + len) });
    };

    constructor() {
      super(T.all as TokenType[], { maxLookahead: 2, recoveryEnabled: false, skipValidations: !validate });
      this.performSelfAnalysis();
    }

    peek(): IToken {
      return this.LA(1);
    }

    begin(builder: Builder, errors: TomlError[], lines: LineTable): void {
      this.keyCache.clear();
      this.b = builder;
      this.diag = errors;
      this.lines = lines;
      this.baseDepth = 0;
      this.resync();
    }

    end(): void {
      this.keyCache.clear();
      this.b = undefined as unknown as Builder;
      this.diag = undefined as unknown as TomlError[];
      this.lines = undefined as unknown as LineTable;
      this.target = undefined as unknown as MutTable;
      this.items = [];
      this.input = [];
    }

    resync(): void {
      this.target = this.b.current;
      this.depth = this.baseDepth;
      this.inlineDepth = 0;
      this.moreSegs = undefined;
      this.expect = Expect.LineStart;
    }

    /** The next token must start on a later line than the last one consumed ended on. */
    private endOfLine(expect: Expect): void {
      if (this.RECORDING_PHASE) return;
      const t = this.LA(1);
      const tt = t.tokenType;
      if (tt === EOF || newlineMap[tt.tokenTypeIdx!] === true) return;
      const prev = this.LA(0);
      const nl = this.lines.text.indexOf('\n', prev.startOffset + prev.image.length);
      if (nl < 0 || nl >= t.startOffset) throw new TomlSyntaxError('', t, expect);
    }

    /** Keys, "=" and table headers cannot be split over lines (newlines are skipped in key mode). */
    private sameLine(expect: Expect): void {
      if (this.RECORDING_PHASE) return;
      const next = this.LA(1);
      if (next.tokenType === EOF) return;
      const prev = this.LA(0);
      const text = this.lines.text;
      for (let i = prev.startOffset + prev.image.length; i < next.startOffset; i++) {
        if (text.charCodeAt(i) === 0x0a) throw new TomlSyntaxError('', next, expect);
      }
    }

    private enter(): void {
      if (!this.RECORDING_PHASE && this.depth >= MAX_DEPTH) throw new TomlSyntaxError(DEPTH_MESSAGE, this.LA(1));
    }

    private keySeg(t: IToken): KeySeg {
      const name = this.keyName(t);
      return { name, span: this.keySpan };
    }

    /** The key a token stands for; sets `keySpan`. */
    private keyName(t: IToken): string {
      let img = t.image;
      const start = t.startOffset;
      const c = img.charCodeAt(0);
      if (c !== 0x22 && c !== 0x27) {
        if (t.tokenType === T.KeyEquals) {
          // `name = ` -> `name`; the same keys come back again and again
          let key = this.keyCache.get(img);
          if (key === undefined) {
            key = img.slice(0, bareKeyLength(img));
            if (this.keyCache.size < 4096) this.keyCache.set(img, key);
          }
          img = key;
        }
        this.keySpan = this.lines.span(start, start + img.length);
        return img;
      }
      this.keySpan = this.lines.span(start, start + img.length);
      this.reportBase = start;
      if (img.length >= 3 && img.charCodeAt(1) === c && img.charCodeAt(2) === c) {
        this.report(0, img.length, 'multi-line strings cannot be used as keys');
        return img;
      }
      return c === 0x22 ? decodeBasicString(img, false, this.report) : decodeLiteralString(img, false, this.report);
    }

    private scalar(t: IToken): TomlValue {
      const img = t.image;
      const start = t.startOffset;
      const c = img.charCodeAt(0);
      const span = this.lines.span(start, start + img.length);
      this.reportBase = start;
      if (c === 0x22) {
        const ml = img.length >= 3 && img.charCodeAt(1) === 0x22 && img.charCodeAt(2) === 0x22;
        return { kind: 'string', value: decodeBasicString(img, ml, this.report), span };
      }
      if (c === 0x27) {
        const ml = img.length >= 3 && img.charCodeAt(1) === 0x27 && img.charCodeAt(2) === 0x27;
        return { kind: 'string', value: decodeLiteralString(img, ml, this.report), span };
      }
      return decodeAtom(img, span, this.report);
    }

    // ------------------------------------------------------------ rules

    private readonly lineAlts = [
      { ALT: () => { this.SUBRULE(this.header); } },
      { ALT: () => { this.SUBRULE(this.arrayHeader); } },
      // top-level key/values are parsed in place (a SUBRULE per line costs)
      { ALT: () => { this.keyvalBody(); } },
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
        (this.moreSegs ??= []).push(this.keySeg(t));
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
      const seg = this.RECORDING_PHASE ? undefined : this.keySeg(first);
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

    /** `[a =` : a KeyEquals token inside a header; fail at its "=". */
    private noEqualsInHeader(expect: Expect): void {
      if (this.RECORDING_PHASE) return;
      const t = this.lastKey;
      if (t.tokenType !== T.KeyEquals) return;
      const at = t.startOffset + t.image.indexOf('=');
      throw new TomlSyntaxError('', { image: '=', startOffset: at, tokenType: T.Equals, tokenTypeIdx: T.Equals.tokenTypeIdx! }, expect);
    }

    private startSection(segs: KeySeg[], span: Span, isArray: boolean): void {
      if (segs.length > MAX_DEPTH) {
        this.b.current = newTable('header', span);
        throw new TomlSyntaxError(KEY_DEPTH_MESSAGE, this.LA(0));
      }
      if (isArray) this.b.arrayHeader(segs, span);
      else this.b.header(segs, span);
      this.baseDepth = segs.length;
      this.target = this.b.current;
      this.headerDone = true;
    }

    /** `key = value` (dotted keys included); used at the top level and by `keyval`. */
    private keyvalBody(): void {
      const first = this.CONSUME(T.KeyPart);
      this.moreSegs = undefined;
      this.lastKey = first;
      // decode the first key now: an unterminated quoted key is the better error
      const name = this.RECORDING_PHASE ? '' : this.keyName(first);
      const span = this.keySpan;
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
        this.OR1(this.valueAlts);
        return;
      }
      const target = this.target;
      if (more === undefined) {
        const value: TomlValue = this.OR1(this.valueAlts);
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
      const value: TomlValue = this.OR1(this.valueAlts);
      this.depth -= extra;
      if (this.inlineDepth === 0) this.endOfLine(Expect.EndOfLineAfterValue);
      this.b.setDotted(target, segs, value);
    }

    readonly keyval = this.RULE('keyval', () => {
      this.keyvalBody();
    });

    /** `value`, once per call site (chevrotain wants distinct occurrence indices). */
    private valueAltsAt(i: number) {
      return [
        {
          ALT: (): TomlValue => {
            const t = this.consume(i, T.Scalar);
            return this.RECORDING_PHASE ? (undefined as unknown as TomlValue) : this.scalar(t);
          },
        },
        {
          ALT: (): TomlValue => {
            this.enter();
            return this.subrule(i, this.array);
          },
        },
        {
          ALT: (): TomlValue => {
            this.enter();
            return this.subrule(i, this.inlineTable);
          },
        },
      ];
    }

    private readonly valueAlts = this.valueAltsAt(0);
    private readonly firstItemAlts = this.valueAltsAt(1);
    private readonly nextItemAlts = this.valueAltsAt(2);

    private readonly firstItem = (): void => {
      this.items.push(this.OR1(this.firstItemAlts));
      this.MANY(this.nextItem);
      this.OPTION2(this.trailingComma);
    };

    private readonly nextItem = (): void => {
      this.CONSUME(T.Comma);
      this.items.push(this.OR2(this.nextItemAlts));
    };

    private readonly trailingComma = (): void => {
      this.CONSUME2(T.Comma);
    };

    readonly array = this.RULE('array', (): TomlValue => {
      const open = this.CONSUME(T.OpenArray);
      this.depth++;
      const outer = this.items;
      const items: TomlValue[] = (this.items = []);
      this.expect = Expect.ArrayClose;
      this.OPTION(this.firstItem);
      this.expect = Expect.ArrayClose;
      const close = this.CONSUME(T.RBracketArray);
      this.depth--;
      this.items = outer;
      if (this.RECORDING_PHASE) return undefined as unknown as TomlValue;
      return { kind: 'array', items, span: this.lines.span(open.startOffset, close.startOffset + 1) };
    });

    private readonly inlineBody = (): void => {
      this.SUBRULE(this.keyval);
      this.MANY(this.inlineNext);
    };

    private readonly inlineNext = (): void => {
      this.expect = Expect.InlineClose;
      this.CONSUME(T.Comma);
      this.expect = Expect.InlineKey;
      this.SUBRULE2(this.keyval);
    };

    readonly inlineTable = this.RULE('inlineTable', (): TomlValue => {
      const open = this.CONSUME(T.OpenInline);
      const saved = this.target;
      const table = newTable('inline', PLACEHOLDER);
      this.target = table;
      this.depth++;
      this.inlineDepth++;
      this.expect = Expect.InlineClose;
      this.OPTION(this.inlineBody);
      this.expect = Expect.InlineClose;
      const close = this.CONSUME(T.RBrace);
      this.depth--;
      this.inlineDepth--;
      this.target = saved;
      if (this.RECORDING_PHASE) return undefined as unknown as TomlValue;
      table.span = this.lines.span(open.startOffset, close.startOffset + 1);
      return table;
    });
  }

  return new Parser() as unknown as TomlParser;
}
