/**
 * Strict UTF-8 decoding with a positioned error for the first bad byte.
 * A leading UTF-8 BOM is stripped (offsets are relative to the text after
 * it); a UTF-16 BOM is rejected.
 */
import type { TomlError } from './ast.js';

export interface Decoded {
  readonly text: string;
  readonly error?: TomlError;
}

// Node's TextDecoder (node:util's, the same global), typed without the DOM library.
let strict: InstanceType<typeof TextDecoder> | undefined;
let lenient: InstanceType<typeof TextDecoder> | undefined;

/** `format` names the files in the messages (TOML, or JSON for the JSON front end). */
export function decodeUtf8(bytes: Uint8Array, format: 'TOML' | 'JSON' = 'TOML'): Decoded {
  if (bytes.length >= 2 && ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe))) {
    const span = { start: { offset: 0, line: 1, column: 1 }, end: { offset: 1, line: 1, column: 2 } };
    return {
      text: '',
      error: { message: `the file starts with a UTF-16 byte order mark: ${format} files must be encoded in UTF-8`, span },
    };
  }
  const start = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const body = start === 0 ? bytes : bytes.subarray(start);
  strict ??= new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  try {
    return { text: strict.decode(body) };
  } catch {
    lenient ??= new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
    const bad = firstInvalidByte(body);
    // line and column of the bad byte: the prefix of its line is valid UTF-8
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < bad; i++) {
      if (body[i] === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    }
    const before = strict.decode(body.subarray(0, lineStart));
    const column = strict.decode(body.subarray(lineStart, bad)).length + 1;
    const offset = before.length + column - 1;
    const span = { start: { offset, line, column }, end: { offset: offset + 1, line, column: column + 1 } };
    const shown = Array.from(body.subarray(bad, Math.min(bad + 4, body.length)), (b) => b.toString(16).toUpperCase().padStart(2, '0')).join(
      ' ',
    );
    return {
      text: lenient.decode(body),
      error: { message: `invalid UTF-8 byte sequence (bytes ${shown}): ${format} files must be encoded in UTF-8`, span },
    };
  }
}

/** Index of the first byte that does not start or continue a valid UTF-8 sequence. */
export function firstInvalidByte(b: Uint8Array): number {
  const n = b.length;
  let i = 0;
  while (i < n) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) need = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      if (c === 0xe0) lo = 0xa0; // overlong
      if (c === 0xed) hi = 0x9f; // surrogates
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      if (c === 0xf0) lo = 0x90; // overlong
      if (c === 0xf4) hi = 0x8f; // > U+10FFFF
    } else return i;
    for (let k = 1; k <= need; k++) {
      if (i + k >= n) return i;
      const d = b[i + k]!;
      if (k === 1 ? d < lo || d > hi : d < 0x80 || d > 0xbf) return i;
    }
    i += need + 1;
  }
  return n;
}
