/**
 * Linux: bubblewrap + seccomp. Per principal `<id>.bwrap.json` (the argv,
 * each argument with its origin, plus a header) and `<id>.bwrap.args` (the
 * same arguments NUL-separated, for `bwrap --args FD`); shared by all
 * principals `seccomp.json`, `seccomp.x86_64.bpf`, `seccomp.aarch64.bpf` and
 * `seccomp.txt` (targets/linux/seccomp); where Landlock confines execution,
 * per principal `<id>.landlock.json` (each rule with its origin) and
 * `<id>.landlock` (the rules the in-sandbox step reads: landlock/).
 * Byte-for-byte deterministic.
 *
 * Artifact contents are computed when read, once: `boxwright run` reads only
 * one `.bwrap.args` and one `.bpf`, and skips the disassembly and the
 * reviewers' JSON. See README.md beside this file for the lowering.
 */
import type { PolicyIR } from '../../compiler/ir/types.js';
import type { PrincipalAccess } from '../../model/index.js';
import type { LinuxPlanOptions } from './model/plan.js';
import {
  artifactHeaderFields,
  artifactStem,
  headerLines,
  jsonLines,
  sha256Hex,
  type Artifact,
  type CompileInput,
  type Target,
} from '../target.js';
import { boxwrightPolicy, compileSeccomp, seccompProgram, type Arch, type SeccompArtifacts } from './seccomp/index.js';
import { bpfName, SECCOMP_ARCHES } from './arch.js';
import { ARGS_FD, argsFile, EXEC_FD, FIRST_EMPTY_FD, lowerPrincipal, SANDBOX_EXEC_PATH, SECCOMP_FD, type LinuxView } from './lower.js';
import { landlockJson } from './landlock/artifact.js';
import { lowerLandlock } from './landlock/lower.js';
import { encodeLandlockRules } from './landlock/rules.js';

export {
  lowerPrincipal,
  argsFile,
  parseArgsFile,
  ARGS_FD,
  SECCOMP_FD,
  EXEC_FD,
  FIRST_EMPTY_FD,
  SANDBOX_EXEC_PATH,
  PROC_READONLY,
  type LinuxView,
  type Arg,
  type Origin,
  type MountOp,
} from './lower.js';

export { SECCOMP_ARCHES, bpfName, hostArch } from './arch.js';

/** The plan's options for a compile (or the run that compiled it): the gateway socket, TYBA's worktree. */
export function linuxPlanOptions(ir: PolicyIR, gatewaySocket: string | undefined): LinuxPlanOptions {
  const worktree = ir.tyba?.worktree;
  return { ...(gatewaySocket ? { gatewaySocket } : {}), ...(worktree ? { worktree } : {}) };
}

/** An artifact whose content is computed on first read. */
function lazy(name: string, make: () => string | Uint8Array): Artifact {
  let content: string | Uint8Array | undefined;
  return {
    name,
    get content(): string | Uint8Array {
      return (content ??= make());
    },
  };
}

function once<T>(make: () => T): () => T {
  let value: T | undefined;
  let done = false;
  return () => {
    if (!done) {
      value = make();
      done = true;
    }
    return value as T;
  };
}

/** The raw program for one arch, without its disassembly: compileSeccomp's own bytes (seccomp/index.ts). */
export { seccompProgram };

export const target: Target = {
  platform: 'linux',
  compile(input: CompileInput): Artifact[] {
    const header = headerLines(input);
    const seccomp = once((): SeccompArtifacts => compileSeccomp(boxwrightPolicy(), { header }));
    const programs = new Map(SECCOMP_ARCHES.map((arch) => [arch, once(() => seccompProgram(arch))]));
    const planOptions = linuxPlanOptions(input.ir, input.options.gatewaySocket);
    const out: Artifact[] = [];
    for (const pa of input.access.principals) {
      const stem = artifactStem(pa.principal.id);
      const view = once(() => lowerPrincipal(pa, planOptions));
      out.push(lazy(`${stem}.bwrap.json`, () => bwrapJson(input, header, pa, view(), (arch) => sha256Hex(programs.get(arch)!()))));
      out.push(lazy(`${stem}.bwrap.args`, () => argsFile(view().argv)));
      // Landlock confines execution (a Box config's default): the ruleset the in-sandbox step applies.
      if (input.ir.linux.exec === 'landlock') {
        const plan = once(() => lowerLandlock(pa, view(), input.ir.linux.loaders));
        const rules = once(() => encodeLandlockRules(plan().ruleset));
        out.push(lazy(`${stem}.landlock.json`, () => landlockJson(input, header, pa, plan(), sha256Hex(rules()))));
        out.push(lazy(`${stem}.landlock`, rules));
      }
    }
    out.push(lazy('seccomp.json', () => seccomp().policyJson));
    for (const arch of SECCOMP_ARCHES) out.push(lazy(bpfName(arch), () => programs.get(arch)!()));
    out.push(lazy('seccomp.txt', () => seccomp().text));
    return out;
  },
};

/**
 * `<id>.bwrap.json`: the header, how to run it, the file descriptors the
 * argv reads, the argv with one origin per argument, and the grants that
 * became no mount. One argument (or note) per line, for review and diffs.
 */
function bwrapJson(
  input: CompileInput,
  header: readonly string[],
  pa: PrincipalAccess,
  view: LinuxView,
  sha: (arch: Arch) => string,
): string {
  const p = pa.principal;
  const stem = artifactStem(p.id);
  const landlock = input.ir.linux.exec === 'landlock';
  // The rules' descriptor, by hand: the first after the empty files'.
  const rulesFd = FIRST_EMPTY_FD + view.emptyFds.length;
  const fds = [
    { fd: ARGS_FD, option: '--args', content: `${stem}.bwrap.args (given on the command line: bwrap --args ${ARGS_FD})` },
    { fd: SECCOMP_FD, option: '--seccomp', content: `seccomp.<arch>.bpf for the host architecture (${SECCOMP_ARCHES.join(' or ')})` },
    {
      fd: EXEC_FD,
      option: '--ro-bind-data',
      content: `boxwright-sandbox.<arch> (dist/sandbox in the package): the in-sandbox step at ${SANDBOX_EXEC_PATH}`,
    },
    ...view.emptyFds.map((e) => ({
      fd: e.fd,
      option: '--ro-bind-data',
      content: `empty (e.g. /dev/null): the file that covers ${e.path}`,
    })),
    ...(landlock
      ? [
          {
            fd: rulesFd,
            option: `${SANDBOX_EXEC_PATH} --rules-fd`,
            content: `${stem}.landlock: the Landlock rules the in-sandbox step applies`,
          },
        ]
      : []),
  ];
  const redirections = [
    `${ARGS_FD}<${stem}.bwrap.args`,
    `${SECCOMP_FD}<seccomp.x86_64.bpf`,
    `${EXEC_FD}<boxwright-sandbox.x86_64`,
    ...view.emptyFds.map((e) => `${e.fd}</dev/null`),
    ...(landlock ? [`${rulesFd}<${stem}.landlock`] : []),
  ];
  const step = landlock ? `--rules-fd ${rulesFd}` : '--no-landlock';
  const network = p.directNetwork
    ? 'direct: the host network namespace (--share-net); the seccomp filter still allows only AF_UNIX and AF_INET sockets'
    : view.gatewaySocket
      ? `an empty network namespace; the gateway socket ${view.gatewaySocket} is bound in`
      : 'an empty network namespace (no gateway socket given)';
  const fields: [string, string][] = [
    ...artifactHeaderFields(input, header, p.id),
    ['network', JSON.stringify(network)],
    [
      'usage',
      JSON.stringify(
        `${stem}.run CMD [ARGS...] (written by compile --out beside this file), or by hand: bwrap --args ` +
          `${ARGS_FD} -- ${SANDBOX_EXEC_PATH} ${step} -- CMD [ARGS...] ${redirections.join(' ')}   (on aarch64: the aarch64 files)`,
      ),
    ],
    ['fds', jsonLines(fds, 2)],
    [
      'seccomp',
      jsonLines(
        SECCOMP_ARCHES.map((arch) => ({ arch, file: bpfName(arch), sha256: sha(arch) })),
        2,
      ),
    ],
    ['argv', jsonLines(view.argv, 2)],
    ['notes', jsonLines(view.notes, 2)],
  ];
  return `{\n${fields.map(([k, v]) => `  ${JSON.stringify(k)}: ${v}`).join(',\n')}\n}\n`;
}
