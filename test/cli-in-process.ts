/**
 * The CLI run in this process: `main(argv, io)` (app/cli/main.ts) with
 * standard streams in memory, as bin/boxwright.cjs runs it with the
 * process's own (app/cli/entry.ts). A CLI test that checks what a command
 * prints and its exit status uses this instead of starting a process
 * (about 40 spawns a file made the CLI tests the slowest of the suite).
 *
 * The spawned ones that stay (the real binary: exit codes through the
 * process, a closed pipe, signals, the code cache, the bundles, start-up)
 * are listed in CONTRIBUTING.md, and test/cli/in-process.test.ts holds the
 * two ways to the same {status, stdout, stderr} on representative lines.
 */
import type { CliIo, Output } from '../app/cli/io.js';
import { main } from '../app/cli/main.js';
import { repoRoot } from './helpers.js';

export interface CliRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  /** The directory the command runs in (default: the checkout). */
  readonly cwd?: string;
  /** The command's whole environment (default: this process's, which the test runner made hermetic: TMPDIR, XDG_CACHE_HOME). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Standard input (default: empty, as spawnSync's pipe with no input). */
  readonly stdin?: string | Uint8Array;
  /** Whether standard input is a terminal (default: no; `lint` with no file then says to name one). */
  readonly stdinIsTTY?: boolean;
  /** The command's clock (default: the system's): what .boxwright.toml's `expires` dates are compared with. */
  readonly now?: Date;
}

/** Collects what a command writes. */
function buffer(): Output & { text(): string } {
  const chunks: Buffer[] = [];
  return {
    write: (chunk: string | Uint8Array) => chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk)),
    text: () => Buffer.concat(chunks).toString('utf8'),
  };
}

/**
 * `boxwright ARGV…` in this process: its exit status and what it wrote. An
 * unexpected failure is exit 2 with the line entry.ts prints, so that a
 * crash shows as it would from the binary, never as a passing test.
 * Calls must not overlap (each one sets the text formats' colours).
 */
export async function cli(argv: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  const stdout = buffer();
  const stderr = buffer();
  const input = options.stdin ?? '';
  const io: CliIo = {
    stdout,
    stderr,
    stdin: { bytes: typeof input === 'string' ? Buffer.from(input) : input },
    env: options.env ?? { ...process.env },
    cwd: options.cwd ?? repoRoot,
    stdinIsTTY: options.stdinIsTTY ?? false,
    stdoutIsTTY: false,
    ...(options.now ? { now: () => options.now! } : {}),
  };
  let status: number;
  try {
    status = await main([...argv], io);
  } catch (e) {
    stderr.write(`boxwright: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    status = 2;
  }
  return { status, stdout: stdout.text(), stderr: stderr.text() };
}

/** The environment the CLI tests give a command: this process's without colours (FORCE_COLOR empty, NO_COLOR set). */
export const plainEnv = (extra: Readonly<Record<string, string | undefined>> = {}): Record<string, string | undefined> => ({
  ...process.env,
  NO_COLOR: '1',
  FORCE_COLOR: '',
  ...extra,
});
