/**
 * The independent checkers the tests in this folder run: other people's
 * parsers, compilers and validators, installed by `.ci/run` (Debian:
 * python3-samba, python3-seccomp, mono-mcs) and by `npm ci` (taplo,
 * tree-sitter-powershell with web-tree-sitter, the SARIF multitool). Each
 * `has…` says whether the tool is here; tests pass it to requireOrSkip, so a
 * missing tool skips loudly outside CI and fails in CI.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../helpers.js';

/**
 * Debian's interpreter, where python3-samba and python3-seccomp install
 * their modules (a `python3` first on PATH may be another one, pyenv's).
 */
export const debianPython = '/usr/bin/python3';

/** Runs a Python program with Debian's interpreter, `input` on stdin. */
export function python(program: string, input = ''): SpawnSyncReturns<string> {
  return spawnSync(debianPython, ['-c', program], { input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** Whether Debian's python3 can import `module`. */
export function hasPythonModule(module: string): boolean {
  if (!existsSync(debianPython)) return false;
  return python(`import ${module}`).status === 0;
}

/** A command on PATH that answers `args` with exit 0. */
export function hasCommand(command: string, args: readonly string[]): boolean {
  const r = spawnSync(command, args, { encoding: 'utf8' });
  return !r.error && r.status === 0;
}

export const taploCli = join(repoRoot, 'node_modules', '@taplo', 'cli', 'dist', 'cli.js');
export const sarifMultitool = join(repoRoot, 'node_modules', '@microsoft', 'sarif-multitool-linux', 'Sarif.Multitool');
export const powershellWasm = join(repoRoot, 'node_modules', 'tree-sitter-powershell', 'tree-sitter-powershell.wasm');

export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
