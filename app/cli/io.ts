import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import { type Input, readInput } from '../input/read-input.js';

/** Where a command writes: a process's stream, or a test's buffer. */
export interface Output {
  write(text: string | Uint8Array): unknown;
}

/**
 * Everything a command takes from the process it runs in (actionlint's
 * `Command` with injected streams, ESLint's `cli.execute`): bin/boxwright.cjs
 * passes the real ones (entry.ts `processIo`), a test passes its own, so
 * that a CLI test need not start a process. A command reads no
 * `process.stdout`, `process.env` or `process.cwd()` itself: what it prints,
 * the colours, the home and the relative paths all follow this.
 */
export interface CliIo {
  readonly stdout: Output;
  readonly stderr: Output;
  /** Standard input: the process's descriptor 0, or bytes already in memory (a test's). */
  readonly stdin: { readonly fd: 0 } | { readonly bytes: Uint8Array };
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The directory relative paths are relative to (absolute). */
  readonly cwd: string;
  readonly stdinIsTTY: boolean;
  readonly stdoutIsTTY: boolean;
  /** The terminal's width, when standard output is one (yargs wraps help to it, at most 80). */
  readonly columns?: number;
  /** The command's clock (the system's when absent): what an ignore's `expires` in .boxwright.toml is compared with. */
  readonly now?: () => Date;
}

/** `path` as the file system reads it from the command's directory (`-`, standard input, stays). */
export const at = (io: Pick<CliIo, 'cwd'>, path: string): string => (path === '-' ? path : resolve(io.cwd, path));

/**
 * The home, as Node's `os.homedir()` finds it: `HOME` when set and not
 * empty, else the password database's, but from the command's environment.
 */
export const homeOf = (io: Pick<CliIo, 'env'>): string => io.env['HOME'] || userInfo().homedir;

/** The homes a host-program lookup stays out of (host-programs.ts `lookupHomes`): the command's, and `--home`. */
export const homesOf = (io: Pick<CliIo, 'env'>, home: string | undefined): string[] => [homeOf(io), ...(home ? [home] : [])];

/**
 * Whether text output is coloured: kleur's own rule (it reads the process's
 * environment once, at import), applied to the command's environment and
 * standard output. NO_COLOR, NODE_DISABLE_COLORS and TERM=dumb turn it off;
 * FORCE_COLOR (not 0) or a terminal, on.
 */
export function colourOf(io: Pick<CliIo, 'env' | 'stdoutIsTTY'>): boolean {
  const { FORCE_COLOR, NODE_DISABLE_COLORS, NO_COLOR, TERM } = io.env;
  return (
    !NODE_DISABLE_COLORS &&
    NO_COLOR === undefined &&
    TERM !== 'dumb' &&
    ((FORCE_COLOR !== undefined && FORCE_COLOR !== '0') || io.stdoutIsTTY)
  );
}

/** A config the command line names (`-`: the command's standard input), read from the command's directory; named as given. */
export const readArg = (io: CliIo, path: string): Input =>
  readInput(path, undefined, { cwd: io.cwd, ...('bytes' in io.stdin ? { stdin: io.stdin.bytes } : {}) });
