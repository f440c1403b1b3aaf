import { dialectKeys } from '../../compiler/schema/dialect.js';
import { parseToml } from '../../compiler/toml/index.js';

/**
 * A table header or dotted key that only a sandbox config starts a line
 * with: how a TOML file that does not parse is told apart from someone
 * else's broken file (a config with a syntax error is still reported).
 */
const configLine = /^[ \t]*(\[\[?[ \t]*)?("?)(agent|tools|mcp_servers|experimental-features|sandbox)\2[ \t]*[.\]=]/m;

/**
 * Whether a TOML file is a sandbox config, by content: a top-level key
 * of either dialect (the keys the dialect detection reads) (`pyproject.toml`,
 * `Cargo.toml`, `agent-settings.toml` of another tool have none). What the
 * pre-commit hook (`lint --only-configs`) and `diff --git REV` without a
 * file use to pass over the other TOML of a repository.
 */
export function isSandboxConfig(bytes: Uint8Array): boolean {
  const parsed = parseToml(bytes);
  if (!parsed.document) return configLine.test(parsed.text);
  return [...parsed.document.entries.keys()].some((k) => dialectKeys.includes(k));
}
