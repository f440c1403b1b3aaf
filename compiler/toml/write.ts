/**
 * Writing TOML text back: what a fix inserts into a config, and what an
 * artifact quotes as the entry it came from.
 */

/**
 * A TOML basic string for `s`: JSON's escapes are TOML's, except that TOML
 * has no `\/` (JSON.stringify never writes it) and U+2028/U+2029, which
 * JSON leaves raw, read better escaped. DEL is escaped as TOML requires.
 */
export function tomlString(s: string): string {
  return JSON.stringify(s)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
    .replace(/\u007f/g, '\\u007F');
}
