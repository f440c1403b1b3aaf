/**
 * Untrusted JSON → SeccompPolicy, shape only (resolvePolicy checks the
 * meaning): the tests read seccomp.json back with it and hand-written
 * policies through it. boxwright itself never reads a policy from JSON (its
 * policy is code, targets/linux/seccomp/policy.ts), so this lives with the tests.
 */
import type { Action, ArgIndex, ArgOp, ArgTest, Operand, Rule, SeccompPolicy } from '../../../targets/linux/seccomp/policy.js';
import { SeccompPolicyError } from '../../../targets/linux/seccomp/resolve.js';
import { isArch, type Arch } from '../../../targets/linux/seccomp/tables.js';

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
