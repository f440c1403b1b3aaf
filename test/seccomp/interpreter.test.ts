// The interpreter's classic-BPF semantics and the verifier's kernel checks,
// on hand-written programs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeAction, type SockFilter } from '../../targets/linux/seccomp/index.js';
import { run } from '../support/seccomp/interpreter.js';
import { verify, VerifyError } from '../support/seccomp/verifier.js';

const I = (code: number, k = 0, jt = 0, jf = 0): SockFilter => ({ code, jt, jf, k });
const RET_A = I(0x16);
const RET = (k: number): SockFilter => I(0x06, k);
const data = {
  nr: 0x11223344,
  arch: 0xc000003e,
  ip: 0x0102030405060708n,
  args: [0xaaaaaaaa_bbbbbbbbn, 5n, 0n, 0n, 0n, 0xffffffff_fffffffen],
};
const A = (...p: SockFilter[]): number => run([...p, RET_A], data).ret;

describe('interpreter', () => {
  it('loads seccomp_data words little-endian', () => {
    assert.equal(A(I(0x20, 0)), 0x11223344);
    assert.equal(A(I(0x20, 4)), 0xc000003e);
    assert.equal(A(I(0x20, 8)), 0x05060708);
    assert.equal(A(I(0x20, 12)), 0x01020304);
    assert.equal(A(I(0x20, 16)), 0xbbbbbbbb, 'args[0] low word');
    assert.equal(A(I(0x20, 20)), 0xaaaaaaaa, 'args[0] high word');
    assert.equal(A(I(0x20, 56)), 0xfffffffe);
    assert.equal(A(I(0x20, 60)), 0xffffffff);
  });

  it('does immediate, len, scratch memory and register moves', () => {
    assert.equal(A(I(0x00, 42)), 42); // ld #42
    assert.equal(A(I(0x80)), 64); // ld #len is sizeof(seccomp_data)
    assert.equal(A(I(0x00, 9), I(0x02, 15), I(0x00, 0), I(0x60, 15)), 9); // st M[15]; ld M[15]
    assert.equal(A(I(0x01, 7), I(0x87)), 7); // ldx #7; txa
    assert.equal(A(I(0x00, 5), I(0x07), I(0x00, 1), I(0x03, 2), I(0x60, 2)), 5); // tax; stx M[2]; ld M[2]
    assert.equal(A(I(0x81), I(0x87)), 64); // ldx #len
  });

  it('does 32-bit unsigned arithmetic', () => {
    const ldk = (k: number): SockFilter => I(0x00, k);
    assert.equal(A(ldk(0xffffffff), I(0x04, 2)), 1, 'add wraps');
    assert.equal(A(ldk(1), I(0x14, 2)), 0xffffffff, 'sub wraps');
    assert.equal(A(ldk(0x10000), I(0x24, 0x10001)), 0x10000, 'mul keeps the low 32 bits');
    assert.equal(A(ldk(7), I(0x34, 2)), 3, 'div');
    assert.equal(A(ldk(0xf0), I(0x44, 0x0f)), 0xff, 'or');
    assert.equal(A(ldk(0xff), I(0x54, 0x0f)), 0x0f, 'and');
    assert.equal(A(ldk(0xff), I(0xa4, 0x0f)), 0xf0, 'xor');
    assert.equal(A(ldk(1), I(0x64, 31)), 0x80000000, 'lsh');
    assert.equal(A(ldk(0x80000000), I(0x74, 31)), 1, 'rsh is logical');
    assert.equal(A(ldk(1), I(0x84)), 0xffffffff, 'neg');
    assert.equal(A(I(0x01, 3), ldk(10), I(0x1c)), 7, 'sub x');
  });

  it('ends with 0 (KILL_THREAD) on division by X = 0, as the kernel does', () => {
    const r = run([I(0x00, 5), I(0x01, 0), I(0x3c), RET(0x7fff0000)], data);
    assert.equal(r.ret, 0);
    assert.deepEqual(r.action, { kind: 'kill-thread' });
  });

  it('jumps: ja, and conditional on K and X, unsigned', () => {
    const branch = (cond: SockFilter): number => run([I(0x00, 0x80000000), I(0x01, 5), cond, RET(1), RET(2)], data).ret;
    assert.equal(branch(I(0x25, 5, 1, 0)), 2, 'jgt #5: 0x80000000 > 5 unsigned');
    assert.equal(branch(I(0x35, 0x80000000, 1, 0)), 2, 'jge');
    assert.equal(branch(I(0x15, 0x80000000, 1, 0)), 2, 'jeq');
    assert.equal(branch(I(0x45, 0x80000001, 1, 0)), 2, 'jset');
    assert.equal(branch(I(0x45, 1, 1, 0)), 1, 'jset false');
    assert.equal(branch(I(0x2d, 0, 1, 0)), 2, 'jgt x');
    assert.equal(run([I(0x05, 1), RET(1), RET(2)], data).ret, 2, 'ja');
  });

  it('counts executed instructions, the ret included', () => {
    assert.equal(run([I(0x05, 1), RET(1), RET(2)], data).steps, 2);
  });

  it('decodes actions as the kernel does', () => {
    assert.deepEqual(decodeAction(0x7fff0000), { kind: 'allow' });
    assert.deepEqual(decodeAction(0x00050061), { kind: 'errno', errno: 97 });
    assert.deepEqual(decodeAction(0x0005ffff), { kind: 'errno', errno: 4095 }, 'errno capped at MAX_ERRNO');
    assert.deepEqual(decodeAction(0x80000000), { kind: 'kill-process' });
    assert.deepEqual(decodeAction(0x00000000), { kind: 'kill-thread' });
    assert.deepEqual(decodeAction(0x12340000), { kind: 'kill-process' }, 'unknown actions kill');
    assert.deepEqual(decodeAction(0x7ffc0000), { kind: 'log' });
    assert.deepEqual(decodeAction(0x7ff00007), { kind: 'trace', data: 7 });
  });
});

describe('verifier', () => {
  const refuses = (p: SockFilter[], re: RegExp): void =>
    assert.throws(
      () => verify(p),
      (e: unknown) => e instanceof VerifyError && re.test(e.message),
    );

  it('accepts a minimal program', () => verify([RET(0x7fff0000)]));
  it('refuses empty and oversized programs', () => {
    refuses([], /length 0/);
    refuses(
      Array.from({ length: 4097 }, () => RET(0)),
      /length 4097/,
    );
  });
  it('refuses loads outside seccomp_data or unaligned', () => {
    refuses([I(0x20, 64), RET(0)], /outside seccomp_data/);
    refuses([I(0x20, 2), RET(0)], /unaligned/);
  });
  it('refuses what seccomp does not allow', () => {
    refuses([I(0x28, 0), RET(0)], /opcode 0x28/); // ldh
    refuses([I(0x94, 3), RET(0)], /opcode 0x94/); // mod
    refuses([I(0x40, 0), RET(0)], /opcode 0x40/); // ld [x + k]
  });
  it('refuses a missing final ret, jumps out, bad constants and scratch words', () => {
    refuses([RET(0), I(0x00, 1)], /last instruction/);
    refuses([I(0x05, 1), RET(0)], /jumps out/);
    refuses([I(0x15, 0, 5, 0), RET(0)], /leaves the program/);
    refuses([I(0x34, 0), RET(0)], /division by constant 0/);
    refuses([I(0x64, 32), RET(0)], /shift by 32/);
    refuses([I(0x02, 16), RET(0)], /M\[16\]/);
  });
  it('refuses reading scratch memory that some path has not written', () => {
    refuses([I(0x60, 0), RET_A], /M\[0\] may be read/);
    // Written on one branch only.
    refuses([I(0x15, 0, 0, 1), I(0x02, 0), I(0x60, 0), RET_A], /M\[0\] may be read/);
    verify([I(0x02, 0), I(0x15, 0, 0, 1), I(0x00, 1), I(0x60, 0), RET_A]);
  });
});
