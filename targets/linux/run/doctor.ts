/**
 * `boxwright doctor` on Linux: qualifies this machine for `boxwright run`
 * by trying it, not by reading settings: bubblewrap is found and its
 * version read, then three real sandboxes are started (doctor-trials.ts): bare namespaces,
 * the same with boxwright's seccomp program (its status read from inside),
 * and the whole set-up sequence a compiled view uses. Settings (sysctls,
 * AppArmor) are read only to explain a failure.
 */
import { spawnSync } from 'node:child_process';
import { arch as osArch, release } from 'node:os';
import { launcherPath } from '../launcher/index.js';
import type { Finding } from '../../../app/format/doctor.js';
import { lookupHomes } from '../../../app/host-programs.js';
import type { DoctorChecks } from '../../run/runtime.js';
import { bwrapOrigin, locateBwrap, type BwrapLookup } from './sandbox/bwrap.js';
import { vet } from './sandbox/vet.js';
import { firstLine, readSys, trialFindings } from './doctor-trials.js';

/** Linux's doctor checks (targets/units.ts): the bubblewrap --bwrap names or the lookup finds, and the trials. */
export const doctor: DoctorChecks = async ({ bwrap }) => {
  const { seccompProgram } = await import('../index.js');
  return linuxFindings(locateBwrap({ option: bwrap, homes: lookupHomes(undefined) }), seccompProgram);
};

/** The oldest bubblewrap with every option the runner uses (`--json-status-fd`, `--perms`). */
const MIN_BWRAP: readonly [number, number, number] = [0, 5, 0];

function versionAtLeast(v: readonly number[], min: readonly number[]): boolean {
  for (let i = 0; i < min.length; i++) {
    const a = v[i] ?? 0;
    const b = min[i]!;
    if (a !== b) return a > b;
  }
  return true;
}

export function linuxFindings(lookup: BwrapLookup, seccompProgram: (arch: 'x86_64' | 'aarch64') => Uint8Array): Finding[] {
  const findings: Finding[] = [];
  const cpu = process.arch === 'x64' ? 'x86_64' : process.arch === 'arm64' ? 'aarch64' : undefined;
  findings.push(
    cpu
      ? {
          id: 'architecture',
          status: 'ok',
          title: 'architecture',
          detail: `${cpu} (${osArch()}): boxwright compiles a seccomp program for it`,
        }
      : {
          id: 'architecture',
          status: 'fail',
          title: 'architecture',
          detail: `${process.arch}: boxwright compiles seccomp programs for x86_64 and aarch64 only`,
          fix: 'run on an x86_64 or aarch64 machine',
        },
  );
  const status = readSys('/proc/self/status') ?? '';
  const seccompField = /^Seccomp:\s*(\d)/m.exec(status);
  const kernel = release();
  const [maj = 0, min = 0] = kernel.split(/[.-]/).map(Number);
  const oldKernel = !versionAtLeast([maj, min], [3, 8]);
  findings.push({
    id: 'kernel',
    status: oldKernel || !seccompField ? 'fail' : 'ok',
    title: 'kernel',
    detail: `Linux ${kernel}${seccompField ? ', seccomp built in' : ', no Seccomp field in /proc/self/status (CONFIG_SECCOMP off)'}${
      seccompField?.[1] === '2'
        ? '; boxwright itself already runs under a seccomp filter (a container?), which stacks with the sandbox filter'
        : ''
    }`,
    ...(oldKernel || !seccompField
      ? { fix: 'use a kernel built with CONFIG_SECCOMP_FILTER and user namespaces (3.8 or later; any current distribution kernel)' }
      : {}),
  });
  findings.push(...sandboxProgramFindings(cpu));
  const uid = process.getuid?.() ?? -1;
  findings.push(
    uid === 0
      ? {
          id: 'identity',
          status: 'warn',
          title: 'identity',
          detail:
            "running as root: the workload runs as uid 0 of the host's kernel, without capabilities (--cap-drop " +
            'ALL). It owns what it creates in its write grants and may write root-owned files there; host-global ' +
            '/proc entries (/proc/sys, sysrq-trigger, …) would be writable and are bound read-only; set-id mode ' +
            'bits are refused by the filter, so it cannot leave a setuid-root program behind; a kernel exploit ' +
            'from inside would be root on the host',
          fix:
            'run boxwright as an unprivileged user where the machine allows unprivileged user namespaces: the workload is ' +
            'then that user on the host, and none of the above applies',
        }
      : {
          id: 'identity',
          status: 'info',
          title: 'identity',
          detail: `running as uid ${uid}: the workload is this user on the host; bubblewrap needs unprivileged user namespaces (or a setuid bwrap)`,
        },
  );

  if (lookup.skipped.length)
    findings.push({
      id: 'bwrap-passed-over',
      status: 'warn',
      title: 'bubblewrap on PATH, passed over',
      detail: `${lookup.skipped.join(', ')}: on PATH, but under a home or in a relative directory, where a principal may write; boxwright never runs it`,
      fix: 'if you did not install it there yourself, something that could write there did: remove it, and look at what else that directory holds',
    });
  if (!lookup.found) {
    findings.push({
      id: 'bwrap',
      status: 'fail',
      title: 'bubblewrap',
      detail: `not found (${bwrapOrigin(lookup)}): ${lookup.why}`,
      fix:
        'install it: `apt-get install bubblewrap` (Debian/Ubuntu), `dnf install bubblewrap` (Fedora), ' +
        '`pacman -S bubblewrap` (Arch); or name it with --bwrap PATH (or BOXWRIGHT_BWRAP)',
    });
    return findings;
  }
  const bwrap = lookup.path;
  const mode = lookup.mode.toString(8).padStart(4, '0');
  let untrusted: string | undefined;
  try {
    untrusted = vet({ rootOwned: [bwrap] }).find((f) => f.kind === 'untrusted')?.reason;
  } catch (e) {
    untrusted = `it could not be checked: ${(e as Error).message}`;
  }
  if (untrusted) {
    findings.push({
      id: 'bwrap',
      status: 'fail',
      title: 'bubblewrap',
      detail:
        `${bwrap} (${bwrapOrigin(lookup)}) is not root's alone: ${untrusted}; compile and run ` +
        `refuse to record it (every run executes it outside any sandbox)`,
      fix: "install bubblewrap where only root writes (your distribution's package), or name such a one with --bwrap PATH",
    });
    return findings;
  }
  const v = spawnSync(bwrap, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  const vm = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(v.stdout ?? '');
  if (v.status !== 0 || !vm) {
    findings.push({
      id: 'bwrap',
      status: 'fail',
      title: 'bubblewrap',
      detail: `${bwrap} --version failed: ${firstLine((v.stderr ?? '') + (v.error?.message ?? ''))}`,
      fix: 'reinstall bubblewrap',
    });
    return findings;
  }
  const ver = [Number(vm[1]), Number(vm[2]), Number(vm[3] ?? 0)];
  const recent = versionAtLeast(ver, MIN_BWRAP);
  findings.push({
    id: 'bwrap',
    status: recent ? 'ok' : 'fail',
    title: 'bubblewrap',
    detail:
      `${v.stdout.trim()} at ${bwrap} (${bwrapOrigin(lookup)}): root's, mode ${mode}, in ` +
      `directories only root can change; compile and run record this one, and the launcher runs nothing else`,
    ...(recent ? {} : { fix: `upgrade bubblewrap to ${MIN_BWRAP.join('.')} or later (the runner uses --json-status-fd and --perms)` }),
  });

  findings.push(...trialFindings(bwrap, cpu, seccompProgram));
  return findings;
}

/**
 * boxwright-sandbox for this machine (the launcher and the in-sandbox
 * step), and the kernel's Landlock ABI as it answers the system call now
 * (not the per-boot record lint uses): what `run` needs to keep read trees
 * non-executable and the host's abstract sockets out.
 */
function sandboxProgramFindings(cpu: 'x86_64' | 'aarch64' | undefined): Finding[] {
  const program = cpu ? launcherPath(cpu) : undefined;
  if (!program)
    return [
      {
        id: 'launcher',
        status: 'fail',
        title: 'boxwright-sandbox',
        detail: cpu
          ? `dist/sandbox/boxwright-sandbox.${cpu} is not built: \`boxwright run\` refuses to run anything`
          : 'no program for this architecture',
        fix: 'install a C compiler (Debian: apt-get install gcc libc6-dev) and rebuild (npm ci, or npm run build); an npm tarball ships both architectures',
      },
    ];
  const version = spawnSync(program, ['--version'], { encoding: 'utf8', timeout: 5000 });
  const abiRun = spawnSync(program, ['--abi'], { encoding: 'utf8', timeout: 5000 });
  const abi = abiRun.status === 0 && /^\d+$/.test(abiRun.stdout.trim()) ? Number(abiRun.stdout.trim()) : undefined;
  const lsm = readSys('/sys/kernel/security/lsm');
  const landlock: Finding =
    abi === undefined
      ? {
          id: 'landlock',
          status: 'fail',
          title: 'Landlock',
          detail: `boxwright-sandbox --abi failed: ${firstLine((abiRun.stderr ?? '') + (abiRun.error?.message ?? ''))}`,
          fix: 'rebuild boxwright-sandbox (npm run build)',
        }
      : abi === 0
        ? {
            id: 'landlock',
            status: 'fail',
            title: 'Landlock',
            detail:
              `the kernel offers no Landlock (ABI 0${lsm ? `; active security modules: ${lsm.trim()}` : ''}): \`boxwright run\` refuses Box configs ` +
              `(read trees would be executable) unless --landlock off`,
            fix:
              'boot Linux 5.13 or later with landlock in lsm= (e.g. lsm=landlock,lockdown,yama,integrity,apparmor), or ' +
              'accept executable read trees with --landlock off',
          }
        : {
            id: 'landlock',
            status: abi >= 6 ? 'ok' : 'warn',
            title: 'Landlock',
            detail: `ABI ${abi}: execution confined to exec grants${
              abi >= 6
                ? '; the abstract-socket and signal scopes apply'
                : '; no scopes below ABI 6 (Linux 6.12): a principal with a direct network exception ' +
                  "reaches the host's abstract unix sockets"
            }`,
            ...(abi >= 6 ? {} : { fix: 'a kernel with Landlock ABI 6 (Linux 6.12 or later) adds the scopes' }),
          };
  return [
    {
      id: 'launcher',
      status: 'ok',
      title: 'boxwright-sandbox',
      detail: `${version.stdout.trim() || program}: the launcher and the in-sandbox step`,
    },
    landlock,
  ];
}
