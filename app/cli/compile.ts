import { compilable, type PeerEnforcer, peerConfigWords } from '../../compiler/ir/compilable.js';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { PLATFORMS, type Platform } from '../../compiler/diagnostic.js';
import { formatText } from '../format/text.js';
import { emitterOf } from '../../targets/emit.js';
import { artifactStem } from '../../targets/target.js';
import type { CompileInput, TargetOptions } from '../../targets/target.js';
import type { CheckResult } from '../check.js';
import { configReader, UsageError } from './options.js';
import { at, colourOf, readArg, type CliIo } from './io.js';
export type { CompileArgs, CompileOutcome, TargetArgs } from './compile-types.js';
import { useColour } from '../format/colour.js';
import { because, type CompileArgs, type CompileOutcome, type TargetArgs } from './compile-types.js';
import { compileHooks } from './compile-hooks.js';
import { trustedFile } from '../trusted-files.js';
import { otherConfigsWriting } from './repo-configs.js';
import type { LintEntry } from '../format/report.js';

/**
 * Compiles a checked config for one platform in memory, from the check's
 * own IR and model. A platform whose verdict is `refused` gets no artifact
 * unless `force` (and then the artifacts say so).
 */
export async function compileConfig(check: CheckResult, platform: Platform, args: TargetArgs): Promise<CompileOutcome> {
  const file = check.file;
  if (!check.ir) return { ok: false, check, reason: `${file} has errors; nothing to compile` };
  // A peer's config is the peer's to enforce: boxwright checks it, it compiles Box and TYBA configs.
  const compiled = compilable(check.ir);
  if ('enforcer' in compiled) return { ok: false, check, reason: notCompiled(file, compiled.enforcer), enforcer: compiled.enforcer };

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

/** Why a peer's config is not compiled: who enforces it, and how. */
function notCompiled(file: string, enforcer: PeerEnforcer): string {
  if (enforcer === 'codex')
    return (
      `${file} is ${peerConfigWords.codex}, which Codex enforces itself (its own sandbox: \`codex ` +
      `sandbox\`, or Codex running commands): boxwright lints, explains and diffs it, and compiles Box ` +
      `and TYBA configs`
    );
  return (
    `${file} is ${peerConfigWords[enforcer]}, which ` +
    `sandbox-runtime enforces itself (${enforcer === 'claude' ? 'Claude Code runs it' : 'srt --settings FILE CMD'}): ` +
    `boxwright lints, explains and diffs them, and compiles Box and TYBA configs`
  );
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
  // executes what it holds), and what the platform's hook adds (Linux: the bubblewrap the launchers will run).
  const hook = compileHooks[platform]?.prepare(args, io);
  useColour(colourOf(io));
  const trusted = [trustedFile(at(io, args.out), 'out', [platform]), ...(hook?.trusted ?? [])];
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
    return outcome.enforcer === 'codex' ? 2 : 1;
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
        `boxwright compile: --out ${args.out}: another sandbox config of ${others.root} may write it (above), ` +
          `and its workload could replace what the next run there executes; compile into a directory no config ` +
          `of the repository may write. Nothing written\n`,
      );
      return 1;
    }
  }
  if (hook) {
    const why = await hook.refusal(outcome, args.out, at(io, args.out), outcome.check.ir.trustedFiles);
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
  await hook?.written(outcome, args.out);
  if (outcome.check.verdicts[platform] === 'refused')
    io.stderr.write(`boxwright compile: WARNING: ${platform} refuses ${file}; written anyway because of --force\n`);
  return 0;
}
