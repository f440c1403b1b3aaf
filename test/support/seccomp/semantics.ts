/**
 * What a resolved policy means, evaluated directly, without BPF. This is the
 * specification the generated program is checked against (tests compare it
 * with the interpreter's result on the compiled program), so it is written
 * for obviousness, not speed.
 */
import type { SeccompData } from './interpreter.js';
import type { Cond, ResolvedPolicy } from '../../../targets/linux/seccomp/resolve.js';

/** The filter return value the policy prescribes for `data`. */
export function evaluatePolicy(policy: ResolvedPolicy, data: SeccompData): number {
  const nr = data.nr >>> 0;
  if (data.arch >>> 0 !== policy.info.auditArch) return policy.foreignRet;
  if (policy.info.x32Bit !== undefined && nr >= policy.info.x32Bit) return policy.foreignRet;
  for (const rule of policy.bySyscall.get(nr) ?? []) {
    if (rule.when === undefined || holds(rule.when, low32(data.args?.[rule.when.arg] ?? 0n))) return rule.ret;
  }
  return policy.defaultRet;
}

/** What the kernel passes on for an `int` argument: the low 32 bits. */
export function low32(v: bigint): number {
  return Number(BigInt.asUintN(32, v));
}

export function holds(c: Cond, v: number): boolean {
  switch (c.op) {
    case 'eq':
      return v === c.value;
    case 'ne':
      return v !== c.value;
    case 'masked-any':
      return (v & c.mask) !== 0;
    case 'masked-eq':
      return (v & c.mask) >>> 0 === c.value;
    case 'not-in':
      return !c.values.includes(v);
  }
}
