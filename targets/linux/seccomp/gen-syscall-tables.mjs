// Regenerates syscalls.x86_64.json, syscalls.aarch64.json and constants.json
// from the Linux UAPI and glibc headers (Debian packages linux-libc-dev and
// libc6-dev; linux-libc-dev ships asm-generic/unistd.h, which is aarch64's
// table, on every architecture). Run by hand, not by the build: the tables are
// reviewed data, checked in. Flag families that the headers spread over
// several files, or mix with non-flag values, are written out here.
//
//   node targets/linux/seccomp/gen-syscall-tables.mjs   (needs cpp)
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** Macro definitions after preprocessing `include` with `defines`. */
function macros(include, defines, prefix = '__NR') {
  const includes = Array.isArray(include) ? include : [include];
  const out = execFileSync('cpp', ['-dM', '-P', ...defines.map((d) => '-D' + d), '-'], {
    input: includes.map((i) => `#include <${i}>\n`).join(''),
    encoding: 'utf8',
  });
  const defs = new Map();
  for (const line of out.split('\n')) {
    const m = /^#define (\w+) (.+)$/.exec(line.trim());
    if (m && m[1].startsWith(prefix)) defs.set(m[1], m[2].trim());
  }
  return defs;
}

function table(defs) {
  const resolve = (v, depth = 0) => {
    if (/^\d+$/.test(v)) return Number(v);
    const paren = /^\((.*)\)$/.exec(v);
    if (paren) return resolve(paren[1], depth);
    const sum = /^(\w+)\s*\+\s*(\d+)$/.exec(v);
    if (sum) return resolve(sum[1], depth + 1) + Number(sum[2]);
    if (depth < 8 && defs.has(v)) return resolve(defs.get(v), depth + 1);
    return undefined;
  };
  const result = {};
  const entries = [];
  for (const [name, v] of defs) {
    if (!name.startsWith('__NR_')) continue; // skips __NR3264_* helpers
    const sys = name.slice('__NR_'.length);
    if (sys === 'syscalls' || sys === 'arch_specific_syscall') continue;
    const nr = resolve(v);
    if (nr === undefined) throw new Error(`cannot resolve ${name} = ${v}`);
    entries.push([sys, nr]);
  }
  entries.sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1));
  for (const [sys, nr] of entries) result[sys] = nr;
  return result;
}

const x86 = table(macros('x86_64-linux-gnu/asm/unistd_64.h', []));
// arch/arm64/include/uapi/asm/unistd.h defines these before including the generic table.
const arm = table(
  macros('asm-generic/unistd.h', [
    '__BITS_PER_LONG=64',
    '__ARCH_WANT_RENAMEAT',
    '__ARCH_WANT_NEW_STAT',
    '__ARCH_WANT_SET_GET_RLIMIT',
    '__ARCH_WANT_TIME32_SYSCALLS',
    '__ARCH_WANT_SYS_CLONE3',
    '__ARCH_WANT_MEMFD_SECRET',
  ]),
);
// Syscalls newer than Debian 12's headers (linux-libc-dev 6.1) that the
// policy names. Since 5.1 every new syscall has one number on every
// architecture (the unified table from 403 up), so one entry serves both.
// Each was checked against the kernel's syscall_64.tbl / unistd.h.
const NEWER = {
  fchmodat2: 452, // 6.6: fchmodat with flags; sets mode bits like fchmodat
  open_tree_attr: 467, // 6.15: open_tree + mount_setattr; part of the new mount API
};
for (const [name, nr] of Object.entries(NEWER)) {
  for (const t of [x86, arm]) {
    if (t[name] !== undefined && t[name] !== nr) throw new Error(`${name}: headers say ${t[name]}, NEWER says ${nr}`);
    t[name] = nr;
  }
}

writeFileSync(join(here, 'syscalls.x86_64.json'), JSON.stringify(x86, null, 2) + '\n');
writeFileSync(join(here, 'syscalls.aarch64.json'), JSON.stringify(arm, null, 2) + '\n');
console.log(`x86_64: ${Object.keys(x86).length} syscalls, aarch64: ${Object.keys(arm).length} syscalls`);

/** Numeric constants named `prefix*`; aliases (a name defined as another name) are dropped unless preferred. */
function family(include, prefix, { drop = [], prefer = [] } = {}) {
  const defs = macros(include, ['_GNU_SOURCE'], prefix.replace(/_$/, ''));
  const pf = prefix === 'AF_' ? macros(include, ['_GNU_SOURCE'], 'PF') : new Map();
  const value = (v) => {
    for (let i = 0; i < 8 && !/^(0x[0-9a-f]+|\d+)$/i.test(v); i++) v = defs.get(v) ?? pf.get(v) ?? v;
    return /^(0x[0-9a-f]+|\d+)$/i.test(v) ? Number(v) : undefined;
  };
  const byValue = new Map();
  for (const [name, def] of [...defs].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (!name.startsWith(prefix) || drop.includes(name)) continue;
    const n = value(def);
    if (n === undefined) continue;
    // An alias is a name defined as another name (EWOULDBLOCK is EAGAIN): keep the target.
    const alias = !/^(0x[0-9a-f]+|\d+)$/i.test(def) && prefix !== 'AF_';
    if (alias && !prefer.includes(name)) continue;
    const seen = byValue.get(n);
    if (seen !== undefined && !prefer.includes(name)) throw new Error(`${prefix}: ${seen} and ${name} are both ${n}`);
    byValue.set(n, name);
  }
  const out = {};
  for (const [n, name] of [...byValue].sort((a, b) => a[0] - b[0])) out[name] = n;
  return out;
}

const constants = {
  families: {
    AUDIT_ARCH: {
      kind: 'enum',
      values: { AUDIT_ARCH_I386: 0x40000003, AUDIT_ARCH_ARM: 0x40000028, AUDIT_ARCH_X86_64: 0xc000003e, AUDIT_ARCH_AARCH64: 0xc00000b7 },
    },
    AF: {
      kind: 'enum',
      values: family('sys/socket.h', 'AF_', { drop: ['AF_MAX', 'AF_FILE', 'AF_LOCAL', 'AF_ROUTE'] }),
    },
    PROT: {
      kind: 'flags',
      values: { PROT_NONE: 0, PROT_READ: 0x1, PROT_WRITE: 0x2, PROT_EXEC: 0x4, PROT_SEM: 0x8, PROT_GROWSDOWN: 0x01000000, PROT_GROWSUP: 0x02000000 },
    },
    SHM: {
      // shmat(2) flags only (octal in the headers).
      kind: 'flags',
      values: { SHM_RDONLY: 0o10000, SHM_RND: 0o20000, SHM_REMAP: 0o40000, SHM_EXEC: 0o100000 },
    },
    CLONE: { kind: 'flags', values: family('sched.h', 'CLONE_') },
    PER: {
      // personality(2): a persona in the low byte plus flag bits (sys/personality.h).
      kind: 'flags',
      values: {
        PER_LINUX: 0, PER_LINUX32: 0x8, UNAME26: 0x20000, ADDR_NO_RANDOMIZE: 0x40000, FDPIC_FUNCPTRS: 0x80000,
        MMAP_PAGE_ZERO: 0x100000, ADDR_COMPAT_LAYOUT: 0x200000, READ_IMPLIES_EXEC: 0x400000, ADDR_LIMIT_32BIT: 0x800000,
        SHORT_INODE: 0x1000000, WHOLE_SECONDS: 0x2000000, STICKY_TIMEOUTS: 0x4000000, ADDR_LIMIT_3GB: 0x8000000,
      },
    },
    MODE: {
      // The set-id bits of a file mode (sys/stat.h, octal there): the
      // setuid-mode rules refuse them in chmod-family and creation modes.
      kind: 'flags',
      values: { S_ISVTX: 0o1000, S_ISGID: 0o2000, S_ISUID: 0o4000 },
    },
    TIOC: {
      // ioctl(2) requests the policy names (asm-generic/ioctls.h; the same on x86_64 and aarch64).
      kind: 'enum',
      values: { TIOCSCTTY: 0x540e, TIOCSTI: 0x5412, TIOCLINUX: 0x541c },
    },
    errno: { kind: 'enum', values: family('errno.h', 'E') },
  },
  // Which constant family an argument of a syscall is drawn from, for the
  // disassembler's comments. Same meaning on x86_64 and aarch64.
  arguments: {
    socket: { 0: 'AF' },
    socketpair: { 0: 'AF' },
    mmap: { 2: 'PROT' },
    mprotect: { 2: 'PROT' },
    pkey_mprotect: { 2: 'PROT' },
    shmat: { 2: 'SHM' },
    clone: { 0: 'CLONE' },
    unshare: { 0: 'CLONE' },
    personality: { 0: 'PER' },
    ioctl: { 1: 'TIOC' },
    chmod: { 1: 'MODE' },
    fchmod: { 1: 'MODE' },
    creat: { 1: 'MODE' },
    mknod: { 1: 'MODE' },
    fchmodat: { 2: 'MODE' },
    fchmodat2: { 2: 'MODE' },
    mknodat: { 2: 'MODE' },
    open: { 2: 'MODE' },
    openat: { 3: 'MODE' },
  },
};
writeFileSync(join(here, 'constants.json'), JSON.stringify(constants, null, 2) + '\n');
console.log('constants.json written');
