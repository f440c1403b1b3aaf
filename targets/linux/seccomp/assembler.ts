/**
 * The assembler: symbolic instructions with named labels → `struct
 * sock_filter[]`. Classic BPF only jumps forward, and a conditional jump's
 * targets are 8-bit offsets (at most 255 instructions ahead), so a far target
 * is reached through a trampoline: an unconditional `ja` (32-bit offset)
 * placed right after the jump. Placing it there is safe because a
 * conditional jump never falls through: both its successors are explicit.
 */
import {
  MAX_INSNS,
  OP_AND_K,
  OP_JA,
  OP_JEQ_K,
  OP_JGE_K,
  OP_JGT_K,
  OP_JSET_K,
  OP_LD_ABS,
  OP_RET_K,
  SECCOMP_DATA_SIZE,
  type SockFilter,
} from './bpf.js';

type CondOp = 'jeq' | 'jgt' | 'jge' | 'jset';

/** One line of assembly. Labels name the next instruction. */
export type AsmInsn =
  | { readonly op: 'label'; readonly name: string }
  /** A = seccomp_data[offset] (a 32-bit word). */
  | { readonly op: 'ld'; readonly offset: number }
  /** A &= k */
  | { readonly op: 'and'; readonly k: number }
  /** if (A op k) goto jt else goto jf */
  | { readonly op: CondOp; readonly k: number; readonly jt: string; readonly jf: string }
  | { readonly op: 'ja'; readonly target: string }
  | { readonly op: 'ret'; readonly k: number };

export class AssemblyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AssemblyError';
  }
}

const COND_CODES: Readonly<Record<CondOp, number>> = { jeq: OP_JEQ_K, jgt: OP_JGT_K, jge: OP_JGE_K, jset: OP_JSET_K };
/** The largest jt/jf offset. */
const MAX_SHORT_JUMP = 255;

/** Resolves labels (inserting trampolines where needed) and checks the result. */
export function assemble(source: readonly AsmInsn[]): SockFilter[] {
  checkLabels(source);
  const items = withTrampolines(source);
  const pos = labelPositions(items);
  const out: SockFilter[] = [];
  const offset = (label: string, pc: number): number => {
    const target = pos.get(label);
    if (target === undefined) throw new AssemblyError(`label ${label} is undefined`); // checked above; for the type
    const off = target - (pc + 1);
    if (off < 0) throw new AssemblyError(`jump from ${pc} to ${label} goes backwards`);
    return off;
  };
  const total = countInsns(items);
  for (const item of items) {
    const pc = out.length;
    switch (item.op) {
      case 'label':
        if (pos.get(item.name) === total) throw new AssemblyError(`label ${item.name} is not followed by an instruction`);
        break;
      case 'ld':
        if (item.offset % 4 !== 0 || item.offset < 0 || item.offset >= SECCOMP_DATA_SIZE)
          throw new AssemblyError(`ld [${item.offset}] is outside seccomp_data or unaligned`);
        out.push({ code: OP_LD_ABS, jt: 0, jf: 0, k: item.offset });
        break;
      case 'and':
        out.push({ code: OP_AND_K, jt: 0, jf: 0, k: u32(item.k) });
        break;
      case 'ja':
        out.push({ code: OP_JA, jt: 0, jf: 0, k: offset(item.target, pc) });
        break;
      case 'ret':
        out.push({ code: OP_RET_K, jt: 0, jf: 0, k: u32(item.k) });
        break;
      default: {
        const jt = offset(item.jt, pc);
        const jf = offset(item.jf, pc);
        // withTrampolines guarantees this; a failure here is a bug in it.
        if (jt > MAX_SHORT_JUMP || jf > MAX_SHORT_JUMP) throw new AssemblyError(`internal: jump at ${pc} out of range`);
        out.push({ code: COND_CODES[item.op], jt, jf, k: u32(item.k) });
      }
    }
  }
  if (out.length === 0) throw new AssemblyError('empty program');
  if (out.length > MAX_INSNS) throw new AssemblyError(`program has ${out.length} instructions; the kernel accepts at most ${MAX_INSNS}`);
  if (out[out.length - 1]!.code !== OP_RET_K) throw new AssemblyError('the last instruction must be ret');
  return out;
}

function u32(k: number): number {
  if (!Number.isInteger(k) || k < 0 || k > 0xffffffff) throw new AssemblyError(`constant ${k} is not a u32`);
  return k;
}

function checkLabels(source: readonly AsmInsn[]): void {
  const defined = new Set<string>();
  for (const item of source) {
    if (item.op !== 'label') continue;
    if (defined.has(item.name)) throw new AssemblyError(`label ${item.name} is defined twice`);
    defined.add(item.name);
  }
  for (const item of source) {
    for (const l of targets(item)) if (!defined.has(l)) throw new AssemblyError(`label ${l} is undefined`);
  }
}

function targets(item: AsmInsn): string[] {
  switch (item.op) {
    case 'jeq':
    case 'jgt':
    case 'jge':
    case 'jset':
      return [item.jt, item.jf];
    case 'ja':
      return [item.target];
    default:
      return [];
  }
}

function countInsns(items: readonly AsmInsn[]): number {
  return items.reduce((n, i) => (i.op === 'label' ? n : n + 1), 0);
}

/** Label → index of the instruction it names. */
function labelPositions(items: readonly AsmInsn[]): Map<string, number> {
  const pos = new Map<string, number>();
  let pc = 0;
  for (const item of items) {
    if (item.op === 'label') pos.set(item.name, pc);
    else pc++;
  }
  return pos;
}

/**
 * Inserts a trampoline after each conditional jump whose target is more than
 * 255 instructions ahead, until none is. Each pass can only lengthen other
 * jumps (never shorten), and a trampoline sits at offset 0 or 1 from its
 * jump, so the loop ends: at worst every jump gets its two trampolines.
 */
function withTrampolines(source: readonly AsmInsn[]): AsmInsn[] {
  let items = [...source];
  const used = new Set(source.flatMap((i) => (i.op === 'label' ? [i.name] : [])));
  let fresh = 0;
  const freshLabel = (): string => {
    let name: string;
    do name = `tramp.${fresh++}`;
    while (used.has(name));
    used.add(name);
    return name;
  };
  for (;;) {
    const pos = labelPositions(items);
    const next: AsmInsn[] = [];
    let pc = 0;
    let changed = false;
    for (const item of items) {
      if (item.op !== 'jeq' && item.op !== 'jgt' && item.op !== 'jge' && item.op !== 'jset') {
        next.push(item);
        if (item.op !== 'label') pc++;
        continue;
      }
      const far = (l: string): boolean => (pos.get(l) ?? 0) - (pc + 1) > MAX_SHORT_JUMP;
      const tramps: AsmInsn[] = [];
      const hop = (l: string): string => {
        if (!far(l)) return l;
        const t = freshLabel();
        tramps.push({ op: 'label', name: t }, { op: 'ja', target: l });
        return t;
      };
      const jt = hop(item.jt);
      const jf = item.jf === item.jt && tramps.length > 0 ? jt : hop(item.jf);
      next.push(tramps.length > 0 ? { ...item, jt, jf } : item, ...tramps);
      changed ||= tramps.length > 0;
      pc++;
    }
    items = next;
    if (!changed) return items;
  }
}
