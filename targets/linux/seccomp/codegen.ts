/**
 * Code generation: a resolved policy → assembly for one arch.
 *
 * Shape of the program (seccomp.txt shows it):
 *
 *   ld [4]; jeq #AUDIT_ARCH_x, +0, foreign     the ABI first: a number is
 *   ld [0]; (x86_64) jge #0x40000000, foreign  meaningless in another table
 *   dispatch: a balanced binary search (jge) over the intervals of syscall
 *     numbers; allowed numbers fall in gaps that lead straight to `ret ALLOW`,
 *     so a syscall without rules costs 4 + ⌈log2(intervals)⌉ + 1 instructions
 *   handlers: one per distinct rule list, shared by syscalls with the same
 *     rules (socket and socketpair); a list that is a single unconditional rule
 *     needs no handler, the dispatch jumps straight to its `ret`
 *   returns: one `ret` per distinct action
 *
 * Argument tests load only the low 32 bits of an argument (see bpf.ts).
 */
import { assemble, type AsmInsn } from './assembler.js';
import { argLowOffset, OFF_ARCH, OFF_NR, SECCOMP_RET_ALLOW, type SockFilter } from './bpf.js';
import type { SeccompPolicy } from './policy.js';
import { resolvePolicy, type ResolvedPolicy, type ResolvedRule } from './resolve.js';
import type { Arch } from './tables.js';

/** Compiles `policy` for `arch` into a checked, kernel-loadable program. */
export function compilePolicy(policy: SeccompPolicy, arch: Arch): SockFilter[] {
  return assemble(generate(resolvePolicy(policy, arch)));
}

interface Interval {
  readonly lo: number;
  readonly hi: number;
  readonly target: string;
}

function generate(policy: ResolvedPolicy): AsmInsn[] {
  const out: AsmInsn[] = [];
  const rets = new Set<number>();
  const retLabel = (k: number): string => {
    rets.add(k);
    return 'ret.' + k.toString(16).padStart(8, '0');
  };
  const foreign = retLabel(policy.foreignRet);
  const fallback = retLabel(policy.defaultRet);

  out.push({ op: 'ld', offset: OFF_ARCH });
  out.push({ op: 'jeq', k: policy.info.auditArch, jt: 'nr', jf: foreign });
  out.push({ op: 'label', name: 'nr' }, { op: 'ld', offset: OFF_NR });
  // Numbers at or above the x32 bit are x32 calls (or garbage): never native.
  const limit = policy.info.x32Bit ?? 0x1_0000_0000;
  if (policy.info.x32Bit !== undefined) {
    out.push({ op: 'jge', k: policy.info.x32Bit, jt: foreign, jf: 'dispatch' }, { op: 'label', name: 'dispatch' });
  }

  // Handlers first in a table, emitted after the dispatch code.
  const handlers = new Map<string, { label: string; rules: readonly ResolvedRule[] }>();
  const entry = new Map<number, string>();
  for (const [nr, rules] of policy.bySyscall) {
    if (rules.length === 1 && rules[0]!.when === undefined) {
      entry.set(nr, retLabel(rules[0]!.ret));
      continue;
    }
    const key = JSON.stringify(rules.map((r) => [r.when, r.ret]));
    let h = handlers.get(key);
    if (!h) {
      h = { label: `h.${handlers.size}`, rules };
      handlers.set(key, h);
    }
    entry.set(nr, h.label);
  }

  emitDispatch(out, intervals(entry, limit, fallback));
  for (const h of handlers.values()) emitHandler(out, h.label, h.rules, retLabel, fallback);

  // ALLOW first, then the rest by value: a stable order for the disassembly.
  const order = [...rets].sort((a, b) => (a === SECCOMP_RET_ALLOW ? -1 : b === SECCOMP_RET_ALLOW ? 1 : a - b));
  for (const k of order) out.push({ op: 'label', name: retLabel(k) }, { op: 'ret', k });
  return out;
}

/** [0, limit) cut into runs of numbers that share a target, gaps going to `fallback`. */
function intervals(entry: ReadonlyMap<number, string>, limit: number, fallback: string): Interval[] {
  const out: Interval[] = [];
  const push = (lo: number, hi: number, target: string): void => {
    const last = out[out.length - 1];
    if (last && last.target === target && last.hi + 1 === lo) out[out.length - 1] = { lo: last.lo, hi, target };
    else out.push({ lo, hi, target });
  };
  let next = 0;
  for (const [nr, target] of [...entry].sort((a, b) => a[0] - b[0])) {
    if (nr >= limit) continue; // unreachable: refused as foreign before dispatch
    if (nr > next) push(next, nr - 1, fallback);
    push(nr, nr, target);
    next = nr + 1;
  }
  if (next < limit) push(next, limit - 1, fallback);
  return out;
}

/**
 * A balanced binary search: each node `jge #lo(mid)` splits the intervals in
 * half, and a leaf is its interval's target itself, not an instruction. Nodes
 * are emitted in pre-order so every jump goes forward.
 */
function emitDispatch(out: AsmInsn[], runs: readonly Interval[]): void {
  const label = (i: number, j: number): string => (i === j ? runs[i]!.target : `t.${i}.${j}`);
  if (runs.length === 1) {
    out.push({ op: 'ja', target: runs[0]!.target });
    return;
  }
  const node = (i: number, j: number): void => {
    if (i === j) return;
    const mid = (i + j + 1) >> 1;
    out.push({ op: 'label', name: label(i, j) });
    out.push({ op: 'jge', k: runs[mid]!.lo, jt: label(mid, j), jf: label(i, mid - 1) });
    node(i, mid - 1);
    node(mid, j);
  };
  node(0, runs.length - 1);
}

/**
 * The rules of one syscall, in order: the first whose test holds returns its
 * action, and falling off the end returns the default. `loaded` tracks which
 * argument word A holds so consecutive tests on it share one load.
 */
function emitHandler(
  out: AsmInsn[],
  label: string,
  rules: readonly ResolvedRule[],
  retLabel: (k: number) => string,
  fallback: string,
): void {
  out.push({ op: 'label', name: label });
  let loaded: number | undefined;
  rules.forEach((rule, j) => {
    const next = j + 1 < rules.length ? `${label}.r${j + 1}` : fallback;
    const act = retLabel(rule.ret);
    const c = rule.when;
    if (c === undefined) {
      out.push({ op: 'ja', target: act });
    } else {
      if (loaded !== c.arg) out.push({ op: 'ld', offset: argLowOffset(c.arg) });
      loaded = c.arg;
      switch (c.op) {
        case 'eq':
          out.push({ op: 'jeq', k: c.value, jt: act, jf: next });
          break;
        case 'ne':
          out.push({ op: 'jeq', k: c.value, jt: next, jf: act });
          break;
        case 'masked-any':
          out.push({ op: 'jset', k: c.mask, jt: act, jf: next });
          break;
        case 'masked-eq':
          if (c.mask !== 0xffffffff) {
            out.push({ op: 'and', k: c.mask });
            loaded = undefined; // A no longer holds the plain argument
          }
          out.push({ op: 'jeq', k: c.value, jt: act, jf: next });
          break;
        case 'not-in':
          c.values.forEach((v, i) => {
            const last = i === c.values.length - 1;
            const cont = `${label}.r${j}.v${i + 1}`;
            out.push({ op: 'jeq', k: v, jt: next, jf: last ? act : cont });
            if (!last) out.push({ op: 'label', name: cont });
          });
          break;
      }
    }
    if (j + 1 < rules.length) out.push({ op: 'label', name: next });
  });
}
