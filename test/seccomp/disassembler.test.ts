// seccomp.txt: symbolic, stable, and able to read programs boxwright did not write.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileSeccomp, decode, disassemble, type SockFilter } from '../../targets/linux/seccomp/index.js';
import { program } from './support.js';

const lines = (arch: 'x86_64' | 'aarch64'): string[] => disassemble(program(arch), arch);
const find = (ls: readonly string[], re: RegExp): string => {
  const hit = ls.find((l) => re.test(l));
  assert.ok(hit, `no line matches ${re}\n${ls.join('\n')}`);
  return hit;
};

describe('disassembler on boxwright’s programs', () => {
  for (const arch of ['x86_64', 'aarch64'] as const) {
    it(`${arch}: one numbered line per instruction`, () => {
      const ls = lines(arch);
      assert.equal(ls.length, program(arch).length);
      ls.forEach((l, i) => assert.match(l, new RegExp(`^\\s*${i}\\s`)));
    });

    it(`${arch}: starts with the arch check, named`, () => {
      const ls = lines(arch);
      assert.match(ls[0]!, /ld \[4\]\s+; A = arch$/);
      assert.match(ls[1]!, new RegExp(`jeq #0x[0-9a-f]+, L2, L\\d+\\s+; arch == AUDIT_ARCH_${arch.toUpperCase()}$`));
      assert.match(ls[2]!, /L2:\s+ld \[0\]\s+; A = nr$/);
    });

    it(`${arch}: names syscalls, constants and actions`, () => {
      const ls = lines(arch);
      find(ls, /jge #\d+, L\d+, L\d+\s+; nr >= \d+ \(socket\)/);
      find(ls, /ld \[16\]\s+; A = args\[0\] low 32 bits of socket, socketpair$/);
      find(ls, /jeq #1, L\d+, L\d+\s+; args\[0\] low 32 bits == AF_UNIX$/);
      find(ls, /jeq #2, L\d+, L\d+\s+; args\[0\] low 32 bits == AF_INET$/);
      find(ls, /ld \[32\]\s+; A = args\[2\] low 32 bits of mmap$/);
      find(ls, /and #6\s+; A = args\[2\] low 32 bits & PROT_WRITE\|PROT_EXEC$/);
      find(ls, /jset #4, .*; args\[2\] low 32 bits & PROT_EXEC$/);
      find(ls, /jset #0x8000, .*; args\[2\] low 32 bits & SHM_EXEC$/);
      find(ls, /jset #0x7e020000, .*CLONE_NEWUSER/);
      find(ls, /ret ALLOW\s+; 0x7fff0000$/);
      find(ls, /ret ERRNO\(EPERM\)\s+; 0x00050001$/);
      find(ls, /ret ERRNO\(ENOSYS\)\s+; 0x00050026$/);
      find(ls, /ret ERRNO\(EAFNOSUPPORT\)\s+; 0x00050061$/);
    });

    it(`${arch}: never loads a high word`, () => {
      for (const l of lines(arch)) assert.doesNotMatch(l, /high 32 bits/);
    });
  }

  it('x86_64: names the x32 check', () => {
    find(lines('x86_64'), /^\s*3\s+jge #0x40000000, L\d+, L4\s+; nr >= 0x40000000 \(x32 ABI bit\)$/);
  });

  it('labels exactly the jump targets', () => {
    const ls = lines('x86_64');
    const referenced = new Set(ls.flatMap((l) => [...l.replace(/;.*/, '').matchAll(/L(\d+)\b(?!:)/g)].map((m) => Number(m[1]))));
    ls.forEach((l, i) => assert.equal(/^\s*\d+\s+L\d+:/.test(l), referenced.has(i), l));
  });

  it('is stable: the same program gives the same text, and decode → disassemble round-trips', () => {
    const a = compileSeccomp();
    const b = compileSeccomp();
    assert.equal(a.text, b.text);
    for (const p of a.programs) {
      assert.deepEqual(disassemble(decode(p.bytes), p.arch), disassemble(program(p.arch), p.arch));
    }
  });
});

describe('disassembler on other programs', () => {
  it('spells every seccomp opcode in bpf_asm style', () => {
    const p: SockFilter[] = [
      { code: 0x00, jt: 0, jf: 0, k: 7 }, // ld #7
      { code: 0x02, jt: 0, jf: 0, k: 3 }, // st M[3]
      { code: 0x61, jt: 0, jf: 0, k: 3 }, // ldx M[3]
      { code: 0x0c, jt: 0, jf: 0, k: 0 }, // add x
      { code: 0x84, jt: 0, jf: 0, k: 0 }, // neg
      { code: 0x74, jt: 0, jf: 0, k: 2 }, // rsh #2
      { code: 0x07, jt: 0, jf: 0, k: 0 }, // tax
      { code: 0x87, jt: 0, jf: 0, k: 0 }, // txa
      { code: 0x80, jt: 0, jf: 0, k: 0 }, // ld #len
      { code: 0x1d, jt: 0, jf: 1, k: 0 }, // jeq x, L10, L11
      { code: 0x16, jt: 0, jf: 0, k: 0 }, // ret a
      { code: 0x06, jt: 0, jf: 0, k: 0x80000000 }, // ret KILL_PROCESS
    ];
    const text = disassemble(p, 'x86_64').map((l) => l.replace(/\s*;.*$/, '').replace(/^\s*\d+\s+(L\d+:)?\s*/, ''));
    assert.deepEqual(text, [
      'ld #7',
      'st M[3]',
      'ldx M[3]',
      'add x',
      'neg',
      'rsh #2',
      'tax',
      'txa',
      'ld #len',
      'jeq x, L10, L11',
      'ret a',
      'ret KILL_PROCESS',
    ]);
  });

  it('marks unreachable instructions and unknown opcodes', () => {
    const p: SockFilter[] = [
      { code: 0x06, jt: 0, jf: 0, k: 0x7fff0000 },
      { code: 0x28, jt: 0, jf: 0, k: 12 }, // ldh [12]: not seccomp
      { code: 0x06, jt: 0, jf: 0, k: 0x00030005 },
    ];
    const ls = disassemble(p, 'aarch64');
    assert.match(ls[1]!, /ldh|\.insn 0x0028/);
    assert.match(ls[1]!, /; unreachable$/);
    assert.match(ls[2]!, /ret TRAP\(5\)/);
  });
});
