import { execFileSync } from 'node:child_process';
import { relative, resolve } from 'node:path';
import type { Platform } from '../../compiler/diagnostic.js';
import { accessDelta } from '../views/delta.js';
import { artifactDiffs, type ArtifactDiff, type ConfigDiff } from '../views/diff.js';
import type { CheckResult } from '../check.js';
import { formats, renderer } from '../format/registry.js';
import { compileConfig } from './compile.js';
import { configReader, platformsFrom, UsageError, type ConfigArgs } from './options.js';
import { readInput } from './read-input.js';

export interface DiffArgs extends ConfigArgs {
  base?: string;
  head?: string;
  git?: string;
  format?: string;
  platform?: string | string[];
  'fail-on'?: string;
  artifacts?: boolean;
}

interface Side {
  readonly label: string;
  readonly bytes: Uint8Array;
}

/** Each selected platform's artifacts of both revisions, compiled from their check results (no --force, default target options), compared. */
async function compareArtifacts(base: CheckResult, head: CheckResult, platforms: readonly Platform[]): Promise<ArtifactDiff[]> {
  const { createTwoFilesPatch } = await import('diff');
  const out: ArtifactDiff[] = [];
  for (const platform of platforms) {
    const [b, h] = await Promise.all([compileConfig(base, platform, {}), compileConfig(head, platform, {})]);
    out.push(...artifactDiffs(platform, { label: base.file, artifacts: b.ok ? b.artifacts : undefined }, { label: head.file, artifacts: h.ok ? h.artifacts : undefined }, createTwoFilesPatch));
  }
  return out;
}

/** Both revisions, checked once each, compared through their access models, then their artifacts. */
export async function diffChecks(base: CheckResult, head: CheckResult, platforms: readonly Platform[], args: Pick<DiffArgs, 'artifacts'>): Promise<ConfigDiff> {
  if (!base.ir || !head.ir) {
    const which = !base.ir ? base.file : head.file;
    return { base: base.file, head: head.file, error: `${which} has errors (run \`boxwright lint ${which}\`); nothing to compare` };
  }
  const delta = accessDelta(
    { model: base.model, verdicts: base.verdicts, diagnostics: base.diagnostics },
    { model: head.model, verdicts: head.verdicts, diagnostics: head.diagnostics },
    platforms,
  );
  const identical = Buffer.from(base.bytes).equals(Buffer.from(head.bytes));
  const artifacts = identical || args.artifacts === false ? [] : await compareArtifacts(base, head, platforms);
  return { base: base.file, head: head.file, delta, artifacts };
}

function gitShow(rev: string, file: string): Side {
  const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
  const inRepo = relative(root, resolve(file)).split('\\').join('/');
  try {
    return { label: `${rev}:${inRepo}`, bytes: execFileSync('git', ['show', `${rev}:${inRepo}`], { cwd: root, maxBuffer: 64 << 20 }) };
  } catch (e) {
    throw new UsageError(`git cannot show ${rev}:${inRepo}: ${(e as { stderr?: Buffer }).stderr?.toString().trim() || (e as Error).message}`);
  }
}

function changedConfigs(rev: string): string[] {
  const out = execFileSync('git', ['diff', '--name-only', rev, '--', '*.toml'], { encoding: 'utf8' });
  return out.split('\n').filter(Boolean);
}

function load(path: string): Side {
  const input = readInput(path);
  if ('error' in input) throw new UsageError(input.error);
  return { label: path, bytes: input.bytes };
}

/**
 * `boxwright diff BASE HEAD` or `boxwright diff --git REV [FILE]`: exit 0,
 * or 1 with `--fail-on widen` when any principal gains access on a
 * selected platform (or when a revision cannot be read as a policy); 2 usage.
 */
export async function diffCommand(args: DiffArgs): Promise<number> {
  const pairs: [Side, Side][] = [];
  if (args.git) {
    const files = args.base ? [args.base] : changedConfigs(args.git);
    for (const f of files) pairs.push([gitShow(args.git, f), load(f)]);
  } else {
    if (!args.base || !args.head) throw new UsageError('name two files (BASE HEAD), or --git REV [FILE]');
    pairs.push([load(args.base), load(args.head)]);
  }
  const platforms = platformsFrom(args.platform);
  // One reader, so one filesystem view, for every revision of every file.
  const reader = configReader(args);
  const diffs: ConfigDiff[] = [];
  for (const [b, h] of pairs) diffs.push(await diffChecks(reader.check(b.bytes, b.label), reader.check(h.bytes, h.label), platforms, args));
  const render = await renderer(formats.diff, args.format);
  process.stdout.write(render(diffs));
  if (diffs.some((d) => 'error' in d)) return 1;
  if (args['fail-on'] === 'widen' && diffs.some((d) => 'delta' in d && d.delta.changes.some((c) => c.widens))) {
    process.stderr.write('boxwright diff: access widens (--fail-on widen)\n');
    return 1;
  }
  return 0;
}
