import { execFileSync } from 'node:child_process';
import { relative, resolve } from 'node:path';
import type { Platform } from '../../compiler/diagnostic.js';
import { effectiveAccess } from '../../model/index.js';
import { accessDelta, isEmptyDelta, type AccessDelta } from '../views/delta.js';
import { checkConfig, type CheckResult } from '../check.js';
import { compileConfig } from './compile.js';
import { fsViewFrom, platformsFrom, sessionFrom, UsageError, type ConfigArgs } from './options.js';
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

export interface ArtifactDiff {
  readonly platform: Platform;
  readonly name: string;
  /** A unified diff for text artifacts; a one-line summary for binary ones and for refusals. */
  readonly patch: string;
}

export interface ConfigDiff {
  readonly base: string;
  readonly head: string;
  readonly delta?: AccessDelta;
  /** Set when either side has front-end errors: no access model to compare. */
  readonly error?: string;
  readonly artifacts: readonly ArtifactDiff[];
}

interface Side {
  readonly label: string;
  readonly bytes: Uint8Array;
}

function check(side: Side, args: DiffArgs): CheckResult {
  return checkConfig(side.bytes, { file: side.label, view: fsViewFrom(args.fs, args.home), ...sessionFrom(args), ...(args.dialect ? { dialect: args.dialect } : {}) });
}

async function artifactDiffs(base: Side, head: Side, platforms: readonly Platform[], args: DiffArgs): Promise<ArtifactDiff[]> {
  const { createTwoFilesPatch } = await import('diff');
  const out: ArtifactDiff[] = [];
  for (const platform of platforms) {
    const [b, h] = await Promise.all([compileConfig(base.bytes, platform, args, base.label), compileConfig(head.bytes, platform, args, head.label)]);
    if (!b.ok || !h.ok) {
      if (b.ok !== h.ok) out.push({ platform, name: '*', patch: b.ok ? `${platform}: the head revision is refused: no artifacts` : `${platform}: the base revision was refused: all artifacts are new` });
      if (!h.ok) continue;
    }
    const before = new Map((b.ok ? b.artifacts : []).map((a) => [a.name, a.content]));
    const after = new Map(h.artifacts.map((a) => [a.name, a.content]));
    for (const name of [...new Set([...before.keys(), ...after.keys()])].sort()) {
      const x = before.get(name);
      const y = after.get(name);
      if (typeof x === 'string' || typeof y === 'string' || x === undefined || y === undefined) {
        const xs = typeof x === 'string' ? x : x === undefined ? '' : null;
        const ys = typeof y === 'string' ? y : y === undefined ? '' : null;
        if (xs !== null && ys !== null) {
          if (xs === ys) continue;
          out.push({ platform, name, patch: createTwoFilesPatch(`a/${name}`, `b/${name}`, xs, ys, base.label, head.label, { context: 3 }) });
          continue;
        }
      }
      const xb = Buffer.from(x as Uint8Array);
      const yb = Buffer.from(y as Uint8Array);
      if (!xb.equals(yb)) out.push({ platform, name, patch: `binary ${name}: ${xb.length} bytes → ${yb.length} bytes` });
    }
  }
  return out;
}

/** Both revisions, compared through the access model, then their artifacts. */
export async function diffConfigs(base: Side, head: Side, args: DiffArgs): Promise<ConfigDiff> {
  const platforms = platformsFrom(args.platform);
  const cb = check(base, args);
  const ch = check(head, args);
  if (!cb.ir || !ch.ir) {
    const which = !cb.ir ? base.label : head.label;
    return { base: base.label, head: head.label, error: `${which} has errors (run \`boxwright lint ${which}\`); nothing to compare`, artifacts: [] };
  }
  const delta = accessDelta(
    { model: effectiveAccess(cb.ir), verdicts: cb.verdicts, diagnostics: cb.diagnostics },
    { model: effectiveAccess(ch.ir), verdicts: ch.verdicts, diagnostics: ch.diagnostics },
    platforms,
  );
  const identical = Buffer.from(base.bytes).equals(Buffer.from(head.bytes));
  const artifacts = identical || args.artifacts === false ? [] : await artifactDiffs(base, head, platforms, args);
  return { base: base.label, head: head.label, delta, artifacts };
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
  const diffs: ConfigDiff[] = [];
  for (const [b, h] of pairs) diffs.push(await diffConfigs(b, h, args));
  const { diffText, diffMarkdown, diffJson } = await import('../format/diff.js');
  process.stdout.write(args.format === 'markdown' ? diffMarkdown(diffs) : args.format === 'json' ? diffJson(diffs) : diffText(diffs));
  if (diffs.some((d) => d.error)) return 1;
  if (args['fail-on'] === 'widen' && diffs.some((d) => d.delta?.changes.some((c) => c.widens))) {
    process.stderr.write('boxwright diff: access widens (--fail-on widen)\n');
    return 1;
  }
  return 0;
}

export { isEmptyDelta };
