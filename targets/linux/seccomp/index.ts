/**
 * boxwright's seccomp artifacts: `seccomp.json` (the policy),
 * `seccomp.<arch>.bpf` (raw `struct sock_filter[]` for `bwrap --seccomp FD`)
 * and `seccomp.txt` (the disassembly of both). Byte-for-byte deterministic:
 * nothing here depends on time, host or environment.
 */
import { createHash } from 'node:crypto';
import { decode, encode } from './bpf.js';
import { compilePolicy } from './codegen.js';
import { disassemble } from './disassembler.js';
import { boxwrightPolicy, policyToJson, type ArgTest, type SeccompPolicy } from './policy.js';
import { archInfo, type Arch } from './tables.js';

export { boxwrightPolicy, policyToJson, type SeccompPolicy, type Rule, type ArgTest, type Action } from './policy.js';
export { resolvePolicy, checkPolicy, SeccompPolicyError, type ResolvedPolicy } from './resolve.js';
export { compilePolicy } from './codegen.js';
export { assemble, AssemblyError, type AsmInsn } from './assembler.js';
export { encode, decode, MAX_INSNS, type SockFilter } from './bpf.js';
export { disassemble } from './disassembler.js';
export { decodeAction, formatAction } from './actions.js';
export { ARCHES, archInfo, syscallNumber, type Arch } from './tables.js';

interface SeccompProgram {
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

interface CompileOptions {
  /** Extra header lines for seccomp.txt (each gets a `# ` prefix), e.g. the boxwright version. */
  readonly header?: readonly string[];
}

const sha256 = (data: Uint8Array | string): string => createHash('sha256').update(data).digest('hex');

/**
 * `seccomp.<arch>.bpf`: the raw program for one arch, alone (what `run`,
 * `learn` and `doctor` load: no disassembly). compileSeccomp's programs are
 * these bytes, and seccomp.txt disassembles them read back, so the two
 * cannot differ.
 */
export function seccompProgram(arch: Arch, policy: SeccompPolicy = boxwrightPolicy()): Uint8Array {
  return encode(compilePolicy(policy, arch));
}

export function compileSeccomp(policy: SeccompPolicy = boxwrightPolicy(), options: CompileOptions = {}): SeccompArtifacts {
  const policyJson = policyToJson(policy);
  const programs = policy.arches.map((arch): SeccompProgram => {
    const bytes = seccompProgram(arch, policy);
    const program = decode(bytes);
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
      (r) =>
        `#   ${r.id}: ${r.syscalls.join(', ')}${r.arches ? ` (${r.arches.join(', ')} only)` : ''}${r.when ? ' when ' + describeTest(r.when) : ''} ` +
        `-> ${describeAction(r.action)}; ${r.reason}`,
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
