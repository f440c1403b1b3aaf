/**
 * Runs one command under a compiled Seatbelt profile, beside the Linux
 * runner (linux.ts): the profile is written to a private temporary
 * directory and run with `/usr/bin/sandbox-exec -f PROFILE -- CMD…`
 * (targets/macos/runner.ts builds that argv), signals forwarded, the
 * directory removed when the command ends.
 *
 * Not exercised in this project's CI, which runs on Linux.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Dialect } from '../../compiler/schema/validate.js';
import { sandboxExecArgv } from '../macos/runner.js';

export interface MacosRun {
  /** The principal's compiled profile (`<principal>.sb`). */
  readonly profile: string | Uint8Array;
  /** The profile's file name in the temporary directory. */
  readonly name: string;
  /** TYBA profiles take $TMPDIR as a parameter. */
  readonly dialect: Dialect;
  readonly command: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

export type MacosRunOutcome =
  /** The command ran; its exit status (a signal death as 128 + signo). */
  | { readonly kind: 'exited'; readonly status: number }
  /** sandbox-exec could not be started: the command did not run. */
  | { readonly kind: 'no-sandbox-exec'; readonly file: string; readonly message: string };

const FORWARDED: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export function runUnderSandboxExec(run: MacosRun): Promise<MacosRunOutcome> {
  const dir = mkdtempSync(join(tmpdir(), 'boxwright-run-'));
  const file = join(dir, run.name);
  writeFileSync(file, run.profile);
  // TYBA profiles grant $TMPDIR through a parameter; sandbox-exec wants its canonical (/private/…) spelling.
  const params: Record<string, string> = run.dialect === 'tyba' ? { TMPDIR: realpathSync(tmpdir()) } : {};
  let argv: ReturnType<typeof sandboxExecArgv>;
  try {
    argv = sandboxExecArgv(file, run.command, params);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const { file: exe, args } = argv;
  return new Promise((resolve) => {
    const child = spawn(exe, args, { stdio: 'inherit', env: run.env });
    const forward = (s: NodeJS.Signals): void => void child.kill(s);
    for (const s of FORWARDED) process.on(s, forward);
    const done = (outcome: MacosRunOutcome): void => {
      for (const s of FORWARDED) process.removeListener(s, forward);
      rmSync(dir, { recursive: true, force: true });
      resolve(outcome);
    };
    child.on('error', (e) => done({ kind: 'no-sandbox-exec', file: exe, message: e.message }));
    child.on('close', (code, signal) => done({ kind: 'exited', status: code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0) }));
  });
}
