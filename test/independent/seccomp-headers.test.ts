// boxwright's named constants (targets/linux/seccomp/constants.json: AF_*,
// PROT_*, SHM_*, CLONE_*, personality, S_IS*, TIOC*, errno, AUDIT_ARCH_*) and
// the filter's own (SECCOMP_RET_*, the x32 bit, each architecture's audit
// value) against the C headers, as gcc evaluates them for each architecture:
// many of these are written out by hand in gen-syscall-tables.mjs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  SECCOMP_RET_ALLOW,
  SECCOMP_RET_DATA,
  SECCOMP_RET_ERRNO,
  SECCOMP_RET_KILL_PROCESS,
  SECCOMP_RET_LOG,
  SECCOMP_RET_TRAP,
} from '../../targets/linux/seccomp/bpf.js';
import constantsJson from '../../targets/linux/seccomp/constants.json' with { type: 'json' };
import { archInfo, X32_SYSCALL_BIT } from '../../targets/linux/seccomp/tables.js';
import { requireOrSkip } from '../helpers.js';
import { compilerFor, headerConstants, type Arch } from './abi.js';

/** Every named constant boxwright knows, with its value: constants.json's families and the filter's own. */
function ours(arch: Arch): Map<string, number> {
  const all = new Map<string, number>();
  for (const family of Object.values(constantsJson.families))
    for (const [name, v] of Object.entries(family.values as Record<string, number>)) all.set(name, v);
  const filter = { SECCOMP_RET_ALLOW, SECCOMP_RET_DATA, SECCOMP_RET_ERRNO, SECCOMP_RET_KILL_PROCESS, SECCOMP_RET_LOG, SECCOMP_RET_TRAP };
  for (const [name, v] of Object.entries(filter)) all.set(name, v);
  if (arch === 'x86_64') all.set('__X32_SYSCALL_BIT', X32_SYSCALL_BIT);
  return all;
}

function mismatches(mine: ReadonlyMap<string, number>, theirs: ReadonlyMap<string, number>): string[] {
  return [...mine].flatMap(([name, v]) =>
    theirs.get(name) === v ? [] : [`${name}: ours ${v}, the headers ${theirs.get(name) ?? 'undeclared'}`],
  );
}

describe('independent: named constants against the C headers (gcc)', () => {
  for (const arch of ['x86_64', 'aarch64'] as const) {
    it(`every constant has the headers' value on ${arch}`, (t) => {
      const cc = compilerFor(arch);
      const skip = requireOrSkip(cc !== undefined, `a C compiler for ${arch} (Debian gcc, or gcc-${arch.replace('_', '-')}-linux-gnu)`);
      if (skip) return t.skip(skip);
      const mine = ours(arch);
      assert.ok(mine.size > 200, `${mine.size} constants`);
      const headers = headerConstants(cc!, [...mine.keys()]);
      assert.deepEqual(headers.undeclared, []);
      assert.deepEqual(mismatches(mine, headers.values), []);
      // The code generator's own copy of this architecture's audit value (tables.ts).
      assert.equal(archInfo(arch).auditArch, headers.values.get(archInfo(arch).auditArchName));
    });
  }

  it('a wrong value and an unknown name are found (the check can fail)', (t) => {
    const cc = compilerFor(process.arch === 'arm64' ? 'aarch64' : 'x86_64');
    const skip = requireOrSkip(cc !== undefined, 'a C compiler (Debian gcc)');
    if (skip) return t.skip(skip);
    const wrong = new Map([
      ['TIOCSTI', 0x5413],
      ['AF_INET6', 10],
      ['BOXWRIGHT_NO_SUCH_CONSTANT', 1],
    ]);
    const headers = headerConstants(cc!, [...wrong.keys()]);
    assert.deepEqual(headers.undeclared, ['BOXWRIGHT_NO_SUCH_CONSTANT']);
    assert.deepEqual(mismatches(wrong, headers.values), [
      'TIOCSTI: ours 21523, the headers 21522',
      'BOXWRIGHT_NO_SUCH_CONSTANT: ours 1, the headers undeclared',
    ]);
  });
});
