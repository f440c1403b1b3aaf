// The assembler: labels, far jumps through trampolines, the 4096-instruction
// limit, the byte encoding, determinism.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  assemble,
  AssemblyError,
  compilePolicy,
  compileSeccomp,
  decode,
  encode,
  MAX_INSNS,
  resolvePolicy,
  archInfo,
  type AsmInsn,
  type Rule,
  type SeccompPolicy,
} from '../../targets/linux/seccomp/index.js';
import { run } from '../support/seccomp/interpreter.js';
import { evaluatePolicy } from '../support/seccomp/semantics.js';
import { verify } from '../support/seccomp/verifier.js';
import { OP_JA, OP_RET_K } from '../../targets/linux/seccomp/bpf.js';
import { syscallTable } from '../../targets/linux/seccomp/tables.js';

const label = (name: string): AsmInsn => ({ op: 'label', name });
const ret = (k: number): AsmInsn => ({ op: 'ret', k });
const filler = (n: number, k = 0xdead): AsmInsn[] => Array.from({ length: n }, () => ret(k));

/** Runs an assembled program with A loaded from nr. */
const runNr = (source: readonly AsmInsn[], nr: number): number => run(assemble(source), { nr, arch: 0 }).ret;

describe('assembler: labels and jumps', () => {
  it('resolves labels to relative offsets', () => {
    const p = assemble([{ op: 'ld', offset: 0 }, { op: 'jeq', k: 7, jt: 'yes', jf: 'no' }, label('no'), ret(1), label('yes'), ret(2)]);
    assert.deepEqual(p[1], { code: 0x15, jt: 1, jf: 0, k: 7 });
    assert.equal(run(p, { nr: 7, arch: 0 }).ret, 2);
    assert.equal(run(p, { nr: 8, arch: 0 }).ret, 1);
  });

  it('reaches a target 300 instructions ahead through a trampoline', () => {
    const src = [
      { op: 'ld', offset: 0 } as const,
      { op: 'jeq', k: 1, jt: 'far', jf: 'near' } as const,
      label('near'),
      ret(1),
      ...filler(300),
      label('far'),
      ret(3),
    ];
    const p = assemble(src);
    verify(p);
    assert.equal(p[2]!.code, OP_JA, 'a ja right after the jump');
    assert.equal(p[1]!.jt, 0);
    assert.equal(p[1]!.jf, 1, 'the near branch skips the trampoline');
    assert.equal(p.length, 2 + 1 + 1 + 300 + 1);
    assert.equal(runNr(src, 1), 3);
    assert.equal(runNr(src, 0), 1);
  });

  it('gives each far branch its own trampoline, and shares one when both go to the same place', () => {
    const both = [
      { op: 'ld', offset: 0 } as const,
      { op: 'jgt', k: 5, jt: 'a', jf: 'b' } as const,
      ...filler(300),
      label('a'),
      ret(10),
      label('b'),
      ret(20),
    ];
    const p = assemble(both);
    assert.equal(p[2]!.code, OP_JA);
    assert.equal(p[3]!.code, OP_JA);
    assert.equal(runNr(both, 6), 10);
    assert.equal(runNr(both, 5), 20);
    const same = [{ op: 'ld', offset: 0 } as const, { op: 'jset', k: 1, jt: 'a', jf: 'a' } as const, ...filler(300), label('a'), ret(10)];
    const q = assemble(same);
    assert.equal(q[2]!.code, OP_JA);
    assert.equal(q[3]!.code, OP_RET_K);
    assert.equal(runNr(same, 1), 10);
  });

  it('reaches a fixpoint when trampolines push other jumps out of range', () => {
    // 200 jumps, each to the common exit just out of reach for the early ones;
    // every trampoline inserted lengthens the later jumps.
    const n = 200;
    const src: AsmInsn[] = [{ op: 'ld', offset: 0 }];
    for (let i = 0; i < n; i++) src.push({ op: 'jeq', k: i, jt: 'hit', jf: `c${i}` }, label(`c${i}`));
    src.push(...filler(100, 0x7777), label('hit'), ret(0x5555));
    const p = assemble(src);
    verify(p);
    for (const insn of p) assert.ok(insn.jt <= 255 && insn.jf <= 255);
    assert.ok(
      p.some((insn) => insn.code === OP_JA),
      'some trampolines',
    );
    for (let i = 0; i < n; i++) assert.equal(runNr(src, i), 0x5555, `nr ${i}`);
    assert.equal(runNr(src, n), 0x7777);
  });

  it('refuses malformed assembly', () => {
    const bad: [string, AsmInsn[], RegExp][] = [
      ['backward jump', [label('top'), { op: 'ld', offset: 0 }, { op: 'ja', target: 'top' }, ret(0)], /backwards/],
      ['undefined label', [{ op: 'ja', target: 'nowhere' }, ret(0)], /undefined/],
      ['duplicate label', [label('x'), label('x'), ret(0)], /twice/],
      ['label at the end', [{ op: 'ja', target: 'end' }, ret(0), label('end')], /not followed/],
      ['empty', [], /empty/],
      ['no final ret', [ret(0), { op: 'ld', offset: 0 }], /last instruction/],
      ['load outside seccomp_data', [{ op: 'ld', offset: 64 }, ret(0)], /outside/],
      ['unaligned load', [{ op: 'ld', offset: 2 }, ret(0)], /unaligned/],
      ['constant too big', [ret(2 ** 32)], /u32/],
    ];
    for (const [what, src, msg] of bad)
      assert.throws(
        () => assemble(src),
        (e: unknown) => e instanceof AssemblyError && msg.test(e.message),
        what,
      );
  });
});

describe('assembler: size limit', () => {
  it(`accepts ${MAX_INSNS} instructions and refuses ${MAX_INSNS + 1}`, () => {
    assert.equal(assemble(filler(MAX_INSNS)).length, MAX_INSNS);
    assert.throws(() => assemble(filler(MAX_INSNS + 1)), /4097 instructions; the kernel accepts at most 4096/);
  });

  it('refuses a policy whose program would exceed the limit', () => {
    const policy: SeccompPolicy = {
      version: 1,
      defaultAction: 'allow',
      arches: ['x86_64'],
      foreignAbi: { action: { errno: 'ENOSYS' }, reason: 'test' },
      rules: [
        {
          id: 'huge',
          reason: 'test',
          syscalls: ['socket'],
          when: { arg: 0, width: 32, op: 'not-in', values: Array.from({ length: 4200 }, (_, i) => i) },
          action: { errno: 'EPERM' },
        },
      ],
    };
    assert.throws(() => compilePolicy(policy, 'x86_64'), /at most 4096/);
  });
});

describe('assembler: a policy big enough for far jumps', () => {
  // Every x86_64 syscall but execve gets its own handler (distinct values, so
  // nothing is shared): the dispatch must jump over ~1000 instructions.
  const names = [...syscallTable('x86_64').byName.keys()].filter((n) => n !== 'execve').sort();
  const rules: Rule[] = names.map((s, i) => ({
    id: `r${i}`,
    reason: 'synthetic',
    syscalls: [s],
    when: { arg: (i % 6) as 0 | 1 | 2 | 3 | 4 | 5, width: 32, op: 'not-in', values: [i, i + 1000, i + 2000] },
    action: { errno: i % 2 ? 'EPERM' : 'EACCES' },
  }));
  const policy: SeccompPolicy = {
    version: 1,
    defaultAction: 'allow',
    arches: ['x86_64'],
    foreignAbi: { action: { errno: 'ENOSYS' }, reason: 'test' },
    rules,
  };
  const program = compilePolicy(policy, 'x86_64');
  const resolved = resolvePolicy(policy, 'x86_64');

  it('uses trampolines and stays loadable', () => {
    assert.ok(program.length > 1500 && program.length <= MAX_INSNS, `${program.length} instructions`);
    const jas = program.filter((i) => i.code === OP_JA).length;
    assert.ok(jas > 10, `${jas} trampolines`);
    verify(program);
  });

  it('still means what the policy says, for every syscall', () => {
    const auditArch = archInfo('x86_64').auditArch;
    names.forEach((s, i) => {
      const nr = syscallTable('x86_64').byName.get(s)!;
      for (const v of [i, i + 1000, i + 2000, i + 1, 0xffffffff]) {
        const args = [0n, 0n, 0n, 0n, 0n, 0n];
        args[i % 6] = BigInt(v) | (0xabcn << 32n);
        const d = { nr, arch: auditArch, args };
        assert.equal(run(program, d).ret, evaluatePolicy(resolved, d), `${s} with ${v}`);
      }
    });
  });
});

describe('encoding', () => {
  it('is 8 bytes per instruction, little-endian: u16 code, u8 jt, u8 jf, u32 k', () => {
    const bytes = encode([
      { code: 0x15, jt: 1, jf: 2, k: 0xc000003e },
      { code: 0x06, jt: 0, jf: 0, k: 0x7fff0000 },
    ]);
    assert.deepEqual([...bytes], [0x15, 0x00, 0x01, 0x02, 0x3e, 0x00, 0x00, 0xc0, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0x7f]);
  });

  it('round-trips through decode, and decode refuses a partial instruction', () => {
    for (const p of compileSeccomp().programs) {
      assert.equal(p.bytes.length, p.instructions * 8);
      assert.deepEqual(encode(decode(p.bytes)), p.bytes);
    }
    assert.throws(() => decode(new Uint8Array(7)), /multiple of 8/);
  });

  it('refuses fields that do not fit', () => {
    assert.throws(() => encode([{ code: 0x15, jt: 256, jf: 0, k: 0 }]), /jt 256/);
    assert.throws(() => encode([{ code: 0x10000, jt: 0, jf: 0, k: 0 }]), /code/);
  });
});

describe('determinism', () => {
  it('compiling twice gives the same bytes, text and JSON', () => {
    const a = compileSeccomp();
    const b = compileSeccomp();
    assert.equal(a.policyJson, b.policyJson);
    assert.equal(a.text, b.text);
    assert.equal(a.programs.length, 2);
    a.programs.forEach((p, i) => {
      assert.deepEqual(p.bytes, b.programs[i]!.bytes);
      assert.equal(p.sha256, b.programs[i]!.sha256);
    });
  });
});
