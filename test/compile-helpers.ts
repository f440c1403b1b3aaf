import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Platform } from '../compiler/diagnostic.js';
import { compileConfig, type CompileArgs, type CompileOutcome } from '../app/cli/compile.js';
import { configReader } from '../app/cli/options.js';
import { repoRoot } from './helpers.js';

/** Every bundled example, by file name. */
export const exampleNames: readonly string[] = readdirSync(join(repoRoot, 'examples'))
  .filter((f) => f.endsWith('.toml'))
  .sort();

/**
 * Compiles a bundled example for a platform exactly as
 * `boxwright compile --fs examples/machine.json --worktree /home/dev/project`
 * would, in process.
 */
export function compileExample(name: string, platform: Platform, extra: Partial<CompileArgs> = {}): Promise<CompileOutcome> {
  const file = `examples/${name}`;
  return compileBytes(
    readFileSync(join(repoRoot, file)),
    platform,
    { fs: join(repoRoot, 'examples/machine.json'), worktree: '/home/dev/project', ...extra },
    file,
  );
}

/** Compiles TOML text against the examples' machine. */
export function compileText(text: string, platform: Platform, extra: Partial<CompileArgs> = {}): Promise<CompileOutcome> {
  return compileBytes(
    Buffer.from(text, 'utf8'),
    platform,
    { fs: join(repoRoot, 'examples/machine.json'), worktree: '/home/dev/project', ...extra },
    'config.toml',
  );
}

/** Checks config bytes and compiles the check, as `boxwright compile` does (one reader, one check). */
export function compileBytes(bytes: Uint8Array, platform: Platform, args: CompileArgs, file: string): Promise<CompileOutcome> {
  return compileConfig(configReader(args).check(bytes, file), platform, args);
}
