/**
 * Typed access to the seccomp data files: the syscall tables of each
 * architecture and the named constants (audit arches, address families, PROT_*,
 * CLONE_*, errno …). The JSON is generated from the kernel UAPI headers by
 * gen-syscall-tables.mjs and checked in; everything that needs a number by
 * name, or a name for a number, goes through here, so the policy, the code
 * generator and the disassembler can never disagree.
 */
import constantsJson from './constants.json' with { type: 'json' };
import aarch64Json from './syscalls.aarch64.json' with { type: 'json' };
import x86_64Json from './syscalls.x86_64.json' with { type: 'json' };

export type Arch = 'x86_64' | 'aarch64';
export const ARCHES: readonly Arch[] = ['x86_64', 'aarch64'];

export interface ArchInfo {
  readonly arch: Arch;
  /** `seccomp_data.arch` for this ABI (AUDIT_ARCH_*). */
  readonly auditArch: number;
  readonly auditArchName: string;
  /**
   * x86_64 only: the x32 ABI shares AUDIT_ARCH_X86_64 and marks its syscall
   * numbers with this bit, so the arch check alone does not exclude it.
   */
  readonly x32Bit: number | undefined;
}

export const X32_SYSCALL_BIT = 0x40000000;

const ARCH_INFO: Readonly<Record<Arch, ArchInfo>> = {
  x86_64: { arch: 'x86_64', auditArch: 0xc000003e, auditArchName: 'AUDIT_ARCH_X86_64', x32Bit: X32_SYSCALL_BIT },
  aarch64: { arch: 'aarch64', auditArch: 0xc00000b7, auditArchName: 'AUDIT_ARCH_AARCH64', x32Bit: undefined },
};

export function archInfo(arch: Arch): ArchInfo {
  return ARCH_INFO[arch];
}

export function isArch(s: string): s is Arch {
  return s === 'x86_64' || s === 'aarch64';
}

interface SyscallTable {
  readonly arch: Arch;
  readonly byName: ReadonlyMap<string, number>;
  readonly byNumber: ReadonlyMap<number, string>;
}

function buildTable(arch: Arch, json: Readonly<Record<string, number>>): SyscallTable {
  const byName = new Map<string, number>();
  const byNumber = new Map<number, string>();
  for (const [name, nr] of Object.entries(json)) {
    byName.set(name, nr);
    byNumber.set(nr, name);
  }
  return { arch, byName, byNumber };
}

const TABLES: Readonly<Record<Arch, SyscallTable>> = {
  x86_64: buildTable('x86_64', x86_64Json),
  aarch64: buildTable('aarch64', aarch64Json),
};

export function syscallTable(arch: Arch): SyscallTable {
  return TABLES[arch];
}

export function syscallNumber(arch: Arch, name: string): number | undefined {
  return TABLES[arch].byName.get(name);
}

export function syscallName(arch: Arch, nr: number): string | undefined {
  return TABLES[arch].byNumber.get(nr);
}

// ---------------------------------------------------------------------------
// Named constants

export type FamilyName = 'AUDIT_ARCH' | 'AF' | 'PROT' | 'SHM' | 'CLONE' | 'PER' | 'MODE' | 'TIOC' | 'errno';

interface Family {
  /** `enum`: a value has one name; `flags`: a value is an OR of names. */
  readonly kind: 'enum' | 'flags';
  readonly byName: ReadonlyMap<string, number>;
  readonly byValue: ReadonlyMap<number, string>;
}

function buildFamily(json: { kind: string; values: Readonly<Record<string, number>> }): Family {
  const byName = new Map<string, number>();
  const byValue = new Map<number, string>();
  for (const [name, value] of Object.entries(json.values)) {
    byName.set(name, value);
    if (!byValue.has(value)) byValue.set(value, name);
  }
  return { kind: json.kind === 'flags' ? 'flags' : 'enum', byName, byValue };
}

const FAMILIES: ReadonlyMap<FamilyName, Family> = new Map(
  (Object.entries(constantsJson.families) as [FamilyName, { kind: string; values: Record<string, number> }][]).map(
    ([name, json]) => [name, buildFamily(json)] as const,
  ),
);

function family(name: FamilyName): Family {
  const f = FAMILIES.get(name);
  if (!f) throw new Error(`constants.json has no family ${name}`);
  return f;
}

/** The value of a named constant from any family (`AF_INET`, `PROT_EXEC`, `EPERM` …). */
export function constantValue(name: string): number | undefined {
  for (const f of FAMILIES.values()) {
    const v = f.byName.get(name);
    if (v !== undefined) return v;
  }
  return undefined;
}

export function errnoNumber(name: string): number | undefined {
  return family('errno').byName.get(name);
}

export function errnoName(errno: number): string | undefined {
  return family('errno').byValue.get(errno);
}

/**
 * A value spelled with the names of `familyName`: `AF_INET6`,
 * `PROT_WRITE|PROT_EXEC`, `CLONE_NEWUSER|0x11`. Undefined when nothing in the
 * value has a name (the caller then prints the number alone).
 */
export function symbolize(familyName: FamilyName, value: number): string | undefined {
  const f = family(familyName);
  const exact = f.byValue.get(value);
  if (f.kind === 'enum' || exact !== undefined) return exact;
  // All bits set is a "query"/"everything" sentinel, not a set of flags.
  if (value === 0xffffffff) return undefined;
  const parts: string[] = [];
  let rest = value >>> 0;
  const flags = [...f.byName].filter(([, v]) => v !== 0 && (v & (v - 1)) === 0).sort((a, b) => a[1] - b[1]);
  for (const [name, v] of flags) {
    if ((rest & v) >>> 0 === v) {
      parts.push(name);
      rest = (rest & ~v) >>> 0;
    }
  }
  if (parts.length === 0) return undefined;
  if (rest !== 0) parts.push('0x' + rest.toString(16));
  return parts.join('|');
}

/** The constant family argument `index` of `syscall` draws from, if known. */
export function argumentFamily(syscall: string, index: number): FamilyName | undefined {
  const args = (constantsJson.arguments as Readonly<Record<string, Readonly<Record<string, string>>>>)[syscall];
  const fam = args?.[String(index)];
  return fam !== undefined && FAMILIES.has(fam as FamilyName) ? (fam as FamilyName) : undefined;
}

/** The AUDIT_ARCH_* name of a `seccomp_data.arch` value. */
export function auditArchName(value: number): string | undefined {
  return family('AUDIT_ARCH').byValue.get(value);
}
