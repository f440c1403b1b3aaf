// Running boxwright-landlock for real: inside a bubblewrap sandbox, with its
// rules and ready fds, as the runner will.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostArch } from '../../targets/linux/index.js';
import {
  encodeLandlockRules,
  LANDLOCK_RIGHTS,
  landlockHelperPath,
  type LandlockRight,
  type LandlockRuleset,
  type LandlockScope,
} from '../../targets/linux/landlock/rules.js';
import { bwrapAvailable, onPath } from './support.js';
import { WAIT_LIMIT_MS, within } from '../waits.js';

export const arch = hostArch();
export const helper = arch ? landlockHelperPath(arch) : undefined;
/** The kernel's Landlock ABI as the helper reports it (0 without Landlock or helper). */
export const abi = helper ? Number(spawnSync(helper, ['--abi'], { encoding: 'utf8' }).stdout.trim()) : 0;
export const ALL_RIGHTS: readonly LandlockRight[] = LANDLOCK_RIGHTS.map((r) => r.name);
export { bwrapAvailable, onPath };

/** A scratch directory, canonical (the helper refuses links on a rule's path). */
export function scratch(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), 'boxwright-landlock-')));
}

/** A ruleset from [rights, path] pairs (origins do not reach the helper). */
export function ruleset(
  fs: readonly (readonly [readonly LandlockRight[], string])[],
  scopes: readonly LandlockScope[] = [],
  requireAbi = 0,
): LandlockRuleset {
  return { requireAbi, fs: fs.map(([rights, path]) => ({ rights, path, origin: 'baseline' as const })), scopes };
}

/** The PT_INTERP of an ELF executable (its dynamic loader), or undefined for a static one. */
export function interpreterOf(file: string): string | undefined {
  const b = readFileSync(file);
  const phoff = Number(b.readBigUInt64LE(32));
  const size = b.readUInt16LE(54);
  for (let i = 0; i < b.readUInt16LE(56); i++) {
    const ph = phoff + i * size;
    if (b.readUInt32LE(ph) !== 3) continue;
    const off = Number(b.readBigUInt64LE(ph + 8));
    const len = Number(b.readBigUInt64LE(ph + 32));
    return b
      .subarray(off, off + len)
      .toString('latin1')
      .replace(/\0+$/, '');
  }
  return undefined;
}

export interface Sandboxed {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** What the helper wrote on its ready fd. */
  readonly ready: string;
}

export interface SandboxOptions {
  /** bwrap's namespace options; default `--unshare-all`. */
  readonly isolation?: readonly string[];
  /** Extra bwrap arguments (binds) before the command. */
  readonly binds?: readonly string[];
  /** A seccomp program for `--seccomp`. */
  readonly seccomp?: Uint8Array;
  /** Raw bytes for the rules fd instead of an encoded ruleset. */
  readonly rawRules?: Uint8Array;
  /** The helper's arguments before `--`; default `--rules-fd 3 --ready-fd 4`. */
  readonly helperArgs?: readonly string[];
}

/** The merged-/usr links, as the lowering lays them, for the directories this machine has. */
function mergedUsrLinks(): string[] {
  return ['bin', 'lib', 'lib64', 'sbin'].flatMap((d) => (existsSync(`/usr/${d}`) ? ['--symlink', `usr/${d}`, `/${d}`] : []));
}

let serial = 0;

/**
 * `bwrap … --ro-bind HELPER /.bl --bind DIR DIR … -- /.bl --rules-fd 3
 * --ready-fd 4 -- CMD…`: /usr read-only, the scratch directory writable,
 * fresh /proc and /dev; the rules from a file on fd 3, the ready fd a file
 * on fd 4 (read back after the exit).
 */
export function sandboxed(
  dir: string,
  rules: LandlockRuleset | undefined,
  cmd: readonly string[],
  opts: SandboxOptions = {},
): Promise<Sandboxed> {
  if (!helper) throw new Error('no Landlock helper');
  const n = serial++;
  const rulesFile = join(dir, `.rules-${n}`);
  const readyFile = join(dir, `.ready-${n}`);
  writeFileSync(rulesFile, opts.rawRules ?? encodeLandlockRules(rules!));
  writeFileSync(readyFile, '');
  const fds = [openSync(rulesFile, 'r'), openSync(readyFile, 'w')];
  if (opts.seccomp) {
    writeFileSync(join(dir, `.bpf-${n}`), opts.seccomp);
    fds.push(openSync(join(dir, `.bpf-${n}`), 'r'));
  }
  const args = [
    ...(opts.isolation ?? ['--unshare-all']),
    '--die-with-parent',
    '--ro-bind',
    '/usr',
    '/usr',
    ...mergedUsrLinks(),
    '--ro-bind',
    helper,
    '/.bl',
    '--bind',
    dir,
    dir,
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    ...(opts.binds ?? []),
    ...(opts.seccomp ? ['--seccomp', '5'] : []),
    '--',
    '/.bl',
    ...(opts.helperArgs ?? ['--rules-fd', '3', '--ready-fd', '4']),
    '--',
    ...cmd,
  ];
  // Node would warn about the host's extra CA file, absent from the view.
  const env = { ...process.env, NODE_EXTRA_CA_CERTS: undefined, LC_ALL: 'C' };
  let child: ChildProcess | undefined;
  const ran = new Promise<Sandboxed>((resolve, reject) => {
    child = spawn('bwrap', args, { env, stdio: ['ignore', 'pipe', 'pipe', ...fds] });
    for (const fd of fds) closeSync(fd);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr, ready: readFileSync(readyFile, 'utf8') }));
  });
  return within(ran, WAIT_LIMIT_MS, `bwrap ${args.join(' ')}`, () => child?.kill('SIGKILL'));
}
