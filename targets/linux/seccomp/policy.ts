/**
 * The seccomp policy: what `seccomp.json` holds, and boxwright's own policy.
 *
 * A policy is data, by name: syscalls are named (numbers differ per arch and
 * come from the tables), constants are named (`"AF_UNIX"`,
 * `"PROT_WRITE|PROT_EXEC"`), errnos are named. resolve.ts turns it into
 * numbers for one arch; codegen.ts turns that into BPF. README.md in this
 * folder documents the format field by field.
 *
 * Semantics: for a syscall, the rules that name it are tried in policy order;
 * the first whose `when` holds (or that has none) decides; if none does,
 * `defaultAction` decides. A call from another ABI (foreign `arch`, or the x32
 * bit on x86_64) gets `foreignAbi.action` before any rule is looked at.
 */
import type { Arch } from './tables.js';

export type ArgIndex = 0 | 1 | 2 | 3 | 4 | 5;

/**
 * A number (u32), or one or more constant names from constants.json joined by
 * `|` (OR-ed): `"AF_INET"`, `"PROT_WRITE|PROT_EXEC"`.
 */
export type Operand = number | string;

/**
 * A test on one argument. `width: 32`: only the low 32 bits are compared,
 * because every argument the policy tests is a C `int`/`unsigned int` that the
 * kernel truncates; comparing 64 bits would let junk in the high word slip
 * past (REFERENCE.md, "High-word bypass"). No other width is supported.
 */
export type ArgTest =
  | { readonly arg: ArgIndex; readonly width: 32; readonly op: 'eq' | 'ne'; readonly value: Operand }
  /** (arg & mask) != 0 */
  | { readonly arg: ArgIndex; readonly width: 32; readonly op: 'masked-any'; readonly mask: Operand }
  /** (arg & mask) == value */
  | { readonly arg: ArgIndex; readonly width: 32; readonly op: 'masked-eq'; readonly mask: Operand; readonly value: Operand }
  /** arg is none of values */
  | { readonly arg: ArgIndex; readonly width: 32; readonly op: 'not-in'; readonly values: readonly Operand[] };

export type ArgOp = ArgTest['op'];

/** Never KILL: a refused call fails with an errno the program can report. */
export type Action = 'allow' | { readonly errno: string };

export interface Rule {
  /** Unique, kebab-case; shown in seccomp.txt and in test names. */
  readonly id: string;
  /** One line: why the rule exists. */
  readonly reason: string;
  readonly syscalls: readonly string[];
  /**
   * The architectures the rule applies on (all of the policy's when absent):
   * for syscalls only some ABIs have (x86_64's `open`, `chmod`, `creat`,
   * `mknod`; aarch64 has only the `*at` forms).
   */
  readonly arches?: readonly Arch[];
  readonly when?: ArgTest;
  readonly action: Action;
}

export interface SeccompPolicy {
  readonly version: 1;
  readonly defaultAction: Action;
  readonly arches: readonly Arch[];
  /** What a call through another ABI gets (arch mismatch, x32 on x86_64). */
  readonly foreignAbi: { readonly action: Action; readonly reason: string };
  readonly rules: readonly Rule[];
}

/** The set-id bits of a file mode. */
const SETID = 'S_ISUID|S_ISGID';

const NAMESPACE_FLAGS = 'CLONE_NEWNS|CLONE_NEWCGROUP|CLONE_NEWUTS|CLONE_NEWIPC|CLONE_NEWUSER|CLONE_NEWPID|CLONE_NEWNET';

/** boxwright's policy: Box's platform table's rows "IPv6 and socket families" and "Executable memory", plus hardening. */
export function boxwrightPolicy(): SeccompPolicy {
  const EPERM = { errno: 'EPERM' } as const;
  const ENOSYS = { errno: 'ENOSYS' } as const;
  return {
    version: 1,
    defaultAction: 'allow',
    arches: ['x86_64', 'aarch64'],
    foreignAbi: {
      action: ENOSYS,
      reason:
        'a syscall number means nothing without its own table, so i386/arm32 calls and x32 calls get ENOSYS, as on a kernel built without those ABIs',
    },
    rules: [
      {
        id: 'socket-families',
        reason: 'only UNIX and IPv4 sockets; IPv6, netlink, packet, vsock and the rest fail as if unsupported',
        syscalls: ['socket', 'socketpair'],
        when: { arg: 0, width: 32, op: 'not-in', values: ['AF_UNIX', 'AF_INET'] },
        action: { errno: 'EAFNOSUPPORT' },
      },
      {
        id: 'mmap-write-exec',
        reason: 'no mapping that is writable and executable at once',
        syscalls: ['mmap'],
        when: { arg: 2, width: 32, op: 'masked-eq', mask: 'PROT_WRITE|PROT_EXEC', value: 'PROT_WRITE|PROT_EXEC' },
        action: EPERM,
      },
      {
        id: 'mprotect-exec',
        reason: 'no mprotect that asks for PROT_EXEC, even on memory that is executable already',
        syscalls: ['mprotect'],
        when: { arg: 2, width: 32, op: 'masked-any', mask: 'PROT_EXEC' },
        action: EPERM,
      },
      {
        id: 'pkey-mprotect',
        reason:
          "refused outright, as Box's platform table asks: little needs it, and protection keys let userspace " +
          'flip access rights (WRPKRU) with no syscall the filter sees',
        syscalls: ['pkey_mprotect'],
        action: EPERM,
      },
      {
        id: 'shmat-exec',
        reason: 'no executable System V shared memory',
        syscalls: ['shmat'],
        when: { arg: 2, width: 32, op: 'masked-any', mask: 'SHM_EXEC' },
        action: EPERM,
      },
      {
        id: 'personality-query',
        reason: 'personality(0xffffffff) only reads the persona; allowed before the flag test below, which it would match',
        syscalls: ['personality'],
        when: { arg: 0, width: 32, op: 'eq', value: 0xffffffff },
        action: 'allow',
      },
      {
        id: 'personality-exec',
        reason:
          'READ_IMPLIES_EXEC makes readable mappings executable and MMAP_PAGE_ZERO maps an executable page 0: both bypass the memory rules',
        syscalls: ['personality'],
        when: { arg: 0, width: 32, op: 'masked-any', mask: 'READ_IMPLIES_EXEC|MMAP_PAGE_ZERO' },
        action: EPERM,
      },
      {
        id: 'io-uring',
        reason: 'io_uring performs syscalls the filter never sees; ENOSYS makes runtimes fall back to plain syscalls',
        syscalls: ['io_uring_setup', 'io_uring_enter', 'io_uring_register'],
        action: ENOSYS,
      },
      { id: 'ptrace', reason: 'tracing another process would escape its filter and read its memory', syscalls: ['ptrace'], action: EPERM },
      {
        id: 'process-vm',
        reason: "reading or writing another process's memory",
        syscalls: ['process_vm_readv', 'process_vm_writev'],
        action: EPERM,
      },
      {
        id: 'keyring',
        reason: "kernel keyrings are not namespaced and may hold the host user's secrets; ENOSYS as on a kernel without keys",
        syscalls: ['keyctl', 'add_key', 'request_key'],
        action: ENOSYS,
      },
      { id: 'bpf', reason: 'eBPF is kernel attack surface, and could observe the host', syscalls: ['bpf'], action: EPERM },
      {
        id: 'perf-events',
        reason: 'performance counters leak information across processes and are kernel attack surface',
        syscalls: ['perf_event_open'],
        action: EPERM,
      },
      {
        id: 'userfaultfd',
        reason: 'userfaultfd stalls the kernel at will, a staple of kernel race exploits',
        syscalls: ['userfaultfd'],
        action: EPERM,
      },
      { id: 'kexec', reason: 'loading a new kernel', syscalls: ['kexec_load', 'kexec_file_load'], action: EPERM },
      {
        id: 'mount',
        reason: 'the mount view is fixed by bwrap before the filter is installed; no remounting, old or new mount API',
        syscalls: [
          'mount',
          'umount2',
          'pivot_root',
          'open_tree',
          'move_mount',
          'fsopen',
          'fsconfig',
          'fsmount',
          'fspick',
          'mount_setattr',
          'open_tree_attr',
        ],
        action: EPERM,
      },
      { id: 'setns', reason: "joining another namespace would leave the sandbox's", syscalls: ['setns'], action: EPERM },
      {
        id: 'unshare-namespaces',
        reason: 'bwrap made the namespaces already; new ones (a user namespace above all) only add kernel attack surface',
        syscalls: ['unshare'],
        when: { arg: 0, width: 32, op: 'masked-any', mask: NAMESPACE_FLAGS + '|CLONE_NEWTIME' },
        action: EPERM,
      },
      {
        id: 'clone-namespaces',
        reason: "as for unshare; CLONE_NEWTIME is left out because clone's low byte is the exit signal",
        syscalls: ['clone'],
        when: { arg: 0, width: 32, op: 'masked-any', mask: NAMESPACE_FLAGS },
        action: EPERM,
      },
      {
        id: 'clone3',
        reason: 'clone3 passes its flags behind a pointer the filter cannot read; ENOSYS makes libc fall back to clone',
        syscalls: ['clone3'],
        action: ENOSYS,
      },
      {
        id: 'setid-mode-fchmod',
        reason: 'no setuid or setgid bit on a file: as root the workload would leave a setuid-root program on the host',
        syscalls: ['fchmod'],
        when: { arg: 1, width: 32, op: 'masked-any', mask: SETID },
        action: EPERM,
      },
      {
        id: 'setid-mode-path',
        reason: 'as setid-mode-fchmod, for the path calls only x86_64 has (chmod, creat, mknod: the mode is argument 1)',
        syscalls: ['chmod', 'creat', 'mknod'],
        arches: ['x86_64'],
        when: { arg: 1, width: 32, op: 'masked-any', mask: SETID },
        action: EPERM,
      },
      {
        id: 'setid-mode-at',
        reason: 'as setid-mode-fchmod, for fchmodat, fchmodat2 and mknodat (the mode is argument 2)',
        syscalls: ['fchmodat', 'fchmodat2', 'mknodat'],
        when: { arg: 2, width: 32, op: 'masked-any', mask: SETID },
        action: EPERM,
      },
      {
        id: 'setid-mode-open',
        reason: 'no file created with a setuid or setgid bit: open(2) on x86_64 (the creation mode is argument 2)',
        syscalls: ['open'],
        arches: ['x86_64'],
        when: { arg: 2, width: 32, op: 'masked-any', mask: SETID },
        action: EPERM,
      },
      {
        id: 'setid-mode-openat',
        reason: 'no file created with a setuid or setgid bit: openat(2) (the creation mode is argument 3)',
        syscalls: ['openat'],
        when: { arg: 3, width: 32, op: 'masked-any', mask: SETID },
        action: EPERM,
      },
      {
        id: 'openat2',
        reason:
          'openat2 passes its creation mode behind a pointer the filter cannot read; ENOSYS makes libc and runtimes fall back to openat',
        syscalls: ['openat2'],
        action: ENOSYS,
      },
      {
        id: 'tty-inject',
        reason:
          'TIOCSTI pushes input into a terminal: a workload that makes a free terminal its own can type into the host shell reading it',
        syscalls: ['ioctl'],
        when: { arg: 1, width: 32, op: 'eq', value: 'TIOCSTI' },
        action: EPERM,
      },
      {
        id: 'tty-linux',
        reason: 'TIOCLINUX can inject input on a virtual console (selection paste) and read its screen',
        syscalls: ['ioctl'],
        when: { arg: 1, width: 32, op: 'eq', value: 'TIOCLINUX' },
        action: EPERM,
      },
      {
        id: 'open-by-handle',
        reason: 'file handles open files outside the mount view',
        syscalls: ['open_by_handle_at'],
        action: EPERM,
      },
    ],
  };
}

// ---------------------------------------------------------------------------
// seccomp.json

/**
 * `seccomp.json`: keys in a fixed order (the order of the interfaces above,
 * whatever order the object was built in), 2-space indent, trailing newline.
 */
export function policyToJson(policy: SeccompPolicy): string {
  const action = (a: Action): unknown => (a === 'allow' ? 'allow' : { errno: a.errno });
  const test = (t: ArgTest): unknown => {
    const head = { arg: t.arg, width: t.width, op: t.op };
    switch (t.op) {
      case 'eq':
      case 'ne':
        return { ...head, value: t.value };
      case 'masked-any':
        return { ...head, mask: t.mask };
      case 'masked-eq':
        return { ...head, mask: t.mask, value: t.value };
      case 'not-in':
        return { ...head, values: [...t.values] };
    }
  };
  const canonical = {
    version: policy.version,
    defaultAction: action(policy.defaultAction),
    arches: [...policy.arches],
    foreignAbi: { action: action(policy.foreignAbi.action), reason: policy.foreignAbi.reason },
    rules: policy.rules.map((r) => ({
      id: r.id,
      reason: r.reason,
      syscalls: [...r.syscalls],
      ...(r.arches ? { arches: [...r.arches] } : {}),
      ...(r.when ? { when: test(r.when) } : {}),
      action: action(r.action),
    })),
  };
  return JSON.stringify(canonical, null, 2) + '\n';
}
