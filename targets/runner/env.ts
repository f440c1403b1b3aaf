/**
 * The runner's environment policy: everything passes into the sandbox except
 * credential variables (credential-env.json), which pass only when
 * `--pass-env NAME` names them. See README.md.
 */
import policy from './credential-env.json' with { type: 'json' };

const names = new Set(policy.names.map((n) => n.toUpperCase()));
const prefixes = policy.prefixes.map((p) => p.toUpperCase());
const suffixes = policy.suffixes.map((s) => s.toUpperCase());

/** Whether a variable name is one the policy withholds. */
export function isCredentialName(name: string): boolean {
  const n = name.toUpperCase();
  return names.has(n) || prefixes.some((p) => n.startsWith(p)) || suffixes.some((s) => n.endsWith(s));
}

export interface FilteredEnv {
  readonly env: Record<string, string>;
  /** Names withheld, sorted. */
  readonly withheld: readonly string[];
}

/** The sandbox's environment: `env` without credential variables, except those `pass` names (exactly). */
export function sandboxEnv(env: Readonly<Record<string, string | undefined>>, pass: readonly string[] = []): FilteredEnv {
  const allowed = new Set(pass);
  const out: Record<string, string> = {};
  const withheld: string[] = [];
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) continue;
    if (isCredentialName(k) && !allowed.has(k)) withheld.push(k);
    else out[k] = v;
  }
  return { env: out, withheld: withheld.sort() };
}
