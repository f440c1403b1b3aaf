// Property tests: the compiled program, run by the interpreter, returns what
// the policy prescribes (semantics.ts evaluates the policy directly), for
// boxwright's policy and for random policies; and every program passes the
// kernel's checks.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  ARCHES,
  archInfo,
  boxwrightPolicy,
  compilePolicy,
  evaluatePolicy,
  resolvePolicy,
  run,
  verify,
  type Action,
  type Arch,
  type ArgTest,
  type Rule,
  type SeccompData,
  type SeccompPolicy,
} from '../../targets/linux/seccomp/index.js';
import { syscallTable } from '../../targets/linux/seccomp/tables.js';

const INTERESTING_WORDS = [0, 1, 2, 4, 6, 7, 10, 16, 17, 40, 0x8000, 0x10000000, 0x7e020000, 0x400000, 0x80000000, 0xffffffff];

/** A 64-bit argument: interesting low words with junk or clean high words, or anything. */
const arg64 = fc.oneof(
  fc.tuple(fc.constantFrom(...INTERESTING_WORDS), fc.constantFrom(0, 1, 0xffffffff), fc.nat(0xffffffff)).map(
    ([lo, hiKind, hiRand]) => (BigInt(hiKind === 1 ? hiRand : hiKind) << 32n) | BigInt(lo),
  ),
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
  const resolved = resolvePolicy(policy, arch);
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

const operandArb = fc.oneof(fc.constantFrom(...INTERESTING_WORDS), fc.nat(0xffffffff), fc.constantFrom('AF_INET', 'PROT_WRITE|PROT_EXEC', 'CLONE_NEWUSER'));
const maskArb = fc.oneof(fc.constantFrom(1, 4, 6, 0x8000, 0x7e020000, 0xffffffff), fc.integer({ min: 1, max: 0xffffffff }));
const argIndex = fc.constantFrom(0 as const, 1 as const, 2 as const, 3 as const, 4 as const, 5 as const);

const testArb: fc.Arbitrary<ArgTest> = fc.oneof(
  fc.record({ arg: argIndex, width: fc.constant(32 as const), op: fc.constantFrom('eq' as const, 'ne' as const), value: operandArb }),
  fc.record({ arg: argIndex, width: fc.constant(32 as const), op: fc.constant('masked-any' as const), mask: maskArb }),
  fc
    .record({ arg: argIndex, width: fc.constant(32 as const), op: fc.constant('masked-eq' as const), mask: maskArb, bits: fc.nat(0xffffffff) })
    .map(({ bits, ...t }) => ({ ...t, value: (bits & t.mask) >>> 0 })),
  fc.record({
    arg: argIndex,
    width: fc.constant(32 as const),
    op: fc.constant('not-in' as const),
    values: fc.uniqueArray(fc.oneof(fc.constantFrom(...INTERESTING_WORDS), fc.nat(0xffffffff)), { minLength: 1, maxLength: 6 }),
  }),
);

const actionArb: fc.Arbitrary<Action> = fc.oneof(fc.constant('allow' as const), fc.constantFrom('EPERM', 'ENOSYS', 'EACCES', 'EAFNOSUPPORT').map((errno) => ({ errno })));

/** Syscalls both arches have, minus execve (a policy may not refuse it). */
const COMMON_SYSCALLS = [...syscallTable('x86_64').byName.keys()].filter((n) => syscallTable('aarch64').byName.has(n) && n !== 'execve').sort();

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

describe('compiled programs agree with the policy', () => {
  for (const arch of ARCHES) {
    it(`boxwright's policy on ${arch}`, () => checkAgainstPolicy(boxwrightPolicy(), arch, 3000));
  }

  it('random policies on both arches', () => {
    fc.assert(
      fc.property(policyArb, fc.constantFrom(...ARCHES), (policy, arch) => {
        checkAgainstPolicy(policy, arch, 60);
      }),
      { numRuns: 150, seed: 7 },
    );
  });
});
