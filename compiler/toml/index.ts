/**
 * TOML 1.0.0 parser with exact source spans (chevrotain based).
 *
 *   parseToml(bytes | string) -> { document?, errors, comments, text }
 *   toTaggedJson(document)    -> toml-test's tagged JSON
 *   toPlainJsonText(document) -> plain JSON text with exact integers
 *
 * Nothing is loaded or built at import time: chevrotain, the token types and
 * the parser are created on the first parse and reused for the process.
 */
import type { Span } from '../span.js';
import type { TomlComment, TomlError, TomlParseResult } from './ast.js';
import { finishErrors, parseText } from './driver.js';
import { pointSpan } from './spans.js';
import { decodeUtf8 } from './utf8.js';

export type * from './ast.js';
export { toTaggedJson, toPlainJsonText } from './tagged.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Parses a TOML 1.0.0 document. Bytes must be strict UTF-8 (a leading BOM
 * is accepted and stripped; offsets are relative to the text after it).
 * Never throws: problems come back as positioned `errors`, and `document`
 * is present only when there are none.
 */
export function parseToml(input: Uint8Array | string): TomlParseResult {
  let text = '';
  const errors: TomlError[] = [];
  const comments: TomlComment[] = [];
  try {
    if (typeof input === 'string') {
      text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
      const lone = LONE_SURROGATE.exec(text);
      if (lone !== null) {
        const span = spanAtOffset(text, lone.index, 1);
        return { errors: [{ message: 'the text contains an unpaired UTF-16 surrogate: it is not valid Unicode', span }], comments, text };
      }
    } else {
      const decoded = decodeUtf8(input);
      text = decoded.text;
      if (decoded.error !== undefined) return { errors: [decoded.error], comments, text };
    }
    const document = parseText(text, errors, comments);
    if (errors.length > 0 || document === undefined) return { errors: finishErrors(errors), comments, text };
    return { document, errors, comments, text };
  } catch (e) {
    // last resort: never throw out of the parser
    const message =
      e instanceof RangeError
        ? 'the document is nested too deeply to parse'
        : `internal error in the TOML parser: ${e instanceof Error ? e.message : String(e)}`;
    errors.push({ message, span: pointSpan({ offset: 0, line: 1, column: 1 }) });
    return { errors: finishErrors(errors), comments, text };
  }
}

function spanAtOffset(text: string, offset: number, length: number): Span {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return { start: { offset, line, column }, end: { offset: offset + length, line, column: column + length } };
}
