// boxwright's compiled seccomp programs, run through the interpreter: the
// verdict table of the policy, on both arches, including the high-word and
// foreign-ABI pitfalls of REFERENCE.md.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ARCHES, archInfo, boxwrightPolicy, type Arch } from '../../targets/linux/seccomp/index.js';
import { run } from '../support/seccomp/interpreter.js';
import { seccompPathLengths } from '../support/seccomp/path-lengths.js';
import { verify } from '../support/seccomp/verifier.js';
import { c, call, nr, program, verdict } from './support.js';

const ALLOW = 'ALLOW';
const EPERM = 'ERRNO(EPERM)';
const ENOSYS = 'ERRNO(ENOSYS)';
const EAFNOSUPPORT = 'ERRNO(EAFNOSUPPORT)';

interface Case {
  readonly name: string;
  readonly syscall: string;
  readonly args: readonly bigint[];
  readonly expect: string;
  /** Only on this arch (x86_64's legacy path calls). */
  readonly only?: Arch;
}

const THREAD_FLAGS =
  'CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID';
const SIGCHLD = 17n;

const CASES: readonly Case[] = [
  // Socket families: the low 32 bits of arg 0 decide.
  { name: 'socket(AF_UNIX)', syscall: 'socket', args: [c('AF_UNIX'), 1n, 0n], expect: ALLOW },
  { name: 'socket(AF_INET)', syscall: 'socket', args: [c('AF_INET'), 1n, 0n], expect: ALLOW },
  { name: 'socket(AF_INET6)', syscall: 'socket', args: [c('AF_INET6'), 1n, 0n], expect: EAFNOSUPPORT },
  { name: 'socket(AF_NETLINK)', syscall: 'socket', args: [c('AF_NETLINK'), 3n, 0n], expect: EAFNOSUPPORT },
  { name: 'socket(AF_PACKET)', syscall: 'socket', args: [c('AF_PACKET'), 3n, 0n], expect: EAFNOSUPPORT },
  { name: 'socket(AF_VSOCK)', syscall: 'socket', args: [c('AF_VSOCK'), 1n, 0n], expect: EAFNOSUPPORT },
  { name: 'socket(AF_UNSPEC)', syscall: 'socket', args: [0n, 1n, 0n], expect: EAFNOSUPPORT },
  { name: 'socket(0x1_0000_000a): junk high word, AF_INET6 low', syscall: 'socket', args: [0x1_0000_000an, 1n, 0n], expect: EAFNOSUPPORT },
  {
    name: 'socket(0xffffffff_00000002): junk high word, AF_INET low',
    syscall: 'socket',
    args: [0xffffffff_00000002n, 1n, 0n],
    expect: ALLOW,
  },
  { name: 'socket(0x1_00000001): junk high word, AF_UNIX low', syscall: 'socket', args: [0x1_00000001n, 1n, 0n], expect: ALLOW },
  { name: 'socketpair(AF_UNIX)', syscall: 'socketpair', args: [c('AF_UNIX'), 1n, 0n, 0n], expect: ALLOW },
  { name: 'socketpair(AF_INET6)', syscall: 'socketpair', args: [c('AF_INET6'), 1n, 0n, 0n], expect: EAFNOSUPPORT },
  { name: 'socketpair(0x2_0000_0010)', syscall: 'socketpair', args: [0x2_0000_0010n, 1n, 0n, 0n], expect: EAFNOSUPPORT },

  // Executable memory.
  { name: 'mmap(PROT_READ|PROT_WRITE)', syscall: 'mmap', args: [0n, 4096n, c('PROT_READ|PROT_WRITE'), 0x22n], expect: ALLOW },
  { name: 'mmap(PROT_READ|PROT_EXEC)', syscall: 'mmap', args: [0n, 4096n, c('PROT_READ|PROT_EXEC'), 0x2n], expect: ALLOW },
  { name: 'mmap(PROT_WRITE|PROT_EXEC)', syscall: 'mmap', args: [0n, 4096n, c('PROT_WRITE|PROT_EXEC'), 0x22n], expect: EPERM },
  {
    name: 'mmap(PROT_READ|PROT_WRITE|PROT_EXEC)',
    syscall: 'mmap',
    args: [0n, 4096n, c('PROT_READ|PROT_WRITE|PROT_EXEC'), 0x22n],
    expect: EPERM,
  },
  { name: 'mmap(PROT_NONE)', syscall: 'mmap', args: [0n, 4096n, 0n, 0x22n], expect: ALLOW },
  { name: 'mmap(junk high, W|X low)', syscall: 'mmap', args: [0n, 4096n, 0xffffffff_00000006n, 0x22n], expect: EPERM },
  { name: 'mmap(W|X high, R|W low)', syscall: 'mmap', args: [0n, 4096n, 0x6_00000003n, 0x22n], expect: ALLOW },
  { name: 'mprotect(PROT_EXEC)', syscall: 'mprotect', args: [0x10000n, 4096n, c('PROT_EXEC')], expect: EPERM },
  { name: 'mprotect(PROT_READ|PROT_EXEC)', syscall: 'mprotect', args: [0x10000n, 4096n, c('PROT_READ|PROT_EXEC')], expect: EPERM },
  { name: 'mprotect(PROT_READ|PROT_WRITE)', syscall: 'mprotect', args: [0x10000n, 4096n, c('PROT_READ|PROT_WRITE')], expect: ALLOW },
  { name: 'mprotect(PROT_READ)', syscall: 'mprotect', args: [0x10000n, 4096n, c('PROT_READ')], expect: ALLOW },
  { name: 'mprotect(junk high, PROT_EXEC low)', syscall: 'mprotect', args: [0x10000n, 4096n, 0x8_00000004n], expect: EPERM },
  { name: 'pkey_mprotect(PROT_READ)', syscall: 'pkey_mprotect', args: [0x10000n, 4096n, c('PROT_READ'), 1n], expect: EPERM },
  { name: 'pkey_mprotect(PROT_EXEC)', syscall: 'pkey_mprotect', args: [0x10000n, 4096n, c('PROT_EXEC'), 1n], expect: EPERM },
  { name: 'shmat(0)', syscall: 'shmat', args: [1n, 0n, 0n], expect: ALLOW },
  { name: 'shmat(SHM_RDONLY)', syscall: 'shmat', args: [1n, 0n, c('SHM_RDONLY')], expect: ALLOW },
  { name: 'shmat(SHM_EXEC)', syscall: 'shmat', args: [1n, 0n, c('SHM_EXEC')], expect: EPERM },
  { name: 'personality(PER_LINUX)', syscall: 'personality', args: [0n], expect: ALLOW },
  { name: 'personality(0xffffffff) query', syscall: 'personality', args: [0xffffffffn], expect: ALLOW },
  { name: 'personality(ADDR_NO_RANDOMIZE)', syscall: 'personality', args: [c('ADDR_NO_RANDOMIZE')], expect: ALLOW },
  { name: 'personality(READ_IMPLIES_EXEC)', syscall: 'personality', args: [c('READ_IMPLIES_EXEC')], expect: EPERM },
  { name: 'personality(MMAP_PAGE_ZERO)', syscall: 'personality', args: [c('MMAP_PAGE_ZERO')], expect: EPERM },

  // Everyday syscalls, and execve, which bwrap calls right after installing the filter.
  { name: 'read', syscall: 'read', args: [0n, 0x1000n, 16n], expect: ALLOW },
  { name: 'write', syscall: 'write', args: [1n, 0x1000n, 16n], expect: ALLOW },
  { name: 'openat', syscall: 'openat', args: [0xffffff9cn, 0x1000n, 0n], expect: ALLOW },
  { name: 'close', syscall: 'close', args: [3n], expect: ALLOW },
  { name: 'execve', syscall: 'execve', args: [0x1000n, 0x2000n, 0x3000n], expect: ALLOW },
  { name: 'execve(junk)', syscall: 'execve', args: [-1n, -1n, -1n, -1n, -1n, -1n], expect: ALLOW },
  { name: 'memfd_create', syscall: 'memfd_create', args: [0x1000n, 1n], expect: ALLOW },

  // Namespaces and process creation.
  { name: 'clone(thread flags)', syscall: 'clone', args: [c(THREAD_FLAGS), 0x1000n], expect: ALLOW },
  {
    name: 'clone(fork: SIGCHLD|CLONE_CHILD_SETTID|CLONE_CHILD_CLEARTID)',
    syscall: 'clone',
    args: [c('CLONE_CHILD_SETTID|CLONE_CHILD_CLEARTID') | SIGCHLD],
    expect: ALLOW,
  },
  { name: 'clone(CLONE_NEWUSER)', syscall: 'clone', args: [c('CLONE_NEWUSER') | SIGCHLD], expect: EPERM },
  { name: 'clone(junk high, SIGCHLD low)', syscall: 'clone', args: [0xffffffff_00000011n], expect: ALLOW },
  { name: 'clone(junk high, CLONE_NEWUSER low)', syscall: 'clone', args: [0x7_00000000n | c('CLONE_NEWUSER')], expect: EPERM },
  { name: 'unshare(CLONE_NEWUSER)', syscall: 'unshare', args: [c('CLONE_NEWUSER')], expect: EPERM },
  { name: 'unshare(CLONE_NEWTIME)', syscall: 'unshare', args: [c('CLONE_NEWTIME')], expect: EPERM },
  { name: 'unshare(CLONE_FILES)', syscall: 'unshare', args: [c('CLONE_FILES')], expect: ALLOW },
  { name: 'unshare(CLONE_FS)', syscall: 'unshare', args: [c('CLONE_FS')], expect: ALLOW },
  { name: 'clone3', syscall: 'clone3', args: [0x1000n, 88n], expect: ENOSYS },
  { name: 'setns', syscall: 'setns', args: [3n, 0n], expect: EPERM },
  ...['CLONE_NEWNS', 'CLONE_NEWCGROUP', 'CLONE_NEWUTS', 'CLONE_NEWIPC', 'CLONE_NEWPID', 'CLONE_NEWNET'].flatMap((f): Case[] => [
    { name: `clone(${f})`, syscall: 'clone', args: [c(f) | SIGCHLD], expect: EPERM },
    { name: `unshare(${f})`, syscall: 'unshare', args: [c(f)], expect: EPERM },
  ]),

  // Set-id bits: refused in every chmod-family and creation mode, low 32 bits only.
  { name: 'fchmod(0755)', syscall: 'fchmod', args: [3n, 0o755n], expect: ALLOW },
  { name: 'fchmod(04755)', syscall: 'fchmod', args: [3n, 0o4755n], expect: EPERM },
  { name: 'fchmod(02755)', syscall: 'fchmod', args: [3n, 0o2755n], expect: EPERM },
  { name: 'fchmod(01777): sticky is fine', syscall: 'fchmod', args: [3n, 0o1777n], expect: ALLOW },
  { name: 'fchmod(junk high, 04755 low)', syscall: 'fchmod', args: [3n, 0xffff0000_00000000n | 0o4755n], expect: EPERM },
  { name: 'fchmod(S_ISUID high only)', syscall: 'fchmod', args: [3n, (0o4000n << 32n) | 0o644n], expect: ALLOW },
  { name: 'fchmodat(06755)', syscall: 'fchmodat', args: [0xffffff9cn, 0x1000n, 0o6755n], expect: EPERM },
  { name: 'fchmodat(0644)', syscall: 'fchmodat', args: [0xffffff9cn, 0x1000n, 0o644n], expect: ALLOW },
  { name: 'fchmodat2(04755)', syscall: 'fchmodat2', args: [0xffffff9cn, 0x1000n, 0o4755n, 0n], expect: EPERM },
  { name: 'mknodat(S_IFREG|04755)', syscall: 'mknodat', args: [0xffffff9cn, 0x1000n, 0o104755n, 0n], expect: EPERM },
  { name: 'mknodat(S_IFIFO|0644)', syscall: 'mknodat', args: [0xffffff9cn, 0x1000n, 0o10644n, 0n], expect: ALLOW },
  { name: 'openat(O_CREAT, 0644)', syscall: 'openat', args: [0xffffff9cn, 0x1000n, 0o100n, 0o644n], expect: ALLOW },
  { name: 'openat(O_CREAT, 04755)', syscall: 'openat', args: [0xffffff9cn, 0x1000n, 0o100n, 0o4755n], expect: EPERM },
  {
    name: 'openat(O_CREAT, junk high, 02755 low)',
    syscall: 'openat',
    args: [0xffffff9cn, 0x1000n, 0o100n, 0x5_00000000n | 0o2755n],
    expect: EPERM,
  },
  { name: 'openat2', syscall: 'openat2', args: [0xffffff9cn, 0x1000n, 0x2000n, 24n], expect: ENOSYS },
  { name: 'chmod(04755)', syscall: 'chmod', args: [0x1000n, 0o4755n], expect: EPERM, only: 'x86_64' },
  { name: 'chmod(0755)', syscall: 'chmod', args: [0x1000n, 0o755n], expect: ALLOW, only: 'x86_64' },
  { name: 'creat(02755)', syscall: 'creat', args: [0x1000n, 0o2755n], expect: EPERM, only: 'x86_64' },
  { name: 'mknod(S_IFREG|04755)', syscall: 'mknod', args: [0x1000n, 0o104755n, 0n], expect: EPERM, only: 'x86_64' },
  { name: 'open(O_CREAT, 04755)', syscall: 'open', args: [0x1000n, 0o100n, 0o4755n], expect: EPERM, only: 'x86_64' },
  { name: 'open(O_RDONLY)', syscall: 'open', args: [0x1000n, 0n, 0n], expect: ALLOW, only: 'x86_64' },

  // Terminal injection: TIOCSTI and TIOCLINUX, whatever the high word.
  { name: 'ioctl(TIOCSTI)', syscall: 'ioctl', args: [0n, c('TIOCSTI'), 0x1000n], expect: EPERM },
  { name: 'ioctl(junk high, TIOCSTI low)', syscall: 'ioctl', args: [0n, 0x1_00000000n | c('TIOCSTI'), 0x1000n], expect: EPERM },
  { name: 'ioctl(TIOCLINUX)', syscall: 'ioctl', args: [0n, c('TIOCLINUX'), 0x1000n], expect: EPERM },
  { name: 'ioctl(TCGETS)', syscall: 'ioctl', args: [0n, 0x5401n, 0x1000n], expect: ALLOW },
  { name: 'ioctl(TIOCSCTTY)', syscall: 'ioctl', args: [0n, c('TIOCSCTTY'), 0n], expect: ALLOW },
  { name: 'ioctl(FIONREAD)', syscall: 'ioctl', args: [3n, 0x541bn, 0x1000n], expect: ALLOW },
];

for (const arch of ARCHES) {
  describe(`seccomp policy on ${arch}`, () => {
    it('passes the kernel’s checks', () => verify(program(arch)));

    for (const tc of CASES.filter((t) => !t.only || t.only === arch)) {
      it(`${tc.name} → ${tc.expect}`, () => assert.equal(verdict(call(arch, tc.syscall, tc.args)), tc.expect));
    }

    it('every unconditional hardening rule returns its errno', () => {
      for (const rule of boxwrightPolicy().rules) {
        if (rule.when !== undefined) continue;
        const expect = rule.action === 'allow' ? ALLOW : `ERRNO(${rule.action.errno})`;
        for (const s of rule.syscalls) {
          for (const args of [[], [0n, 0n, 0n], [-1n, -1n, -1n, -1n, -1n, -1n]]) {
            assert.equal(verdict(call(arch, s, args)), expect, `${rule.id}: ${s}`);
          }
        }
      }
    });

    it('the named hardening syscalls are all refused', () => {
      const expect: Record<string, string> = {
        io_uring_setup: ENOSYS,
        io_uring_enter: ENOSYS,
        io_uring_register: ENOSYS,
        ptrace: EPERM,
        process_vm_readv: EPERM,
        process_vm_writev: EPERM,
        keyctl: ENOSYS,
        add_key: ENOSYS,
        request_key: ENOSYS,
        bpf: EPERM,
        perf_event_open: EPERM,
        userfaultfd: EPERM,
        kexec_load: EPERM,
        kexec_file_load: EPERM,
        mount: EPERM,
        umount2: EPERM,
        pivot_root: EPERM,
        open_tree: EPERM,
        move_mount: EPERM,
        fsopen: EPERM,
        fsconfig: EPERM,
        fsmount: EPERM,
        fspick: EPERM,
        mount_setattr: EPERM,
        open_tree_attr: EPERM,
        setns: EPERM,
        open_by_handle_at: EPERM,
        clone3: ENOSYS,
      };
      for (const [s, e] of Object.entries(expect)) assert.equal(verdict(call(arch, s)), e, s);
    });

    it('a call from another architecture gets ENOSYS, whatever its number', () => {
      const others = [
        0x40000003 /* I386 */,
        0x40000028 /* ARM */,
        ...ARCHES.filter((a) => a !== arch).map((a) => archInfo(a).auditArch),
        0,
      ];
      for (const foreign of others) {
        for (const n of [0, nr(arch, 'read'), nr(arch, 'socket'), 359 /* i386 socket */, 11 /* i386 execve */]) {
          const r = run(program(arch), { nr: n, arch: foreign, args: [c('AF_INET6')] });
          assert.equal(verdict(r), ENOSYS, `arch 0x${foreign.toString(16)} nr ${n}`);
          assert.equal(r.steps, 3, 'refused right after the arch check');
        }
      }
    });
  });
}

describe('x86_64 ABI corner cases', () => {
  const x86 = archInfo('x86_64').auditArch;
  it('x32 syscalls (bit 0x40000000) get ENOSYS, even x32 execve and socket', () => {
    for (const n of [0x40000000, 0x40000000 + 39, 0x40000000 + 41, 0x40000000 + 520, 0x7fffffff]) {
      assert.equal(verdict(run(program('x86_64'), { nr: n, arch: x86, args: [c('AF_INET')] })), ENOSYS, `nr 0x${n.toString(16)}`);
    }
  });
  it('nr = -1 gets ENOSYS', () => {
    assert.equal(verdict(run(program('x86_64'), { nr: -1, arch: x86 })), ENOSYS);
  });
  it('an unknown native number is allowed (the kernel answers ENOSYS itself)', () => {
    assert.equal(verdict(run(program('x86_64'), { nr: 1000, arch: x86 })), ALLOW);
  });
});

describe('path lengths', () => {
  it('records how many instructions common calls cost', (t) => {
    const lengths = seccompPathLengths();
    for (const p of lengths) t.diagnostic(`${p.arch} ${p.call}: ${p.steps} instructions, ${p.action}`);
    for (const p of lengths) assert.equal(p.action, ALLOW, `${p.arch} ${p.call}`);
    const x86 = (call: string): number => lengths.find((p) => p.arch === 'x86_64' && p.call === call)!.steps;
    // A guard on the program's shape (not on time): arch + x32 + nr checks,
    // a binary search of depth ≤ 7, the ret; openat also tests its creation
    // mode (setid-mode-openat: load, jset, ret).
    for (const call of ['read', 'write']) assert.ok(x86(call) <= 12, `${call}: ${x86(call)}`);
    assert.ok(x86('openat') <= 14, `openat: ${x86('openat')}`);
    assert.ok(x86('socket(AF_INET)') <= 16, `socket: ${x86('socket(AF_INET)')}`);
  });

  it('agrees with the interpreter run by hand', () => {
    const arch: Arch = 'x86_64';
    const r = call(arch, 'socket', [c('AF_INET'), 1n, 0n]);
    const reported = seccompPathLengths().find((p) => p.arch === arch && p.call === 'socket(AF_INET)');
    assert.equal(reported?.steps, r.steps);
  });
});
