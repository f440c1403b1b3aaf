import { isatty } from 'node:tty';
import type { CliIo } from './io.js';
import { main } from './main.js';

/**
 * A reader that stops early (`boxwright lint … | head -1`) closes the pipe:
 * the rest of the output has nowhere to go, which is no error of
 * boxwright's. It is dropped quietly and the command ends with its own exit
 * status (Node would otherwise throw EPIPE as an unhandled 'error' event).
 */
function quietOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') return;
    throw e;
  });
}

/**
 * The process's own io: its streams, environment and directory, the only
 * place the CLI reads them (a test gives main() its own: test/cli-in-process.ts).
 */
export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: { fd: 0 },
    env: process.env,
    cwd: process.cwd(),
    // isatty, not process.stdin.isTTY: making process.stdin opens the descriptor as a stream (a pipe turns non-blocking), which `run` hands on.
    stdinIsTTY: isatty(0),
    stdoutIsTTY: process.stdout.isTTY === true,
    ...(process.stdout.columns ? { columns: process.stdout.columns } : {}),
  };
}

/** Runs the CLI; any unexpected failure is exit 2 with one line, never a stack trace. */
export function run(argv: string[]): void {
  quietOnClosedPipe(process.stdout);
  quietOnClosedPipe(process.stderr);
  main(argv, processIo()).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`boxwright: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
      if (process.env.BOXWRIGHT_DEBUG) process.stderr.write(`${(e as Error)?.stack ?? ''}\n`);
      process.exitCode = 2;
    },
  );
}
