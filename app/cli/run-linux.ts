/**
 * `boxwright run` on Linux, the full path: check and compile the config
 * (recording every machine fact the check asks), write the sandbox as a
 * runnable directory — into the cache, for the next run's fast path
 * (run-fast.ts), or a private temporary one — and run the command through
 * its launcher, which applies it fail-closed (targets/linux/launcher).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostView, isUnder, type FsView } from '../../compiler/paths/index.js';
import { bpfName, SECCOMP_ARCHES } from '../../targets/linux/arch.js';
import { artifactStem, type Artifact } from '../../targets/target.js';
import { cacheRoot } from '../sandbox/cache-dir.js';
import { recordingView, type Recorder } from '../sandbox/facts.js';
import { compileOptionArgs, copyLaunchers, launcherUnavailable, launchFiles } from '../sandbox/launchers.js';
import { writeEntry, type EntryFile } from '../sandbox/run-cache.js';
import { cacheInputs, type RunRequest } from '../sandbox/run-request.js';
import { runLauncher, type LauncherRun } from '../sandbox/spawn.js';
import { compileConfig, type CompileOutcome } from './compile.js';
import { configReader, UsageError, type ConfigReader } from './options.js';
import { hasPrincipal, NOT_EXECUTABLE, NOT_FOUND, NOT_RUN, refused, say, withCommand, type RunArgs } from './run-common.js';
import { cannotStart, notFoundHint } from './run-hints.js';

type Compiled = Extract<CompileOutcome, { ok: true }>;

/** The check's reader for a run: on the real disk, recording every fact the check asks (for the cache). */
export interface LinuxReader {
  readonly reader: ConfigReader;
  readonly recorder?: Recorder;
}

/** Throws UsageError for a bad --fs or --home: a usage error, exit 2, before the config is read. */
export function linuxReader(args: RunArgs, req: RunRequest): LinuxReader {
  // Only the real disk can be cached against: a manifest or `none` describes another machine for the rules.
  const onHost = (req.fs ?? 'host') === 'host';
  let recorder: Recorder | undefined;
  // The run cache is host-trusted: whoever writes it decides what the next run executes.
  const reader = configReader(args, (v) => (onHost ? (recorder = recordingView(v)).view : v), [{ path: cacheRoot(), input: 'run-cache' }]);
  return recorder ? { reader, recorder } : { reader };
}

/**
 * How a run starts its launcher: by default as `boxwright run` does
 * (app/sandbox/spawn.ts); `learn --check` starts it inside its throw-away
 * root, traced, with no cache entry (nothing of the host may change).
 */
export interface LaunchOptions {
  readonly launch?: (run: LauncherRun) => Promise<number>;
  readonly cache?: boolean;
}

export async function runLinux(args: RunArgs, asked: RunRequest, { reader, recorder }: LinuxReader, bytes: Uint8Array, options: LaunchOptions = {}): Promise<number> {
  const onHost = recorder !== undefined;
  const view: FsView = reader.view;
  let outcome: CompileOutcome;
  try {
    outcome = await compileConfig(reader.check(bytes, asked.config), 'linux', { ...args, force: false });
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
  const linux = outcome.check.ir.linux;
  if (linux.exec === 'landlock' && linux.landlockAbi === 0) {
    say(
      "this kernel has no Landlock (ABI 0), which keeps the sandbox's read trees non-executable; the command did not run. `--landlock off` runs it with the mounts alone (read trees executable: `boxwright explain --landlock off` shows what that means); `boxwright doctor` shows the kernel's facts",
    );
    return NOT_RUN;
  }
  const facts = recorder?.facts(grantedPaths(outcome));

  const { sandboxEnv } = await import('../../targets/runner/env.js');
  const env = sandboxEnv(process.env, req.passEnv);
  const checked = await commandMissing(outcome, req, env.env, onHost ? view : hostView(homedir()));
  if (typeof checked === 'number') return checked;
  // What the model says the command lacks to start: said after a 126 or 127 (the loader's, or the kernel's for its interpreter), never in its way.
  const explained = async (status: number): Promise<number> => {
    if ((status === NOT_FOUND || status === NOT_EXECUTABLE) && checked.cannotStart) say(checked.cannotStart);
    return status;
  };

  const files = entryFiles(outcome, req, bytes);
  const stems = outcome.check.ir.principals.map((p) => artifactStem(p.id));
  const stem = artifactStem(req.principal);
  const cacheable =
    options.cache === false ? 'learn --check changes nothing of the host' : facts && req.config !== '-' ? await cacheRefusal(outcome) : 'the config is not read from the real disk (--fs) or from a file';
  if (cacheable === undefined && facts) {
    const inputs = cacheInputs(req, createHash('sha256').update(bytes).digest('hex'));
    const written = writeEntry(cacheRoot(), inputs, { worktree: outcome.check.ir.tyba?.worktree ?? null, principals: outcome.check.ir.principals.map((p) => p.id), facts }, files, (dir) => copyLaunchers(dir, stems, true).map((p) => p.slice(dir.length + 1)));
    if ('dir' in written) {
      // undefined: moved aside by another run's rewrite before it started; then from a private directory.
      try {
        const status = await runLauncher({ launcher: join(written.dir, `${stem}.run`), command: req.command, passEnv: req.passEnv, passFds: req.passFds, verbose: req.verbose, fallback: true, argv: args.commandLine ?? [] });
        if (status !== undefined) return explained(status);
      } finally {
        if (written.temporary) rmSync(written.dir, { recursive: true, force: true });
      }
    } else if (req.verbose) say(`no cache entry: ${written.why}`);
  } else if (req.verbose) say(`no cache entry: ${cacheable}`);
  // A private directory for this run alone, removed after it.
  const dir = mkdtempSync(join(tmpdir(), 'boxwright-run-'));
  try {
    for (const f of files) writeFileSync(join(dir, f.name), f.content, { mode: 0o600 });
    copyLaunchers(dir, stems, true);
    const run: LauncherRun = { launcher: join(dir, `${stem}.run`), command: req.command, passEnv: req.passEnv, passFds: req.passFds, verbose: req.verbose, argv: args.commandLine ?? [] };
    return await explained(await (options.launch ? options.launch(run) : runLauncher(run)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What a run reads: each principal's argv and Landlock rules, the seccomp programs, the launch files. */
function entryFiles(outcome: Compiled, req: RunRequest, bytes: Uint8Array): EntryFile[] {
  const wanted = (a: Artifact): boolean => a.name.endsWith('.bwrap.args') || a.name.endsWith('.landlock') || SECCOMP_ARCHES.some((arch) => a.name === bpfName(arch));
  const artifacts = outcome.artifacts.filter(wanted).map((a) => ({ name: a.name, content: a.content }));
  const options = compileOptionArgs({ ...req, landlock: req.landlock ? undefined : 'off' });
  return [...artifacts, ...launchFiles(outcome.check.ir, outcome.artifacts, req.config, bytes, options)];
}

/** The granted paths of every principal: where the bound sockets the model reads can be. */
function grantedPaths(outcome: Compiled): string[] {
  return [...new Set(outcome.check.ir.principals.flatMap((p) => p.grants.flatMap((g) => (g.path ? [g.path] : []))))];
}

/**
 * Why the cache may not hold this config's sandbox, or undefined. Whoever
 * writes the cache decides what a later run executes, so a principal that
 * could write it (a write grant of an ancestor: naming it is refused by
 * protected-path) gets no entry; the run uses a private directory.
 */
export async function cacheRefusal(outcome: Compiled): Promise<string | undefined> {
  const root = cacheRoot();
  for (const pa of outcome.check.model.principals) {
    const cell = pa.effectiveAt(root, 'linux');
    if (cell.kind === 'access' && cell.write) return `${pa.principal.id} may write ${root}`;
  }
  // And what the artifacts do, read back: a writable bind of the cache, of a
  // directory above it or of one below it, whatever the model says (a
  // lowering that gives more than the model would otherwise let a workload
  // rewrite the sandbox the next run executes).
  const { parseArgsFile } = await import('../../targets/linux/index.js');
  const { viewFromArgv } = await import('../../targets/linux/view.js');
  for (const a of outcome.artifacts) {
    if (!a.name.endsWith('.bwrap.args')) continue;
    const argv = parseArgsFile(typeof a.content === 'string' ? Buffer.from(a.content) : Buffer.from(a.content));
    const bind = viewFromArgv(argv).ops.find((op) => op.kind === 'bind' && op.write && (isUnder(root, op.path) || isUnder(op.path, root)));
    if (bind) return `${a.name.slice(0, -'.bwrap.args'.length)}'s mounts make ${bind.path} writable, which holds the cache`;
  }
  return undefined;
}

/**
 * The command looked up inside the view before anything starts, for the
 * shell's 126/127 with a hint that names the missing file and the grant
 * (run-hints.ts); the launcher would refuse the same command, with less to
 * say. A command that is there and executable runs; what it lacks to start
 * (its loader, its libraries) is said if it then fails so.
 */
async function commandMissing(outcome: Compiled, req: RunRequest, env: Record<string, string>, disk: FsView): Promise<number | { cannotStart?: string }> {
  const { parseArgsFile } = await import('../../targets/linux/index.js');
  const { findCommand, viewFromArgv } = await import('../../targets/linux/view.js');
  const args = outcome.artifacts.find((a) => a.name === `${artifactStem(req.principal)}.bwrap.args`);
  if (!args) throw new Error(`the linux target wrote no ${req.principal}.bwrap.args`);
  const argv = parseArgsFile(typeof args.content === 'string' ? Buffer.from(args.content, 'utf8') : args.content);
  const view = viewFromArgv(argv);
  const command = req.command[0]!;
  const cwd = view.chdir ?? process.cwd();
  const found = findCommand(view.ops, command, env, cwd, disk);
  if (found.found) {
    // In the view, but Landlock grants no execute there: the kernel would say EACCES.
    const pa = outcome.check.model.principals.find((p) => p.principal.id === req.principal)!;
    const cell = pa.effectiveAt(found.sandboxPath, 'linux');
    if (pa.linuxExec !== 'landlock' || (cell.kind === 'access' && cell.exec)) {
      const why = cannotStart(outcome, req.principal, found.hostPath, disk);
      return why ? { cannotStart: why } : {};
    }
    say(
      `${command} is ${found.sandboxPath} in ${req.principal}'s view, readable but not executable: Landlock grants execute only on exec grants${pa.principal.kind === 'tool' ? '' : ', loader directories and the dynamic loader'}. Add "${found.sandboxPath}" to its \`exec\` list (or --landlock off, which makes every read tree executable). It did not run.`,
    );
    return NOT_EXECUTABLE;
  }
  // The shell's convention: 126 found but not executable (a plain file, a directory), 127 not found.
  const notExecutable = /is not an executable file$|is a directory$|: not executable(;|$)/.test(found.reason);
  const hint = !notExecutable ? notFoundHint(outcome, req.principal, command, env, disk, cwd) : /is a directory$/.test(found.reason) ? 'Name a program, not a directory.' : 'It exists inside the view but cannot be executed: make it executable (chmod +x) or run it through its interpreter (-- sh FILE).';
  say(`${found.reason}. ${hint} It did not run.`);
  return notExecutable ? NOT_EXECUTABLE : NOT_FOUND;
}
