/**
 * "Compilable" decided once: boxwright compiles Box and TYBA configs; the
 * peers' configs (sandbox-runtime and Claude Code settings, Codex's
 * config.toml) are enforced by the peer itself, and boxwright lints,
 * explains and diffs them. compile, run, diff and learn ask this, and read
 * the narrowed type, instead of each testing the IR's dialect or runtime.
 */
import type { TomlDialect } from '../schema/validate.js';
import type { PolicyIR } from './types.js';

/** The dialects boxwright compiles. */
export type CompilableDialect = TomlDialect;

/** An IR boxwright compiles: a Box or TYBA config, with no peer's runtime settings. */
export type CompilableIR = PolicyIR & { readonly dialect: CompilableDialect; readonly runtime?: undefined };

/** Who enforces a config boxwright does not compile: Codex, Claude Code (its sandbox-runtime) or sandbox-runtime. */
export type PeerEnforcer = 'codex' | 'claude' | 'srt';

/** What a peer's config is, as a message names it. */
export const peerConfigWords: Readonly<Record<PeerEnforcer, string>> = {
  codex: 'a Codex config (config.toml)',
  claude: 'Claude Code settings',
  srt: 'sandbox-runtime settings',
};

/** The IR, narrowed to one boxwright compiles, or the peer that enforces it. */
export function compilable(ir: PolicyIR): { readonly ir: CompilableIR } | { readonly enforcer: PeerEnforcer } {
  if (ir.runtime?.codex) return { enforcer: 'codex' };
  if (ir.runtime) return { enforcer: ir.dialect === 'claude' ? 'claude' : 'srt' };
  return { ir: ir as CompilableIR };
}

export function isCompilable(ir: PolicyIR): ir is CompilableIR {
  return 'ir' in compilable(ir);
}
