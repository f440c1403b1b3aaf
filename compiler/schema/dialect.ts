import type { Diagnostic } from '../diagnostic.js';
import { PLATFORMS } from '../diagnostic.js';
import type { TomlTable } from '../toml/ast.js';
import type { Dialect } from './validate.js';

const boxKeys = ['agent', 'tools', 'mcp_servers', 'experimental-features'];
const tybaKeys = ['sandbox'];
/** Every top-level key that makes a file a sandbox config of one dialect or the other. */
export const dialectKeys: readonly string[] = [...boxKeys, ...tybaKeys];

export type DialectResult = { readonly dialect: Dialect } | { readonly diagnostic: Diagnostic };

/**
 * Box or TYBA, from the top-level keys: a config that is both, or neither,
 * is an error that says so (`--dialect` overrides).
 */
export function detectDialect(doc: TomlTable, file: string, override?: Dialect): DialectResult {
  if (override) return { dialect: override };
  const box = [...doc.entries.values()].filter((e) => boxKeys.includes(e.key));
  const tyba = [...doc.entries.values()].filter((e) => tybaKeys.includes(e.key));
  const base = { ruleId: 'schema', severity: 'error' as const, platforms: PLATFORMS, file };
  if (box.length && tyba.length) {
    return {
      diagnostic: {
        ...base,
        message: `both dialects in one file: \`${tyba[0]!.key}\` is a TYBA user config, \`${box[0]!.key}\` is a Box config; split the file, or pass --dialect box|tyba`,
        span: tyba[0]!.keySpan,
        related: [{ message: `Box key \`${box[0]!.key}\``, span: box[0]!.keySpan }],
      },
    };
  }
  if (box.length) return { dialect: 'box' };
  if (tyba.length) return { dialect: 'tyba' };
  const start = { offset: 0, line: 1, column: 1 };
  return {
    diagnostic: {
      ...base,
      message: 'not a sandbox configuration: a Box config has `agent`, `tools`, `mcp_servers` or `experimental-features`, a TYBA user config has `[sandbox]`; pass --dialect box|tyba to check it anyway',
      span: { start, end: start },
    },
  };
}
