/**
 * A directory a command can run from without Node: the Linux artifacts,
 * and per principal `<stem>.launch` (what to run: targets/linux/launcher)
 * beside `<stem>.run` (the launcher, a copy of boxwright-sandbox for this
 * machine's architecture). `compile --target linux --out DIR` writes one;
 * `boxwright run` writes one into its cache and runs it.
 *
 * The launch file names the config by its absolute path and digest, so it
 * belongs to this machine and this config: it is not an artifact of the
 * target (those are the same bytes everywhere) but of the application.
 */
import { copyFileSync, chmodSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import type { AccessModel } from '../../../../model/model.js';
import { linuxPlan } from '../../model/plan.js';
import {
  encodeLaunchFile,
  launcherName,
  launcherPath,
  launchFileName,
  LAUNCH_ARCHES,
  type LaunchBwrap,
  type LaunchedFile,
} from '../../launcher/index.js';
import { launchTrust } from '../../launcher/trust.js';
import { linuxPlanOptions } from '../../index.js';
import { bpfName, hostArch } from '../../arch.js';
import { envAllowlist } from '../../../run/env.js';
import { artifactStem, type Artifact } from '../../../target.js';

export interface LauncherFile {
  readonly name: string;
  readonly content: Uint8Array;
}

/** Why no launcher can be written here, or undefined: the program for this machine exists. */
export function launcherUnavailable(): string | undefined {
  const arch = hostArch();
  if (!arch) return `boxwright-sandbox is built for x86_64 and aarch64, not ${process.arch}`;
  if (!launcherPath(arch))
    return `boxwright-sandbox.${arch} is not built (a C compiler at install time builds it: npm ci, or npm run build)`;
  return undefined;
}

/** The compile's options that reach the artifacts, as a command line (in this order), for the launcher's "Recompile:" hint. */
export interface CompileOptionValues {
  readonly fs?: string | undefined;
  readonly home?: string | undefined;
  readonly dialect?: string | undefined;
  readonly worktree?: string | undefined;
  readonly tybaDataDir?: string | undefined;
  readonly agentDirs?: readonly string[];
  readonly landlock?: string | undefined;
  readonly gatewaySocket?: string | undefined;
  readonly bwrap?: string | undefined;
}

export function compileOptionArgs(o: CompileOptionValues): string[] {
  const out: string[] = [];
  const add = (name: string, v: string | undefined): void => void (v !== undefined && out.push(`--${name}`, v));
  // Paths the compile resolved against its working directory, made absolute: the hint works from anywhere.
  add('fs', o.fs === undefined || o.fs === 'host' || o.fs === 'none' ? o.fs : resolve(o.fs));
  add('home', o.home);
  add('dialect', o.dialect);
  add('worktree', o.worktree === undefined ? undefined : resolve(o.worktree));
  add('tyba-data-dir', o.tybaDataDir);
  for (const d of o.agentDirs ?? []) add('agent-dir', d);
  add('landlock', o.landlock);
  add('gateway-socket', o.gatewaySocket);
  add('bwrap', o.bwrap === undefined ? undefined : resolve(o.bwrap));
  return out;
}

const sha256 = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');

/**
 * The launch file of each principal, for a config at `configPath`
 * (absolute) with these bytes, compiled with `compileOptions`
 * (compileOptionArgs), run with `bwrap`. Each file it names is recorded
 * with the SHA-256 of the artifact's bytes: the launcher reads none that
 * differs. The host-trusted names the launcher checks before and after a
 * run come from the same model and plan as the argv (`gatewaySocket` as
 * the compile was given it).
 */
export function launchFiles(
  model: AccessModel,
  artifacts: readonly Artifact[],
  configPath: string,
  configBytes: Uint8Array,
  compileOptions: readonly string[],
  bwrap: LaunchBwrap,
  gatewaySocket?: string,
): LauncherFile[] {
  const ir = model.ir;
  const planOptions = linuxPlanOptions(ir, gatewaySocket);
  const byName = new Map(artifacts.map((a) => [a.name, a.content]));
  const file = (name: string): LaunchedFile => {
    const content = byName.get(name);
    if (content === undefined) throw new Error(`the linux target wrote no ${name}`);
    return { name, sha256: sha256(content) };
  };
  const sha = sha256(configBytes);
  const { env, envPrefixes } = envAllowlist();
  return ir.principals.map((p) => {
    const stem = artifactStem(p.id);
    const landlock = `${stem}.landlock`;
    const pa = model.principals.find((x) => x.principal.id === p.id);
    if (!pa) throw new Error(`the model has no principal ${p.id}`);
    const content = encodeLaunchFile({
      config: resolve(configPath),
      configSha256: sha,
      principal: p.id,
      args: file(`${stem}.bwrap.args`),
      seccomp: Object.fromEntries(LAUNCH_ARCHES.map((a) => [a, file(bpfName(a))])),
      landlock: byName.has(landlock) ? file(landlock) : undefined,
      bwrap,
      env,
      envPrefixes,
      compileOptions,
      trust: launchTrust(pa, linuxPlan(pa, planOptions)),
    });
    return { name: launchFileName(stem), content };
  });
}

/**
 * Copies the launcher beside each launch file in `dir` as `<stem>.run`,
 * mode 0755 (0700 under `private`). A copy, not a link: the launcher finds
 * its launch file through its own path (/proc/self/exe), which a symbolic
 * link would resolve away; and a hard link's shared inode would change
 * under every other directory that links it.
 */
export function copyLaunchers(dir: string, stems: readonly string[], privateMode = false): string[] {
  const arch = hostArch();
  const program = arch ? launcherPath(arch) : undefined;
  if (!program) throw new Error(launcherUnavailable() ?? 'no launcher');
  return stems.map((stem) => {
    const path = join(dir, launcherName(stem));
    copyFileSync(program, path);
    chmodSync(path, privateMode ? 0o700 : 0o755);
    return path;
  });
}
