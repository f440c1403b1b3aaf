/**
 * Tree nodes from tokens: key names (quoted keys decoded, `key = ` tokens
 * cut down to the key) and scalar values, each with its exact span. Decoding
 * problems are reported at their position inside the token.
 */
import type { IToken, TokenType } from 'chevrotain';
import type { Span } from '../span.js';
import type { TomlError, TomlValue } from './ast.js';
import type { KeySeg } from './builder.js';
import type { LineTable } from './spans.js';
import { decodeAtom, decodeBasicString, decodeLiteralString } from './values.js';

/** Length of the bare key at the start of a `key = ` token. */
function bareKeyLength(img: string): number {
  let i = 0;
  for (; i < img.length; i++) {
    const c = img.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x3d) break;
  }
  return i;
}

const MAX_CACHED_KEYS = 4096;

export class Nodes {
  lines!: LineTable;
  private diag!: TomlError[];
  /** The span of the key returned by the last `keyName` call. */
  keySpan!: Span;
  private reportBase = 0;
  /** `key = ` token text -> key: the same keys come back again and again (bounded, per document). */
  private readonly keyCache = new Map<string, string>();

  /** Problems inside the current token, `rel` code units from its start. */
  readonly report = (rel: number, len: number, message: string): void => {
    const start = this.reportBase + rel;
    this.diag.push({ message, span: this.lines.span(start, start + len) });
  };

  constructor(private readonly keyEquals: TokenType) {}

  begin(lines: LineTable, diag: TomlError[]): void {
    this.keyCache.clear();
    this.lines = lines;
    this.diag = diag;
  }

  end(): void {
    this.keyCache.clear();
    this.lines = undefined as unknown as LineTable;
    this.diag = undefined as unknown as TomlError[];
  }

  keySeg(t: IToken): KeySeg {
    const name = this.keyName(t);
    return { name, span: this.keySpan };
  }

  /** The key a token stands for; sets `keySpan`. */
  keyName(t: IToken): string {
    let img = t.image;
    const start = t.startOffset;
    const c = img.charCodeAt(0);
    if (c !== 0x22 && c !== 0x27) {
      if (t.tokenType === this.keyEquals) {
        let key = this.keyCache.get(img);
        if (key === undefined) {
          key = img.slice(0, bareKeyLength(img));
          if (this.keyCache.size < MAX_CACHED_KEYS) this.keyCache.set(img, key);
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

  /** A string, number, boolean or date-time value. */
  scalar(t: IToken): TomlValue {
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
}
