/**
 * What the kernel and the dynamic loader read of a program file, read by
 * boxwright itself (never `ldd`, which runs the loader on the file, and
 * so the program): a `#!` line, or an ELF file's interpreter (PT_INTERP)
 * and its dynamic section (DT_NEEDED, DT_RUNPATH, DT_RPATH, DT_FLAGS_1).
 *
 * The file is hostile input: every read is bounded and checked against
 * the file's size, every offset and count against the ELF rules and the
 * kernel's own limits (fs/binfmt_elf.c, fs/binfmt_script.c), and a file
 * that breaks one is `malformed`, with the reason — never an exception,
 * never a read past what the reader allows.
 */

/** What a program file says about how it starts. */
export type ProgramFacts =
  | ElfFacts
  /** `#!INTERPRETER [ARGUMENT]`: the kernel runs the interpreter (which must be executable) with the file. */
  | { readonly kind: 'script'; readonly interpreter: string; readonly argument?: string }
  /** Neither an ELF file nor a `#!` script: execve fails with ENOEXEC (a shell then runs it as a script). */
  | { readonly kind: 'other' }
  /** An ELF file or `#!` line the kernel or the loader refuses, and why. */
  | { readonly kind: 'malformed'; readonly problem: string }
  /** The view cannot say: no facts (`--fs none`), a manifest entry that records no program, an unreadable file. */
  | { readonly kind: 'unknown' };

export interface ElfFacts {
  readonly kind: 'elf';
  readonly elfClass: 32 | 64;
  /** e_machine: 62 x86_64, 183 aarch64 (the ELF numbers; `machineName` words them). */
  readonly machine: number;
  /** ET_EXEC, ET_DYN (a PIE or a shared library), or another type the kernel does not run. */
  readonly type: 'exec' | 'dyn' | 'other';
  /** PT_INTERP: the dynamic loader the kernel maps with the program (and checks for execute). Absent: a static program. */
  readonly interpreter?: string;
  /** DT_NEEDED, in order: the libraries the loader opens for it. */
  readonly needed: readonly string[];
  /** DT_RUNPATH and DT_RPATH, split at `:`, unexpanded (`$ORIGIN` stays). */
  readonly runpath: readonly string[];
  readonly rpath: readonly string[];
  /** DF_1_NODEFLIB: the loader searches neither its cache nor the system directories for this object's libraries. */
  readonly noDefaultLib: boolean;
}

/** Reads at most `length` bytes at `offset`; fewer at the end of the file. */
export interface ByteSource {
  readonly size: number;
  read(offset: number, length: number): Uint8Array;
}

/** The kernel reads this much of a file to find its format (BINPRM_BUF_SIZE): a `#!` line must fit in it. */
export const BINPRM_BUF_SIZE = 256;
/** The kernel's limit on PT_INTERP (PATH_MAX), and this reader's on any string it takes from the file. */
const PATH_MAX = 4096;
/** The kernel refuses program headers that do not fit in one page (ELF_MIN_ALIGN on 4 KB pages). */
const MAX_PHDR_BYTES = 4096;
/** More dynamic entries than any real object has; a bound on what is read. */
const MAX_DYNAMIC_ENTRIES = 4096;
/** More DT_NEEDED and path entries than any real object has. */
const MAX_STRINGS = 512;

const PT_LOAD = 1;
const PT_DYNAMIC = 2;
const PT_INTERP = 3;
const DT_NULL = 0;
const DT_NEEDED = 1;
const DT_STRTAB = 5;
const DT_STRSZ = 10;
const DT_RPATH = 15;
const DT_RUNPATH = 29;
const DT_FLAGS_1 = 0x6ffffffb;
const DF_1_NODEFLIB = 0x800;

const MACHINES: Readonly<Record<number, string>> = {
  3: 'i386',
  40: 'arm',
  62: 'x86_64',
  183: 'aarch64',
  243: 'riscv',
  8: 'mips',
  20: 'ppc',
  21: 'ppc64',
  22: 's390',
};

/** An ELF machine number in words (`x86_64`), or `machine N`. */
export function machineName(machine: number): string {
  return MACHINES[machine] ?? `machine ${machine}`;
}

class Malformed extends Error {}

const bad = (problem: string): never => {
  throw new Malformed(problem);
};

/** The facts of a program file, read through `src`. Never throws for what the file holds. */
export function readProgram(src: ByteSource): ProgramFacts {
  try {
    const head = src.read(0, BINPRM_BUF_SIZE);
    if (head.length >= 2 && head[0] === 0x23 && head[1] === 0x21) return script(head);
    if (head.length >= 4 && head[0] === 0x7f && head[1] === 0x45 && head[2] === 0x4c && head[3] === 0x46) return elf(src, head);
    return { kind: 'other' };
  } catch (e) {
    if (e instanceof Malformed) return { kind: 'malformed', problem: e.message };
    throw e;
  }
}

/**
 * A `#!` line as the kernel reads it (fs/binfmt_script.c): within the first
 * 256 bytes, spaces and tabs around the interpreter, one optional argument
 * (the rest of the line, not split).
 */
function script(head: Uint8Array): ProgramFacts {
  let end = head.indexOf(0x0a);
  const truncated = end < 0;
  if (truncated) end = head.length;
  const line = Buffer.from(head.subarray(2, end)).toString('latin1');
  const body = line.replace(/^[ \t]+/, '').replace(/[ \t\r]*$/, '');
  if (body === '') return bad('its #! line names no interpreter (execve fails with ENOEXEC)');
  const space = body.search(/[ \t]/);
  const interpreter = space < 0 ? body : body.slice(0, space);
  const argument = space < 0 ? undefined : body.slice(space).replace(/^[ \t]+/, '');
  // Without a newline in the buffer, the kernel accepts the line only if the interpreter's name ends inside it.
  if (truncated && space < 0 && head.length >= BINPRM_BUF_SIZE)
    return bad(
      `its #! line is longer than the ${BINPRM_BUF_SIZE} bytes the kernel reads, and the interpreter's name does not end inside them`,
    );
  if (interpreter.includes('\u0000')) return bad('its #! interpreter holds a NUL byte');
  return argument ? { kind: 'script', interpreter, argument } : { kind: 'script', interpreter };
}

interface Header {
  readonly is64: boolean;
  readonly little: boolean;
}

// Byte arithmetic rather than a DataView and a BigInt per field: a lint reads a few thousand fields in a cold process.
const u16 = (b: Uint8Array, at: number, little: boolean): number => (little ? b[at]! | (b[at + 1]! << 8) : (b[at]! << 8) | b[at + 1]!);
const u32 = (b: Uint8Array, at: number, little: boolean): number =>
  little ? u16(b, at + 2, true) * 0x10000 + u16(b, at, true) : u16(b, at, false) * 0x10000 + u16(b, at + 2, false);

function word(b: Uint8Array, at: number, h: Header, size: 2 | 4 | 8): number {
  if (at + size > b.length) return bad('a header is cut short');
  if (size === 2) return u16(b, at, h.little);
  if (size === 4) return u32(b, at, h.little);
  const high = u32(b, h.little ? at + 4 : at, h.little);
  const low = u32(b, h.little ? at : at + 4, h.little);
  // Offsets and sizes beyond 2^53 (a high word of 2^21 or more) point past any file this reader would read.
  return high >= 0x200000 ? Number.MAX_SAFE_INTEGER : high * 0x100000000 + low;
}

/** A field of the address size (4 or 8 bytes). */
const addr = (b: Uint8Array, at: number, h: Header): number => word(b, at, h, h.is64 ? 8 : 4);

/** Exactly `length` bytes at `offset`, or malformed: the file must hold what its headers point to. */
function exact(src: ByteSource, offset: number, length: number, what: string): Uint8Array {
  if (offset < 0 || length < 0 || offset > src.size || length > src.size - offset)
    return bad(`${what} lies outside the file (offset ${offset}, ${length} bytes, the file has ${src.size})`);
  const b = src.read(offset, length);
  if (b.length !== length) return bad(`${what} could not be read whole (the file is ${src.size} bytes)`);
  return b;
}

interface Segment {
  readonly type: number;
  readonly offset: number;
  readonly vaddr: number;
  readonly filesz: number;
}

function elf(src: ByteSource, head: Uint8Array): ProgramFacts {
  const cls = head[4];
  const data = head[5];
  if (cls !== 1 && cls !== 2) return bad(`its ELF class byte is ${cls ?? 'missing'} (1: 32-bit, 2: 64-bit)`);
  if (data !== 1 && data !== 2) return bad(`its ELF data byte is ${data ?? 'missing'} (1: little-endian, 2: big-endian)`);
  if (head[6] !== 1) return bad(`its ELF version is ${head[6] ?? 'missing'}, not 1`);
  const h: Header = { is64: cls === 2, little: data === 1 };
  const ehsize = h.is64 ? 64 : 52;
  if (head.length < ehsize) return bad(`its ELF header is cut short (${head.length} of ${ehsize} bytes)`);
  const eType = word(head, 16, h, 2);
  const machine = word(head, 18, h, 2);
  const phoff = addr(head, h.is64 ? 32 : 28, h);
  const phentsize = word(head, h.is64 ? 54 : 42, h, 2);
  const phnum = word(head, h.is64 ? 56 : 44, h, 2);
  const type: ElfFacts['type'] = eType === 2 ? 'exec' : eType === 3 ? 'dyn' : 'other';
  const wantEnt = h.is64 ? 56 : 32;
  if (phnum === 0xffff) return bad('its program header count is in section 0 (PN_XNUM), which the kernel does not read');
  if (phnum > 0 && phentsize !== wantEnt) return bad(`its program headers are ${phentsize} bytes each, not ${wantEnt}`);
  if (phnum * wantEnt > MAX_PHDR_BYTES) return bad(`its ${phnum} program headers exceed the page the kernel reads them into`);
  const table = phnum ? exact(src, phoff, phnum * wantEnt, 'the program header table') : new Uint8Array(0);
  const segments: Segment[] = [];
  for (let i = 0; i < phnum; i++) {
    const at = i * wantEnt;
    const pType = word(table, at, h, 4);
    segments.push(
      h.is64
        ? { type: pType, offset: word(table, at + 8, h, 8), vaddr: word(table, at + 16, h, 8), filesz: word(table, at + 32, h, 8) }
        : { type: pType, offset: word(table, at + 4, h, 4), vaddr: word(table, at + 8, h, 4), filesz: word(table, at + 16, h, 4) },
    );
  }
  const interp = segments.find((s) => s.type === PT_INTERP);
  let interpreter: string | undefined;
  if (interp) {
    // The kernel's checks: 2 to PATH_MAX bytes, NUL-terminated.
    if (interp.filesz < 2 || interp.filesz > PATH_MAX)
      return bad(`its PT_INTERP is ${interp.filesz} bytes (the kernel takes 2 to ${PATH_MAX})`);
    const b = exact(src, interp.offset, interp.filesz, 'PT_INTERP');
    if (b[b.length - 1] !== 0) return bad('its PT_INTERP does not end in a NUL byte');
    const nul = b.indexOf(0);
    interpreter = Buffer.from(b.subarray(0, nul)).toString('latin1');
    if (interpreter === '') return bad('its PT_INTERP is empty');
  }
  const facts = {
    kind: 'elf' as const,
    elfClass: (h.is64 ? 64 : 32) as 32 | 64,
    machine,
    type,
    ...(interpreter !== undefined ? { interpreter } : {}),
  };
  const dynamic = segments.find((s) => s.type === PT_DYNAMIC);
  // A library has no interpreter and a dynamic section; a static program neither (its needs are then none: the closure asks for the interpreter first).
  if (!dynamic) return { ...facts, needed: [], runpath: [], rpath: [], noDefaultLib: false };
  return {
    ...facts,
    ...dynamicSection(
      src,
      h,
      dynamic,
      segments.filter((s) => s.type === PT_LOAD),
    ),
  };
}

function dynamicSection(
  src: ByteSource,
  h: Header,
  dyn: Segment,
  loads: readonly Segment[],
): Pick<ElfFacts, 'needed' | 'runpath' | 'rpath' | 'noDefaultLib'> {
  const ent = h.is64 ? 16 : 8;
  const count = Math.min(Math.floor(dyn.filesz / ent), MAX_DYNAMIC_ENTRIES);
  const b = exact(src, dyn.offset, count * ent, 'the dynamic section');
  const needed: number[] = [];
  const runpath: number[] = [];
  const rpath: number[] = [];
  let strtab: number | undefined;
  let strsz: number | undefined;
  let flags1 = 0;
  let ended = false;
  for (let i = 0; i < count; i++) {
    const tag = addr(b, i * ent, h);
    const val = addr(b, i * ent + ent / 2, h);
    if (tag === DT_NULL) {
      ended = true;
      break;
    }
    if (tag === DT_NEEDED) needed.push(val);
    else if (tag === DT_RUNPATH) runpath.push(val);
    else if (tag === DT_RPATH) rpath.push(val);
    else if (tag === DT_STRTAB) strtab = val;
    else if (tag === DT_STRSZ) strsz = val;
    else if (tag === DT_FLAGS_1) flags1 = val;
    if (needed.length + runpath.length + rpath.length > MAX_STRINGS)
      return bad(`its dynamic section names more than ${MAX_STRINGS} libraries and paths`);
  }
  if (!ended && count === MAX_DYNAMIC_ENTRIES) return bad(`its dynamic section has more than ${MAX_DYNAMIC_ENTRIES} entries`);
  if (!needed.length && !runpath.length && !rpath.length)
    return { needed: [], runpath: [], rpath: [], noDefaultLib: (flags1 & DF_1_NODEFLIB) !== 0 };
  if (strtab === undefined || strsz === undefined)
    return bad('its dynamic section names libraries but has no string table (DT_STRTAB, DT_STRSZ)');
  // DT_STRTAB is an address: the loaded segment that holds it gives its place in the file.
  const seg = loads.find((s) => strtab! >= s.vaddr && strtab! - s.vaddr < s.filesz);
  if (!seg) return bad('its string table (DT_STRTAB) is in no loaded segment');
  const tableAt = seg.offset + (strtab - seg.vaddr);
  const tableSize = Math.min(strsz, seg.filesz - (strtab - seg.vaddr));
  const str = (index: number): string => {
    if (index >= tableSize) return bad(`a string of its dynamic section (index ${index}) is outside its string table (${tableSize} bytes)`);
    const chunk = exact(src, tableAt + index, Math.min(PATH_MAX, tableSize - index), 'a string of the dynamic section');
    const nul = chunk.indexOf(0);
    if (nul < 0) return bad(`a string of its dynamic section (index ${index}) does not end within ${PATH_MAX} bytes`);
    return Buffer.from(chunk.subarray(0, nul)).toString('latin1');
  };
  const paths = (list: readonly number[]): string[] => list.flatMap((i) => str(i).split(':')).filter((p) => p !== '');
  return { needed: needed.map(str), runpath: paths(runpath), rpath: paths(rpath), noDefaultLib: (flags1 & DF_1_NODEFLIB) !== 0 };
}

/** A ByteSource over bytes in memory (tests, and a manifest never needs one). */
export function bytesSource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.length,
    read: (offset, length) => bytes.subarray(Math.min(offset, bytes.length), Math.min(offset + length, bytes.length)),
  };
}
