/**
 * Policy → numbers for one arch. Names become syscall numbers, constants and
 * errnos become u32 values, actions become filter return values. Every
 * mistake is reported here, all at once, so code generation can assume a
 * well-formed policy. parsePolicy checks the shape of untrusted JSON first.
 */
import { retErrno, SECCOMP_RET_ALLOW } from './bpf.js';
import type { Action, ArgIndex, ArgOp, ArgTest, Operand, Rule, SeccompPolicy } from './policy.js';
import { archInfo, constantValue, errnoNumber, isArch, syscallNumber, type Arch, type ArchInfo } from './tables.js';

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
export function resolveOperand(o: Operand, where: string, problems: string[]): number {
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

// ---------------------------------------------------------------------------
// Untrusted JSON → SeccompPolicy (shape only; resolvePolicy checks meaning)

export function parsePolicy(json: unknown): SeccompPolicy {
  const problems: string[] = [];
  const obj = (v: unknown, where: string): Record<string, unknown> => {
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
    problems.push(`${where}: expected an object`);
    return {};
  };
  const str = (v: unknown, where: string): string => {
    if (typeof v === 'string') return v;
    problems.push(`${where}: expected a string`);
    return '';
  };
  const arr = (v: unknown, where: string): unknown[] => {
    if (Array.isArray(v)) return v;
    problems.push(`${where}: expected an array`);
    return [];
  };
  const operand = (v: unknown, where: string): Operand => {
    if (typeof v === 'number' || typeof v === 'string') return v;
    problems.push(`${where}: expected a number or constant names`);
    return 0;
  };
  const action = (v: unknown, where: string): Action => {
    if (v === 'allow') return 'allow';
    return { errno: str(obj(v, where).errno, `${where}.errno`) };
  };
  const test = (v: unknown, where: string): ArgTest => {
    const o = obj(v, where);
    const arg = o.arg as ArgIndex;
    const width = o.width as 32;
    const op = o.op as ArgOp;
    switch (op) {
      case 'eq':
      case 'ne':
        return { arg, width, op, value: operand(o.value, `${where}.value`) };
      case 'masked-any':
        return { arg, width, op, mask: operand(o.mask, `${where}.mask`) };
      case 'masked-eq':
        return { arg, width, op, mask: operand(o.mask, `${where}.mask`), value: operand(o.value, `${where}.value`) };
      case 'not-in':
        return { arg, width, op, values: arr(o.values, `${where}.values`).map((x, i) => operand(x, `${where}.values[${i}]`)) };
      default:
        problems.push(`${where}.op: expected eq, ne, masked-any, masked-eq or not-in`);
        return { arg, width, op: 'eq', value: 0 };
    }
  };
  const top = obj(json, 'policy');
  const arches = arr(top.arches, 'arches').map((a, i) => {
    const s = str(a, `arches[${i}]`);
    if (!isArch(s)) problems.push(`arches[${i}]: unknown arch ${JSON.stringify(s)}`);
    return s as Arch;
  });
  const foreign = obj(top.foreignAbi, 'foreignAbi');
  const rules = arr(top.rules, 'rules').map((r, i): Rule => {
    const o = obj(r, `rules[${i}]`);
    const rule: Rule = {
      id: str(o.id, `rules[${i}].id`),
      reason: str(o.reason, `rules[${i}].reason`),
      syscalls: arr(o.syscalls, `rules[${i}].syscalls`).map((s, j) => str(s, `rules[${i}].syscalls[${j}]`)),
      ...(o.arches === undefined
        ? {}
        : {
            arches: arr(o.arches, `rules[${i}].arches`).map((a, j) => {
              const s = str(a, `rules[${i}].arches[${j}]`);
              if (!isArch(s)) problems.push(`rules[${i}].arches[${j}]: unknown arch ${JSON.stringify(s)}`);
              return s as Arch;
            }),
          }),
      action: action(o.action, `rules[${i}].action`),
    };
    return o.when === undefined ? rule : { ...rule, when: test(o.when, `rules[${i}].when`) };
  });
  if (top.version !== 1) problems.push('version: expected 1');
  const policy: SeccompPolicy = {
    version: 1,
    defaultAction: action(top.defaultAction, 'defaultAction'),
    arches,
    foreignAbi: { action: action(foreign.action, 'foreignAbi.action'), reason: str(foreign.reason, 'foreignAbi.reason') },
    rules,
  };
  if (problems.length > 0) throw new SeccompPolicyError(problems);
  return policy;
}
