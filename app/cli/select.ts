import { isSandboxConfigFile } from '../../compiler/schema/dialect.js';

/**
 * Whether a file is a sandbox config, by content (and, for Claude Code's
 * settings, by its path): a top-level key of a dialect, the keys the
 * dialect detection reads (compiler/schema/dialect.ts). `pyproject.toml`,
 * `Cargo.toml`, `package.json` have none. What the pre-commit hook
 * (`lint --only-configs`) and `diff --git REV` without a file use to pass
 * over the other TOML and JSON of a repository.
 */
export function isSandboxConfig(bytes: Uint8Array, file = ''): boolean {
  return isSandboxConfigFile(bytes, file);
}
