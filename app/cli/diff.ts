import { isCompilable } from '../../compiler/ir/compilable.js';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Platform } from '../../compiler/diagnostic.js';
import { accessDelta, gateFailures } from '../views/delta.js';
import { artifactDiffs, type ArtifactDiff, type ConfigDiff } from '../views/diff.js';
import type { CheckResult } from '../check.js';
import { formats, renderer } from '../format/registry.js';
import { compileConfig } from './compile.js';
import { configReader, platformsFrom, UsageError, type ConfigArgs } from './options.js';
import { changedTomlFiles, repositoryRoot, resolveRevision, showAt } from './git.js';
import { readInput } from '../input/read-input.js';
import { at, colourOf, readArg, type CliIo } from './io.js';
import { useColour } from '../format/colour.js';
import { isSandboxConfig } from './select.js';

export interface DiffArgs extends ConfigArgs {
  base?: string;
  head?: string;
  git?: string;
  format?: string;
  platform?: string | string[];
  'fail-on'?: string;
  artifacts?: boolean;
}

/** Each selected platform's artifacts of both revisions, compiled from their check results (no --force, default target options), compared. */
async function compareArtifacts(base: CheckResult, head: CheckResult, platforms: readonly Platform[]): Promise<ArtifactDiff[]> {
  const { createTwoFilesPatch } = await import('diff');
  const out: ArtifactDiff[] = [];
  for (const platform of platforms) {
    const [b, h] = await Promise.all([compileConfig(base, platform, {}), compileConfig(head, platform, {})]);
    out.push(
      ...artifactDiffs(
        platform,
        { label: base.file, artifacts: b.ok ? b.artifacts : undefined },
        { label: head.file, artifacts: h.ok ? h.artifacts : undefined },
        createTwoFilesPatch,
      ),
    );
  }
  return out;
}

/** How a reader checks one side by hand (a git revision is no file `lint` can open). */
export interface LintHints {
  readonly base?: string;
  readonly head?: string;
}

/** Both revisions, checked once each, compared through their access models, then their artifacts. */
export async function diffChecks(
  base: CheckResult,
  head: CheckResult,
  platforms: readonly Platform[],
  args: Pick<DiffArgs, 'artifacts'>,
  hints: LintHints = {},
): Promise<ConfigDiff> {
  if (!base.ir || !head.ir) {
    const [side, hint] = !base.ir
      ? [base, hints.base ?? `boxwright lint ${base.file}`]
      : [head, hints.head ?? `boxwright lint ${head.file}`];
    // A named file that is no sandbox config at all (a pyproject.toml): say that, not "has errors".
    if (!isSandboxConfig(side.bytes, side.file))
      return {
        base: base.file,
        head: head.file,
        error:
          `${side.file} is not a sandbox config (no Box, TYBA, sandbox-runtime or Claude Code keys at the ` +
          `top level: \`${hint}\` says so); nothing to compare`,
      };
    return { base: base.file, head: head.file, error: `${side.file} has errors (\`${hint}\` shows them); nothing to compare` };
  }
  const delta = accessDelta(
    { model: base.model, verdicts: base.verdicts, diagnostics: base.diagnostics },
    { model: head.model, verdicts: head.verdicts, diagnostics: head.diagnostics },
    platforms,
  );
  const identical = Buffer.from(base.bytes).equals(Buffer.from(head.bytes)) && base.dialect === head.dialect;
  // sandbox-runtime's and Claude Code's settings have no boxwright artifacts: sandbox-runtime enforces them.
  const artifacts =
    identical || args.artifacts === false || !isCompilable(base.ir) || !isCompilable(head.ir)
      ? []
      : await compareArtifacts(base, head, platforms);
  return { base: base.file, head: head.file, delta, artifacts };
}

/** One revision of a config: its bytes, or none (the file is new on the other side, or deleted). */
interface Side {
  readonly label: string;
  /** The file on disk it was read from, if any: the config being checked. */
  readonly path?: string;
  readonly bytes?: Uint8Array;
  /** How to lint this side by hand, when `boxwright lint LABEL` would not. */
  readonly hint?: string;
  /** Where the file is in the project, when the label is not a path (a revision's `REV:path`): both sides resolve their paths there. */
  readonly location?: string;
}

function load(io: CliIo, path: string): Side {
  const input = readArg(io, path);
  if ('error' in input) throw new UsageError(input.error);
  return { label: path, path: at(io, path), bytes: input.bytes };
}

/** A path as git names it from the root (forward slashes), and as the user reads it from here. */
function names(cwd: string, root: string, file: string): { inRepo: string; shown: string } {
  const absolute = resolve(cwd, file);
  const inRepo = relative(root, absolute).split(sep).join('/');
  if (inRepo.startsWith('..') || isAbsolute(inRepo)) throw new UsageError(`${file} is outside the git repository at ${root}`);
  return { inRepo, shown: relative(cwd, absolute) || inRepo };
}

/** The file at the revision and in the working tree; either may be missing (added, deleted), not both. */
function gitPair(io: CliIo, root: string, rev: string, commit: string, inRepo: string, shown: string): [Side, Side] {
  const before = showAt(io, root, commit, inRepo);
  const now = readInput(join(root, inRepo));
  if ('error' in now && now.reason !== 'no such file') throw new UsageError(now.error);
  const after = 'bytes' in now ? now.bytes : undefined;
  if (!before && !after) throw new UsageError(`${shown} exists neither at ${rev} nor in the working tree`);
  return [
    {
      label: before ? `${rev}:${inRepo}` : `${rev}:${inRepo} (absent)`,
      ...(before ? { bytes: before } : {}),
      hint: `git show ${rev}:${inRepo} | boxwright lint -`,
      location: shown,
    },
    { label: after ? shown : `${shown} (deleted)`, path: join(root, inRepo), location: shown, ...(after ? { bytes: after } : {}) },
  ];
}

/**
 * The pairs `diff --git REV [FILE]` compares. With FILE, that file. Without,
 * every `.toml` or `.json` that changed since REV (added, deleted, modified, or new
 * and untracked) whose content, on either side, is a sandbox config (the
 * dialect detection's keys): the other TOML of a repository
 * (`pyproject.toml`, `Cargo.toml`) is passed over.
 */
function gitPairs(io: CliIo, rev: string, file: string | undefined): [Side, Side][] {
  const root = repositoryRoot(io, io.cwd);
  const commit = resolveRevision(io, root, rev);
  if (file) {
    const { inRepo, shown } = names(io.cwd, root, file);
    return [gitPair(io, root, rev, commit, inRepo, shown)];
  }
  const pairs: [Side, Side][] = [];
  for (const inRepo of changedTomlFiles(io, root, commit)) {
    const pair = gitPair(io, root, rev, commit, inRepo, relative(io.cwd, join(root, inRepo)) || inRepo);
    if (pair.some((side) => side.bytes && isSandboxConfig(side.bytes, inRepo))) pairs.push(pair);
  }
  return pairs;
}

/**
 * `boxwright diff BASE HEAD` or `boxwright diff --git REV [FILE]`: exit 0,
 * or 1 with `--fail-on widen` when the change widens what a principal asks
 * for or what this machine grants it on a selected platform, or when this
 * machine cannot judge a changed request (a side refused here, no facts:
 * gateFailures), or when a revision cannot be read as a policy; 2 usage.
 * A side with no file (a config added or deleted) is compared as an empty
 * config of the other side's dialect: a diff from nothing, or to nothing.
 */
export async function diffCommand(args: DiffArgs, io: CliIo): Promise<number> {
  const platforms = platformsFrom(args.platform);
  let pairs: [Side, Side][];
  if (args.git !== undefined) {
    if (args.head) throw new UsageError('with --git, name at most one file: boxwright diff --git REV [FILE]');
    pairs = gitPairs(io, args.git, args.base);
  } else {
    if (!args.base || !args.head) throw new UsageError('name two files (BASE HEAD), or --git REV [FILE]');
    pairs = [[load(io, args.base), load(io, args.head)]];
  }
  // One reader, so one filesystem view, for every revision of every file.
  const reader = configReader(args, undefined, undefined, undefined, io);
  const diffs: ConfigDiff[] = [];
  for (const [b, h] of pairs) {
    // Both revisions hold the head's file as the config being checked, so that it is no change between them.
    const config = h.path;
    const present = b.bytes ? reader.check(b.bytes, b.label, platforms, undefined, config, b.location) : undefined;
    const after = h.bytes ? reader.check(h.bytes, h.label, platforms, undefined, config, h.location) : undefined;
    const dialect = (present ?? after)?.dialect;
    const nothing = (side: Side): CheckResult =>
      reader.check(new Uint8Array(), side.label, platforms, dialect ?? 'box', config, side.location);
    diffs.push(
      await diffChecks(present ?? nothing(b), after ?? nothing(h), platforms, args, {
        ...(b.hint ? { base: b.hint } : {}),
        ...(h.hint ? { head: h.hint } : {}),
      }),
    );
  }
  const render = await renderer(formats.diff, args.format);
  useColour(colourOf(io));
  io.stdout.write(render(diffs));
  if (diffs.some((d) => 'error' in d)) return 1;
  if (args['fail-on'] === 'widen') {
    const failures = diffs.flatMap((d) => ('delta' in d ? gateFailures(d.delta).map((f) => `${d.head}: ${f}`) : []));
    if (failures.length) {
      io.stderr.write(`boxwright diff: --fail-on widen fails: ${failures.join('; ')}\n`);
      return 1;
    }
  }
  return 0;
}
