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
import { version } from '../../compiler/version.js';
import type { PrincipalAccess } from '../../model/index.js';
import { artifactStem, headerLines, jsonLines, sha256Hex, type Artifact, type CompileInput, type Target } from '../target.js';
import { boxwrightPolicy, compilePolicy, compileSeccomp, encode, type Arch, type SeccompArtifacts } from './seccomp/index.js';
import { ARGS_FD, argsFile, lowerPrincipal, SECCOMP_FD, type LinuxView } from './lower.js';
import { landlockJson } from './landlock/artifact.js';
import { lowerLandlock } from './landlock/lower.js';
import { encodeLandlockRules } from './landlock/rules.js';

export { lowerPrincipal, argsFile, parseArgsFile, ARGS_FD, SECCOMP_FD, FIRST_EMPTY_FD, type LinuxView, type Arg, type Origin, type MountOp } from './lower.js';

export const SECCOMP_ARCHES: readonly Arch[] = ['x86_64', 'aarch64'];

/** The seccomp program file for an architecture. */
export const bpfName = (arch: Arch): string => `seccomp.${arch}.bpf`;

/** `process.arch` → the seccomp architecture boxwright compiles for, if any. */
export function hostArch(arch: string = process.arch): Arch | undefined {
  return arch === 'x64' ? 'x86_64' : arch === 'arm64' ? 'aarch64' : undefined;
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

/** The raw program for one arch: the same bytes compileSeccomp writes (a test holds them equal), without its disassembly. */
export function seccompProgram(arch: Arch): Uint8Array {
  return encode(compilePolicy(boxwrightPolicy(), arch));
}

export const linuxTarget: Target = {
  platform: 'linux',
  compile(input: CompileInput): Artifact[] {
    const header = headerLines(input);
    const seccomp = once((): SeccompArtifacts => compileSeccomp(boxwrightPolicy(), { header }));
    const programs = new Map(SECCOMP_ARCHES.map((arch) => [arch, once(() => seccompProgram(arch))]));
    const gateway = input.options.gatewaySocket;
    const worktree = input.ir.tyba?.worktree;
    const out: Artifact[] = [];
    for (const pa of input.access.principals) {
      const stem = artifactStem(pa.principal.id);
      const view = once(() => lowerPrincipal(pa, { ...(gateway ? { gatewaySocket: gateway } : {}), ...(worktree ? { worktree } : {}) }));
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
function bwrapJson(input: CompileInput, header: readonly string[], pa: PrincipalAccess, view: LinuxView, sha: (arch: Arch) => string): string {
  const p = pa.principal;
  const stem = artifactStem(p.id);
  const fds = [
    { fd: ARGS_FD, option: '--args', content: `${stem}.bwrap.args (given on the command line: bwrap --args ${ARGS_FD})` },
    { fd: SECCOMP_FD, option: '--seccomp', content: `seccomp.<arch>.bpf for the host architecture (${SECCOMP_ARCHES.join(' or ')})` },
    ...view.emptyFds.map((e) => ({ fd: e.fd, option: '--ro-bind-data', content: `empty (e.g. /dev/null): the file that covers ${e.path}` })),
  ];
  const redirections = [`${ARGS_FD}<${stem}.bwrap.args`, `${SECCOMP_FD}<seccomp.x86_64.bpf`, ...view.emptyFds.map((e) => `${e.fd}</dev/null`)];
  const network = p.directNetwork ? 'direct: the host network namespace (--share-net); the seccomp filter still allows only AF_UNIX and AF_INET sockets' : view.gatewaySocket ? `an empty network namespace; the gateway socket ${view.gatewaySocket} is bound in` : 'an empty network namespace (no gateway socket given)';
  const fields: [string, string][] = [
    ['version', '1'],
    ['header', jsonLines(header, 2)],
    ['generator', JSON.stringify(`boxwright ${version}`)],
    ['config', JSON.stringify(input.configPath)],
    ['forced', JSON.stringify(input.forced)],
    ['principal', JSON.stringify(p.id)],
    ['network', JSON.stringify(network)],
    ['usage', JSON.stringify(`bwrap --args ${ARGS_FD} -- CMD [ARGS...] ${redirections.join(' ')}   (on aarch64: ${SECCOMP_FD}<seccomp.aarch64.bpf)`)],
    ['fds', jsonLines(fds, 2)],
    ['seccomp', jsonLines(SECCOMP_ARCHES.map((arch) => ({ arch, file: bpfName(arch), sha256: sha(arch) })), 2)],
    ['argv', jsonLines(view.argv, 2)],
    ['notes', jsonLines(view.notes, 2)],
  ];
  return `{\n${fields.map(([k, v]) => `  ${JSON.stringify(k)}: ${v}`).join(',\n')}\n}\n`;
}
