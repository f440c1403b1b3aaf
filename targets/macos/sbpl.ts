import { controlCharacter } from '../../compiler/paths/index.js';
import { TargetError } from '../target.js';

/**
 * A string the macOS target refuses to write into a profile. It is a
 * TargetError so that `boxwright compile --force` on such a config ends with
 * the message (exit 2), never with a profile and never with a stack trace.
 * The `unrepresentable-path` rule already refuses these configs for macOS;
 * this is the emitter's own, second line of defence.
 */
export class UnrepresentableError extends TargetError {}

/** Lone UTF-16 surrogates: they have no UTF-8 spelling, so the bytes written would name another path. */
const loneSurrogate = /[\uD800-\uDFFF]/u;

/**
 * The ONE way a string becomes an SBPL string literal. SBPL strings are
 * Scheme strings: a backslash and a double quote are escaped with a
 * backslash; every other character, non-ASCII included, stands for itself.
 * A control character (U+0000–U+001F, U+007F) is refused: it could end the
 * line or the string, and no Seatbelt path holds one. So is a lone surrogate.
 */
export function sbplString(value: string): string {
  const control = controlCharacter(value);
  if (control)
    throw new UnrepresentableError(
      `refusing to write ${JSON.stringify(value)} into a Seatbelt profile: it holds the control character ${control}`,
    );
  if (loneSurrogate.test(value))
    throw new UnrepresentableError(`refusing to write ${JSON.stringify(value)} into a Seatbelt profile: it holds a lone UTF-16 surrogate`);
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** The POSIX ERE metacharacters; nothing else is escaped (a needless `\x` is undefined in ERE). */
const regexMeta = /[\\^$.|?*+()[\]{}]/g;

/**
 * An SBPL regex literal `#"^PREFIX REST"` for the baseline's fixed paths
 * only: user paths never reach a regex. PREFIX is matched literally (every
 * metacharacter escaped); REST is a fixed pattern tail from the baseline
 * data, checked against a small alphabet. A `#"…"` literal cannot hold a
 * double quote at all, so neither part may.
 */
export function sbplRegex(prefix: string, rest: string): string {
  if (controlCharacter(prefix) || prefix.includes('"'))
    throw new Error(`baseline regex prefix ${JSON.stringify(prefix)} cannot be written as an SBPL regex literal`);
  if (!/^[-[\]0-9a-zA-Z+*?$]*$/.test(rest))
    throw new Error(`baseline regex tail ${JSON.stringify(rest)} uses characters outside [-[]0-9a-zA-Z+*?$]`);
  return `#"^${prefix.replace(regexMeta, (c) => `\\${c}`)}${rest}"`;
}

/**
 * Free text in a `;;` comment (the config path, a principal's name): any
 * control character is shown as `\u{…}`, so that the comment cannot end
 * early and the rest of the text cannot become SBPL.
 */
export function commentText(text: string): string {
  return text.replace(
    /[\u0000-\u001f\u007f\u0085\u2028\u2029]/g,
    (c) => `\\u{${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}}`,
  );
}

/** An SBPL operation or symbol name from boxwright's own data (`file-read*`, `same-sandbox`, `CHARACTER-DEVICE`, `AF_INET`): checked, never user text. */
export function sbplSymbol(name: string): string {
  if (!/^[A-Za-z][A-Za-z0-9_-]*\*?$/.test(name)) throw new Error(`${JSON.stringify(name)} is not an SBPL operation or symbol name`);
  return name;
}
