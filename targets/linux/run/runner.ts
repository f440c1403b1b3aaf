/**
 * `boxwright run` on Linux, the full path: check and compile the config
 * (recording every machine fact the check asks), write the sandbox as a
 * runnable directory — into the cache, for the next run's fast path
 * (run-fast.ts), or a private one for this run alone (run-dir.ts) — and run the command through
 * its launcher, which applies it fail-closed (targets/linux/launcher).
 */
import { createHash } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { TrustedFile } from '../../../compiler/ir/types.js';
import { hostView, isUnder, type FsView } from '../../../compiler/paths/index.js';
import { bpfName, SECCOMP_ARCHES } from '../arch.js';
import { artifactStem, type Artifact } from '../../target.js';
import { linuxPlan, type LinuxPlan } from '../model/plan.js';
import type { ViewMount } from '../view.js';
import { bwrapOrigin, locateBwrap, lookupHomes, type BwrapFound, type BwrapLookup } from './sandbox/bwrap.js';
import { cacheRoot } from '../../run/cache-dir.js';
import { recordingView, type Recorder } from './sandbox/facts.js';
import { compileOptionArgs, copyLaunchers, launcherUnavailable, launchFiles } from './sandbox/launchers.js';
import { stampOf, writeEntry, type EntryFile } from './sandbox/run-cache.js';
import { cacheInputs, type RunRequest } from './sandbox/run-request.js';
import { runLauncher, type LauncherRun } from './sandbox/spawn.js';
import { boxwrightFiles } from '../../../app/own-package.js';
import { roleWords, trustedFile } from '../../../app/trusted-files.js';
import { vet, VetError, type VetFinding } from './sandbox/vet.js';
import { compileConfig, type CompileOutcome } from '../../../app/cli/compile.js';
import { configReader, UsageError, type ConfigReader } from '../../../app/cli/options.js';
import { hasPrincipal, NOT_EXECUTABLE, NOT_FOUND, NOT_RUN, refused, say, withCommand, type RunArgs } from '../../../app/cli/run-common.js';
import { cannotStart, notFoundHint } from './run-hints.js';
import { makeRunDir, runDirCandidates, runDirParent } from '../../run/run-dir.js';
import type { Runner } from '../../run/runtime.js';

type Compiled = Extract<CompileOutcome, { ok: true }>;

/** The check's reader for a run: on the real disk, recording every fact the check asks (for the cache). */
export interface LinuxReader {
  readonly reader: ConfigReader;
  readonly recorder?: Recorder;
  /** The bubblewrap this run executes, resolved once here (the launch records it). */
  readonly bwrap: BwrapLookup;
}

/**
 * What a run trusts besides the config and the manifest: the bubblewrap it
 * executes and boxwright itself (a principal that could write either runs
 * its code outside every sandbox at the next run).
 */
export function runTrusted(bwrap: BwrapLookup): TrustedFile[] {
  return [...(bwrap.found ? [trustedFile(bwrap.path, 'bwrap', ['linux'])] : []), ...boxwrightFiles('linux')];
}

/** Throws UsageError for a bad --fs or --home: a usage error, exit 2, before the config is read. */
export function linuxReader(args: RunArgs, req: RunRequest): LinuxReader {
  // Only the real disk can be cached against: a manifest or `none` describes another machine for the rules.
  const onHost = (req.fs ?? 'host') === 'host';
  let recorder: Recorder | undefined;
  const bwrap = locateBwrap({ option: req.bwrap, homes: lookupHomes(req.home) });
  // The run cache is host-trusted: whoever writes it decides what the next run executes.
  const reader = configReader(
    args,
    (v) => (onHost ? (recorder = recordingView(v)).view : v),
    [{ path: cacheRoot(), input: 'run-cache' }],
    runTrusted(bwrap),
  );
  return recorder ? { reader, recorder, bwrap } : { reader, bwrap };
}

/** Linux's runner (targets/units.ts): the reader before the config is read, then the whole run, its cache included. */
export const runner: Runner = {
  prepare(args, asked) {
    const reader = linuxReader(args, asked);
    return (bytes) => runLinux(args, asked, reader, bytes);
  },
};

/**
 * How a run starts its launcher: by default as `boxwright run` does
 * (sandbox/spawn.ts); `learn --check` starts it inside its throw-away
 * root, traced, with no cache entry (nothing of the host may change).
 */
export interface LaunchOptions {
  readonly launch?: (run: LauncherRun) => Promise<number>;
  readonly cache?: boolean;
}

export async function runLinux(
  args: RunArgs,
  asked: RunRequest,
  { reader, recorder, bwrap }: LinuxReader,
  bytes: Uint8Array,
  options: LaunchOptions = {},
): Promise<number> {
  const onHost = recorder !== undefined;
  const view: FsView = reader.view;
  let outcome: CompileOutcome;
  try {
    outcome = await compileConfig(reader.checkRead(bytes, asked.config), 'linux', { ...args, force: false });
  } catch (e) {
    if (!(e instanceof UsageError) && !(e instanceof Error && e.name === 'TargetError')) throw e;
    say(`${(e as Error).message}; the command did not run`);
    return NOT_RUN;
  }
  if (!outcome.ok) return refused(outcome, 'linux', asked.config);
  if (!hasPrincipal(outcome, asked.principal, asked.config)) return NOT_RUN;
  const withCmd = withCommand(outcome, asked);
  if (!withCmd) return NOT_RUN;
  const req = withCmd;
  const unavailable = launcherUnavailable();
  if (unavailable) {
    say(`${unavailable}; the command did not run (boxwright never runs it unsandboxed)`);
    return NOT_RUN;
  }
  if (!bwrap.found) {
    say(
      `no bubblewrap to run the sandbox with (${bwrapOrigin(bwrap)}): ${bwrap.why}; the command did not ` +
        `run. Install it (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap) or name ` +
        `it with --bwrap PATH; \`boxwright doctor\` checks the machine`,
    );
    return NOT_RUN;
  }
  const linux = outcome.check.ir.linux;
  if (linux.exec === 'landlock' && linux.landlockAbi === 0) {
    say(
      "this kernel has no Landlock (ABI 0), which keeps the sandbox's read trees non-executable; the " +
        'command did not run. `--landlock off` runs it with the mounts alone (read trees executable: ' +
        "`boxwright explain --landlock off` shows what that means); `boxwright doctor` shows the kernel's facts",
    );
    return NOT_RUN;
  }
  let findings: VetFinding[];
  try {
    findings = runVet(outcome, bwrap);
  } catch (e) {
    if (!(e instanceof VetError)) throw e;
    say(`cannot check who could change what this run trusts: ${e.message}; the command did not run`);
    return NOT_RUN;
  }
  const refusal = vetRefusal(findings, outcome, bwrap);
  if (refusal) {
    say(`${refusal}; the command did not run`);
    return NOT_RUN;
  }
  const facts = recorder?.facts(grantedPaths(outcome));

  const { sandboxEnv } = await import('../../run/env.js');
  const env = sandboxEnv(process.env, req.passEnv);
  const checked = await commandMissing(outcome, req, env.env, onHost ? view : hostView(homedir()));
  if (typeof checked === 'number') return checked;
  // What the model says the command lacks to start: said after a 126 or 127 (the loader's, or the kernel's for its interpreter), never in its way.
  const explained = async (status: number): Promise<number> => {
    if ((status === NOT_FOUND || status === NOT_EXECUTABLE) && checked.cannotStart) say(checked.cannotStart);
    return status;
  };

  const stems = outcome.check.ir.principals.map((p) => artifactStem(p.id));
  const stem = artifactStem(req.principal);
  const run = (dir: string, launcher: ReturnType<typeof stampOf>, fallback: boolean): Promise<number | undefined> => {
    const launch: LauncherRun = {
      launcher: join(dir, `${stem}.run`),
      expect: typeof launcher === 'string' ? undefined : launcher,
      command: req.command,
      passEnv: req.passEnv,
      passFds: req.passFds,
      verbose: req.verbose,
      argv: args.commandLine ?? [],
      ...(fallback ? { fallback: true as const } : {}),
    };
    return options.launch ? options.launch(launch) : runLauncher(launch);
  };
  const cacheable =
    options.cache === false
      ? 'learn --check changes nothing of the host'
      : facts && req.config !== '-'
        ? await cacheRefusal(outcome, req.gatewaySocket)
        : 'the config is not read from the real disk (--fs) or from a file';
  if (cacheable === undefined && facts) {
    const files = [...entryFiles(outcome, req, bytes, bwrap, req.config), ...(await viewFiles(outcome, req.gatewaySocket))];
    const inputs = cacheInputs(req, createHash('sha256').update(bytes).digest('hex'), bwrap.path);
    const written = writeEntry(
      cacheRoot(),
      inputs,
      { worktree: outcome.check.ir.tyba?.worktree ?? null, principals: outcome.check.ir.principals.map((p) => p.id), facts },
      files,
      (dir) => copyLaunchers(dir, stems, true).map((p) => p.slice(dir.length + 1)),
    );
    if ('dir' in written) {
      // undefined: moved aside by another run's rewrite before it started; then from a private directory.
      try {
        const status = await run(written.dir, written.files[`${stem}.run`]!, true);
        if (status !== undefined) return explained(status);
      } finally {
        if (written.temporary) rmSync(written.dir, { recursive: true, force: true });
      }
    } else if (req.verbose) say(`no cache entry: ${written.why}`);
  } else if (req.verbose) say(`no cache entry: ${cacheable}`);
  // A private directory for this run alone, removed after the run: never the
  // host's shared temp, where another run's workload watched for it and
  // swapped the launcher (run-dir.ts).
  const place = runDirParent((candidate) => {
    const reach = findings.find((f) => f.kind === 'reach' && f.path === candidate);
    return reach?.kind === 'reach' ? `${reach.principal}'s mounts make ${reach.dest} writable, which holds ${candidate}` : undefined;
  });
  if ('why' in place) {
    say(`${place.why}; the command did not run`);
    return NOT_RUN;
  }
  const dir = makeRunDir(place.dir);
  try {
    // A config from standard input is kept beside the launch: the launcher holds it to the bytes compiled.
    const configFile = req.config === '-' ? join(dir, 'config.toml') : req.config;
    if (req.config === '-') writeFileSync(configFile, bytes, { mode: 0o600 });
    for (const f of entryFiles(outcome, req, bytes, bwrap, configFile)) writeFileSync(join(dir, f.name), f.content, { mode: 0o600 });
    copyLaunchers(dir, stems, true);
    return await explained((await run(dir, stampOf(join(dir, `${stem}.run`)), false))!);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What a run reads: each principal's argv and Landlock rules, the seccomp programs, the launch files (for the config at `configFile`). */
function entryFiles(outcome: Compiled, req: RunRequest, bytes: Uint8Array, bwrap: BwrapFound, configFile: string): EntryFile[] {
  const wanted = (a: Artifact): boolean =>
    a.name.endsWith('.bwrap.args') || a.name.endsWith('.landlock') || SECCOMP_ARCHES.some((arch) => a.name === bpfName(arch));
  const artifacts = outcome.artifacts.filter(wanted).map((a) => ({ name: a.name, content: a.content }));
  const options = compileOptionArgs({ ...req, landlock: req.landlock ? undefined : 'off' });
  return [...artifacts, ...launchFiles(outcome.check.model, outcome.artifacts, configFile, bytes, options, bwrap, req.gatewaySocket)];
}

/** Each principal's run view (`<stem>.view.json`), from its plan: what the fast path looks the command up in. */
async function viewFiles(outcome: Compiled, gatewaySocket: string | undefined): Promise<EntryFile[]> {
  const { runView, runViewFile, runViewName } = await import('../view.js');
  const out: EntryFile[] = [];
  for (const pa of outcome.check.model.principals)
    out.push({
      name: runViewName(artifactStem(pa.principal.id)),
      content: runViewFile(runView(await planOf(outcome, pa.principal.id, gatewaySocket))),
    });
  return out;
}

/** The granted paths of every principal: where the bound sockets the model reads can be. */
function grantedPaths(outcome: Compiled): string[] {
  return [...new Set(outcome.check.ir.principals.flatMap((p) => p.grants.flatMap((g) => (g.path ? [g.path] : []))))];
}

/**
 * The compiled mounts read back, and who else could change bubblewrap
 * (vet.ts): whether any principal's mounts reach what this run trusts (the
 * config, the manifest, bubblewrap, boxwright's package, the run cache),
 * whatever the model says.
 */
export function runVet(outcome: Compiled, bwrap?: BwrapFound): VetFinding[] {
  const trusted = outcome.check.ir.trustedFiles;
  const views = outcome.artifacts
    .filter((a) => a.name.endsWith('.bwrap.args'))
    .map((a) => ({
      principal: a.name.slice(0, -'.bwrap.args'.length),
      args: typeof a.content === 'string' ? Buffer.from(a.content) : a.content,
    }));
  return vet({
    views,
    // A run's own directory is a new entry of its parent: reached when the parent's entries can be changed.
    files: [...trusted.filter((f) => !f.tree).map((f) => f.path), ...runDirCandidates()],
    trees: [...trusted.filter((f) => f.tree).map((f) => f.path), cacheRoot()],
    ...(bwrap ? { rootOwned: [bwrap.path] } : {}),
  });
}

/** Why the run may not start, from the findings (the run cache's own, and where a run without an entry may live, are cacheRefusal's and runDirParent's). */
function vetRefusal(findings: readonly VetFinding[], outcome: Compiled, bwrap: BwrapFound): string | undefined {
  const places = [cacheRoot(), ...runDirCandidates()];
  for (const f of findings) {
    if (f.kind === 'untrusted')
      return (
        `bubblewrap ${f.path} (${bwrapOrigin(bwrap)}) is not root's alone: ${f.reason}. Every run ` +
        `executes it outside any sandbox: install bubblewrap where only root writes (your distribution's ` +
        `package), or name one with --bwrap PATH`
      );
    if (places.includes(f.path)) continue;
    const role = outcome.check.ir.trustedFiles.find((t) => t.path === f.path)?.role;
    return (
      `${f.principal}'s compiled mounts make ${f.dest} writable, which holds ` +
      `${role ? roleWords[role] : ''} ${f.path}: a run could change what the next one trusts (the model ` +
      `says otherwise: a bug to report)`
    );
  }
  return undefined;
}

/** A principal's Linux plan: the very one its compiled argv spells (the model keeps one per principal and options). */
async function planOf(outcome: Compiled, principal: string, gatewaySocket: string | undefined): Promise<LinuxPlan> {
  const { linuxPlanOptions } = await import('../index.js');
  const pa = outcome.check.model.principals.find((p) => p.principal.id === principal);
  if (!pa) throw new Error(`the model has no principal ${principal}`);
  return linuxPlan(pa, linuxPlanOptions(outcome.check.ir, gatewaySocket));
}

/**
 * Why the cache may not hold this config's sandbox, or undefined. Whoever
 * writes the cache decides what a later run executes, so a principal that
 * could write it (a write grant of an ancestor: naming it is refused by
 * protected-path) gets no entry; the run uses a private directory.
 */
export async function cacheRefusal(outcome: Compiled, gatewaySocket?: string): Promise<string | undefined> {
  const root = cacheRoot();
  for (const pa of outcome.check.model.principals) {
    const cell = pa.effectiveAt(root, 'linux');
    if (cell.kind === 'access' && cell.write) return `${pa.principal.id} may write ${root}`;
  }
  // And what the plans mount: a writable bind of the cache, of a directory
  // above it or of one below it, even where the cache itself is bound
  // read-only over it as a host-trusted path (a plan that gives more than
  // the cells would otherwise let a workload rewrite the sandbox the next
  // run executes). Stricter than vet.c's reach, which the launcher and the
  // fallback directory ask: an entry is kept only where nothing writable
  // comes near it.
  for (const pa of outcome.check.model.principals) {
    const near = writableNear(root, artifactStem(pa.principal.id), (await planOf(outcome, pa.principal.id, gatewaySocket)).mounts);
    if (near) return near;
  }
  return undefined;
}

/** Why a principal's mounts keep the cache from holding an entry: a writable bind at, above or below `root`. */
export function writableNear(root: string, stem: string, mounts: readonly ViewMount[]): string | undefined {
  const bind = mounts.find((m) => m.kind === 'bind' && m.write && (isUnder(root, m.path) || isUnder(m.path, root)));
  return bind ? `${stem}'s mounts make ${bind.path} writable, which holds the cache` : undefined;
}

/**
 * The command looked up inside the view before anything starts, for the
 * shell's 126/127 with a hint that names the missing file and the grant
 * (run-hints.ts); the launcher would refuse the same command, with less to
 * say. A command that is there and executable runs; what it lacks to start
 * (its loader, its libraries) is said if it then fails so.
 */
async function commandMissing(
  outcome: Compiled,
  req: RunRequest,
  env: Record<string, string>,
  disk: FsView,
): Promise<number | { cannotStart?: string }> {
  const { findCommand, runView } = await import('../view.js');
  const view = runView(await planOf(outcome, req.principal, req.gatewaySocket));
  const command = req.command[0]!;
  const cwd = view.chdir ?? process.cwd();
  const found = findCommand(view.mounts, command, env, cwd, disk);
  if (found.found) {
    // In the view, but Landlock grants no execute there: the kernel would say EACCES.
    const pa = outcome.check.model.principals.find((p) => p.principal.id === req.principal)!;
    const cell = pa.effectiveAt(found.sandboxPath, 'linux');
    if (pa.linuxExec !== 'landlock' || (cell.kind === 'access' && cell.exec)) {
      const why = cannotStart(outcome, req.principal, found.hostPath, disk);
      return why ? { cannotStart: why } : {};
    }
    say(
      `${command} is ${found.sandboxPath} in ${req.principal}'s view, readable but not executable: ` +
        `Landlock grants execute only on exec ` +
        `grants${pa.principal.kind === 'tool' ? '' : ', loader directories and the dynamic loader'}. Add ` +
        `"${found.sandboxPath}" to its \`exec\` list (or --landlock off, which makes every read tree executable). It did not run.`,
    );
    return NOT_EXECUTABLE;
  }
  // The shell's convention: 126 found but not executable (a plain file, a directory), 127 not found.
  const notExecutable = /is not an executable file$|is a directory$|: not executable(;|$)/.test(found.reason);
  const hint = !notExecutable
    ? notFoundHint(outcome, req.principal, command, env, disk, cwd)
    : /is a directory$/.test(found.reason)
      ? 'Name a program, not a directory.'
      : 'It exists inside the view but cannot be executed: make it executable (chmod +x) or run it through its interpreter (-- sh FILE).';
  say(`${found.reason}. ${hint} It did not run.`);
  return notExecutable ? NOT_EXECUTABLE : NOT_FOUND;
}
