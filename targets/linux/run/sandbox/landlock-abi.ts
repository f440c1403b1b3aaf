/**
 * The kernel's Landlock ABI, for the host view (compiler/paths/host.ts
 * asks only when Landlock is among the active security modules). Node
 * cannot make the system call, so boxwright-sandbox `--abi` is asked; the
 * answer cannot change without a reboot, so it is kept per boot
 * (/proc/sys/kernel/random/boot_id) in the cache directory, and a lint
 * does not pay a process start for it.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launcherPath } from '../../launcher/index.js';
import { hostArch } from '../../arch.js';
import { cacheRoot, privateDir } from '../../../run/cache-dir.js';

export function probeLandlockAbi(): number | 'unknown' {
  let boot: string | undefined;
  try {
    boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    boot = undefined;
  }
  const root = cacheRoot();
  const file = join(root, 'landlock-abi');
  if (boot) {
    try {
      const [b, abi] = readFileSync(file, 'utf8').trim().split(' ');
      if (b === boot && abi !== undefined && /^\d{1,3}$/.test(abi)) return Number(abi);
    } catch {
      // not yet asked since this boot
    }
  }
  const arch = hostArch();
  const program = arch ? launcherPath(arch) : undefined;
  if (!program) return 'unknown';
  const r = spawnSync(program, ['--abi'], { encoding: 'utf8', timeout: 5000 });
  const out = r.status === 0 ? r.stdout.trim() : '';
  if (!/^\d{1,3}$/.test(out)) return 'unknown';
  if (boot && !privateDir(root, root)) {
    try {
      const aside = `${file}.${process.pid}.tmp`;
      writeFileSync(aside, `${boot} ${out}\n`, { mode: 0o600 });
      renameSync(aside, file);
    } catch {
      // a read-only cache: ask again next time
    }
  }
  return Number(out);
}
