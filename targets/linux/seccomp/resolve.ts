/**
 * Policy → numbers for one arch. Names become syscall numbers, constants and
 * errnos become u32 values, actions become filter return values. Every
 * mistake is reported here, all at once, so code generation can assume a
 * well-formed policy.
 */
import { retErrno, SECCOMP_RET_ALLOW } from './bpf.js';
import type { Action, ArgTest, Operand, SeccompPolicy } from './policy.js';
import { archInfo, constantValue, errnoNumber, syscallNumber, type Arch, type ArchInfo } from './tables.js';

/** An argument test with numbers: always on the low 32 bits of `args[arg]`. */
export type Cond =
  | { readonly arg: number; readonly op: 'eq' | 'ne'; readonly value: number }
  | { readonly arg: number; readonly op: 'masked-any'; readonly mask: number }
  | { readonly arg: number; readonly op: 'masked-eq'; readonly mask: number; readonly value: number }
  | { readonly arg: number; readonly op: 'not-in'; readonly values: readonly number[] };

export interface ResolvedRule {
  readonly id: string;
  readonly when: Cond | undefined;
  /** The filter's return value (SECCOMP_RET_*). */
  readonly ret: number;
}

export interface ResolvedPolicy {
  readonly arch: Arch;
  readonly info: ArchInfo;
  readonly defaultRet: number;
  readonly foreignRet: number;
  /** Syscall number → the rules naming it, in policy order; keys ascending. */
  readonly bySyscall: ReadonlyMap<number, readonly ResolvedRule[]>;
}

export class SeccompPolicyError extends Error {
  constructor(readonly problems: readonly string[]) {
    super('invalid seccomp policy:\n  ' + problems.join('\n  '));
    this.name = 'SeccompPolicyError';
  }
}

/** Syscalls bwrap needs after installing the filter: it must not refuse them. */
const MUST_ALLOW = ['execve'];

export function resolvePolicy(policy: SeccompPolicy, arch: Arch): ResolvedPolicy {
  const problems: string[] = [];
  if (policy.version !== 1) problems.push(`version ${String(policy.version)} is not 1`);
  if (!policy.arches.includes(arch)) problems.push(`arch ${arch} is not among the policy's arches`);
  const action = (a: Action, where: string): number => {
    if (a === 'allow') return SECCOMP_RET_ALLOW;
    const n = errnoNumber(a.errno);
    if (n === undefined) {
      problems.push(`${where}: unknown errno ${a.errno}`);
      return SECCOMP_RET_ALLOW;
    }
    return retErrno(n);
  };
  const defaultRet = action(policy.defaultAction, 'defaultAction');
  const foreignRet = action(policy.foreignAbi.action, 'foreignAbi');

  const ids = new Set<string>();
  const bySyscall = new Map<number, ResolvedRule[]>();
  const decidedBy = new Map<number, string>(); // nr → id of an unconditional rule
  for (const rule of policy.rules) {
    const where = `rule ${rule.id}`;
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(rule.id)) problems.push(`${where}: id must be kebab-case`);
    if (ids.has(rule.id)) problems.push(`${where}: duplicate id`);
    ids.add(rule.id);
    if (rule.reason.trim() === '' || /[\r\n]/.test(rule.reason)) problems.push(`${where}: reason must be one non-empty line`);
    if (rule.syscalls.length === 0) problems.push(`${where}: names no syscall`);
    if (rule.arches) {
      for (const a of rule.arches) if (!policy.arches.includes(a)) problems.push(`${where}: arch ${a} is not among the policy's arches`);
      if (rule.arches.length === 0) problems.push(`${where}: applies on no arch`);
      // Checked everywhere (ids, reason, test, action), generated only where it applies.
      if (!rule.arches.includes(arch)) {
        if (rule.when) resolveTest(rule.when, where, problems);
        action(rule.action, where);
        continue;
      }
    }
    const when = rule.when ? resolveTest(rule.when, where, problems) : undefined;
    const ret = action(rule.action, where);
    const seen = new Set<string>();
    for (const name of rule.syscalls) {
      if (seen.has(name)) problems.push(`${where}: names ${name} twice`);
      seen.add(name);
      if (MUST_ALLOW.includes(name) && rule.action !== 'allow') problems.push(`${where}: must not refuse ${name}`);
      const nr = syscallNumber(arch, name);
      if (nr === undefined) {
        problems.push(`${where}: ${arch} has no syscall ${name}`);
        continue;
      }
      const earlier = decidedBy.get(nr);
      if (earlier !== undefined) problems.push(`${where}: unreachable for ${name}, rule ${earlier} always decides it first`);
      if (when === undefined) decidedBy.set(nr, rule.id);
      const list = bySyscall.get(nr) ?? [];
      list.push({ id: rule.id, when, ret });
      bySyscall.set(nr, list);
    }
  }
  if (defaultRet !== SECCOMP_RET_ALLOW) {
    for (const name of MUST_ALLOW) {
      const nr = syscallNumber(arch, name);
      const rules = nr === undefined ? undefined : bySyscall.get(nr);
      if (!rules?.some((r) => r.when === undefined && r.ret === SECCOMP_RET_ALLOW))
        problems.push(`defaultAction refuses, so ${name} needs an unconditional allow rule`);
    }
  }
  if (problems.length > 0) throw new SeccompPolicyError(problems);
  const sorted = new Map([...bySyscall].sort((a, b) => a[0] - b[0]));
  return { arch, info: archInfo(arch), defaultRet, foreignRet, bySyscall: sorted };
}

/** Checks the policy for every arch it lists. */
export function checkPolicy(policy: SeccompPolicy): void {
  for (const arch of policy.arches) resolvePolicy(policy, arch);
}

function resolveTest(t: ArgTest, where: string, problems: string[]): Cond | undefined {
  const before = problems.length;
  if (!Number.isInteger(t.arg) || t.arg < 0 || t.arg > 5) problems.push(`${where}: arg ${t.arg} is not 0..5`);
  if (t.width !== 32) problems.push(`${where}: width ${String(t.width)} is not 32 (only int arguments are tested)`);
  const num = (o: Operand): number => resolveOperand(o, where, problems);
  let cond: Cond;
  switch (t.op) {
    case 'eq':
    case 'ne':
      cond = { arg: t.arg, op: t.op, value: num(t.value) };
      break;
    case 'masked-any':
      cond = { arg: t.arg, op: t.op, mask: num(t.mask) };
      if (cond.mask === 0) problems.push(`${where}: mask 0 never matches`);
      break;
    case 'masked-eq':
      cond = { arg: t.arg, op: t.op, mask: num(t.mask), value: num(t.value) };
      if ((cond.value & ~cond.mask) !== 0) problems.push(`${where}: value has bits outside the mask, never matches`);
      break;
    case 'not-in': {
      const values = t.values.map(num);
      cond = { arg: t.arg, op: t.op, values };
      if (values.length === 0) problems.push(`${where}: not-in needs values`);
      if (new Set(values).size !== values.length) problems.push(`${where}: not-in repeats a value`);
      break;
    }
    default:
      problems.push(`${where}: unknown op ${String((t as { op: unknown }).op)}`);
      return undefined;
  }
  return problems.length === before ? cond : undefined;
}

/** A number, or constant names joined by `|`, as a u32. */
function resolveOperand(o: Operand, where: string, problems: string[]): number {
  if (typeof o === 'number') {
    if (Number.isInteger(o) && o >= 0 && o <= 0xffffffff) return o;
    problems.push(`${where}: ${o} is not a 32-bit unsigned value`);
    return 0;
  }
  let v = 0;
  for (const part of o.split('|').map((p) => p.trim())) {
    const c = constantValue(part);
    if (c === undefined) problems.push(`${where}: unknown constant ${JSON.stringify(part)}`);
    else v = (v | c) >>> 0;
  }
  return v;
}
