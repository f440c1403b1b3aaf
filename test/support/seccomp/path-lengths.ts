/**
 * How many BPF instructions the kernel runs for common calls through
 * boxwright's compiled seccomp program, per arch: for benchmarks
 * (bench/run-start.mjs) and for the test that keeps the common path short
 * (test/seccomp/policy-behaviour.test.ts). Counted by running the program
 * in the tests' interpreter.
 */
import { formatRet } from '../../../targets/linux/seccomp/actions.js';
import type { SockFilter } from '../../../targets/linux/seccomp/bpf.js';
import { compilePolicy } from '../../../targets/linux/seccomp/codegen.js';
import { boxwrightPolicy, type SeccompPolicy } from '../../../targets/linux/seccomp/policy.js';
import { archInfo, constantValue, syscallNumber, type Arch } from '../../../targets/linux/seccomp/tables.js';
import { run } from './interpreter.js';

export interface PathLength {
  readonly arch: Arch;
  /** e.g. `socket(AF_INET)` */
  readonly call: string;
  /** BPF instructions the kernel runs for this call, the `ret` included. */
  readonly steps: number;
  readonly action: string;
}

const COMMON_CALLS: readonly { call: string; syscall: string; args: readonly (string | number)[] }[] = [
  { call: 'read', syscall: 'read', args: [] },
  { call: 'write', syscall: 'write', args: [] },
  { call: 'openat', syscall: 'openat', args: [] },
  { call: 'close', syscall: 'close', args: [] },
  { call: 'futex', syscall: 'futex', args: [] },
  { call: 'socket(AF_INET)', syscall: 'socket', args: ['AF_INET'] },
  { call: 'mmap(PROT_READ|PROT_WRITE)', syscall: 'mmap', args: [0, 4096, 'PROT_READ|PROT_WRITE'] },
  { call: 'execve', syscall: 'execve', args: [] },
];

/** Instruction counts of common calls through the compiled program, per arch. */
export function seccompPathLengths(policy: SeccompPolicy = boxwrightPolicy()): PathLength[] {
  const out: PathLength[] = [];
  for (const arch of policy.arches) {
    const program: SockFilter[] = compilePolicy(policy, arch);
    for (const c of COMMON_CALLS) {
      const nr = syscallNumber(arch, c.syscall);
      if (nr === undefined) continue;
      const args = c.args.map((a) => BigInt(typeof a === 'number' ? a : a.split('|').reduce((v, n) => v | (constantValue(n) ?? 0), 0)));
      const r = run(program, { nr, arch: archInfo(arch).auditArch, args });
      out.push({ arch, call: c.call, steps: r.steps, action: formatRet(r.ret) });
    }
  }
  return out;
}
