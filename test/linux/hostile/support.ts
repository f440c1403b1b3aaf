// The hostile-workload lab: a real home tree, the C probes compiled with
// the system compiler, `boxwright run` as root or as an unprivileged user,
// and the controls — the same probe under bare bubblewrap with the compiled
// artifacts minus exactly one protection, which must let the attack
// through. A protection whose control does not fail proves nothing.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireOrSkip, repoRoot } from '../../helpers.js';
import { assertReachable, boxwrightFor } from '../other-user.js';
import { bin, bwrapAvailable, onPath, type Outcome } from '../support.js';
import { BWRAP_OPERANDS } from '../bwrap-options.js';
import { hostArch, parseArgsFile } from '../../../targets/linux/index.js';
import { boxwrightPolicy, compilePolicy, encode } from '../../../targets/linux/seccomp/index.js';
import { WAIT_LIMIT_MS, within } from '../../waits.js';

export const isRoot = process.getuid?.() === 0;
const cc = onPath('gcc') ?? onPath('cc');
export const skip = requireOrSkip(bwrapAvailable, 'bubblewrap') ?? requireOrSkip(!!cc, 'a C compiler (gcc)');
/** Root runs these too as uid 65534 (nobody); any other user already is unprivileged. */
export const NOBODY = 65534;

export interface Lab {
  readonly home: string;
  /** The probe (probes/probe.c), static, in the lab's bin/ (an exec grant). */
  readonly probe: string;
  /** probes/ptyrun.c: a command on a fresh terminal that is no session's controlling tty. */
  readonly ptyrun: string;
  /** `read = ["/usr"]`, `exec = [PROBE, "/usr"]`: the lines every config needs for the probe and sh. */
  readonly base: string;
  config(name: string, text: string): string;
  /** Makes the whole tree the unprivileged user's (root only). */
  giveToNobody(): void;
  cleanup(): void;
}

export function makeLab(prefix: string): Lab {
  const home = mkdtempSync(join(tmpdir(), `boxwright-${prefix}-`));
  chmodSync(home, 0o755);
  const binDir = join(home, 'bin');
  mkdirSync(binDir);
  const build = (name: string, extra: string[] = []): string => {
    const out = join(binDir, name);
    const r = spawnSync(
      cc!,
      ['-O1', '-Wall', '-Wextra', '-Werror', ...extra, '-o', out, join(repoRoot, 'test', 'linux', 'hostile', 'probes', `${name}.c`)],
      { encoding: 'utf8' },
    );
    if (r.status !== 0) throw new Error(`cannot compile ${name}.c: ${r.stderr}`);
    return out;
  };
  const probe = build('probe', ['-static']);
  const ptyrun = build('ptyrun');
  // /usr executable too: the attacks are written with the shell and coreutils (under Landlock a read tree is not executable).
  const base = `read = ["/usr"]\nexec = [${JSON.stringify(probe)}, "/usr"]\n`;
  return {
    home,
    probe,
    ptyrun,
    base,
    config(name, text) {
      const p = join(home, name);
      writeFileSync(p, text);
      return p;
    },
    giveToNobody() {
      const walk = (p: string): void => {
        chownSync(p, NOBODY, NOBODY);
        if (statSync(p).isDirectory()) for (const e of readdirSync(p)) walk(join(p, e));
      };
      walk(home);
    },
    cleanup() {
      rmSync(home, { recursive: true, force: true });
    },
  };
}

export interface RunOptions {
  readonly env?: Record<string, string | undefined>;
  /** Run boxwright as uid/gid 65534 (only as root). */
  readonly nobody?: boolean;
  /** Descriptors the test hands boxwright, by number (index 3 and up). */
  readonly fds?: Readonly<Record<number, number>>;
  /** Prefix the whole command line (e.g. ptyrun). */
  readonly wrap?: readonly string[];
  /** bare(): the bubblewrap to run (default `bwrap` on PATH). */
  readonly bwrap?: string;
  /** Descriptors 0, 1, 2 in place of the default (nothing on stdin, stdout and stderr captured); a number is handed over as it is. */
  readonly stdio?: readonly ('ignore' | 'pipe' | number)[];
  /** The working directory (default the checkout). */
  readonly cwd?: string;
}

/**
 * The cache an unprivileged run keeps its sandboxes in: its own, private
 * to uid 65534 (root's, inherited through HOME, is refused: whoever can
 * write the cache decides what the next run executes). Made once, removed
 * at exit.
 */
let nobodyCacheDir: string | undefined;
function nobodyCache(): string {
  if (!nobodyCacheDir) {
    nobodyCacheDir = mkdtempSync(join(tmpdir(), 'boxwright-nobody-cache-'));
    chownSync(nobodyCacheDir, NOBODY, NOBODY);
    const dir = nobodyCacheDir;
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return nobodyCacheDir;
}

export function spawnOutcome(file: string, args: readonly string[], o: RunOptions): Promise<Outcome> {
  const fdEntries = Object.entries(o.fds ?? {}).map(([k, v]) => [Number(k), v] as const);
  const top = Math.max(2, ...fdEntries.map(([k]) => k));
  const stdio: ('ignore' | 'pipe' | number)[] = ['ignore', 'pipe', 'pipe'];
  (o.stdio ?? []).forEach((s, i) => (stdio[i] = s));
  for (let i = 3; i <= top; i++) stdio.push('ignore');
  for (const [k, v] of fdEntries) stdio[k] = v;
  const [cmd, ...rest] = [...(o.wrap ?? []), file, ...args];
  let child: ChildProcess | undefined;
  const ran = new Promise<Outcome>((resolve, reject) => {
    child = spawn(cmd!, rest, {
      cwd: o.cwd ?? repoRoot,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '', ...(o.nobody ? { XDG_CACHE_HOME: nobodyCache() } : {}), ...o.env },
      stdio,
      ...(o.nobody ? { uid: NOBODY, gid: NOBODY } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout: stdout.replace(/\r\n/g, '\n'), stderr }));
  });
  return within(ran, WAIT_LIMIT_MS, [cmd, ...rest].join(' '), () => child?.kill('SIGKILL'));
}

/**
 * `boxwright run CONFIG --home HOME --fs host [extra] -- CMD…`; as nobody,
 * an install that user can reach (../other-user.ts), from the lab's home.
 */
export function sandboxed(
  lab: Lab,
  config: string,
  cmd: readonly string[],
  extra: readonly string[] = [],
  o: RunOptions = {},
): Promise<Outcome> {
  if (o.nobody)
    assertReachable(NOBODY, { 'the lab': lab.home, 'the config': config, ...(o.wrap?.[0] ? { 'the wrapper': o.wrap[0] } : {}) });
  const boxwright = o.nobody ? boxwrightFor(NOBODY) : bin;
  return spawnOutcome(process.execPath, [boxwright, 'run', config, '--home', lab.home, '--fs', 'host', ...extra, '--', ...cmd], {
    ...(o.nobody ? { cwd: lab.home } : {}),
    ...o,
  });
}

export interface Compiled {
  /** The principal's `.bwrap.args`, split. */
  readonly argv: readonly string[];
  readonly bpf: Uint8Array;
}

/** `boxwright compile --target linux`, read back: what a control runs by hand. */
export async function compiled(lab: Lab, config: string, id = 'agent', extra: readonly string[] = []): Promise<Compiled> {
  const out = mkdtempSync(join(tmpdir(), 'boxwright-control-'));
  try {
    const r = await spawnOutcome(
      process.execPath,
      [bin, 'compile', config, '--home', lab.home, '--fs', 'host', '--target', 'linux', '--out', out, ...extra],
      {},
    );
    if (r.status !== 0) throw new Error(`compile failed: ${r.stderr}`);
    return { argv: parseArgsFile(readFileSync(join(out, `${id}.bwrap.args`))), bpf: readFileSync(join(out, `seccomp.${hostArch()}.bpf`)) };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The host's seccomp program without the named rules: the control for a filter rule. */
export function programWithout(ids: readonly string[]): Uint8Array {
  const policy = boxwrightPolicy();
  const missing = ids.filter((id) => !policy.rules.some((r) => r.id === id));
  if (missing.length) throw new Error(`no seccomp rule ${missing.join(', ')}`);
  return encode(compilePolicy({ ...policy, rules: policy.rules.filter((r) => !ids.includes(r.id)) }, hostArch()!));
}

/** An argv without the options `drop` matches (option and operands, as splitOptions splits them). */
export function withoutOptions(argv: readonly string[], drop: (option: string, operands: readonly string[]) => boolean): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; ) {
    const n = BWRAP_OPERANDS[argv[i]!] ?? 0;
    const operands = argv.slice(i + 1, i + 1 + n);
    if (!drop(argv[i]!, operands)) out.push(argv[i]!, ...operands);
    i += 1 + n;
  }
  return out;
}

/**
 * The control: `bwrap --args 3 -- CMD…` with the artifact's fds (3 args,
 * 4 seccomp, 5… /dev/null for each denied file) and `fds` on top, as
 * root or as nobody. No descriptor closing, no verified binds, no
 * environment policy: bubblewrap alone, as a user running the artifacts by
 * hand gets it.
 */
export function bare(c: Compiled, cmd: readonly string[], o: RunOptions = {}): Promise<Outcome> {
  const dir = mkdtempSync(join(tmpdir(), 'boxwright-bare-'));
  const argsFile = join(dir, 'args');
  const bpfFile = join(dir, 'bpf');
  writeFileSync(argsFile, Buffer.from(c.argv.map((a) => a + '\u0000').join('')));
  writeFileSync(bpfFile, c.bpf);
  const dataFds = c.argv.filter((_, i) => c.argv[i - 1] === '--ro-bind-data').length;
  const opened = [openSync(argsFile, 'r'), openSync(bpfFile, 'r'), ...Array.from({ length: dataFds }, () => openSync('/dev/null', 'r'))];
  const fds: Record<number, number> = {};
  opened.forEach((fd, i) => (fds[3 + i] = fd));
  Object.assign(fds, o.fds ?? {});
  return spawnOutcome(o.bwrap ?? 'bwrap', ['--args', '3', '--', ...cmd], { ...o, fds }).finally(() => {
    opened.forEach((fd) => closeSync(fd));
    rmSync(dir, { recursive: true, force: true });
  });
}

/** `name=value` lines of a probe's output, as a record. */
export function results(stdout: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of stdout.split('\n')) {
    const m = /^([^=\s]+)=(.*)$/.exec(line);
    if (m) out[m[1]!] = m[2]!;
  }
  return out;
}

/** The host's git, as the user (or nobody) runs it: no global or system config, so only the repository's own counts. */
export function hostGit(cwd: string, args: readonly string[], nobody = false): { status: number | null; out: string } {
  const r = spawnSync(onPath('git') ?? 'git', ['-c', 'user.name=host', '-c', 'user.email=host@example.invalid', ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: cwd, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    ...(nobody ? { uid: NOBODY, gid: NOBODY } : {}),
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}
