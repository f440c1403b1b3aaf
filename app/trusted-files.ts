/**
 * boxwright's own files, as the check judges them (`trusted-file-writable`,
 * over the model) and as the compiled mounts are read back for them
 * (vet.ts): what the host reads or executes after a run, which no
 * principal may be able to change.
 */
import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { PLATFORMS, type Platform } from '../compiler/diagnostic.js';
import type { TrustedFile } from '../compiler/ir/types.js';

/**
 * `path` made absolute with every link resolved as far as it exists (a
 * `compile --out` directory may not exist yet): grants are canonical, so
 * the model compares canonical paths.
 */
export function canonical(path: string): string {
  const abs = resolve(path);
  try {
    return realpathSync(abs);
  } catch {
    const up = dirname(abs);
    return up === abs ? abs : join(canonical(up), basename(abs));
  }
}

export function trustedFile(path: string, role: TrustedFile['role'], platforms: readonly Platform[] = PLATFORMS): TrustedFile {
  return { path: canonical(path), role, tree: role === 'out' || role === 'boxwright', platforms };
}

/** The trusted files of a check: the config it read (not standard input), the manifest, and the command's own. */
export function checkTrusted(configPath: string | undefined, fs: string | undefined, extra: readonly TrustedFile[]): TrustedFile[] {
  const out: TrustedFile[] = [];
  if (configPath !== undefined && configPath !== '-') out.push(trustedFile(configPath, 'config'));
  if (fs !== undefined && fs !== 'host' && fs !== 'none') out.push(trustedFile(fs, 'manifest'));
  return [...out, ...extra];
}

/** What each role is, for the messages that say a compiled mount reaches it. */
export const roleWords: Readonly<Record<TrustedFile['role'] | 'cache', string>> = {
  config: 'the config',
  'other-config': 'another sandbox config of the repository',
  project: 'the project file (.boxwright.toml)',
  manifest: 'the --fs manifest',
  out: 'the --out directory',
  bwrap: 'bubblewrap',
  boxwright: "boxwright's own package",
  cache: 'the run cache',
};
