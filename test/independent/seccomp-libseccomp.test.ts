// boxwright's syscall number tables (targets/linux/seccomp/syscalls.*.json)
// and audit architecture constants against libseccomp's, through its Python
// binding (python3-seccomp): every name resolves there to the same number.
// Read-only: the seccomp code is not touched here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot, requireOrSkip } from '../helpers.js';
import { askLibseccomp, hasLibseccomp as libseccomp } from './abi.js';

const ARCHES = { x86_64: 'X86_64', aarch64: 'AARCH64' } as const;
type Arch = keyof typeof ARCHES;

/** libseccomp's number for each name per architecture (null: unknown to it), and its audit architecture values. */
function resolve(request: Partial<Record<(typeof ARCHES)[Arch], readonly string[]>>): Record<string, Record<string, number | null>> {
  const r = askLibseccomp(request);
  return { ...r.numbers, audit: r.audit };
}

const table = (arch: Arch): Record<string, number> =>
  JSON.parse(readFileSync(join(repoRoot, 'targets', 'linux', 'seccomp', `syscalls.${arch}.json`), 'utf8')) as Record<string, number>;

/**
 * Syscalls newer than Debian 12's libseccomp (2.5.4) that the tables carry
 * (gen-syscall-tables.mjs's NEWER): numbered in the unified table every
 * architecture shares since 5.1, where libseccomp has no name for them yet.
 */
const NEWER_THAN_LIBSECCOMP = 451;

/** Names whose number differs from libseccomp's, or that libseccomp does not know (older than it). */
function mismatches(ours: Record<string, number>, theirs: Record<string, number | null>): string[] {
  return Object.entries(ours).flatMap(([name, n]) =>
    theirs[name] === n || (theirs[name] === null && n >= NEWER_THAN_LIBSECCOMP)
      ? []
      : [`${name}: ours ${n}, libseccomp ${theirs[name] ?? 'unknown'}`],
  );
}

describe('independent: syscall numbers against libseccomp (python3-seccomp)', () => {
  it("every syscall of both tables has libseccomp's number", (t) => {
    const skip = requireOrSkip(libseccomp, 'python3-seccomp (Debian: apt-get install python3-seccomp)');
    if (skip) return t.skip(skip);
    const tables = { x86_64: table('x86_64'), aarch64: table('aarch64') };
    const got = resolve({ X86_64: Object.keys(tables.x86_64), AARCH64: Object.keys(tables.aarch64) });
    for (const arch of Object.keys(ARCHES) as Arch[]) {
      assert.ok(Object.keys(tables[arch]).length > 250, arch);
      assert.deepEqual(mismatches(tables[arch], got[ARCHES[arch]]!), [], arch);
    }
  });

  it("the audit architecture constants are libseccomp's", (t) => {
    const skip = requireOrSkip(libseccomp, 'python3-seccomp');
    if (skip) return t.skip(skip);
    const constants = JSON.parse(readFileSync(join(repoRoot, 'targets', 'linux', 'seccomp', 'constants.json'), 'utf8')) as {
      families: { AUDIT_ARCH: { values: Record<string, number> } };
    };
    const audit = resolve({}).audit!;
    const ours = constants.families.AUDIT_ARCH.values;
    assert.deepEqual(
      { X86_64: ours.AUDIT_ARCH_X86_64, AARCH64: ours.AUDIT_ARCH_AARCH64, X86: ours.AUDIT_ARCH_I386, ARM: ours.AUDIT_ARCH_ARM },
      audit,
    );
  });

  it('a wrong number is found (the check can fail)', (t) => {
    const skip = requireOrSkip(libseccomp, 'python3-seccomp');
    if (skip) return t.skip(skip);
    // openat is 257 on x86_64 (56 is aarch64's); an unknown name is a mismatch below the newer range, and a known one always.
    const wrong = { openat: 56, read: 0, bogus_call: 99, close: 460 };
    const got = resolve({ X86_64: Object.keys(wrong) });
    assert.deepEqual(mismatches(wrong, got.X86_64!), [
      'openat: ours 56, libseccomp 257',
      'bogus_call: ours 99, libseccomp unknown',
      'close: ours 460, libseccomp 3',
    ]);
  });
});
