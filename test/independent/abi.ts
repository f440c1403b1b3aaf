/**
 * The Linux ABI as other people's code states it, for the tests that must
 * not take boxwright's own tables on trust: syscall numbers from libseccomp
 * (python3-seccomp), named constants from the C headers as gcc evaluates
 * them (the host's compiler, or the Debian cross compiler for the other
 * architecture: each architecture's own headers).
 */
import { spawnSync } from 'node:child_process';
import { hasPythonModule, python } from './tools.js';

export type Arch = 'x86_64' | 'aarch64';
const LIBSECCOMP_ARCH: Readonly<Record<Arch, string>> = { x86_64: 'X86_64', aarch64: 'AARCH64' };

export const hasLibseccomp: boolean = hasPythonModule('seccomp');

const resolver = String.raw`
import json, sys, seccomp
request = json.load(sys.stdin)
out = {'numbers': {}, 'audit': {}}
for arch, names in request.items():
    a = getattr(seccomp.Arch, arch)
    got = {}
    for name in names:
        try:
            n = seccomp.resolve_syscall(a, name)
        except Exception:
            n = -1
        # Negative: not a syscall of this architecture (-1 unknown, below that a pseudo-syscall).
        got[name] = n if n >= 0 else None
    out['numbers'][arch] = got
for k in ('X86_64', 'AARCH64', 'X86', 'ARM'):
    out['audit'][k] = int(getattr(seccomp.Arch, k)) & 0xffffffff
print(json.dumps(out))
`;

export interface Libseccomp {
  /** libseccomp's number for each name asked, per architecture key (X86_64 …); null: unknown to it. */
  readonly numbers: Readonly<Record<string, Readonly<Record<string, number | null>>>>;
  /** AUDIT_ARCH_* values by libseccomp's architecture name (X86_64, AARCH64, X86, ARM). */
  readonly audit: Readonly<Record<string, number>>;
}

/** Asks libseccomp, in one run, for the numbers of `names` per libseccomp architecture name (X86_64 …). */
export function askLibseccomp(request: Readonly<Partial<Record<string, readonly string[]>>>): Libseccomp {
  const r = python(resolver, JSON.stringify(request));
  if (r.status !== 0) throw new Error(`python3-seccomp failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Libseccomp;
}

/** libseccomp's syscall numbers for `names` on each of boxwright's architectures, and their audit values. */
export function libseccompSyscalls(names: Readonly<Record<Arch, readonly string[]>>): {
  readonly numbers: Readonly<Record<Arch, ReadonlyMap<string, number | null>>>;
  readonly auditArch: Readonly<Record<Arch, number>>;
} {
  const got = askLibseccomp({ X86_64: names.x86_64, AARCH64: names.aarch64 });
  const numbers = (arch: Arch) => new Map(Object.entries(got.numbers[LIBSECCOMP_ARCH[arch]] ?? {}));
  return {
    numbers: { x86_64: numbers('x86_64'), aarch64: numbers('aarch64') },
    auditArch: { x86_64: got.audit.X86_64!, aarch64: got.audit.AARCH64! },
  };
}

const hostArch: Arch | undefined = process.arch === 'x64' ? 'x86_64' : process.arch === 'arm64' ? 'aarch64' : undefined;

/** A C compiler that targets `arch` (the host's gcc, else Debian's <arch>-linux-gnu-gcc), if one is here. */
export function compilerFor(arch: Arch): string | undefined {
  for (const cc of [...(arch === hostArch ? ['gcc', 'cc'] : []), `${arch}-linux-gnu-gcc`]) {
    const r = spawnSync(cc, ['-dumpmachine'], { encoding: 'utf8' });
    if (r.status === 0 && r.stdout.startsWith(`${arch}-`)) return cc;
  }
  return undefined;
}

/**
 * The headers the constants come from: glibc's for the user-space names
 * (AF_*, PROT_*, CLONE_*, S_IS*, TIOC*, E*, personality), the kernel's for
 * the rest (PROT_SEM is only in <linux/mman.h>; AUDIT_ARCH_*, SECCOMP_RET_*,
 * __X32_SYSCALL_BIT).
 */
const HEADERS = [
  'errno.h',
  'sched.h',
  'sys/socket.h',
  'sys/mman.h',
  'linux/mman.h',
  'sys/shm.h',
  'sys/personality.h',
  'sys/stat.h',
  'sys/ioctl.h',
  'linux/audit.h',
  'linux/seccomp.h',
  'asm/unistd.h',
];

export interface HeaderConstants {
  readonly values: ReadonlyMap<string, number>;
  /** Names the headers do not declare for this architecture. */
  readonly undeclared: readonly string[];
}

/**
 * The values of `names` for `arch`, as `cc` evaluates them: each becomes an
 * element of a u64 array, compiled to assembly (-S, nothing is run, so the
 * other architecture's compiler serves as well as the host's) and read back
 * from the array's .quad/.xword (or .zero) lines. A name the headers lack is an error
 * gcc names; it is left out and reported.
 */
export function headerConstants(cc: string, names: readonly string[]): HeaderConstants {
  const compile = (list: readonly string[]) => {
    const source = [
      '#define _GNU_SOURCE',
      ...HEADERS.map((h) => `#include <${h}>`),
      'const unsigned long long boxwright_constants[] = {',
      ...list.map((n) => `  (unsigned long long)(${n}),`),
      '  0 };',
      '',
    ].join('\n');
    return spawnSync(cc, ['-S', '-O0', '-o', '-', '-x', 'c', '-'], {
      input: source,
      encoding: 'utf8',
      env: { ...process.env, LC_ALL: 'C' },
    });
  };
  let r = compile(names);
  const undeclared = [...new Set([...r.stderr.matchAll(/error: '(\w+)' undeclared/g)].map((m) => m[1]!))].sort();
  const declared = names.filter((n) => !undeclared.includes(n));
  if (undeclared.length > 0) r = compile(declared);
  if (r.status !== 0) throw new Error(`${cc} failed on the constants probe:\n${r.stderr}`);
  const label = r.stdout.indexOf('boxwright_constants:');
  if (label < 0) throw new Error(`${cc}: no boxwright_constants in the assembly`);
  // The array's data directives, up to the first line that is not one (a run of zeros may be one .zero).
  const words: bigint[] = [];
  for (const line of r.stdout.slice(label).split('\n').slice(1)) {
    const word = /^\s*\.(?:quad|xword|8byte)\s+(-?\d+)\s*$/.exec(line);
    const zeros = /^\s*\.zero\s+(\d+)\s*$/.exec(line);
    if (word) words.push(BigInt.asUintN(64, BigInt(word[1]!)));
    else if (zeros) words.push(...Array.from({ length: Number(zeros[1]) / 8 }, () => 0n));
    else break;
  }
  if (words.length !== declared.length + 1) throw new Error(`${cc}: ${words.length} words for ${declared.length + 1} constants`);
  return { values: new Map(declared.map((n, i) => [n, Number(words[i]!)])), undeclared };
}
