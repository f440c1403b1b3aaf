/**
 * Linux's compile hook: the bubblewrap the launchers will run (a file the
 * host trusts after the compile), the check of who could change what they
 * trust, and the launchers written beside the artifacts. compile.ts asks
 * the hook of the platform it compiles for (compile-hooks.ts); it names
 * no platform.
 */
import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { TrustedFile } from '../../compiler/ir/types.js';
import { artifactStem } from '../../targets/target.js';
import { bwrapOrigin, locateBwrap, type BwrapFound, type BwrapLookup } from '../../targets/linux/run/sandbox/bwrap.js';
import { canonical, roleWords, trustedFile } from '../trusted-files.js';
import { because, type CompileArgs, type CompileHook, type CompileOutcome } from './compile-types.js';
import { at, homesOf, type CliIo } from './io.js';
import { UsageError } from './options.js';

export const linuxCompileHook: CompileHook = {
  prepare(args, io) {
    // The bubblewrap the launchers will run, where this machine is the one that runs them (Node's name for the host system:
    // this file is Linux's own, and platforms/index.ts, which maps platforms to systems, imports the runners that import compile).
    const bwrap =
      args.config !== '-' && process.platform === 'linux'
        ? locateBwrap({ option: args.bwrap, homes: homesOf(io, args.home), env: io.env })
        : undefined;
    return {
      trusted: bwrap?.found ? [trustedFile(bwrap.path, 'bwrap', ['linux'])] : [],
      refusal: (outcome, out, outPath, trusted) =>
        // Launchers make DIR something a later run executes: only then does who could write it matter.
        args.config !== '-' && outcome.check.verdicts.linux !== 'refused'
          ? launchRefusal(outcome, out, outPath, trusted, bwrap?.found ? bwrap : undefined)
          : Promise.resolve(undefined),
      written: (outcome, out) => writeLaunchers(io, outcome, out, { ...args, config: args.config! }, bwrap),
    };
  },
};

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
    return (
      `${first.principal}'s compiled mounts make ${first.dest} writable, which holds ${role ? roleWords[role] : ''} ` +
      `${first.path} (the model says otherwise: a bug to report)`
    );
  if (bwrap && first.path === bwrap.path)
    return (
      `bubblewrap ${bwrap.path} (${bwrapOrigin(bwrap)}) is not root's alone: ${first.reason}. Every run ` +
      `executes it outside any sandbox: install bubblewrap where only root writes (your distribution's ` +
      `package), or name one with --bwrap PATH`
    );
  return `--out ${out}: ${first.reason}: whoever can write it decides what the launchers there run. Compile into a directory only you can write`;
}
