// Property tests: the compiled program, run by the interpreter, returns what
// the policy prescribes (semantics.ts evaluates a resolved policy directly),
// for boxwright's policy and for random policies; and every program passes
// the kernel's checks.
//
// The oracle's numbers are not boxwright's: the policy is resolved here
// again, syscall names through libseccomp (python3-seccomp) and named
// constants, errnos and filter return values through the C headers as gcc
// evaluates them for each architecture (test/independent/abi.ts). A wrong
// entry in boxwright's tables is then a disagreement, not a shared mistake.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import constantsJson from '../../targets/linux/seccomp/constants.json' with { type: 'json' };
import {
  ARCHES,
  archInfo,
  boxwrightPolicy,
  compilePolicy,
  resolvePolicy,
  type Action,
  type Arch,
  type ArgTest,
  type ResolvedPolicy,
  type Rule,
  type SeccompPolicy,
} from '../../targets/linux/seccomp/index.js';
import { run, type SeccompData } from '../support/seccomp/interpreter.js';
import { evaluatePolicy } from '../support/seccomp/semantics.js';
import { verify } from '../support/seccomp/verifier.js';
import type { Operand } from '../../targets/linux/seccomp/policy.js';
import type { Cond, ResolvedRule } from '../../targets/linux/seccomp/resolve.js';
import { syscallTable } from '../../targets/linux/seccomp/tables.js';
import { requireOrSkip } from '../helpers.js';
import { compilerFor, hasLibseccomp, headerConstants, libseccompSyscalls } from '../independent/abi.js';
import { runs } from '../budget.js';

/**
 * Syscalls newer than Debian 12's libseccomp (2.5.4), which has no name for
 * them, that boxwright's tables carry: numbered here from the kernel's
 * unified table (the same number on every architecture since 5.1;
 * arch/x86/entry/syscalls/syscall_64.tbl, include/uapi/asm-generic/unistd.h).
 */
const LIBSECCOMP_LACKS: Readonly<Record<string, number>> = {
  fchmodat2: 452, // Linux 6.6
  open_tree_attr: 467, // Linux 6.15
};

/** One architecture's ABI as the oracle knows it: none of it from boxwright's tables. */
interface Abi {
  readonly syscalls: ReadonlyMap<string, number>;
  readonly constants: ReadonlyMap<string, number>;
  readonly auditArch: number;
}

const compilers = { x86_64: compilerFor('x86_64'), aarch64: compilerFor('aarch64') };
const skip =
  requireOrSkip(hasLibseccomp, 'python3-seccomp (Debian: apt-get install python3-seccomp)') ??
  requireOrSkip(
    compilers.x86_64 !== undefined && compilers.aarch64 !== undefined,
    'C compilers for x86_64 and aarch64 (Debian gcc, and gcc-aarch64-linux-gnu or gcc-x86-64-linux-gnu)',
  );

/** The names to look up come from boxwright's tables and constants.json; their numbers do not. */
function independentAbi(): Readonly<Record<Arch, Abi>> {
  const names = { x86_64: [...syscallTable('x86_64').byName.keys()], aarch64: [...syscallTable('aarch64').byName.keys()] };
  const lib = libseccompSyscalls(names);
  const constantNames = [
    ...Object.values(constantsJson.families).flatMap((f) => Object.keys(f.values)),
    'SECCOMP_RET_ALLOW',
    'SECCOMP_RET_ERRNO',
    'SECCOMP_RET_DATA',
  ];
  const abi = (arch: Arch): Abi => {
    const syscalls = new Map<string, number>();
    for (const [name, n] of lib.numbers[arch]) {
      const lacking = LIBSECCOMP_LACKS[name];
      if (n !== null && lacking !== undefined) assert.equal(n, lacking, `libseccomp now numbers ${name}: LIBSECCOMP_LACKS must agree`);
      const nr = n ?? lacking;
      if (nr !== undefined) syscalls.set(name, nr);
    }
    const headers = headerConstants(compilers[arch]!, [...constantNames, ...(arch === 'x86_64' ? ['__X32_SYSCALL_BIT'] : [])]);
    assert.deepEqual(headers.undeclared, [], `constants the ${arch} headers lack`);
    return { syscalls, constants: headers.values, auditArch: lib.auditArch[arch] };
  };
  return { x86_64: abi('x86_64'), aarch64: abi('aarch64') };
}

const oracle = skip === undefined ? independentAbi() : undefined;

/** `policy` resolved for `arch` with the oracle's numbers, as resolvePolicy would: rules in policy order, per syscall. */
function independentlyResolved(policy: SeccompPolicy, arch: Arch): ResolvedPolicy {
  const abi = oracle![arch];
  const constant = (name: string): number => {
    const v = abi.constants.get(name);
    if (v === undefined) throw new Error(`the ${arch} headers have no ${name}`);
    return v;
  };
  const operand = (o: Operand): number =>
    typeof o === 'number' ? o : o.split('|').reduce((v, part) => (v | constant(part.trim())) >>> 0, 0);
  const ret = (a: Action): number =>
    a === 'allow'
      ? constant('SECCOMP_RET_ALLOW')
      : (constant('SECCOMP_RET_ERRNO') | (constant(a.errno) & constant('SECCOMP_RET_DATA'))) >>> 0;
  const cond = (t: ArgTest): Cond => {
    switch (t.op) {
      case 'eq':
      case 'ne':
        return { arg: t.arg, op: t.op, value: operand(t.value) };
      case 'masked-any':
        return { arg: t.arg, op: t.op, mask: operand(t.mask) };
      case 'masked-eq':
        return { arg: t.arg, op: t.op, mask: operand(t.mask), value: operand(t.value) };
      case 'not-in':
        return { arg: t.arg, op: t.op, values: t.values.map(operand) };
    }
  };
  const bySyscall = new Map<number, ResolvedRule[]>();
  for (const rule of policy.rules) {
    if (rule.arches !== undefined && !rule.arches.includes(arch)) continue;
    const resolved: ResolvedRule = { id: rule.id, when: rule.when === undefined ? undefined : cond(rule.when), ret: ret(rule.action) };
    for (const name of rule.syscalls) {
      const nr = abi.syscalls.get(name);
      if (nr === undefined) throw new Error(`libseccomp (or LIBSECCOMP_LACKS) has no ${arch} syscall ${name}`);
      bySyscall.set(nr, [...(bySyscall.get(nr) ?? []), resolved]);
    }
  }
  const info = {
    arch,
    auditArch: abi.auditArch,
    auditArchName: archInfo(arch).auditArchName,
    x32Bit: arch === 'x86_64' ? constant('__X32_SYSCALL_BIT') : undefined,
  };
  return {
    arch,
    info,
    defaultRet: ret(policy.defaultAction),
    foreignRet: ret(policy.foreignAbi.action),
    bySyscall: new Map([...bySyscall].sort((a, b) => a[0] - b[0])),
  };
}

const INTERESTING_WORDS = [0, 1, 2, 4, 6, 7, 10, 16, 17, 40, 0x8000, 0x10000000, 0x7e020000, 0x400000, 0x80000000, 0xffffffff];

/** A 64-bit argument: interesting low words with junk or clean high words, or anything. */
const arg64 = fc.oneof(
  fc
    .tuple(fc.constantFrom(...INTERESTING_WORDS), fc.constantFrom(0, 1, 0xffffffff), fc.nat(0xffffffff))
    .map(([lo, hiKind, hiRand]) => (BigInt(hiKind === 1 ? hiRand : hiKind) << 32n) | BigInt(lo)),
  fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
);

function dataFor(arch: Arch, ruled: readonly number[]): fc.Arbitrary<SeccompData> {
  const native = archInfo(arch).auditArch;
  const archArb = fc.oneof(
    { weight: 8, arbitrary: fc.constant(native) },
    { weight: 1, arbitrary: fc.constantFrom(0x40000003, 0x40000028, ...ARCHES.map((a) => archInfo(a).auditArch)) },
    { weight: 1, arbitrary: fc.nat(0xffffffff) },
  );
  const nrArb = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...ruled) },
    { weight: 2, arbitrary: fc.constantFrom(...ruled).map((n) => n + 1) },
    { weight: 1, arbitrary: fc.nat(500) },
    { weight: 1, arbitrary: fc.nat(0xffffffff) },
    { weight: 1, arbitrary: fc.constantFrom(...ruled).map((n) => (n | 0x40000000) >>> 0) },
  );
  return fc.record({ nr: nrArb, arch: archArb, args: fc.array(arg64, { minLength: 6, maxLength: 6 }) });
}

function checkAgainstPolicy(policy: SeccompPolicy, arch: Arch, numRuns: number): void {
  const resolved = independentlyResolved(policy, arch);
  const program = compilePolicy(policy, arch);
  verify(program);
  const ruled = [...resolved.bySyscall.keys()];
  fc.assert(
    fc.property(dataFor(arch, ruled.length > 0 ? ruled : [0]), (d) => {
      assert.equal(run(program, d).ret, evaluatePolicy(resolved, d));
    }),
    { numRuns, seed: 20240601 },
  );
}

// ---------------------------------------------------------------------------
// Random policies

const operandArb = fc.oneof(
  fc.constantFrom(...INTERESTING_WORDS),
  fc.nat(0xffffffff),
  fc.constantFrom('AF_INET', 'PROT_WRITE|PROT_EXEC', 'CLONE_NEWUSER'),
);
const maskArb = fc.oneof(fc.constantFrom(1, 4, 6, 0x8000, 0x7e020000, 0xffffffff), fc.integer({ min: 1, max: 0xffffffff }));
const argIndex = fc.constantFrom(0 as const, 1 as const, 2 as const, 3 as const, 4 as const, 5 as const);

const testArb: fc.Arbitrary<ArgTest> = fc.oneof(
  fc.record({ arg: argIndex, width: fc.constant(32 as const), op: fc.constantFrom('eq' as const, 'ne' as const), value: operandArb }),
  fc.record({ arg: argIndex, width: fc.constant(32 as const), op: fc.constant('masked-any' as const), mask: maskArb }),
  fc
    .record({
      arg: argIndex,
      width: fc.constant(32 as const),
      op: fc.constant('masked-eq' as const),
      mask: maskArb,
      bits: fc.nat(0xffffffff),
    })
    .map(({ bits, ...t }) => ({ ...t, value: (bits & t.mask) >>> 0 })),
  fc.record({
    arg: argIndex,
    width: fc.constant(32 as const),
    op: fc.constant('not-in' as const),
    values: fc.uniqueArray(fc.oneof(fc.constantFrom(...INTERESTING_WORDS), fc.nat(0xffffffff)), { minLength: 1, maxLength: 6 }),
  }),
);

const actionArb: fc.Arbitrary<Action> = fc.oneof(
  fc.constant('allow' as const),
  fc.constantFrom('EPERM', 'ENOSYS', 'EACCES', 'EAFNOSUPPORT').map((errno) => ({ errno })),
);

/** Syscalls both arches have, minus execve (a policy may not refuse it). */
const COMMON_SYSCALLS = [...syscallTable('x86_64').byName.keys()]
  .filter((n) => syscallTable('aarch64').byName.has(n) && n !== 'execve')
  .sort();

const policyArb: fc.Arbitrary<SeccompPolicy> = fc
  .record({
    defaultAction: fc.oneof({ weight: 4, arbitrary: fc.constant('allow' as const) }, { weight: 1, arbitrary: actionArb }),
    foreign: actionArb,
    rules: fc.array(
      fc.record({
        syscalls: fc.uniqueArray(fc.constantFrom(...COMMON_SYSCALLS), { minLength: 1, maxLength: 4 }),
        when: fc.option(testArb, { freq: 3, nil: undefined }),
        action: actionArb,
      }),
      { maxLength: 30 },
    ),
  })
  .map(({ defaultAction, foreign, rules }): SeccompPolicy => {
    // Drop what resolvePolicy would call unreachable: syscalls already decided by an unconditional rule.
    const decided = new Set<string>();
    const kept: Rule[] = [];
    rules.forEach((r, i) => {
      const syscalls = r.syscalls.filter((s) => !decided.has(s));
      if (syscalls.length === 0) return;
      if (r.when === undefined) syscalls.forEach((s) => decided.add(s));
      kept.push({ id: `r${i}`, reason: 'random', syscalls, ...(r.when ? { when: r.when } : {}), action: r.action });
    });
    if (defaultAction !== 'allow') kept.unshift({ id: 'exec', reason: 'bwrap execs the workload', syscalls: ['execve'], action: 'allow' });
    return { version: 1, defaultAction, arches: ['x86_64', 'aarch64'], foreignAbi: { action: foreign, reason: 'random' }, rules: kept };
  });

describe('compiled programs agree with the policy, resolved independently', { skip }, () => {
  for (const arch of ARCHES) {
    it(`boxwright's policy resolves on ${arch} to libseccomp's syscall numbers and the headers' values`, () => {
      assert.deepEqual(resolvePolicy(boxwrightPolicy(), arch), independentlyResolved(boxwrightPolicy(), arch));
    });
    it(`boxwright's policy on ${arch}`, () => checkAgainstPolicy(boxwrightPolicy(), arch, runs(3000)));
  }

  it('random policies on both arches', () => {
    fc.assert(
      fc.property(policyArb, fc.constantFrom(...ARCHES), (policy, arch) => {
        checkAgainstPolicy(policy, arch, runs(60));
      }),
      { numRuns: runs(150), seed: 7 },
    );
  });
});
