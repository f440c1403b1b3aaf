/**
 * `boxwright learn --check`: the command again, under the config learn
 * just wrote, through `boxwright run`'s own path, in the throw-away root and
 * traced (learn.ts runs it after the learning run).
 */
import type { LearnBounds } from '../learn/bounds.js';
import { boundText } from '../learn/bounds.js';
import { evidenceText, spelled } from '../learn/config-text.js';
import { readOut } from '../learn/out-file.js';
import { runTraced, type TracedOutcome } from '../learn/session.js';
import type { Need } from '../learn/needs.js';
import { stillFailing } from '../learn/review.js';
import { workloadAccesses, type WorkloadTrace } from '../learn/trace.js';
import { NOT_RUN, say, TIMED_OUT, writableDirs, type LearnArgs, type Tools } from './learn-common.js';

export interface CheckRun {
  readonly out: string;
  readonly args: LearnArgs;
  readonly command: string[];
  readonly passEnv: string[];
  readonly found: Tools;
  readonly cwd: string;
  readonly home: string;
  /** The learning run's trace: what succeeded there. */
  readonly learned: WorkloadTrace;
  /** What the learning run needed (review.ts's stillFailing compares on them). */
  readonly needs: readonly Need[];
  readonly timeout: number | undefined;
  readonly bounds: LearnBounds;
}

/**
 * `--check`: the command again, through `boxwright run`'s own path (check,
 * compile, launcher) under the learned config, inside the throw-away root
 * and traced: what failed there that succeeded while learning still fails.
 */
export async function checkRun(c: CheckRun): Promise<number> {
  const { out, args, command, passEnv, found, cwd, home, learned, needs, timeout, bounds } = c;
  const { linuxReader, runLinux } = await import('../../targets/linux/run/runner.js');
  const { runRequest } = await import('./run-common.js');
  const runArgs = { ...args, config: out, fs: 'host', home, force: false, '--': command, 'pass-env': passEnv };
  delete (runArgs as { out?: string }).out;
  const req = runRequest(runArgs);
  const input = readOut(out);
  if (input.kind !== 'file') {
    say(`${input.kind === 'refused' ? input.why : `${out} is not there`}; --check did not run`);
    return NOT_RUN;
  }
  let traced: TracedOutcome | undefined;
  const status = await runLinux(runArgs, req, linuxReader(runArgs, req), input.bytes, {
    cache: false,
    launch: async (run) => {
      traced = await runTraced({
        helper: found.helper,
        strace: found.strace,
        program: [run.launcher, ...run.passEnv.flatMap((n) => ['--pass-env', n]), '--', ...run.command],
        cwd,
        env: Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined)),
        writable: writableDirs(cwd, home),
        ...(timeout !== undefined ? { timeoutSeconds: timeout } : {}),
        forwardTo: 'program',
        bounds,
      });
      for (const n of traced.notes) say(n);
      if (traced.refused) say(`${traced.refused}; --check did not run`);
      if (traced.bound) say(`--check: ${boundText(traced.bound, bounds)}`);
      return traced.status;
    },
  });
  const failures = traced ? stillFailing(learned, workloadAccesses(traced.processes, cwd), needs) : [];
  if (traced?.timedOut) {
    process.stdout.write(`\n--check: the command ran under ${out} through boxwright run and was ended by --timeout after ${timeout} s.\n`);
    return TIMED_OUT;
  }
  process.stdout.write(`\n--check: the command ran under ${out} through boxwright run and exited with status ${status}.\n`);
  if (failures.length) {
    process.stdout.write(`What succeeded while learning and fails under the learned config:\n`);
    for (const f of failures.slice(0, 40))
      process.stdout.write(
        `  ${f.op} ${spelled(f.path, home)}: ${f.errno} (${evidenceText({ syscall: f.syscall, program: f.program, named: f.path })})\n`,
      );
    if (failures.length > 40) process.stdout.write(`  … and ${failures.length - 40} more\n`);
  } else if (traced) process.stdout.write('Nothing that succeeded while learning failed.\n');
  return status;
}
