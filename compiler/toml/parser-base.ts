/**
 * The parser's state between rules, the checks TOML makes of lines (keys,
 * "=" and headers on one line, nothing after a value or a header on its
 * line), the nesting limits, and a header's table set up. A base class of parser.ts's parser
 * (chevrotain records the rules of the subclass); parser.ts has the rules.
 */
import type { IToken } from 'chevrotain';
import { type Builder, type KeySeg, type MutTable, newTable } from './builder.js';
import type { Span } from '../span.js';
import type { TomlTokens } from './tokens.js';
import type { ChevrotainApi } from './chevrotain.js';
import type { TomlError } from './ast.js';
import { DEPTH_MESSAGE, Expect, KEY_DEPTH_MESSAGE, MAX_DEPTH, TomlSyntaxError } from './errors.js';
import type { LineTable } from './spans.js';

/** The base class for a chevrotain `api` and the tokens `T`; `newlineMap`: the newline tokens' type indices. */
export function lineParser(api: ChevrotainApi, T: TomlTokens, newlineMap: readonly boolean[]) {
  const EOF = api.EOF;
  return class LineParser extends api.EmbeddedActionsParser {
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
    /** The last key token consumed (a KeyEquals token includes the "="). */
    protected lastKey!: IToken;

    peek(): IToken {
      return this.LA(1);
    }

    /** The next token must start on a later line than the last one consumed ended on. */
    protected endOfLine(expect: Expect): void {
      if (this.RECORDING_PHASE) return;
      const t = this.LA(1);
      const tt = t.tokenType;
      if (tt === EOF || newlineMap[tt.tokenTypeIdx!] === true) return;
      const prev = this.LA(0);
      const nl = this.lines.text.indexOf('\n', prev.startOffset + prev.image.length);
      if (nl < 0 || nl >= t.startOffset) throw new TomlSyntaxError('', t, expect);
    }

    /** Keys, "=" and table headers cannot be split over lines (newlines are skipped in key mode). */
    protected sameLine(expect: Expect): void {
      if (this.RECORDING_PHASE) return;
      const next = this.LA(1);
      if (next.tokenType === EOF) return;
      const prev = this.LA(0);
      const text = this.lines.text;
      for (let i = prev.startOffset + prev.image.length; i < next.startOffset; i++) {
        if (text.charCodeAt(i) === 0x0a) throw new TomlSyntaxError('', next, expect);
      }
    }

    protected enter(): void {
      if (!this.RECORDING_PHASE && this.depth >= MAX_DEPTH) throw new TomlSyntaxError(DEPTH_MESSAGE, this.LA(1));
    }

    /** `[a =` : a KeyEquals token inside a header; fail at its "=". */
    protected noEqualsInHeader(expect: Expect): void {
      if (this.RECORDING_PHASE) return;
      const t = this.lastKey;
      if (t.tokenType !== T.KeyEquals) return;
      const at = t.startOffset + t.image.indexOf('=');
      throw new TomlSyntaxError('', { image: '=', startOffset: at, tokenType: T.Equals, tokenTypeIdx: T.Equals.tokenTypeIdx! }, expect);
    }

    protected startSection(segs: KeySeg[], span: Span, isArray: boolean): void {
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
  };
}
