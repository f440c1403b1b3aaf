/**
 * The architectures the Linux target compiles for, and their file names:
 * a module of its own, so that the launcher's writers and the fast path of
 * `boxwright run` name the files without loading the target.
 */
import type { Arch } from './seccomp/tables.js';

export type { Arch };

export const SECCOMP_ARCHES: readonly Arch[] = ['x86_64', 'aarch64'];

/** The seccomp program file for an architecture. */
export const bpfName = (arch: Arch): string => `seccomp.${arch}.bpf`;

/** `process.arch` → the seccomp architecture boxwright compiles for, if any. */
export function hostArch(arch: string = process.arch): Arch | undefined {
  return arch === 'x64' ? 'x86_64' : arch === 'arm64' ? 'aarch64' : undefined;
}
