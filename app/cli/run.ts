import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Platform } from '../../compiler/diagnostic.js';
import { hostView, isUnder, type FsView } from '../../compiler/paths/index.js';
import { formatText } from '../format/text.js';
import { compileConfig, type CompileArgs, type CompileOutcome } from './compile.js';
import { configReader, UsageError } from './options.js';
import { readInput } from './read-input.js';

export interface RunArgs extends CompileArgs {
  config?: string;
  principal?: string;
  'pass-env'?: string | string[];
  'pass-fd'?: number | number[];
  verbose?: boolean;
  '--'?: unknown[];
}

/**
 * Exit statuses of `boxwright run` besides the command's own (docker's and
 * env's convention): 125 boxwright could not run the command in a sandbox
 * (refused or invalid config, no usable bubblewrap, failed set-up) — it did
 * not run; 126 the command is not executable in the sandbox; 127 it is not in
 * the sandbox's view; 2 usage.
 */
export const NOT_RUN = 125;
export const NOT_EXECUTABLE = 126;
export const NOT_FOUND = 127;

const say = (msg: string): void => {
  process.stderr.write(`boxwright run: ${msg}\n`);
};

/** `--principal agent|tool:NAME|mcp:NAME` → the principal id (`agent`, `tool.NAME`, `mcp.NAME`). */
export function principalId(spec: string | undefined): string {
  if (spec === undefined || spec === 'agent') return 'agent';
  const m = /^(tool|mcp)[:.](.+)$/.exec(spec);
  if (!m) throw new UsageError(`--principal must be agent, tool:NAME or mcp:NAME (got ${JSON.stringify(spec)})`);
  return `${m[1]}.${m[2]}`;
}

/**
 * `boxwright run CONFIG [--principal P] -- CMD ARGS…`: compiles the config in
 * memory for this machine's platform and runs CMD inside that sandbox,
 * returning its exit status. Fail-closed: when the sandbox cannot be made,
 * the command does not run; boxwright never runs it unsandboxed.
 */
export async function runCommand(args: RunArgs): Promise<number> {
  const command = (args['--'] ?? []).map(String);
  if (!args.config) throw new UsageError('name the config: boxwright run CONFIG -- CMD [ARGS...]');
  if (command.length === 0) throw new UsageError('name the command after --: boxwright run CONFIG -- CMD [ARGS...]');
  const id = principalId(args.principal);
  const pass = args['pass-env'] === undefined ? [] : ([] as string[]).concat(args['pass-env']).flatMap((s) => s.split(',')).filter(Boolean);
  const passFds = passFdList(args['pass-fd']);
  const input = readInput(args.config);
  if ('error' in input) {
    say(`${input.error}; the command did not run`);
    return NOT_RUN;
  }
  const platform: Platform | undefined = process.platform === 'linux' ? 'linux' : process.platform === 'darwin' ? 'macos' : process.platform === 'win32' ? 'windows' : undefined;
  if (!platform) {
    say(`boxwright has no sandbox for ${process.platform}; the command did not run (it never runs one unsandboxed)`);
    return NOT_RUN;
  }
  const compileArgs: CompileArgs = { ...args, force: false };
  let outcome: CompileOutcome;
  let view: FsView;
  try {
    const reader = configReader(args);
    view = reader.view;
    outcome = await compileConfig(reader.check(input.bytes, args.config), platform, compileArgs);
  } catch (e) {
    if (!(e instanceof UsageError) && !(e instanceof Error && e.name === 'TargetError')) throw e;
    say(`${(e as Error).message}; the command did not run`);
    return NOT_RUN;
  }
  if (!outcome.ok) {
    const shown = outcome.check.diagnostics.filter((d) => d.severity === 'error' && d.platforms.includes(platform));
    process.stderr.write(formatText([{ path: args.config, text: outcome.check.text, ...(outcome.check.dialect ? { dialect: outcome.check.dialect } : {}), verdicts: outcome.check.verdicts, diagnostics: shown }]));
    say(`${outcome.check.ir ? `${platform} refuses ${args.config}` : `${args.config} has errors`}; the command did not run. Fix the errors above (\`boxwright lint ${args.config}\` explains them).`);
    return NOT_RUN;
  }
  const principals = outcome.check.ir.principals.map((p) => p.id);
  if (!principals.includes(id)) {
    say(`${args.config} has no principal ${id}${principals.length ? ` (it has: ${principals.join(', ')}; choose one with --principal agent|tool:NAME|mcp:NAME)` : ''}; the command did not run`);
    return NOT_RUN;
  }
  const { sandboxEnv } = await import('../../targets/runner/env.js');
  const env = sandboxEnv(process.env, pass);
  if (args.verbose && env.withheld.length) say(`withholding ${env.withheld.length} environment variable${env.withheld.length > 1 ? 's' : ''}: ${env.withheld.join(', ')} (--pass-env NAME lets one through)`);
  // The command is looked up on this machine's disk: through the command's
  // own view when that is the host (`--fs host`, the default), so the rules
  // and the lookup share one view and its cache. A manifest or `none`
  // describes a machine for the rules; bubblewrap binds from this one, so
  // then the lookup gets a host view of its own.
  if (platform === 'linux') return runLinux(outcome, id, command, env.env, passFds, !!args.verbose, (args.fs ?? 'host') === 'host' ? view : hostView(homedir()));
  if (platform === 'macos') return runMacos(outcome, id, command, env.env);
  return printWindowsPlan(outcome);
}

/** `--pass-fd N` (repeatable): descriptors above stderr that the command may inherit. */
function passFdList(v: number | number[] | undefined): number[] {
  const fds = v === undefined ? [] : ([] as number[]).concat(v);
  for (const fd of fds) if (!Number.isInteger(fd) || fd < 3 || fd > 1_000_000) throw new UsageError(`--pass-fd takes a descriptor number above 2 (stdin, stdout and stderr always pass): got ${String(fd)}`);
  return fds;
}

async function runLinux(outcome: Extract<CompileOutcome, { ok: true }>, id: string, command: string[], env: Record<string, string>, passFds: number[], verbose: boolean, disk: FsView): Promise<number> {
  const { bpfName, hostArch, parseArgsFile } = await import('../../targets/linux/index.js');
  const { findCommand, viewFromArgv } = await import('../../targets/linux/view.js');
  const { runUnderBwrap } = await import('../../targets/runner/linux.js');
  const arch = hostArch();
  if (!arch) {
    say(`no seccomp program for this architecture (${process.arch}); boxwright compiles for x86_64 and aarch64. The command did not run.`);
    return NOT_RUN;
  }
  const artifact = (name: string): Uint8Array => {
    const a = outcome.artifacts.find((x) => x.name === name);
    if (!a) throw new Error(`the linux target wrote no ${name}`);
    return typeof a.content === 'string' ? Buffer.from(a.content, 'utf8') : a.content;
  };
  const args = artifact(`${id}.bwrap.args`);
  const argv = parseArgsFile(args);
  const view = viewFromArgv(argv);
  const found = findCommand(view.ops, command[0]!, env, view.chdir ?? process.cwd(), disk);
  if (!found.found) {
    // The shell's convention: 126 found but not executable (a plain file, a directory), 127 not found.
    const notExecutable = /is not an executable file$|is a directory$|: not executable(;|$)/.test(found.reason);
    const hint = !notExecutable ? notFoundHint(outcome, id, command[0]!, env) : /is a directory$/.test(found.reason) ? 'Name a program, not a directory.' : 'It exists inside the view but cannot be executed: make it executable (chmod +x) or run it through its interpreter (-- sh FILE).';
    say(`${found.reason}. ${hint} It did not run.`);
    return notExecutable ? NOT_EXECUTABLE : NOT_FOUND;
  }
  const bwrap = process.env.BOXWRIGHT_BWRAP || 'bwrap';
  if (verbose) say(`${bwrap} --args 3 ${argv.map((a) => JSON.stringify(a)).join(' ')} -- ${command.map((a) => JSON.stringify(a)).join(' ')}`);
  const onClosed = verbose ? (fds: readonly number[]): void => say(`closed inherited descriptor${fds.length > 1 ? 's' : ''} ${fds.join(', ')} (--pass-fd N lets one through)`) : undefined;
  const result = await runUnderBwrap({ bwrap, argv, bpf: artifact(bpfName(arch)), command, env, passFds, ...(onClosed ? { onClosed } : {}) });
  switch (result.kind) {
    case 'exited':
      return result.status;
    case 'killed':
      say(`bubblewrap was killed by ${result.signal}`);
      return result.status;
    case 'changed':
      say(`${result.message}. The command did not run.`);
      return NOT_RUN;
    case 'no-bwrap':
      say(
        result.code === 'ENOENT'
          ? `bubblewrap (${bwrap}) is not installed or not on PATH. Install it (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap) or set BOXWRIGHT_BWRAP to its path; \`boxwright doctor\` checks the machine. The command did not run.`
          : `cannot start bubblewrap (${bwrap}): ${result.message}. \`boxwright doctor\` checks the machine. The command did not run.`,
      );
      return NOT_RUN;
    case 'setup-failed':
      say(
        `bubblewrap could not set up the sandbox (it exited ${result.status} before running the command; its message is above). The command did not run. \`boxwright doctor\` checks user namespaces and seccomp on this machine.`,
      );
      return NOT_RUN;
  }
}

/**
 * What to do about a command the view does not hold: where it is on this
 * machine, and the grant that would put it in the view, in the config's own
 * dialect (`read` in the principal's filesystem table, or TYBA's
 * `read_allow`) — unless a grant covers it already, when the grant is not
 * the problem.
 */
function notFoundHint(outcome: Extract<CompileOutcome, { ok: true }>, id: string, command: string, env: Record<string, string>): string {
  const onHost = command.includes('/') ? (existsSync(command) ? resolve(command) : undefined) : (env['PATH'] ?? '').split(':').filter((d) => d.startsWith('/')).map((d) => join(d, command)).find((p) => existsSync(p));
  if (!onHost) return `It is not on this machine either${command.includes('/') ? '' : ' (not on PATH)'}: name a program that exists.`;
  const principal = outcome.check.ir.principals.find((p) => p.id === id);
  const covered = principal?.grants.find((g) => g.path && (g.access === 'read' || g.access === 'read-write' || g.access === 'exec') && isUnder(onHost, g.path));
  if (covered) return `It is at ${onHost} on this machine, which \`${covered.written}\` grants: the view holds no such path because ${onHost} resolves outside it (a symbolic link) or the grant is refused; name the program by a path inside a granted tree.`;
  const dir = onHost.startsWith('/usr/') ? '/usr' : dirname(onHost);
  const table = outcome.check.ir.dialect === 'tyba' ? `[sandbox] read_allow = ["${dir}"]` : `[${principal?.kind === 'tool' ? `tools.${principal.name}.filesystem` : principal?.kind === 'mcp' ? `mcp_servers.${principal.name}.filesystem` : 'agent.filesystem'}] read = ["${dir}"]`;
  return `It is at ${onHost} on this machine, outside ${id}'s view: grant it (${table}, which also holds its libraries) or give a path inside a granted tree.`;
}

async function runMacos(outcome: Extract<CompileOutcome, { ok: true }>, id: string, command: string[], env: Record<string, string>): Promise<number> {
  const profile = outcome.artifacts.find((a) => a.name === `${id}.sb`);
  if (!profile) {
    say(`the macos target wrote no ${id}.sb; the command did not run`);
    return NOT_RUN;
  }
  const { runUnderSandboxExec } = await import('../../targets/runner/macos.js');
  const result = await runUnderSandboxExec({ profile: profile.content, name: `${id}.sb`, dialect: outcome.check.ir.dialect, command, env });
  if (result.kind === 'exited') return result.status;
  say(`cannot start ${result.file}: ${result.message}. The command did not run.`);
  return NOT_RUN;
}

async function printWindowsPlan(outcome: Extract<CompileOutcome, { ok: true }>): Promise<number> {
  const plan = outcome.artifacts.find((a) => a.name === 'acl-plan.json');
  if (plan) {
    const { parseAclPlan, windowsRunMessage } = await import('../../targets/windows/runner.js');
    const text = typeof plan.content === 'string' ? plan.content : Buffer.from(plan.content).toString('utf8');
    process.stdout.write(windowsRunMessage(parseAclPlan(text)));
  }
  say('on Windows boxwright prints the ACL plan it would apply and stops (see the README); the command did not run');
  return NOT_RUN;
}
