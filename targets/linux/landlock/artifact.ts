/**
 * `<id>.landlock.json`: a principal's Landlock ruleset for review — each
 * rule with the config line (or boxwright's own reason) it comes from, the
 * scopes, the ABI it needs, and what the lowering left out — beside
 * `<id>.landlock`, the same rules as the in-sandbox step reads them.
 */
import type { PrincipalAccess } from '../../../model/index.js';
import { artifactHeaderFields, artifactStem, jsonLines, type CompileInput } from '../../target.js';
import type { LandlockPlan } from './lower.js';
import { LANDLOCK_SCOPES } from './rules.js';

export function landlockJson(
  input: CompileInput,
  header: readonly string[],
  pa: PrincipalAccess,
  plan: LandlockPlan,
  rulesSha256: string,
): string {
  const stem = artifactStem(pa.principal.id);
  const { ruleset } = plan;
  const scopes = ruleset.scopes.map((name) => {
    const s = LANDLOCK_SCOPES.find((x) => x.name === name)!;
    return { scope: name, abi: s.abi, reason: s.reason };
  });
  const fields: [string, string][] = [
    ...artifactHeaderFields(input, header, pa.principal.id),
    [
      'applied',
      JSON.stringify(
        `inside the sandbox, after the mounts and the seccomp filter, before the command: /.boxwright/exec ` +
          `--rules-fd N -- CMD [ARGS...] N<${stem}.landlock. Every right the kernel's Landlock ABI knows is ` +
          `handled, so what no rule grants is denied; rights newer than the kernel are dropped (best effort)`,
      ),
    ],
    ['requireAbi', JSON.stringify(ruleset.requireAbi)],
    ['rules', JSON.stringify({ file: `${stem}.landlock`, sha256: rulesSha256 })],
    [
      'fs',
      jsonLines(
        ruleset.fs.map((r) => ({ path: r.path, rights: r.rights, origin: r.origin })),
        2,
      ),
    ],
    ['scopes', jsonLines(scopes, 2)],
    ['notes', jsonLines(plan.notes, 2)],
  ];
  return `{\n${fields.map(([k, v]) => `  ${JSON.stringify(k)}: ${v}`).join(',\n')}\n}\n`;
}
