/**
 * boxwright-sandbox, for the TypeScript side: where the built program is,
 * where a compiled view mounts it, and the launch file it reads. One static
 * program (the C files beside this one, and ../landlock/landlock.c) with two
 * roles: copied to `DIR/<principal>.run` it is the launcher; mounted at
 * SANDBOX_EXEC_PATH inside the sandbox it is the in-sandbox step (Landlock
 * or none, descriptors closed, exec). See README.md.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Arch } from '../seccomp/tables.js';

export {
  decodeLaunchFile,
  encodeLaunchFile,
  LAUNCH_ARCHES,
  LAUNCH_FORMAT,
  LaunchFileError,
  NO_TRUST_CHECK,
  type LaunchTrust,
  type LaunchBwrap,
  type LaunchedFile,
  type LaunchFile,
} from './launch-file.js';

/**
 * Where the compiled view mounts the program inside the sandbox, and what
 * bubblewrap executes: `--perms 0555 --ro-bind-data FD /.boxwright/exec`
 * (../lower.ts), the launcher giving FD as its own file.
 */
export const SANDBOX_EXEC_PATH = '/.boxwright/exec';

/** The launcher file for a principal's artifact stem (`agent` → `agent.run`), and its launch file. */
export const launcherName = (stem: string): string => `${stem}.run`;
export const launchFileName = (stem: string): string => `${stem}.launch`;

/** The built program's file name for an architecture. */
export function sandboxBinaryName(arch: Arch): string {
  return `boxwright-sandbox.${arch}`;
}

/**
 * The package root: the nearest directory above this module holding a
 * package.json. From the sources' build that is the checkout
 * (dist/targets/linux/launcher/index.js); from the bundled CLI, in a
 * checkout or in an installed tarball, the package (dist/cli/boxwright.cjs).
 */
export function packageRoot(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/**
 * The built program for `arch`: `dist/sandbox/boxwright-sandbox.<arch>` in
 * the package root, where scripts/build-sandbox.mjs writes it and the
 * tarball ships it; undefined when it is absent or not executable (then
 * there is no launcher to write, and `run` must refuse).
 */
export function launcherPath(arch: Arch, root: string | undefined = packageRoot()): string | undefined {
  if (root === undefined) return undefined;
  const path = join(root, 'dist', 'sandbox', sandboxBinaryName(arch));
  try {
    accessSync(path, constants.X_OK);
    return path;
  } catch {
    return undefined;
  }
}
