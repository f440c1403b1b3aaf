/**
 * The runner's environment policy: an allowlist (env-allowlist.json). A
 * command in the sandbox gets the few variables every program needs, plus
 * those `--pass-env NAME` names; everything else is withheld, because a
 * credential can hide in any name (PGPASSWORD, npm_config__authToken,
 * REDIS_URL=redis://:pw@host). See README.md.
 */
import policy from './env-allowlist.json' with { type: 'json' };

const names: ReadonlySet<string> = new Set(Object.keys(policy.names));
const prefixes: readonly string[] = Object.keys(policy.prefixes);

/** The allowlist as a launch file holds it (`env NAME`, `env-prefix PREFIX`: targets/linux/launcher). */
export function envAllowlist(): { readonly env: readonly string[]; readonly envPrefixes: readonly string[] } {
  return { env: [...names], envPrefixes: [...prefixes] };
}

/** Whether the allowlist passes a variable (exact, case-sensitive, as the environment is). */
export function isAllowedName(name: string): boolean {
  return names.has(name) || prefixes.some((p) => name.startsWith(p));
}

export interface FilteredEnv {
  readonly env: Record<string, string>;
  /** Names withheld, sorted: what `run -v` prints. */
  readonly withheld: readonly string[];
}

/** The sandbox's environment: the allowlisted part of `env`, plus exactly the names `pass` lists. */
export function sandboxEnv(env: Readonly<Record<string, string | undefined>>, pass: readonly string[] = []): FilteredEnv {
  // `NAME=VALUE` sets NAME for the command alone (docker's -e NAME=VALUE): boxwright's own process never has it.
  const set = new Map(pass.filter((p) => p.includes('=')).map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)] as const));
  const passed = new Set(pass.filter((p) => !p.includes('=')));
  const out: Record<string, string> = {};
  const withheld: string[] = [];
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined || set.has(k)) continue;
    if (isAllowedName(k) || passed.has(k)) out[k] = v;
    else withheld.push(k);
  }
  for (const [k, v] of set) out[k] = v;
  return { env: out, withheld: withheld.sort() };
}
