/**
 * boxwright's seccomp artifacts: `seccomp.json` (the policy),
 * `seccomp.<arch>.bpf` (raw `struct sock_filter[]` for `bwrap --seccomp FD`)
 * and `seccomp.txt` (the disassembly of both). Byte-for-byte deterministic:
 * nothing here depends on time, host or environment.
 */
import { createHash } from 'node:crypto';
import { formatRet } from './actions.js';
import { encode, type SockFilter } from './bpf.js';
import { compilePolicy } from './codegen.js';
import { disassemble } from './disassembler.js';
import { run } from './interpreter.js';
import { boxwrightPolicy, policyToJson, type ArgTest, type SeccompPolicy } from './policy.js';
import { archInfo, constantValue, syscallNumber, type Arch } from './tables.js';

export { boxwrightPolicy, policyToJson, type SeccompPolicy, type Rule, type ArgTest, type Action } from './policy.js';
export { parsePolicy, resolvePolicy, checkPolicy, SeccompPolicyError, type ResolvedPolicy } from './resolve.js';
export { compilePolicy } from './codegen.js';
export { assemble, AssemblyError, type AsmInsn } from './assembler.js';
export { encode, decode, MAX_INSNS, type SockFilter, type SeccompData } from './bpf.js';
export { disassemble } from './disassembler.js';
export { run, type RunResult } from './interpreter.js';
export { verify, VerifyError } from './verifier.js';
export { decodeAction, formatAction, type SeccompAction } from './actions.js';
export { evaluatePolicy } from './semantics.js';
export { ARCHES, archInfo, syscallNumber, type Arch } from './tables.js';

export interface SeccompProgram {
  readonly arch: Arch;
  /** `seccomp.<arch>.bpf`: 8 bytes per instruction, little-endian, no header. */
  readonly bytes: Uint8Array;
  /** Hex SHA-256 of `bytes`. */
  readonly sha256: string;
  /** This arch's section of seccomp.txt. */
  readonly text: string;
  readonly instructions: number;
}

export interface SeccompArtifacts {
  /** `seccomp.json` */
  readonly policyJson: string;
  readonly programs: readonly SeccompProgram[];
  /** `seccomp.txt`: a header, the rules, then each arch's disassembly. */
  readonly text: string;
}

export interface CompileOptions {
  /** Extra header lines for seccomp.txt (each gets a `# ` prefix), e.g. the boxwright version. */
  readonly header?: readonly string[];
}

const sha256 = (data: Uint8Array | string): string => createHash('sha256').update(data).digest('hex');

export function compileSeccomp(policy: SeccompPolicy = boxwrightPolicy(), options: CompileOptions = {}): SeccompArtifacts {
  const policyJson = policyToJson(policy);
  const programs = policy.arches.map((arch): SeccompProgram => {
    const program = compilePolicy(policy, arch);
    const bytes = encode(program);
    const digest = sha256(bytes);
    const info = archInfo(arch);
    const text = [
      `## seccomp.${arch}.bpf: ${arch} (${info.auditArchName}), ${program.length} instructions, ${bytes.length} bytes`,
      `## sha256 ${digest}`,
      ...disassemble(program, arch),
    ].join('\n');
    return { arch, bytes, sha256: digest, text: text + '\n', instructions: program.length };
  });
  const header = [
    '# seccomp.txt: boxwright seccomp filters, disassembled (generated; do not edit)',
    ...(options.header ?? []).map((l) => '# ' + l),
    `# policy seccomp.json sha256 ${sha256(policyJson)}`,
    `# default ${describeAction(policy.defaultAction)}; other ABIs ${describeAction(policy.foreignAbi.action)}: ${policy.foreignAbi.reason}`,
    '# rules, first match per syscall wins; argument tests read the low 32 bits only:',
    ...policy.rules.map(
      (r) => `#   ${r.id}: ${r.syscalls.join(', ')}${r.arches ? ` (${r.arches.join(', ')} only)` : ''}${r.when ? ' when ' + describeTest(r.when) : ''} -> ${describeAction(r.action)}; ${r.reason}`,
    ),
  ];
  const text = [header.join('\n'), ...programs.map((p) => p.text)].join('\n\n').replace(/\n*$/, '\n');
  return { policyJson, programs, text };
}

function describeAction(a: SeccompPolicy['defaultAction']): string {
  return a === 'allow' ? 'ALLOW' : `ERRNO(${a.errno})`;
}

function describeTest(t: ArgTest): string {
  const arg = `args[${t.arg}]`;
  const show = (v: number | string): string => (typeof v === 'number' ? '0x' + v.toString(16) : v);
  switch (t.op) {
    case 'eq':
      return `${arg} == ${show(t.value)}`;
    case 'ne':
      return `${arg} != ${show(t.value)}`;
    case 'masked-any':
      return `${arg} & (${show(t.mask)})`;
    case 'masked-eq':
      return `(${arg} & (${show(t.mask)})) == ${show(t.value)}`;
    case 'not-in':
      return `${arg} not in {${t.values.map(show).join(', ')}}`;
  }
}

// ---------------------------------------------------------------------------
// Path lengths, for benchmarks and for keeping the common path short

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

