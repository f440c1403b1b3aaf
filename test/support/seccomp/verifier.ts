/**
 * The checks the kernel makes before it accepts a seccomp filter
 * (net/core/filter.c bpf_check_classic and check_load_and_stores, then
 * kernel/seccomp.c seccomp_check_filter). A program that fails here would
 * make bwrap fail with EINVAL, so tests verify every generated program.
 */
import {
  BPF_A,
  BPF_ABS,
  BPF_ADD,
  BPF_ALU,
  BPF_AND,
  BPF_DIV,
  BPF_IMM,
  BPF_JA,
  BPF_JEQ,
  BPF_JGE,
  BPF_JGT,
  BPF_JMP,
  BPF_JSET,
  BPF_K,
  BPF_LD,
  BPF_LDX,
  BPF_LEN,
  BPF_LSH,
  BPF_MEM,
  BPF_MISC,
  BPF_MUL,
  BPF_NEG,
  BPF_OR,
  BPF_RET,
  BPF_RSH,
  BPF_ST,
  BPF_STX,
  BPF_SUB,
  BPF_TAX,
  BPF_TXA,
  BPF_W,
  BPF_X,
  BPF_XOR,
  MAX_INSNS,
  MEMWORDS,
  SECCOMP_DATA_SIZE,
  bpfClass,
  type SockFilter,
} from '../../../targets/linux/seccomp/bpf.js';

export class VerifyError extends Error {
  constructor(
    message: string,
    readonly pc: number | undefined,
  ) {
    super(pc === undefined ? message : `instruction ${pc}: ${message}`);
    this.name = 'VerifyError';
  }
}

/** Every opcode seccomp_check_filter lets through (it has no BPF_MOD, no packet loads). */
const ALLOWED = new Set<number>([
  BPF_LD | BPF_W | BPF_ABS,
  BPF_LD | BPF_W | BPF_LEN,
  BPF_LDX | BPF_W | BPF_LEN,
  BPF_RET | BPF_K,
  BPF_RET | BPF_A,
  ...[BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_AND, BPF_OR, BPF_XOR, BPF_LSH, BPF_RSH].flatMap((op) => [
    BPF_ALU | op | BPF_K,
    BPF_ALU | op | BPF_X,
  ]),
  BPF_ALU | BPF_NEG,
  BPF_LD | BPF_IMM,
  BPF_LDX | BPF_IMM,
  BPF_MISC | BPF_TAX,
  BPF_MISC | BPF_TXA,
  BPF_LD | BPF_MEM,
  BPF_LDX | BPF_MEM,
  BPF_ST,
  BPF_STX,
  BPF_JMP | BPF_JA,
  ...[BPF_JEQ, BPF_JGE, BPF_JGT, BPF_JSET].flatMap((op) => [BPF_JMP | op | BPF_K, BPF_JMP | op | BPF_X]),
]);

export function verify(program: readonly SockFilter[]): void {
  const n = program.length;
  if (n === 0 || n > MAX_INSNS) throw new VerifyError(`length ${n} is not in 1..${MAX_INSNS}`, undefined);
  program.forEach((insn, pc) => {
    const { code, k } = insn;
    if (!ALLOWED.has(code)) throw new VerifyError(`opcode 0x${code.toString(16)} is not allowed in seccomp`, pc);
    if (code === (BPF_LD | BPF_W | BPF_ABS) && (k >= SECCOMP_DATA_SIZE || k % 4 !== 0))
      throw new VerifyError(`load at ${k} is outside seccomp_data or unaligned`, pc);
    if (code === (BPF_ALU | BPF_DIV | BPF_K) && k === 0) throw new VerifyError('division by constant 0', pc);
    if ((code === (BPF_ALU | BPF_LSH | BPF_K) || code === (BPF_ALU | BPF_RSH | BPF_K)) && k >= 32)
      throw new VerifyError(`shift by ${k}`, pc);
    const cls = bpfClass(code);
    if ((code === (BPF_LD | BPF_MEM) || code === (BPF_LDX | BPF_MEM) || cls === BPF_ST || cls === BPF_STX) && k >= MEMWORDS)
      throw new VerifyError(`scratch word M[${k}] does not exist`, pc);
    if (code === (BPF_JMP | BPF_JA)) {
      if (k >= n - pc - 1) throw new VerifyError(`ja +${k} jumps out of the program`, pc);
    } else if (cls === BPF_JMP && (pc + insn.jt + 1 >= n || pc + insn.jf + 1 >= n)) {
      throw new VerifyError(`jump +${insn.jt}/+${insn.jf} leaves the program`, pc);
    }
  });
  const last = program[n - 1]!.code;
  if (last !== (BPF_RET | BPF_K) && last !== (BPF_RET | BPF_A)) throw new VerifyError('the last instruction is not ret', n - 1);
  checkLoadsAndStores(program);
}

/** Scratch memory must be written on every path before it is read (check_load_and_stores). */
function checkLoadsAndStores(program: readonly SockFilter[]): void {
  const masks = new Array<number>(program.length).fill(0xffff);
  let valid = 0;
  program.forEach((insn, pc) => {
    valid &= masks[pc]!;
    const cls = bpfClass(insn.code);
    if (cls === BPF_ST || cls === BPF_STX) valid |= 1 << insn.k;
    else if (insn.code === (BPF_LD | BPF_MEM) || insn.code === (BPF_LDX | BPF_MEM)) {
      if ((valid & (1 << insn.k)) === 0) throw new VerifyError(`M[${insn.k}] may be read before it is written`, pc);
    } else if (insn.code === (BPF_JMP | BPF_JA)) {
      masks[pc + 1 + insn.k]! &= valid;
      valid = 0xffff;
    } else if (cls === BPF_JMP) {
      masks[pc + 1 + insn.jt]! &= valid;
      masks[pc + 1 + insn.jf]! &= valid;
      valid = 0xffff;
    }
  });
}
