import { readFileSync } from 'node:fs';

export type Input = { readonly path: string; readonly bytes: Uint8Array } | { readonly path: string; readonly error: string; readonly reason: string };

/** A file's bytes (or stdin's for `-`), or why it cannot be read (`reason`; `error` says it with the file's name). */
export function readInput(path: string): Input {
  try {
    return { path, bytes: readFileSync(path === '-' ? 0 : path) };
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const reason = err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'is a directory' : err.code === 'EACCES' ? 'permission denied' : err.message;
    return { path, reason, error: `cannot read ${path === '-' ? 'standard input' : path}: ${reason}` };
  }
}
