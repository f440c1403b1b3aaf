// Types of the TOML grammar's lookahead table, which scripts/gen-lookahead.mjs
// computes from the grammar (parser.ts) with chevrotain's own LLk analysis
// and writes to dist/compiler/toml/lookahead-paths.js at build: for each
// rule, each OR / MANY / OPTION in it (`Kind:occurrence`), and for each
// alternative (an optional production has one: entering it), the token
// sequences that choose it, by token type name, MAX_LOOKAHEAD (lookahead.ts)
// tokens at most.
export const LOOKAHEAD_PATHS: Readonly<Record<string, Readonly<Record<string, readonly (readonly (readonly string[])[])[]>>>>;
