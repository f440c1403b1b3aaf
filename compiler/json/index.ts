/**
 * JSON (RFC 8259) with exact spans: the front end of the sandbox-runtime
 * and Claude Code settings dialects.
 *
 *   parseJson(bytes | string) -> { document?, errors, duplicates, text }
 */
export type * from './ast.js';
export { parseJson, toPlain } from './parser.js';
