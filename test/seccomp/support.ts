/** Shared helpers for the seccomp tests. */
import {
  archInfo,
  boxwrightPolicy,
  compilePolicy,
  formatAction,
  syscallNumber,
  type Arch,
  type SockFilter,
} from '../../targets/linux/seccomp/index.js';
import { run, type RunResult } from '../support/seccomp/interpreter.js';
import { constantValue } from '../../targets/linux/seccomp/tables.js';

const programs = new Map<Arch, SockFilter[]>();

/** boxwright's compiled program for `arch` (compiled once per test file). */
export function program(arch: Arch): SockFilter[] {
  let p = programs.get(arch);
  if (!p) {
    p = compilePolicy(boxwrightPolicy(), arch);
    programs.set(arch, p);
  }
  return p;
}

/** A constant by name, or names joined by `|`, as a bigint argument. */
export function c(names: string): bigint {
  let v = 0n;
  for (const n of names.split('|')) {
    const x = constantValue(n);
    if (x === undefined) throw new Error(`no constant ${n}`);
    v |= BigInt(x);
  }
  return v;
}

export function nr(arch: Arch, name: string): number {
  const n = syscallNumber(arch, name);
  if (n === undefined) throw new Error(`${arch} has no ${name}`);
  return n;
}

/** Runs boxwright's program for a native call of `syscall`. */
export function call(arch: Arch, syscall: string, args: readonly bigint[] = []): RunResult {
  return run(program(arch), { nr: nr(arch, syscall), arch: archInfo(arch).auditArch, args });
}

/** `ALLOW`, `ERRNO(EPERM)`, … */
export function verdict(r: RunResult): string {
  return formatAction(r.action);
}
