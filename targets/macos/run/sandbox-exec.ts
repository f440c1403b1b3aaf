/**
 * Runs one command under a compiled Seatbelt profile (the Linux run path
 * is targets/linux/run/ and the bwrap launcher): the profile is written to a private
 * directory of the run's own under the user's cache root (0700, never a
 * shared temp directory, which another run's workload may write) and run with `/usr/bin/sandbox-exec -f PROFILE -- CMD…`
 * (sandbox-exec-argv.ts builds that argv), signals forwarded, the
 * directory removed when the command ends.
 *
 * Not exercised in this project's CI, which runs on Linux.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { cacheRoot, privateDir } from '../../run/cache-dir.js';
import { sandboxExecArgv } from './sandbox-exec-argv.js';

export interface MacosRun {
  /** The principal's compiled profile (`<principal>.sb`). */
  readonly profile: string | Uint8Array;
  /** The profile's file name in the temporary directory. */
  readonly name: string;
  /** The profile takes $TMPDIR as a parameter (`(param "TMPDIR")`): TYBA's session, a Box principal's `private_tmp = true`. */
  readonly privateTemp: boolean;
  readonly command: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

export type MacosRunOutcome =
  /** The command ran; its exit status (a signal death as 128 + signo). */
  | { readonly kind: 'exited'; readonly status: number }
  /** sandbox-exec could not be started: the command did not run. */
  | { readonly kind: 'no-sandbox-exec'; readonly file: string; readonly message: string }
  /** No private directory for the run (the cache root is another user's, or others may write it): the command did not run. */
  | { readonly kind: 'no-private-dir'; readonly message: string };

const FORWARDED: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * What a session needs beside its profile, made in the run's own private
 * directory `dir`: a profile that grants its temp directory as
 * `(param "TMPDIR")` (TYBA's, a Box principal's `private_tmp = true`) gets a directory of this run's own,
 * `dir/tmp` (0700, empty at start, removed with `dir` when the command
 * ends), never the host's shared /private/tmp nor the user's $TMPDIR,
 * which the user's other programs share. The command gets it as TMPDIR;
 * sandbox-exec is given its canonical spelling (/private/var/…).
 */
export function sessionSetup(
  privateTemp: boolean,
  dir: string,
  env: Readonly<Record<string, string>>,
): { params: Record<string, string>; env: Record<string, string> } {
  if (!privateTemp) return { params: {}, env: { ...env } };
  const temp = join(dir, 'tmp');
  mkdirSync(temp, { mode: 0o700 });
  const canonical = realpathSync(temp);
  return { params: { TMPDIR: canonical }, env: { ...env, TMPDIR: `${canonical}/` } };
}

/** Where runs make their directories: under the user's cache root, each directory on the way private (cache-dir.ts). */
export function runsRoot(env: NodeJS.ProcessEnv = process.env): { root: string } | { problem: string } {
  const root = cacheRoot(env);
  const runs = join(root, 'macos-runs');
  const problem = privateDir(root, runs);
  return problem ? { problem } : { root: runs };
}

export async function runUnderSandboxExec(run: MacosRun): Promise<MacosRunOutcome> {
  const where = runsRoot();
  if ('problem' in where) return { kind: 'no-private-dir', message: where.problem };
  const dir = mkdtempSync(join(where.root, 'run-'));
  const file = join(dir, run.name);
  writeFileSync(file, run.profile);
  let argv: ReturnType<typeof sandboxExecArgv>;
  let env: Record<string, string>;
  try {
    const session = sessionSetup(run.privateTemp, dir, run.env);
    env = session.env;
    argv = sandboxExecArgv(file, run.command, session.params);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const { file: exe, args } = argv;
  return new Promise<MacosRunOutcome>((resolve) => {
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
