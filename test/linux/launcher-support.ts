// The launcher for real: a DIR built by hand as the lead's compile will
// write it — the principal's .bwrap.args from the lowering (plus the mount
// of boxwright-sandbox at /.boxwright/exec, which the lowering does not add
// yet), the seccomp programs, the .launch file (encodeLaunchFile) and the
// built program copied to DIR/<principal>.run — then DIR/agent.run run as a
// process, with its exit status, output and a marker file to show whether
// the command ran.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileConfig } from '../../app/cli/compile.js';
import { configReader } from '../../app/cli/options.js';
import { argsFile, hostArch, parseArgsFile } from '../../targets/linux/index.js';
import { encodeLandlockRules, type LandlockRuleset } from '../../targets/linux/landlock/rules.js';
import {
  encodeLaunchFile,
  NO_TRUST_CHECK,
  LAUNCH_ARCHES,
  launcherPath,
  SANDBOX_EXEC_PATH,
  type LaunchBwrap,
  type LaunchFile,
} from '../../targets/linux/launcher/index.js';
import { envAllowlist } from '../../targets/run/env.js';
import { requireOrSkip } from '../helpers.js';
import { bwrapAvailable, onPath, type Outcome } from './support.js';
import { WAIT_LIMIT_MS, within } from '../waits.js';

export const arch = hostArch();
export const program = arch ? launcherPath(arch) : undefined;
export const skip =
  requireOrSkip(bwrapAvailable, 'bubblewrap (Debian package bubblewrap)') ??
  requireOrSkip(
    program !== undefined,
    `boxwright-sandbox dist/sandbox/boxwright-sandbox.${arch ?? '?'} (a C compiler: Debian gcc, libc6-dev)`,
  );
export const realBwrap = onPath('bwrap') ?? 'bwrap';

/** `--perms 0555 --ro-bind-data N /.boxwright/exec` before the root becomes read-only: the lowering's job soon. */
export function withExecMount(argv: readonly string[]): string[] {
  // The lowering mounts it (targets/linux/lower.ts): a compiled argv is returned as it is.
  if (argv.includes(SANDBOX_EXEC_PATH)) return [...argv];
  const at = argv.findIndex((a, i) => a === '--remount-ro' && argv[i + 1] === '/');
  if (at < 0) throw new Error('no --remount-ro / in the compiled argv');
  return [...argv.slice(0, at), '--perms', '0555', '--ro-bind-data', '9', SANDBOX_EXEC_PATH, ...argv.slice(at)];
}

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** A launch file's bubblewrap record for the program at `path` (links resolved, its owner and mode now). */
export function bwrapRecord(path: string = realBwrap): LaunchBwrap {
  const real = realpathSync(path);
  const st = statSync(real);
  return { path: real, uid: st.uid, mode: st.mode & 0o7777 };
}

export interface LauncherDir {
  readonly dir: string;
  /** DIR/<stem>.run */
  readonly run: string;
  readonly config: string;
  /** The launch file as written. */
  readonly launch: LaunchFile;
  /** The .bwrap.args as written (the exec mount added), split. */
  readonly argv: readonly string[];
  /** The .bwrap.args as compiled (without the exec mount): what bare bwrap runs. */
  readonly compiled: readonly string[];
  /** Rewrites the launch file with `change` applied (or raw bytes). */
  writeLaunch(change: Partial<LaunchFile> | Uint8Array): void;
  /** Rewrites the .bwrap.args, and its digest in the launch file (as a compile would write both). */
  writeArgs(argv: readonly string[]): void;
  /** Rewrites a seccomp program or the Landlock rules the launch file names, and its digest there. */
  writeNamed(name: string, bytes: Uint8Array): void;
}

export interface DirOptions {
  readonly home: string;
  readonly id?: string;
  /** A Landlock ruleset for `landlock FILE`; default `landlock none`. */
  readonly landlock?: LandlockRuleset;
}

/** The directories makeLauncherDir made, removed when the test process ends. */
const made: string[] = [];
process.on('exit', () => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** Compiles `config` (`--fs host --home HOME`) into a fresh DIR and makes DIR/<id>.run of it. */
export async function makeLauncherDir(config: string, o: DirOptions): Promise<LauncherDir> {
  const id = o.id ?? 'agent';
  const bytes = readFileSync(config);
  const check = configReader({ fs: 'host', home: o.home }).check(bytes, config);
  const outcome = await compileConfig(check, 'linux', {});
  if (!outcome.ok) throw new Error(`compile failed: ${outcome.reason}`);
  const dir = mkdtempSync(join(tmpdir(), 'boxwright-launcher-'));
  made.push(dir);
  chmodSync(dir, 0o755);
  for (const a of outcome.artifacts) writeFileSync(join(dir, a.name), a.content);
  const compiled = parseArgsFile(readFileSync(join(dir, `${id}.bwrap.args`)));
  const argv = withExecMount(compiled);
  const file = (name: string): { name: string; sha256: string } => ({ name, sha256: sha256(readFileSync(join(dir, name))) });
  if (o.landlock) writeFileSync(join(dir, `${id}.landlock`), encodeLandlockRules(o.landlock));
  let launch: LaunchFile = {
    config,
    configSha256: sha256(bytes),
    principal: id,
    args: file(`${id}.bwrap.args`),
    seccomp: Object.fromEntries(LAUNCH_ARCHES.map((a) => [a, file(`seccomp.${a}.bpf`)])),
    landlock: o.landlock ? file(`${id}.landlock`) : undefined,
    bwrap: bwrapRecord(),
    ...envAllowlist(),
    compileOptions: ['--home', o.home],
    trust: NO_TRUST_CHECK,
  };
  let changes: Partial<LaunchFile> = {};
  const writeLaunch = (change: Partial<LaunchFile> | Uint8Array): void => {
    if (!(change instanceof Uint8Array)) changes = change;
    writeFileSync(join(dir, `${id}.launch`), change instanceof Uint8Array ? change : encodeLaunchFile({ ...launch, ...change }));
  };
  const writeArgs = (v: readonly string[]): void => {
    writeFileSync(join(dir, `${id}.bwrap.args`), argsFile(v.map((arg) => ({ arg, origin: 'baseline' as const }))));
    launch = { ...launch, args: file(`${id}.bwrap.args`) };
    writeLaunch(changes);
  };
  writeArgs(argv);
  const writeNamed = (name: string, bytes: Uint8Array): void => {
    writeFileSync(join(dir, name), bytes);
    const seccomp = Object.fromEntries(Object.entries(launch.seccomp).map(([a, f]) => [a, f.name === name ? file(name) : f]));
    launch = { ...launch, seccomp, landlock: launch.landlock?.name === name ? file(name) : launch.landlock };
    writeLaunch(changes);
  };
  const run = join(dir, `${id}.run`);
  copyFileSync(program!, run);
  chmodSync(run, 0o755);
  return {
    dir,
    run,
    config,
    get launch() {
      return launch;
    },
    argv,
    compiled,
    writeLaunch,
    writeArgs,
    writeNamed,
  };
}

export interface LaunchOptions {
  readonly env?: Record<string, string | undefined>;
  /** Replace the environment entirely (not merged with process.env). */
  readonly exactEnv?: Record<string, string>;
  /** Descriptors handed to the launcher, by number. */
  readonly fds?: Readonly<Record<number, number>>;
  readonly uid?: number;
  /** Called with the child once it started (to signal it). */
  readonly started?: (pid: number) => void;
}

/** Runs `RUN ARGS…` as a process: its status, signal, stdout, stderr. */
export function launch(
  run: string,
  args: readonly string[],
  o: LaunchOptions = {},
): Promise<Outcome & { readonly signal: NodeJS.Signals | null }> {
  const entries = Object.entries(o.fds ?? {}).map(([k, v]) => [Number(k), v] as const);
  const top = Math.max(2, ...entries.map(([k]) => k));
  const stdio: ('ignore' | 'pipe' | number)[] = ['ignore', 'pipe', 'pipe'];
  for (let i = 3; i <= top; i++) stdio.push('ignore');
  for (const [k, v] of entries) stdio[k] = v;
  const env = o.exactEnv ?? { ...process.env, NODE_EXTRA_CA_CERTS: undefined, LC_ALL: 'C', ...o.env };
  let child: ChildProcess | undefined;
  const ran = new Promise<Outcome & { readonly signal: NodeJS.Signals | null }>((resolve, reject) => {
    child = spawn(run, args, { env, stdio, ...(o.uid !== undefined ? { uid: o.uid, gid: o.uid } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    if (child.pid !== undefined) o.started?.(child.pid);
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
  return within(ran, WAIT_LIMIT_MS, [run, ...args].join(' '), () => child?.kill('SIGKILL'));
}

/** A bwrap stand-in: a shell script in `dir` (for fakes and for the race's swap). */
export function fakeBwrap(dir: string, name: string, script: string): string {
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\n${script}\n`);
  chmodSync(file, 0o755);
  return file;
}
