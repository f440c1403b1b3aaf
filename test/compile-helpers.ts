import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Platform } from '../compiler/diagnostic.js';
import { compileConfig, type CompileArgs, type CompileOutcome } from '../app/cli/compile.js';
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
  return compileConfig(readFileSync(join(repoRoot, file)), platform, { fs: join(repoRoot, 'examples/machine.json'), worktree: '/home/dev/project', ...extra }, file);
}

/** Compiles TOML text against the examples' machine. */
export function compileText(text: string, platform: Platform, extra: Partial<CompileArgs> = {}): Promise<CompileOutcome> {
  return compileConfig(Buffer.from(text, 'utf8'), platform, { fs: join(repoRoot, 'examples/machine.json'), worktree: '/home/dev/project', ...extra }, 'config.toml');
}
