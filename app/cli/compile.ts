import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { PLATFORMS, type Platform } from '../../compiler/diagnostic.js';
import { formatText } from '../format/text.js';
import { emitterOf } from '../../targets/emit.js';
import { artifactStem } from '../../targets/target.js';
import type { Artifact, CompileInput, TargetOptions } from '../../targets/target.js';
import type { CheckedPolicy, CheckResult } from '../check.js';
import { configReader, UsageError, type ConfigArgs } from './options.js';
import { at, colourOf, homesOf, readArg, type CliIo } from './io.js';
import { useColour } from '../format/colour.js';
import type { TrustedFile } from '../../compiler/ir/types.js';
import { bwrapOrigin, locateBwrap, type BwrapFound, type BwrapLookup } from '../../targets/linux/run/sandbox/bwrap.js';
import { canonical, roleWords, trustedFile } from '../trusted-files.js';
import { otherConfigsWriting } from './repo-configs.js';
import type { LintEntry } from '../format/report.js';

export interface CompileArgs extends ConfigArgs {
  config?: string;
  target?: string;
  out?: string;
  force?: boolean;
  'gateway-port'?: number;
  'gateway-socket'?: string;
  /** Linux: the bubblewrap the launchers run (else BOXWRIGHT_BWRAP, else `bwrap` on PATH outside the home). */
  bwrap?: string;
}

export type CompileOutcome =
  | { readonly ok: true; readonly artifacts: Artifact[]; readonly check: CheckedPolicy }
  | { readonly ok: false; readonly check: CheckResult; readonly reason: string };

/** What compiling takes besides the check result: `--force` and the targets' own options. */
export type TargetArgs = Pick<CompileArgs, 'force' | 'gateway-port' | 'gateway-socket'>;

/**
 * Compiles a checked config for one platform in memory, from the check's
 * own IR and model. A platform whose verdict is `refused` gets no artifact
 * unless `force` (and then the artifacts say so).
 */
export async function compileConfig(check: CheckResult, platform: Platform, args: TargetArgs): Promise<CompileOutcome> {
  const file = check.file;
  if (!check.ir) return { ok: false, check, reason: `${file} has errors; nothing to compile` };
  // sandbox-runtime enforces its own settings (and Claude Code's): boxwright checks them, it compiles Box and TYBA configs.
  if (check.ir.runtime?.codex)
    return {
      ok: false,
      check,
      reason: `${file} is a Codex config (config.toml), which Codex enforces itself (its own sandbox: \`codex sandbox\`, or Codex running commands): boxwright lints, explains and diffs it, and compiles Box and TYBA configs`,
    };
  if (check.ir.runtime)
    return {
      ok: false,
      check,
      reason: `${file} is ${check.ir.dialect === 'claude' ? 'Claude Code' : 'sandbox-runtime'} settings, which sandbox-runtime enforces itself (${check.ir.dialect === 'claude' ? 'Claude Code runs it' : 'srt --settings FILE CMD'}): boxwright lints, explains and diffs them, and compiles Box and TYBA configs`,
    };
  const verdict = check.verdicts[platform];
  if (verdict === 'refused' && !args.force)
    return {
      ok: false,
      check,
      reason: `${platform} refuses ${file} (see the errors above); nothing written. --force compiles it anyway, marked as refused`,
    };
  const target = await emitterOf(platform);
  const input: CompileInput = {
    ir: check.ir,
    access: check.model,
    configPath: file,
    configBytes: check.bytes,
    diagnostics: check.diagnostics,
    verdict,
    forced: verdict === 'refused' && !!args.force,
    options: targetOptions(args),
  };
  return { ok: true, artifacts: target.compile(input), check };
}

/** The targets' options from the command line, validated here: a bad one is a usage error, not a target's. */
function targetOptions(args: TargetArgs): TargetOptions {
  const port = args['gateway-port'];
  if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535))
    throw new UsageError(`--gateway-port must be a TCP port (1-65535), not ${JSON.stringify(port)}`);
  const socket = args['gateway-socket'];
  if (socket !== undefined && !socket.startsWith('/'))
    throw new UsageError(`--gateway-socket must be an absolute path, not ${JSON.stringify(socket)}`);
  return { ...(port !== undefined ? { gatewayPort: port } : {}), ...(socket ? { gatewaySocket: socket } : {}) };
}

export function platformOf(target: string | undefined): Platform {
  const platform = PLATFORMS.find((p) => p === target);
  if (platform) return platform;
  throw new UsageError(`--target must be ${PLATFORMS.slice(0, -1).join(', ')} or ${PLATFORMS[PLATFORMS.length - 1]}`);
}

/** A file-system error in words, for a message that names the path. */
function because(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  const words: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EROFS: 'read-only file system',
    ENOENT: 'no such file or directory',
    ENOTDIR: 'a component of the path is not a directory',
    EEXIST: 'it exists and is not a directory',
    ENOSPC: 'no space left on the device',
    EISDIR: 'it is a directory',
  };
  return (code && words[code]) ?? (e as Error).message;
}

/**
 * The output directory, made if it is missing, one component at a time.
 * Not `mkdirSync(…, { recursive: true })`: under /proc a mkdir fails with
 * ENOENT although the parent exists, and Node's recursive mkdir then
 * retries the parent and the child for ever (boxwright spun for minutes).
 * Every failure names the directory: a usage error, exit 2. `cwd`: the
 * directory a relative `out` is in.
 */
export function makeOutDir(out: string, cwd: string): void {
  const missing: string[] = [];
  for (let dir = resolve(cwd, out); ; dir = dirname(dir)) {
    let kind: 'dir' | 'other' | 'absent';
    try {
      kind = statSync(dir).isDirectory() ? 'dir' : 'other';
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new UsageError(`cannot use --out ${out}: ${dir}: ${because(e)}`);
      kind = 'absent';
    }
    if (kind === 'other' && dir === resolve(cwd, out))
      throw new UsageError(`--out ${out} exists and is not a directory: name a directory for the artifacts`);
    if (kind === 'other') throw new UsageError(`cannot make --out ${out}: ${dir} is not a directory`);
    if (kind === 'dir') break;
    missing.unshift(dir);
    if (dirname(dir) === dir) break;
  }
  for (const dir of missing) {
    try {
      // Written by no one else whatever the umask: a launcher refuses a directory others can write.
      mkdirSync(dir, 0o755);
    } catch (e) {
      throw new UsageError(`cannot make --out ${out}: ${dir}: ${because(e)}`);
    }
  }
}

/**
 * Linux: `<stem>.launch` and `<stem>.run` beside the artifacts, so that
 * `DIR/agent.run CMD` runs in the sandbox with no Node on the path. Not for
 * a config read from standard input (the launcher re-reads its config to
 * refuse one that changed) nor a forced, refused one; without a built
 * launcher or a bubblewrap, said and skipped: the artifacts stand on their
 * own.
 */
async function writeLaunchers(
  io: CliIo,
  outcome: Extract<CompileOutcome, { ok: true }>,
  out: string,
  args: CompileArgs & { config: string },
  bwrap: BwrapLookup | undefined,
): Promise<void> {
  const config = args.config;
  const note = (why: string): void => void io.stderr.write(`boxwright compile: no launchers (<principal>.run) written: ${why}\n`);
  if (config === '-') return note('the config came from standard input, and a launcher re-reads its config to refuse one that changed');
  if (outcome.check.verdicts.linux === 'refused')
    return note('linux refuses the config (--force writes the artifacts for review, never a way to run them)');
  const { compileOptionArgs, copyLaunchers, launchFiles, launcherUnavailable } = await import(
    '../../targets/linux/run/sandbox/launchers.js'
  );
  const why = launcherUnavailable();
  if (why) return note(why);
  if (!bwrap) return note('bubblewrap is resolved on the Linux machine that runs the sandbox: compile there');
  if (!bwrap.found)
    return note(`no bubblewrap: ${bwrap.why}. Install it (Debian/Ubuntu: apt-get install bubblewrap) or name it with --bwrap PATH`);
  const agentDirs = args['agent-dir'] === undefined ? [] : ([] as string[]).concat(args['agent-dir']);
  // Made absolute from the command's directory (compileOptionArgs would from the process's): the launch works from anywhere.
  const absolute = (p: string | undefined) => (p === undefined ? p : at(io, p));
  const options = compileOptionArgs({
    fs: args.fs === 'host' || args.fs === 'none' ? args.fs : absolute(args.fs),
    home: args.home,
    dialect: args.dialect,
    worktree: absolute(args.worktree),
    tybaDataDir: args['tyba-data-dir'],
    agentDirs,
    landlock: args.landlock,
    gatewaySocket: args['gateway-socket'],
    bwrap: absolute(args.bwrap),
  });
  const files = launchFiles(
    outcome.check.model,
    outcome.artifacts,
    at(io, config),
    outcome.check.bytes,
    options,
    bwrap,
    args['gateway-socket'],
  );
  for (const f of files) {
    const path = join(out, f.name);
    try {
      writeFileSync(at(io, path), f.content);
    } catch (e) {
      throw new UsageError(`cannot write ${path}: ${because(e)}`);
    }
    io.stdout.write(`${path}\n`);
  }
  let runs: string[];
  try {
    runs = copyLaunchers(
      at(io, out),
      outcome.check.ir.principals.map((p) => artifactStem(p.id)),
    );
  } catch (e) {
    throw new UsageError(`cannot write the launchers in ${out}: ${because(e)}`);
  }
  // Named under --out as given, as the artifacts are.
  for (const r of runs) io.stdout.write(`${join(out, basename(r))}\n`);
}

/**
 * Why the sandbox may not be written into `out` (or run with `bwrap`), or
 * undefined: the compiled mounts read back (a principal whose mounts could
 * change the config, the manifest or the directory), and who else could
 * write the directory or bubblewrap. Linux machines only (the questions
 * are boxwright-sandbox's, vet.ts); elsewhere the model's answer
 * (`trusted-file-writable`) stands alone.
 */
async function launchRefusal(
  outcome: Extract<CompileOutcome, { ok: true }>,
  out: string,
  outPath: string,
  trusted: readonly TrustedFile[],
  bwrap: BwrapFound | undefined,
): Promise<string | undefined> {
  const { vet, vetProgram, VetError } = await import('../../targets/linux/run/sandbox/vet.js');
  if (typeof vetProgram() !== 'string') return undefined;
  const views = outcome.artifacts
    .filter((a) => a.name.endsWith('.bwrap.args'))
    .map((a) => ({
      principal: a.name.slice(0, -'.bwrap.args'.length),
      args: typeof a.content === 'string' ? Buffer.from(a.content) : a.content,
    }));
  let findings;
  try {
    findings = vet({
      views,
      files: trusted.filter((f) => !f.tree).map((f) => f.path),
      trees: trusted.filter((f) => f.tree).map((f) => f.path),
      private: [canonical(outPath)],
      ...(bwrap ? { rootOwned: [bwrap.path] } : {}),
    });
  } catch (e) {
    // Fail closed, and say so: without the answers no launcher is written.
    if (e instanceof VetError)
      throw new UsageError(`cannot check who could change what the launchers trust: ${e.message}; nothing written`);
    throw e;
  }
  const first = findings[0];
  if (!first) return undefined;
  const role = trusted.find((f) => f.path === first.path)?.role;
  if (first.kind === 'reach')
    return `${first.principal}'s compiled mounts make ${first.dest} writable, which holds ${role ? roleWords[role] : ''} ${first.path} (the model says otherwise: a bug to report)`;
  if (bwrap && first.path === bwrap.path)
    return `bubblewrap ${bwrap.path} (${bwrapOrigin(bwrap)}) is not root's alone: ${first.reason}. Every run executes it outside any sandbox: install bubblewrap where only root writes (your distribution's package), or name one with --bwrap PATH`;
  return `--out ${out}: ${first.reason}: whoever can write it decides what the launchers there run. Compile into a directory only you can write`;
}

/** A check as lint's text format prints it. */
function entryOf(c: CheckResult): LintEntry {
  return { path: c.file, text: c.text, ...(c.dialect ? { dialect: c.dialect } : {}), verdicts: c.verdicts, diagnostics: c.diagnostics };
}

/** `boxwright compile CONFIG --target T --out DIR`: exit 0 written, 1 refused or invalid, 2 usage or an output that cannot be written. */
export async function compileCommand(args: CompileArgs, io: CliIo): Promise<number> {
  const platform = platformOf(args.target);
  if (!args.out) throw new UsageError('--out DIR is required');
  if (!args.config)
    throw new UsageError('name the config to compile (- reads it from standard input): boxwright compile CONFIG --target T --out DIR');
  const input = readArg(io, args.config);
  if ('error' in input) {
    io.stderr.write(`boxwright: ${input.error}\n`);
    return 2;
  }
  const file = args.config === '-' ? '<stdin>' : args.config;
  // What the host trusts after this compile: the --out directory (host-trusted: the next DIR/<principal>.run
  // executes what it holds), and on Linux the bubblewrap the launchers will run.
  const bwrap =
    platform === 'linux' && args.config !== '-' && process.platform === 'linux'
      ? locateBwrap({ option: args.bwrap, homes: homesOf(io, args.home), env: io.env })
      : undefined;
  useColour(colourOf(io));
  const trusted = [
    trustedFile(at(io, args.out), 'out', [platform]),
    ...(bwrap?.found ? [trustedFile(bwrap.path, 'bwrap', ['linux'])] : []),
  ];
  const reader = configReader(args, undefined, [{ path: at(io, args.out), input: 'compile-out' }], trusted, io);
  const outcome = await compileConfig(reader.checkRead(input.bytes, args.config), platform, args);
  const shown = outcome.check.diagnostics.filter((d) => d.severity === 'error' && d.platforms.includes(platform));
  if (!outcome.ok) {
    io.stderr.write(
      formatText(
        [
          {
            path: file,
            text: outcome.check.text,
            ...(outcome.check.dialect ? { dialect: outcome.check.dialect } : {}),
            verdicts: outcome.check.verdicts,
            diagnostics: shown,
          },
        ],
        [platform],
      ),
    );
    io.stderr.write(`boxwright compile: ${outcome.reason}\n`);
    // A Codex config is not boxwright's to compile (Codex enforces it): a usage error, not a refused config.
    return outcome.check.ir?.runtime?.codex ? 2 : 1;
  }
  // The schema restricts principal names and every target names its files
  // through artifactStem; checked once more where the files are written.
  for (const a of outcome.artifacts) artifactStem(a.name);
  makeOutDir(args.out, io.cwd);
  // Another config of the repository whose workload could write DIR decides what DIR's launchers run next (issue 35, attack 6).
  if (args.config !== '-') {
    // Their host-trust searches are not walked: the carve-outs they find only narrow what a principal writes, so without them the answer is an upper bound.
    const unwalked = reader.others((v) => ({ ...v, children: () => [] }));
    const others = otherConfigsWriting(at(io, args.config), unwalked, [trustedFile(at(io, args.out), 'out', [platform])], [platform]);
    if ('error' in others) {
      io.stderr.write(`boxwright compile: cannot read every sandbox config of the repository: ${others.error}; nothing written\n`);
      return 1;
    }
    if (others.writers.length) {
      io.stderr.write(formatText(others.writers.map(entryOf), [platform]));
      io.stderr.write(
        `boxwright compile: --out ${args.out}: another sandbox config of ${others.root} may write it (above), and its workload could replace what the next run there executes; compile into a directory no config of the repository may write. Nothing written\n`,
      );
      return 1;
    }
  }
  // Launchers make DIR something a later run executes: only then does who could write it matter.
  if (platform === 'linux' && args.config !== '-' && outcome.check.verdicts.linux !== 'refused') {
    const why = await launchRefusal(outcome, args.out, at(io, args.out), outcome.check.ir.trustedFiles, bwrap?.found ? bwrap : undefined);
    if (why) {
      io.stderr.write(`boxwright compile: ${why}; nothing written\n`);
      return 1;
    }
  }
  for (const a of [...outcome.artifacts].sort((x, y) => (x.name < y.name ? -1 : 1))) {
    const path = join(args.out, a.name);
    try {
      writeFileSync(at(io, path), a.content);
    } catch (e) {
      throw new UsageError(`cannot write ${path}: ${because(e)}`);
    }
    io.stdout.write(`${path}\n`);
  }
  if (platform === 'linux') await writeLaunchers(io, outcome, args.out, { ...args, config: args.config }, bwrap);
  if (outcome.check.verdicts[platform] === 'refused')
    io.stderr.write(`boxwright compile: WARNING: ${platform} refuses ${file}; written anyway because of --force\n`);
  return 0;
}
