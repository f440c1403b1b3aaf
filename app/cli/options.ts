import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { Platform } from '../../compiler/diagnostic.js';
import { PLATFORMS } from '../../compiler/diagnostic.js';
import { hostView, manifestView, noneView, type FsView } from '../../compiler/paths/index.js';
import type { Dialect } from '../../compiler/schema/validate.js';
import { checkConfig, type CheckResult } from '../check.js';

/** A usage problem: exit 2 with the message, never a stack trace. */
export class UsageError extends Error {}

/** `--fs host|none|FILE.json` with `--home`. */
export function fsViewFrom(fs: string | undefined, home: string | undefined): FsView {
  const spec = fs ?? 'host';
  if (spec === 'host') return hostView(home ?? homedir());
  if (spec === 'none') return noneView(home ?? homedir());
  let text: string;
  try {
    text = readFileSync(spec, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read the filesystem manifest ${spec}: ${(e as Error).message}`);
  }
  try {
    const view = manifestView(text, spec);
    return home ? { ...view, home } : view;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

export function platformsFrom(spec: string | readonly string[] | undefined): Platform[] {
  if (spec === undefined) return [...PLATFORMS];
  const names = (Array.isArray(spec) ? spec : [spec]).flatMap((s: string) => s.split(',')).map((s) => s.trim()).filter(Boolean);
  for (const n of names) if (!PLATFORMS.includes(n as Platform)) throw new UsageError(`unknown platform \`${n}\`: choose from ${PLATFORMS.join(', ')}`);
  return PLATFORMS.filter((p) => names.includes(p));
}

/** The options every command that reads a config takes (`fsOptions` in main.ts). */
export interface ConfigArgs {
  fs?: string;
  home?: string;
  dialect?: Dialect;
  worktree?: string;
  'tyba-data-dir'?: string;
  'agent-dir'?: string | string[];
}

export interface SessionOptions {
  readonly worktree: string;
  readonly tybaDataDir?: string;
  readonly agentDirs?: readonly string[];
}

export function sessionFrom(args: { worktree?: string; 'tyba-data-dir'?: string; 'agent-dir'?: string | string[] }): SessionOptions {
  const agentDirs = args['agent-dir'] === undefined ? [] : ([] as string[]).concat(args['agent-dir']);
  return {
    worktree: resolve(args.worktree ?? process.cwd()),
    ...(args['tyba-data-dir'] ? { tybaDataDir: args['tyba-data-dir'] } : {}),
    ...(agentDirs.length ? { agentDirs } : {}),
  };
}

/**
 * How one command reads its configs: one filesystem view for the whole
 * command (so every config, and base and head of a diff, see the same disk
 * state through the same cache, and a manifest is read once), the session
 * options and the dialect override; `check` runs the front end, the model
 * and the rules once per config. Commands check each config once and hand
 * the result on.
 */
export interface ConfigReader {
  readonly view: FsView;
  check(bytes: Uint8Array, file: string, platforms?: readonly Platform[]): CheckResult;
}

export function configReader(args: ConfigArgs): ConfigReader {
  const view = fsViewFrom(args.fs, args.home);
  const session = sessionFrom(args);
  return {
    view,
    check: (bytes, file, platforms) => checkConfig(bytes, { file, view, ...session, ...(platforms ? { platforms } : {}), ...(args.dialect ? { dialect: args.dialect } : {}) }),
  };
}
