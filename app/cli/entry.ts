import { main } from './main.js';

/** Runs the CLI; any unexpected failure is exit 2 with one line, never a stack trace. */
export function run(argv: string[]): void {
  main(argv).then(
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
