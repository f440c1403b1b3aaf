/**
 * Runs one command under a compiled Seatbelt profile (the Linux run path
 * is app/platforms/linux/ and the bwrap launcher): the profile is written to
 * a private directory of this run's own (app/platforms/run-dir.ts: under the
 * protected cache root or the user's runtime directory, never $TMPDIR,
 * where another session's workload could replace the profile before
 * sandbox-exec reads it) and run with `/usr/bin/sandbox-exec -f PROFILE -- CMD…`
 * (sandbox-exec-argv.ts builds that argv), signals forwarded, the
 * directory removed when the command ends.
 *
 * Not exercised in this project's CI, which runs on Linux.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import type { Dialect } from '../../../compiler/schema/validate.js';
import { makeRunDir, runDirParent } from '../run-dir.js';
import { sandboxExecArgv } from './sandbox-exec-argv.js';

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
  | { readonly kind: 'no-sandbox-exec'; readonly file: string; readonly message: string }
  /** No private place for the profile (run-dir.ts says why, with the remedy): the command did not run. */
  | { readonly kind: 'no-private-dir'; readonly message: string };

const FORWARDED: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * What a session needs beside its profile, made in the run's own private
 * directory `dir`: a TYBA profile grants its temp directory as
 * `(param "TMPDIR")`, and that is a directory of this session's own,
 * `dir/tmp` (0700, empty at start, removed with `dir` when the command
 * ends), never the host's shared /private/tmp nor the user's $TMPDIR,
 * which the user's other programs share. The command gets it as TMPDIR;
 * sandbox-exec is given its canonical spelling (/private/var/…).
 */
export function sessionSetup(
  dialect: Dialect,
  dir: string,
  env: Readonly<Record<string, string>>,
): { params: Record<string, string>; env: Record<string, string> } {
  if (dialect !== 'tyba') return { params: {}, env: { ...env } };
  const temp = join(dir, 'tmp');
  mkdirSync(temp, { mode: 0o700 });
  const canonical = realpathSync(temp);
  return { params: { TMPDIR: canonical }, env: { ...env, TMPDIR: `${canonical}/` } };
}

export function runUnderSandboxExec(run: MacosRun): Promise<MacosRunOutcome> {
  const place = runDirParent();
  if ('why' in place) return Promise.resolve({ kind: 'no-private-dir', message: place.why });
  const dir = makeRunDir(place.dir);
  const file = join(dir, run.name);
  writeFileSync(file, run.profile);
  let argv: ReturnType<typeof sandboxExecArgv>;
  let env: Record<string, string>;
  try {
    const session = sessionSetup(run.dialect, dir, run.env);
    env = session.env;
    argv = sandboxExecArgv(file, run.command, session.params);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const { file: exe, args } = argv;
  return new Promise((resolve) => {
    const child = spawn(exe, args, { stdio: 'inherit', env });
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
