/**
 * A classic-BPF interpreter with the kernel's seccomp semantics: 32-bit A and
 * X, sixteen scratch words, absolute word loads from `struct seccomp_data`
 * (little-endian), forward jumps only. It runs any program `verify` accepts;
 * tests use it to check generated programs against the policy, benchmarks to
 * count instructions.
 */
import { decodeAction, type SeccompAction } from '../../../targets/linux/seccomp/actions.js';
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
  BPF_W,
  BPF_X,
  BPF_XOR,
  MEMWORDS,
  OFF_ARCH,
  OFF_IP,
  OFF_NR,
  SECCOMP_DATA_SIZE,
  bpfClass,
  bpfMiscOp,
  bpfMode,
  bpfOp,
  bpfRval,
  bpfSize,
  bpfSrc,
  type SockFilter,
} from '../../../targets/linux/seccomp/bpf.js';

// struct seccomp_data as bytes

/** What the kernel hands the filter for one syscall. */
export interface SeccompData {
  /** The syscall number (an `int`: -1 reads as 0xffffffff). */
  readonly nr: number;
  readonly arch: number;
  readonly ip?: bigint;
  /** Up to six arguments, full 64-bit register values; missing ones are 0. */
  readonly args?: readonly bigint[];
}

/** The 64 bytes the filter's loads read, little-endian like the hosts boxwright targets. */
function seccompDataBytes(data: SeccompData): Uint8Array {
  const bytes = new Uint8Array(SECCOMP_DATA_SIZE);
  const view = new DataView(bytes.buffer);
  view.setUint32(OFF_NR, data.nr >>> 0, true);
  view.setUint32(OFF_ARCH, data.arch >>> 0, true);
  view.setBigUint64(OFF_IP, BigInt.asUintN(64, data.ip ?? 0n), true);
  const args = data.args ?? [];
  if (args.length > 6) throw new RangeError('seccomp_data has six arguments');
  args.forEach((a, i) => view.setBigUint64(16 + 8 * i, BigInt.asUintN(64, a), true));
  return bytes;
}

export interface RunResult {
  /** The filter's return value. */
  readonly ret: number;
  readonly action: SeccompAction;
  /** Instructions executed, the `ret` included. */
  readonly steps: number;
}

export class InterpreterError extends Error {
  constructor(message: string, pc: number) {
    super(`instruction ${pc}: ${message}`);
    this.name = 'InterpreterError';
  }
}

export function run(program: readonly SockFilter[], data: SeccompData): RunResult {
  const bytes = seccompDataBytes(data);
  const view = new DataView(bytes.buffer);
  const mem = new Uint32Array(MEMWORDS);
  let a = 0;
  let x = 0;
  let steps = 0;
  const done = (ret: number): RunResult => ({ ret: ret >>> 0, action: decodeAction(ret >>> 0), steps });
  for (let pc = 0; ; pc++) {
    const insn = program[pc];
    if (insn === undefined) throw new InterpreterError('ran off the end of the program', pc);
    steps++;
    const { code, k } = insn;
    switch (bpfClass(code)) {
      case BPF_LD:
        if (bpfSize(code) !== BPF_W) throw new InterpreterError('seccomp loads words only', pc);
        a = load(bpfMode(code), k, view, mem, pc);
        break;
      case BPF_LDX:
        if (bpfSize(code) !== BPF_W) throw new InterpreterError('seccomp loads words only', pc);
        x = load(bpfMode(code), k, view, mem, pc);
        break;
      case BPF_ST:
        mem[scratch(k, pc)] = a;
        break;
      case BPF_STX:
        mem[scratch(k, pc)] = x;
        break;
      case BPF_ALU: {
        const v = bpfSrc(code) === BPF_X ? x : k >>> 0;
        const op = bpfOp(code);
        // The kernel makes a division by X = 0 end the filter with 0 (KILL_THREAD).
        if (op === BPF_DIV && v === 0) return done(0);
        a = alu(op, a, v, pc);
        break;
      }
      case BPF_JMP: {
        const op = bpfOp(code);
        if (op === BPF_JA) {
          pc += k;
          break;
        }
        const v = bpfSrc(code) === BPF_X ? x : k >>> 0;
        pc += cond(op, a, v, pc) ? insn.jt : insn.jf;
        break;
      }
      case BPF_RET:
        return done(bpfRval(code) === BPF_A ? a : k);
      case BPF_MISC:
        if (bpfMiscOp(code) === BPF_TAX) x = a;
        else a = x;
        break;
    }
  }
}

function load(mode: number, k: number, view: DataView, mem: Uint32Array, pc: number): number {
  switch (mode) {
    case BPF_ABS:
      if (k % 4 !== 0 || k + 4 > SECCOMP_DATA_SIZE) throw new InterpreterError(`load at ${k} is outside seccomp_data`, pc);
      return view.getUint32(k, true);
    case BPF_IMM:
      return k >>> 0;
    case BPF_MEM:
      return mem[scratch(k, pc)]!;
    case BPF_LEN:
      return SECCOMP_DATA_SIZE; // the kernel rewrites `len` to sizeof(struct seccomp_data)
    default:
      throw new InterpreterError(`load mode 0x${mode.toString(16)} is not allowed in seccomp`, pc);
  }
}

function scratch(k: number, pc: number): number {
  if (k >= MEMWORDS) throw new InterpreterError(`M[${k}] does not exist`, pc);
  return k;
}

function alu(op: number, a: number, v: number, pc: number): number {
  switch (op) {
    case BPF_ADD:
      return (a + v) >>> 0;
    case BPF_SUB:
      return (a - v) >>> 0;
    case BPF_MUL:
      return Math.imul(a, v) >>> 0;
    case BPF_DIV:
      return Math.floor(a / v) >>> 0;
    case BPF_OR:
      return (a | v) >>> 0;
    case BPF_AND:
      return (a & v) >>> 0;
    case BPF_XOR:
      return (a ^ v) >>> 0;
    // A shift by X >= 32 is undefined in C; the kernel's JITs mask it like this.
    case BPF_LSH:
      return (a << (v & 31)) >>> 0;
    case BPF_RSH:
      return a >>> (v & 31);
    case BPF_NEG:
      return -a >>> 0;
    default:
      throw new InterpreterError(`ALU operation 0x${op.toString(16)} is not allowed in seccomp`, pc);
  }
}

function cond(op: number, a: number, v: number, pc: number): boolean {
  switch (op) {
    case BPF_JEQ:
      return a === v;
    case BPF_JGT:
      return a > v;
    case BPF_JGE:
      return a >= v;
    case BPF_JSET:
      return (a & v) !== 0;
    default:
      throw new InterpreterError(`jump 0x${op.toString(16)} is not allowed in seccomp`, pc);
  }
}
