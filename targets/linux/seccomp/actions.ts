/**
 * Filter return values as the kernel reads them: the action (high 16 bits)
 * and its data (low 16 bits), and how seccomp.txt and the tests spell them.
 */
import {
  MAX_ERRNO,
  SECCOMP_RET_ACTION_FULL,
  SECCOMP_RET_ALLOW,
  SECCOMP_RET_DATA,
  SECCOMP_RET_ERRNO,
  SECCOMP_RET_KILL_THREAD,
  SECCOMP_RET_LOG,
  SECCOMP_RET_TRACE,
  SECCOMP_RET_TRAP,
  SECCOMP_RET_USER_NOTIF,
} from './bpf.js';
import { errnoName } from './tables.js';

export type SeccompAction =
  | { readonly kind: 'allow' }
  | { readonly kind: 'log' }
  | { readonly kind: 'errno'; readonly errno: number }
  | { readonly kind: 'trap'; readonly data: number }
  | { readonly kind: 'trace'; readonly data: number }
  | { readonly kind: 'user-notif' }
  | { readonly kind: 'kill-thread' }
  | { readonly kind: 'kill-process' };

/** What the kernel does with a filter's return value (kernel/seccomp.c, __seccomp_filter). */
export function decodeAction(ret: number): SeccompAction {
  const data = ret & SECCOMP_RET_DATA;
  switch ((ret & SECCOMP_RET_ACTION_FULL) >>> 0) {
    case SECCOMP_RET_ALLOW:
      return { kind: 'allow' };
    case SECCOMP_RET_LOG:
      return { kind: 'log' };
    case SECCOMP_RET_ERRNO:
      // The kernel caps the errno, it does not refuse a larger one.
      return { kind: 'errno', errno: Math.min(data, MAX_ERRNO) };
    case SECCOMP_RET_TRAP:
      return { kind: 'trap', data };
    case SECCOMP_RET_TRACE:
      return { kind: 'trace', data };
    case SECCOMP_RET_USER_NOTIF:
      return { kind: 'user-notif' };
    case SECCOMP_RET_KILL_THREAD:
      return { kind: 'kill-thread' };
    default:
      // Unknown actions kill the process, as in the kernel.
      return { kind: 'kill-process' };
  }
}

/** `ALLOW`, `ERRNO(EAFNOSUPPORT)`, `TRAP(3)`, `KILL_PROCESS` … */
export function formatAction(a: SeccompAction): string {
  switch (a.kind) {
    case 'allow':
      return 'ALLOW';
    case 'log':
      return 'LOG';
    case 'errno':
      return `ERRNO(${errnoName(a.errno) ?? a.errno})`;
    case 'trap':
      return `TRAP(${a.data})`;
    case 'trace':
      return `TRACE(${a.data})`;
    case 'user-notif':
      return 'USER_NOTIF';
    case 'kill-thread':
      return 'KILL_THREAD';
    case 'kill-process':
      return 'KILL_PROCESS';
  }
}

export function formatRet(ret: number): string {
  return formatAction(decodeAction(ret));
}
