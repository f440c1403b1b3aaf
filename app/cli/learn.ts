/**
 * `boxwright learn [--dialect box|tyba] [--principal P] [--out FILE]
 * [--network] [--timeout S] [--max-trace SIZE] [--max-events N]
 * [--max-writes SIZE] [--check] -- CMD ARGS…`: runs CMD once in a
 * throw-away copy of the host (app/learn/session.ts), traced from outside
 * with strace, and writes the least-privilege config of what it needed
 * (app/learn: needs.ts, policy.ts, config-text.ts; merge.ts when FILE
 * exists), then lints and explains it with the pipeline every other
 * command uses, so that the user reviews it before trusting it. `--check`
 * runs CMD again through `boxwright run`'s own path, under the learned
 * config (in the throw-away root too), and says what still fails
 * (learn-check.ts). FILE is read and written never through a link
 * (app/learn/out-file.ts); the run is bounded (app/learn/bounds.ts).
 *
 * The exit status is the command's (128+N for a signal), as in `run`; 124
 * when --timeout or a bound ended it; 125 when learn could not run it at
 * all; 2 usage.
 * With --check it is the checked run's.
 */
import { compilable, peerConfigWords } from '../../compiler/ir/compilable.js';
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import type { CliIo } from './io.js';
import { resolve } from 'node:path';
import { hostView, isUnder } from '../../compiler/paths/index.js';
import type { Dialect } from '../../compiler/schema/validate.js';
import { hostArch, seccompProgram } from '../../targets/linux/index.js';
import { sandboxEnv } from '../../targets/run/env.js';
import type { CheckedPolicy, CheckResult } from '../check.js';
import { formats, renderer, whole } from '../format/registry.js';
import { formatText } from '../format/text.js';
import { learnBoundaries } from '../learn/boundaries.js';
import { hostTrustedFor } from '../learn/host-trusted.js';
import { commandText, configText, evidenceText, spelled } from '../learn/config-text.js';
import { interpreterOf } from '../learn/interpreter.js';
import { mergeLearned } from '../learn/merge.js';
import { deriveNeeds, type NeedSet, type Unmet } from '../learn/needs.js';
import { checkWaitsFor, decide, madeDirectories, type LearnDialect } from '../learn/policy.js';
import { learnArgv, READY_FD, STATUS_FD } from '../learn/sandbox.js';
import { runTraced, type TracedOutcome } from '../learn/session.js';
import { workloadAccesses, type WorkloadTrace } from '../learn/trace.js';
import { BOUND_FLAG, boundText, type LearnBounds } from '../learn/bounds.js';
import { readOut, writeOut } from '../learn/out-file.js';
import { reviewDiagnostics, type Reviewed } from '../learn/review.js';
import { checkRun } from './learn-check.js';
import { boundsFrom, timeoutFrom, tools } from './learn-setup.js';
import { NOT_RUN, say, TIMED_OUT, writableDirs, type LearnArgs } from './learn-common.js';
import { afterStatus } from '../../targets/linux/run/sandbox/outcome.js';
import { principalId, RunUsageError, passEnvList } from '../../targets/linux/run/sandbox/run-request.js';
import { explainCheck } from './explain.js';
import { configReader, homeFrom, UsageError } from './options.js';

interface Learned {
  readonly status: number;
  readonly incomplete: string[];
  readonly ending: string;
  readonly trace: WorkloadTrace;
  readonly outcome: TracedOutcome;
}

/** The exit status of the traced command, and what the run's end says about what it learned. */
function ending(
  outcome: TracedOutcome,
  trace: WorkloadTrace,
  timeout: number | undefined,
  bounds: LearnBounds,
): Omit<Learned, 'trace' | 'outcome'> {
  const status = outcome.read.get(STATUS_FD) ?? '';
  const code = /"exit-code"\s*:\s*(\d+)/.exec(status)?.[1];
  const ready = outcome.read.get(READY_FD) ?? '';
  const incomplete: string[] = [];
  let exit: number;
  let text: string;
  if (outcome.timedOut) {
    exit = TIMED_OUT;
    text = `The run was ended after ${timeout} s (--timeout).`;
    incomplete.push(`ended by --timeout after ${timeout} s`);
  } else if (outcome.bound === 'trace' || outcome.bound === 'writes') {
    // Ended by learn at a limit, as by --timeout, whatever the command made of its ENOSPC meanwhile.
    exit = TIMED_OUT;
    text = `The run was stopped: ${boundText(outcome.bound, bounds)}.`;
    incomplete.push(`stopped at ${BOUND_FLAG[outcome.bound]}`);
  } else if (code !== undefined) {
    exit = Number(code);
    text =
      exit === 0
        ? 'The run exited with status 0.'
        : exit > 128
          ? `The run ended with status ${exit} (signal ${exit - 128}).`
          : `The run exited with status ${exit}.`;
    if (exit !== 0) incomplete.push(exit > 128 ? `the command was killed by signal ${exit - 128}` : `the command failed (status ${exit})`);
  } else {
    exit = NOT_RUN;
    text = 'The sandbox did not start.';
    incomplete.push('the sandbox did not start');
  }
  const failed = /^exec-failed (\d+)/m.exec(ready);
  if (failed) incomplete.push('the command could not be executed');
  else if (!trace.started && code !== undefined) incomplete.push('the trace holds no run of the command');
  if (outcome.bound === 'events') incomplete.push(`the trace was read up to ${BOUND_FLAG.events} (${bounds.events} calls)`);
  if (trace.unread)
    incomplete.push(
      `${trace.unread} traced call${trace.unread > 1 ? 's' : ''} could not be read (a path that is not UTF-8, which no TOML string can name)`,
    );
  return { status: exit, incomplete, ending: text };
}

export async function learnCommand(args: LearnArgs, _io: CliIo): Promise<number> {
  const command = (args['--'] ?? []).map(String);
  if (command.length === 0) throw new UsageError('name the command to learn from after --: boxwright learn [--out FILE] -- CMD [ARGS...]');
  if (args.fs !== undefined && args.fs !== 'host') throw new UsageError('learn runs the command on this machine: --fs can only be host');
  let principal: string;
  let passEnv: string[];
  try {
    principal = principalId(args.principal);
    passEnv = passEnvList(args['pass-env']);
  } catch (e) {
    if (e instanceof RunUsageError) throw new UsageError(e.message);
    throw e;
  }
  const timeout = timeoutFrom(args.timeout);
  const bounds = boundsFrom(args);
  const home = homeFrom(args.home) ?? homedir();
  const out = args.out !== undefined ? resolve(args.out) : undefined;
  if (args.check && !out) throw new UsageError('--check runs the command under the learned config: name the file with --out');
  const reader = configReader({ ...args, fs: 'host', home });

  // Learning into an existing config: it must be one, without errors, of the dialect asked.
  let existing: CheckedPolicy | undefined;
  let dialect: LearnDialect = (args.dialect as Dialect | undefined) === 'tyba' ? 'tyba' : 'box';
  const present = out ? readOut(out) : undefined;
  if (present?.kind === 'refused') throw new UsageError(`cannot learn into ${out}: ${present.why}; nothing was run`);
  // An empty file is a config yet to be written (made by `touch`, or by a shell's redirection).
  if (out && present?.kind === 'file' && Buffer.from(present.bytes).toString('utf8').trim() !== '') {
    const input = present;
    const check = reader.check(input.bytes, out);
    if (!check.ir || check.diagnostics.some((d) => d.ruleId === 'toml-syntax' || d.ruleId === 'schema')) {
      process.stderr.write(
        formatText([
          {
            path: out,
            text: check.text,
            ...(check.dialect ? { dialect: check.dialect } : {}),
            verdicts: check.verdicts,
            diagnostics: check.diagnostics.filter((d) => d.severity === 'error'),
          },
        ]),
      );
      throw new UsageError(
        `cannot learn into ${out}: it is not a config learn can add to (the errors above); fix it or choose another --out`,
      );
    }
    if (args.dialect && check.dialect !== args.dialect)
      throw new UsageError(`--dialect ${args.dialect}: ${out} is a ${check.dialect} config`);
    // A peer's config is the peer's: learn writes Box and TYBA lines, which would not be one of its (a JSON file would not parse).
    const target = compilable(check.ir);
    if ('enforcer' in target)
      throw new UsageError(
        `cannot learn into ${out}: it is ${peerConfigWords[target.enforcer]}, and learn writes Box and TYBA configs; ` +
          'choose another --out; nothing was run',
      );
    dialect = target.ir.dialect;
    existing = check;
  }
  if (dialect === 'tyba' && principal !== 'agent')
    throw new UsageError('a TYBA config has one principal, the agent: --principal is for Box configs');

  const found = tools(home);
  if (typeof found === 'string') {
    say(`${found}; the command did not run`);
    return NOT_RUN;
  }
  const cwd = realpathSync(process.cwd());
  const worktree = resolve(args.worktree ?? cwd);
  const agentDirs = args['agent-dir'] === undefined ? [] : ([] as string[]).concat(args['agent-dir']).map((d) => resolve(d));
  const env = sandboxEnv(process.env, passEnv).env;
  const arch = hostArch()!;
  const uid = process.getuid!();
  // What stays in view under the private /tmp when it lies there: TYBA's session directories; for Box also the home.
  const kept = [worktree, ...(dialect === 'box' ? [home] : []), ...agentDirs];
  const outcome = await runTraced({
    helper: found.helper,
    strace: found.strace,
    program: learnArgv({
      bwrap: found.bwrap,
      step: found.helper,
      cwd,
      command,
      network: !!args.network,
      // Both dialects: TYBA's session has its private /tmp, and a learned Box config gets private_tmp = true, never the host's /tmp.
      privateTmp: true,
      keep: kept,
      ...(uid !== 0 ? { ids: { uid, gid: process.getgid!() } } : {}),
    }),
    cwd,
    env,
    writable: writableDirs(cwd, home),
    fds: [{ write: seccompProgram(arch) }, { read: true }, { read: true }],
    ...(timeout !== undefined ? { timeoutSeconds: timeout, startedOn: READY_FD } : {}),
    forwardTo: 'command',
    bounds,
  });
  for (const n of outcome.notes) say(n);
  if (outcome.refused) {
    say(`${outcome.refused}; the command did not run`);
    return NOT_RUN;
  }
  const trace = workloadAccesses(outcome.processes, cwd);
  const end = ending(outcome, trace, timeout, bounds);
  if (outcome.bound) say(boundText(outcome.bound, bounds));
  if (end.status === NOT_RUN && !trace.started) {
    say('the command did not run: the throw-away root or the sandbox could not be made (the messages above say why); nothing was written');
    return NOT_RUN;
  }
  // The command could not be executed at all (the in-sandbox step said so, as a shell would: 126, 127): nothing to learn.
  const failed = /^exec-failed (\d+)/m.exec(outcome.read.get(READY_FD) ?? '');
  if (failed) {
    say(`cannot execute ${command[0]} (errno ${failed[1]}): it is not a program this machine has, or not executable; nothing was written`);
    return end.status;
  }
  const after = afterStatus(end.status, command);
  if (after) say(after);

  const view = hostView(home);
  const traced = deriveNeeds({ accesses: trace.accesses, changes: outcome.changes, view, interpreterOf });
  const { needs, usedTmp } = dialect === 'box' ? inPrivateTmp(traced, kept) : { needs: traced, usedTmp: false };
  const tybaDataDir = args['tyba-data-dir'];
  const boundaries = learnBoundaries({
    home,
    ...(tybaDataDir ? { tybaDataDir } : {}),
    hostTrusted: hostTrustedFor(home, cwd),
    ...(out ? { own: [out] } : {}),
  });
  const decision = decide(needs, {
    dialect,
    home,
    workspace: cwd,
    boundaries,
    view,
    ...(dialect === 'tyba' ? { implicit: [worktree, '/tmp', ...agentDirs] } : {}),
  });
  const network = networkLines(needs, principal, !!args.network, home);
  const unmet: Unmet[] = [...decision.unmet];

  let text: string;
  let summary: string;
  if (existing) {
    const merged = mergeLearned({
      check: existing,
      dialect,
      principal,
      home,
      workspace: cwd,
      privateTmp: usedTmp,
      grants: decision.grants,
      header: `learned from: ${commandText(command)}${end.incomplete.length ? ` (INCOMPLETE: ${end.incomplete.join('; ')})` : ''}`,
    });
    if (!merged.ok) throw new UsageError(`cannot learn into ${out}: ${merged.error}`);
    text = merged.text;
    summary = `${merged.added.length} grant${merged.added.length === 1 ? '' : 's'} added to ${out}, ${merged.already} already given`;
    for (const n of merged.notes) say(n);
    unmet.push(...merged.denied);
  } else {
    text = configText({
      dialect,
      principal,
      home,
      command,
      ending: end.ending,
      incomplete: end.incomplete,
      ...(dialect === 'box' ? { workspace: cwd, privateTmp: usedTmp } : {}),
      grants: decision.grants,
      unmet: decision.unmet,
      network,
    });
    summary = `${decision.grants.length} grant${decision.grants.length === 1 ? '' : 's'} learned${out ? `, written to ${out}` : ''}`;
  }
  if (out) {
    const failed = writeOut(out, text, present?.kind === 'file' ? present.mode : undefined);
    if (failed) throw new UsageError(`cannot learn into ${out}: ${failed}`);
  } else process.stdout.write(text);

  // The review: lint's verdicts and explain's matrix of what was written, from one check.
  const review = out ? process.stdout : process.stderr;
  const written = reader.check(Buffer.from(text, 'utf8'), out ?? '<learned>');
  review.write(`${summary}${end.incomplete.length ? ` (INCOMPLETE: ${end.incomplete.join('; ')})` : ''}.\n`);
  for (const u of unmet) review.write(`not granted: ${spelled(u.path, home)}: ${u.what} (${evidenceText(u.first)})\n`);
  for (const n of network) review.write(`network: ${n}\n`);
  const reviewed = written.ir ? reviewDiagnostics(written, principal, needs.needs) : undefined;
  for (const b of reviewed?.beyondRun ?? []) review.write(`beyond this run: ${b}\n`);
  review.write(await reviewText(written, reviewed));

  if (!args.check || !out) return end.status;
  const made = madeDirectories(decision.grants);
  if (made.length) {
    say(`--check did not run: ${checkWaitsFor(made, home)}`);
    return NOT_RUN;
  }
  return checkRun({ out, args, command, passEnv, found, cwd, home, learned: trace, needs: needs.needs, timeout, bounds });
}

/**
 * A Box command ran with a private tmpfs at /tmp (the directories it was
 * given stay in view): what it did below /tmp, outside them, was in its own
 * /tmp, which `private_tmp = true` gives it again; no grant of the host's.
 */
function inPrivateTmp(set: NeedSet, kept: readonly string[]): { needs: NeedSet; usedTmp: boolean } {
  const own = (path: string): boolean => isUnder(path, '/tmp') && !kept.some((d) => isUnder(path, d));
  const needs = set.needs.filter((n) => !own(n.path));
  if (needs.length === set.needs.length) return { needs: set, usedTmp: false };
  // Looking at /tmp itself and the directories leading to a kept one is the way there, not a use of the temp directory; writing there is.
  const way = (n: NeedSet['needs'][number]): boolean =>
    kept.some((d) => isUnder(d, n.path)) && n.kind !== 'write-dir' && n.kind !== 'write-file';
  const usedTmp = set.needs.some((n) => own(n.path) && !way(n));
  return { needs: { ...set, needs, unmet: set.unmet.filter((u) => !own(u.path)) }, usedTmp };
}

function networkLines(needs: NeedSet, principal: string, network: boolean, home: string): string[] {
  // A unix socket that is not there (ENOENT) is a probe (nscd, a desktop bus), not a need.
  const used = needs.network.filter((n) => !(n.target.startsWith('/') && n.errno === 'ENOENT'));
  const lines = used.map(
    (n) =>
      `${n.target.startsWith('/') ? `the unix socket ${spelled(n.target, home)}` : n.target} (${n.ok ? 'reached' : `refused: ${n.errno ?? 'failed'}`}; ` +
      `${evidenceText(n.first)})`,
  );
  if (used.some((n) => n.target.startsWith('/')))
    lines.push(
      'learn grants no socket: a read grant of a directory that holds one reaches it (socket-in-read-grant), and a host socket is out of reach while learning',
    );
  if (!used.some((n) => !n.target.startsWith('/'))) return lines;
  const grant =
    principal === 'agent'
      ? "the agent has no direct network (agent-network-table): it reaches the network through the host product's gateway"
      : `a direct network exception ` +
        `(${principal.startsWith('tool.') ? `[tools.${principal.slice(5)}.network]` : `contain_egress = false in [mcp_servers.${principal.slice(4)}]`}) ` +
        `would let it through, bypassing the gateway's policy: add it yourself if that is what you want`;
  lines.push(
    network
      ? `learn ran with --network and grants none of these: ${grant}`
      : `learn ran without network (--network lets it through to learn the destinations, never granting them); ${grant}`,
  );
  return lines;
}

async function reviewText(check: CheckResult, reviewed: Reviewed | undefined): Promise<string> {
  const lint = formatText([
    {
      path: check.file,
      text: check.text,
      ...(check.dialect ? { dialect: check.dialect } : {}),
      verdicts: reviewed?.verdicts ?? check.verdicts,
      diagnostics: reviewed?.diagnostics ?? check.diagnostics,
    },
  ]);
  const { matrix, errors } = explainCheck(reviewed?.check ?? check);
  if (!matrix) return `${lint}${errors}`;
  const render = await renderer(formats.explain, 'text');
  return `${lint}\n${whole(render(matrix))}`;
}
