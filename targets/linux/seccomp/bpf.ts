/**
 * Classic BPF as seccomp uses it: the instruction format, opcode fields, the
 * layout of `struct seccomp_data`, the filter return values, and the byte
 * encoding that `bwrap --seccomp FD` (and the kernel's `struct sock_fprog`)
 * takes. Values follow <linux/filter.h>, <linux/bpf_common.h> and
 * <linux/seccomp.h>.
 */

/** `struct sock_filter`: u16 code, u8 jt, u8 jf, u32 k. */
export interface SockFilter {
  readonly code: number;
  readonly jt: number;
  readonly jf: number;
  readonly k: number;
}

/** The kernel's BPF_MAXINSNS: longer programs are refused with EINVAL. */
export const MAX_INSNS = 4096;
/** Scratch memory words, M[0..15]. */
export const MEMWORDS = 16;

// Instruction classes (code & 0x07).
export const BPF_LD = 0x00;
export const BPF_LDX = 0x01;
export const BPF_ST = 0x02;
export const BPF_STX = 0x03;
export const BPF_ALU = 0x04;
export const BPF_JMP = 0x05;
export const BPF_RET = 0x06;
export const BPF_MISC = 0x07;

// Load size (code & 0x18) and mode (code & 0xe0).
export const BPF_W = 0x00;
export const BPF_H = 0x08;
export const BPF_B = 0x10;
export const BPF_IMM = 0x00;
export const BPF_ABS = 0x20;
export const BPF_IND = 0x40;
export const BPF_MEM = 0x60;
export const BPF_LEN = 0x80;
export const BPF_MSH = 0xa0;

// ALU and jump operations (code & 0xf0).
export const BPF_ADD = 0x00;
export const BPF_SUB = 0x10;
export const BPF_MUL = 0x20;
export const BPF_DIV = 0x30;
export const BPF_OR = 0x40;
export const BPF_AND = 0x50;
export const BPF_LSH = 0x60;
export const BPF_RSH = 0x70;
export const BPF_NEG = 0x80;
// 0x90 is BPF_MOD, which seccomp refuses (seccomp_check_filter)
export const BPF_XOR = 0xa0;
export const BPF_JA = 0x00;
export const BPF_JEQ = 0x10;
export const BPF_JGT = 0x20;
export const BPF_JGE = 0x30;
export const BPF_JSET = 0x40;

// Operand source (code & 0x08) and RET value source (code & 0x18).
export const BPF_K = 0x00;
export const BPF_X = 0x08;
export const BPF_A = 0x10;

// MISC operations (code & 0xf8).
export const BPF_TAX = 0x00;
export const BPF_TXA = 0x80;

export const bpfClass = (code: number): number => code & 0x07;
export const bpfSize = (code: number): number => code & 0x18;
export const bpfMode = (code: number): number => code & 0xe0;
export const bpfOp = (code: number): number => code & 0xf0;
export const bpfSrc = (code: number): number => code & 0x08;
export const bpfRval = (code: number): number => code & 0x18;
export const bpfMiscOp = (code: number): number => code & 0xf8;

// The opcodes boxwright's code generator emits (REFERENCE.md lists them).
export const OP_LD_ABS = BPF_LD | BPF_W | BPF_ABS; // 0x20
export const OP_JEQ_K = BPF_JMP | BPF_JEQ | BPF_K; // 0x15
export const OP_JGT_K = BPF_JMP | BPF_JGT | BPF_K; // 0x25
export const OP_JGE_K = BPF_JMP | BPF_JGE | BPF_K; // 0x35
export const OP_JSET_K = BPF_JMP | BPF_JSET | BPF_K; // 0x45
export const OP_AND_K = BPF_ALU | BPF_AND | BPF_K; // 0x54
export const OP_JA = BPF_JMP | BPF_JA; // 0x05
export const OP_RET_K = BPF_RET | BPF_K; // 0x06

// ---------------------------------------------------------------------------
// struct seccomp_data { int nr; u32 arch; u64 instruction_pointer; u64 args[6]; }

export const SECCOMP_DATA_SIZE = 64;
export const OFF_NR = 0;
export const OFF_ARCH = 4;
export const OFF_IP = 8;
/**
 * Offset of the low 32 bits of args[i]. The filter loads 32-bit words in host
 * byte order, and both supported arches are little-endian, so the low word of
 * a u64 comes first. An `int` argument is truncated by the kernel to exactly
 * this word, so this is the only word a rule on an `int` may look at.
 */
export const argLowOffset = (i: number): number => 16 + 8 * i;

// ---------------------------------------------------------------------------
// Filter return values (<linux/seccomp.h>). The kernel acts on the action
// part (high 16 bits) and passes the data part (low 16 bits) along.

export const SECCOMP_RET_KILL_PROCESS = 0x80000000;
export const SECCOMP_RET_KILL_THREAD = 0x00000000;
export const SECCOMP_RET_TRAP = 0x00030000;
export const SECCOMP_RET_ERRNO = 0x00050000;
export const SECCOMP_RET_USER_NOTIF = 0x7fc00000;
export const SECCOMP_RET_TRACE = 0x7ff00000;
export const SECCOMP_RET_LOG = 0x7ffc0000;
export const SECCOMP_RET_ALLOW = 0x7fff0000;
export const SECCOMP_RET_ACTION_FULL = 0xffff0000;
export const SECCOMP_RET_DATA = 0x0000ffff;
/** The kernel caps an ERRNO's data at MAX_ERRNO. */
export const MAX_ERRNO = 4095;

export function retErrno(errno: number): number {
  if (!Number.isInteger(errno) || errno < 1 || errno > MAX_ERRNO) throw new RangeError(`errno ${errno} is not in 1..${MAX_ERRNO}`);
  return (SECCOMP_RET_ERRNO | errno) >>> 0;
}

// ---------------------------------------------------------------------------
// Encoding

/**
 * The program as the kernel reads a `struct sock_filter[]`: 8 bytes per
 * instruction, little-endian (the host order of x86_64 and aarch64), no header.
 */
export function encode(program: readonly SockFilter[]): Uint8Array {
  const bytes = new Uint8Array(program.length * 8);
  const view = new DataView(bytes.buffer);
  program.forEach((insn, i) => {
    checkField('code', insn.code, 0xffff, i);
    checkField('jt', insn.jt, 0xff, i);
    checkField('jf', insn.jf, 0xff, i);
    checkField('k', insn.k, 0xffffffff, i);
    view.setUint16(i * 8, insn.code, true);
    view.setUint8(i * 8 + 2, insn.jt);
    view.setUint8(i * 8 + 3, insn.jf);
    view.setUint32(i * 8 + 4, insn.k, true);
  });
  return bytes;
}

function checkField(name: string, v: number, max: number, i: number): void {
  if (!Number.isInteger(v) || v < 0 || v > max) throw new RangeError(`instruction ${i}: ${name} ${v} does not fit`);
}

/** The inverse of `encode`; refuses a length that is not a multiple of 8, as bwrap does. */
export function decode(bytes: Uint8Array): SockFilter[] {
  if (bytes.length % 8 !== 0) throw new RangeError(`seccomp program of ${bytes.length} bytes is not a multiple of 8`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: SockFilter[] = [];
  for (let off = 0; off < bytes.length; off += 8) {
    out.push({ code: view.getUint16(off, true), jt: view.getUint8(off + 2), jf: view.getUint8(off + 3), k: view.getUint32(off + 4, true) });
  }
  return out;
}
