/**
 * The disassembler behind seccomp.txt: one line per instruction with its
 * index, a label where something jumps to it, the bpf_asm-style mnemonic, and
 * a comment in the program's own terms (syscall names, AUDIT_ARCH_*, AF_*,
 * PROT_*, errno names).
 *
 * It reads any program, not only boxwright's: the comments come from a
 * forward data-flow pass that tracks what the accumulator holds (which
 * seccomp_data word, possibly masked) and which syscall numbers can still
 * reach each instruction, so `jeq #10` on args[0] of socket reads AF_INET6
 * while on arg 2 of mprotect it reads PROT_EXEC.
 */
import { formatRet } from './actions.js';
import {
  BPF_A,
  BPF_ABS,
  BPF_ALU,
  BPF_AND,
  BPF_B,
  BPF_H,
  BPF_IND,
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
  BPF_MEM,
  BPF_MISC,
  BPF_MSH,
  BPF_NEG,
  BPF_RET,
  BPF_ST,
  BPF_STX,
  BPF_TAX,
  BPF_W,
  BPF_X,
  OFF_ARCH,
  OFF_IP,
  OFF_NR,
  bpfClass,
  bpfMiscOp,
  bpfMode,
  bpfOp,
  bpfRval,
  bpfSize,
  bpfSrc,
  type SockFilter,
} from './bpf.js';
import { argumentFamily, auditArchName, symbolize, syscallName, X32_SYSCALL_BIT, type Arch, type FamilyName } from './tables.js';
import { anyOf, fromRange, intersect, isEmpty, members, minus, union, type IntervalSet } from './intervals.js';

/** What A holds: a seccomp_data word, that word masked, or something else. */
type AValue = { readonly word: number; readonly mask: number | undefined } | undefined;

interface State {
  readonly a: AValue;
  /** Syscall numbers for which this instruction is reachable. */
  readonly nr: IntervalSet;
}

const ALU_NAMES: Readonly<Record<number, string>> = {
  0x00: 'add',
  0x10: 'sub',
  0x20: 'mul',
  0x30: 'div',
  0x40: 'or',
  0x50: 'and',
  0x60: 'lsh',
  0x70: 'rsh',
  0x80: 'neg',
  0x90: 'mod',
  0xa0: 'xor',
};
const JMP_NAMES: Readonly<Record<number, string>> = { [BPF_JEQ]: 'jeq', [BPF_JGT]: 'jgt', [BPF_JGE]: 'jge', [BPF_JSET]: 'jset' };

/** Lines without a trailing newline; `arch` selects the syscall table for names. */
export function disassemble(program: readonly SockFilter[], arch: Arch): string[] {
  const targets = jumpTargets(program);
  const states = flow(program);
  return program.map((insn, pc) => {
    const label = targets.has(pc) ? `L${pc}:` : '';
    const text = mnemonic(insn, pc);
    const state = states[pc];
    const comment = state === undefined ? 'unreachable' : explain(insn, state, arch);
    const line = `${String(pc).padStart(4)}  ${label.padEnd(7)}${comment ? text.padEnd(34) + '; ' + comment : text}`;
    return line.trimEnd();
  });
}

function jumpTargets(program: readonly SockFilter[]): Set<number> {
  const out = new Set<number>();
  program.forEach((insn, pc) => {
    for (const t of successors(insn, pc)) if (t !== pc + 1 || bpfClass(insn.code) === BPF_JMP) out.add(t);
  });
  return out;
}

function successors(insn: SockFilter, pc: number): number[] {
  const cls = bpfClass(insn.code);
  if (cls === BPF_RET) return [];
  if (cls !== BPF_JMP) return [pc + 1];
  if (bpfOp(insn.code) === BPF_JA) return [pc + 1 + insn.k];
  return [pc + 1 + insn.jt, pc + 1 + insn.jf];
}

const num = (k: number): string => (k < 4096 ? String(k) : '0x' + k.toString(16));
const target = (t: number): string => `L${t}`;

function mnemonic(insn: SockFilter, pc: number): string {
  const { code, k } = insn;
  const cls = bpfClass(code);
  const mode = bpfMode(code);
  const src = bpfSrc(code) === BPF_X ? 'x' : `#${num(k)}`;
  switch (cls) {
    case BPF_LD:
    case BPF_LDX: {
      // Sizes other than a word and the packet modes are not seccomp, but are named all the same.
      const size = bpfSize(code);
      const op = (cls === BPF_LD ? 'ld' : 'ldx') + (size === BPF_H ? 'h' : size === BPF_B ? 'b' : '');
      if (mode === BPF_ABS && cls === BPF_LD) return `${op} [${k}]`;
      if (mode === BPF_IND && cls === BPF_LD) return `${op} [x + ${k}]`;
      if (mode === BPF_MSH && cls === BPF_LDX) return `${op} 4*([${k}]&0xf)`;
      if (mode === BPF_IMM) return `${op} #${num(k)}`;
      if (mode === BPF_MEM) return `${op} M[${k}]`;
      if (mode === BPF_LEN) return `${op} #len`;
      break;
    }
    case BPF_ST:
      return `st M[${k}]`;
    case BPF_STX:
      return `stx M[${k}]`;
    case BPF_ALU: {
      const name = ALU_NAMES[bpfOp(code)];
      if (bpfOp(code) === BPF_NEG) return 'neg';
      if (name) return `${name} ${src}`;
      break;
    }
    case BPF_JMP: {
      if (bpfOp(code) === BPF_JA) return `ja ${target(pc + 1 + k)}`;
      const name = JMP_NAMES[bpfOp(code)];
      if (name) return `${name} ${src}, ${target(pc + 1 + insn.jt)}, ${target(pc + 1 + insn.jf)}`;
      break;
    }
    case BPF_RET:
      return bpfRval(code) === BPF_A ? 'ret a' : `ret ${formatRet(k)}`;
    case BPF_MISC:
      return bpfMiscOp(code) === BPF_TAX ? 'tax' : 'txa';
  }
  return `.insn 0x${code.toString(16).padStart(4, '0')}, ${insn.jt}, ${insn.jf}, 0x${k.toString(16)}`;
}

// ---------------------------------------------------------------------------
// Data flow: programs only jump forward, so one pass in index order sees every
// predecessor of an instruction before the instruction itself.

function flow(program: readonly SockFilter[]): (State | undefined)[] {
  const states: (State | undefined)[] = new Array(program.length).fill(undefined);
  states[0] = { a: undefined, nr: anyOf() };
  const merge = (at: number, s: State): void => {
    if (at >= program.length || isEmpty(s.nr)) return;
    const old = states[at];
    states[at] = old === undefined ? s : { a: sameA(old.a, s.a) ? old.a : undefined, nr: union(old.nr, s.nr) };
  };
  program.forEach((insn, pc) => {
    const s = states[pc];
    if (s === undefined) return;
    const { code, k } = insn;
    const cls = bpfClass(code);
    if (cls === BPF_JMP && bpfOp(code) !== BPF_JA) {
      const [t, f] = refine(s, bpfOp(code), bpfSrc(code) === BPF_X ? undefined : k);
      merge(pc + 1 + insn.jt, t);
      merge(pc + 1 + insn.jf, f);
      return;
    }
    let a = s.a;
    if (cls === BPF_LD) a = bpfMode(code) === BPF_ABS && bpfSize(code) === BPF_W ? { word: k, mask: undefined } : undefined;
    else if (cls === BPF_ALU)
      a = bpfOp(code) === BPF_AND && bpfSrc(code) !== BPF_X && a && a.mask === undefined ? { word: a.word, mask: k } : undefined;
    else if (cls === BPF_MISC && bpfMiscOp(code) !== BPF_TAX) a = undefined;
    for (const t of successors(insn, pc)) merge(t, { a, nr: s.nr });
  });
  return states;
}

function sameA(x: AValue, y: AValue): boolean {
  return x === y || (x !== undefined && y !== undefined && x.word === y.word && x.mask === y.mask);
}

/** The states on the true and false branches of `A op k` (nr narrows when A is nr). */
function refine(s: State, op: number, k: number | undefined): [State, State] {
  if (k === undefined || s.a === undefined || s.a.word !== OFF_NR || s.a.mask !== undefined) return [s, s];
  const max = 0xffffffff;
  const split = (t: IntervalSet, f: IntervalSet): [State, State] => [
    { a: s.a, nr: t },
    { a: s.a, nr: f },
  ];
  switch (op) {
    case BPF_JEQ:
      return split(intersect(s.nr, fromRange(k, k)), minus(s.nr, k));
    case BPF_JGT:
      return split(intersect(s.nr, fromRange(k + 1, max)), intersect(s.nr, fromRange(0, k)));
    case BPF_JGE:
      return split(intersect(s.nr, fromRange(k, max)), intersect(s.nr, fromRange(0, k - 1)));
    default:
      return [s, s];
  }
}

// ---------------------------------------------------------------------------
// Comments

function wordName(word: number): string {
  if (word === OFF_NR) return 'nr';
  if (word === OFF_ARCH) return 'arch';
  if (word === OFF_IP) return 'instruction_pointer low 32 bits';
  if (word === OFF_IP + 4) return 'instruction_pointer high 32 bits';
  const i = (word - 16) >> 3;
  return `args[${i}] ${word % 8 === 0 ? 'low' : 'high'} 32 bits`;
}

/** The syscalls that can reach here, by name, when they are few. */
function syscallsHere(s: State, arch: Arch): string[] {
  const nrs = members(s.nr, 16);
  if (nrs === undefined) return [];
  return nrs.map((nr) => syscallName(arch, nr) ?? `#${nr}`);
}

/** The constant family shared by argument `i` of every syscall that can reach here. */
function familyHere(s: State, arch: Arch, word: number): FamilyName | undefined {
  if (word < 16 || word % 8 !== 0) return undefined; // only low words carry an int
  const fams = new Set(syscallsHere(s, arch).map((name) => argumentFamily(name, (word - 16) >> 3)));
  const [only] = fams;
  return fams.size === 1 ? only : undefined;
}

function valueName(word: number, k: number, fam: FamilyName | undefined, arch: Arch): string {
  if (word === OFF_NR) {
    if (k === X32_SYSCALL_BIT && arch === 'x86_64') return `${num(k)} (x32 ABI bit)`;
    return syscallName(arch, k) ?? num(k);
  }
  if (word === OFF_ARCH) return auditArchName(k) ?? num(k);
  return (fam && symbolize(fam, k)) ?? num(k);
}

function explain(insn: SockFilter, s: State, arch: Arch): string {
  const { code, k } = insn;
  const cls = bpfClass(code);
  if (cls === BPF_LD && bpfMode(code) === BPF_ABS && bpfSize(code) === BPF_W) {
    const here = k >= 16 ? syscallsHere(s, arch) : [];
    return `A = ${wordName(k)}` + (here.length > 0 ? ` of ${here.join(', ')}` : '');
  }
  if (cls === BPF_RET) return bpfRval(code) === BPF_A ? '' : `0x${k.toString(16).padStart(8, '0')}`;
  const a = s.a;
  if (a === undefined || bpfSrc(code) === BPF_X) return '';
  const fam = familyHere(s, arch, a.word);
  const subject = a.mask === undefined ? wordName(a.word) : `(${wordName(a.word)} & ${valueName(a.word, a.mask, fam, arch)})`;
  if (cls === BPF_ALU && bpfOp(code) === BPF_AND && a.mask === undefined)
    return `A = ${wordName(a.word)} & ${valueName(a.word, k, fam, arch)}`;
  if (cls !== BPF_JMP || bpfOp(code) === BPF_JA) return '';
  const v = valueName(a.word, k, fam, arch);
  switch (bpfOp(code)) {
    case BPF_JEQ:
      return `${subject} == ${v}`;
    case BPF_JGT:
      return `${subject} > ${v}`;
    case BPF_JGE:
      return a.word === OFF_NR && !v.startsWith(num(k)) ? `nr >= ${num(k)} (${v})` : `${subject} >= ${v}`;
    case BPF_JSET:
      return `${subject} & ${v}`;
  }
  return '';
}
