/**
 * `boxwright doctor` on Linux: qualifies this machine for `boxwright run`
 * by trying it, not by reading settings: bubblewrap is found and its
 * version read, then three real sandboxes are started — bare namespaces,
 * the same with boxwright's seccomp program (its status read from inside),
 * and the whole set-up sequence a compiled view uses. Settings (sysctls,
 * AppArmor) are read only to explain a failure.
 */
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { arch as osArch, release, tmpdir } from 'node:os';
import { join } from 'node:path';
import { launcherPath } from '../launcher/index.js';
import type { Finding } from '../../../app/format/doctor.js';
import { lookOnPath, lookupHomes } from '../../../app/host-programs.js';
import type { DoctorChecks } from '../../run/runtime.js';
import { bwrapOrigin, locateBwrap, type BwrapLookup } from './sandbox/bwrap.js';
import { vet } from './sandbox/vet.js';

/** Linux's doctor checks (targets/units.ts): the bubblewrap --bwrap names or the lookup finds, and the trials. */
export const doctor: DoctorChecks = async ({ bwrap }) => {
  const { seccompProgram } = await import('../index.js');
  return linuxFindings(locateBwrap({ option: bwrap, homes: lookupHomes(undefined) }), seccompProgram);
};

/** open(2) flags of a bind source's descriptor (Linux's values; Node's fs.constants lacks O_PATH). */
const O_PATH = 0o10000000;
const O_NOFOLLOW = 0o400000;
const O_CLOEXEC = 0o2000000;

/** The oldest bubblewrap with every option the runner uses (`--json-status-fd`, `--perms`). */
const MIN_BWRAP: readonly [number, number, number] = [0, 5, 0];

/** A host program doctor runs, looked up as every host program boxwright executes (bwrap.ts): outside the homes. */
function onPath(cmd: string): string | undefined {
  return lookOnPath(cmd, process.env, lookupHomes(undefined)).path;
}

function readSys(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

function versionAtLeast(v: readonly number[], min: readonly number[]): boolean {
  for (let i = 0; i < min.length; i++) {
    const a = v[i] ?? 0;
    const b = min[i]!;
    if (a !== b) return a > b;
  }
  return true;
}

const firstLine = (s: string): string => s.trim().split('\n').filter(Boolean).slice(-3).join(' / ');

/** Why user namespaces may be unavailable, from the settings that commonly forbid them. */
function namespaceHints(): string {
  const hints: string[] = [];
  if (readSys('/proc/sys/kernel/unprivileged_userns_clone') === '0')
    hints.push('kernel.unprivileged_userns_clone is 0: `sysctl -w kernel.unprivileged_userns_clone=1`');
  if (readSys('/proc/sys/user/max_user_namespaces') === '0')
    hints.push('user.max_user_namespaces is 0: `sysctl -w user.max_user_namespaces=15000`');
  if (readSys('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') === '1')
    hints.push(
      'AppArmor restricts unprivileged user namespaces (Ubuntu 23.10+): install an AppArmor profile that ' +
        'allows `userns` for bwrap, or `sysctl -w kernel.apparmor_restrict_unprivileged_userns=0`',
    );
  if (existsSync('/.dockerenv') || existsSync('/run/.containerenv'))
    hints.push(
      "inside a container: the runtime's seccomp profile usually forbids unshare/mount; run it with " +
        '`--security-opt seccomp=unconfined --security-opt apparmor=unconfined` (or `--privileged`)',
    );
  if (!hints.length)
    hints.push('allow unprivileged user namespaces on this machine (sysctl user.max_user_namespaces > 0) or install bwrap setuid root');
  return hints.join('; ');
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

  const truePath = onPath('true');
  const catPath = onPath('cat');
  if (!truePath || !catPath) {
    findings.push({
      id: 'trial',
      status: 'fail',
      title: 'sandbox trials',
      detail: 'no `true` or `cat` on PATH to run in a trial sandbox',
      fix: 'put coreutils on PATH',
    });
    return findings;
  }
  const base = [
    '--unshare-all',
    '--cap-drop',
    'ALL',
    '--die-with-parent',
    '--new-session',
    '--ro-bind',
    '/',
    '/',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
  ];
  const ns = spawnSync(bwrap, [...base, '--', truePath], { encoding: 'utf8', timeout: 10_000 });
  const nsOk = ns.status === 0;
  findings.push({
    id: 'namespaces',
    status: nsOk ? 'ok' : 'fail',
    title: 'user namespaces',
    detail: nsOk
      ? 'a trial sandbox with new user, mount, pid, network, ipc and uts namespaces started (bwrap --unshare-all)'
      : `the trial sandbox failed: ${firstLine(ns.stderr ?? ns.error?.message ?? '')}`,
    ...(nsOk ? {} : { fix: namespaceHints() }),
  });
  if (!nsOk || !cpu) return findings;

  // doctor's own scratch directory may be the shared temp (it must work where
  // the run cache is not usable yet: that is what it diagnoses), since
  // nothing in it is executed and nothing in it is read back by path: the
  // seccomp program is handed to bwrap by the descriptor it was written
  // through (pwrite leaves the offset at 0), and the trial's binds are opened
  // without following links. A workload that writes /tmp can at most spoil
  // doctor's own trial, never run anything on the host (issue 34, attack 5).
  const dir = mkdtempSync(join(tmpdir(), 'boxwright-doctor-'));
  try {
    // The seccomp program compiled by boxwright, installed by bwrap, seen from inside.
    const program = seccompProgram(cpu);
    const fd = openSync(join(dir, `seccomp.${cpu}.bpf`), 'wx+', 0o600);
    let sc;
    try {
      writeSync(fd, program, 0, program.length, 0);
      sc = spawnSync(bwrap, [...base, '--seccomp', '3', '--', catPath, '/proc/self/status'], {
        encoding: 'utf8',
        timeout: 10_000,
        stdio: ['ignore', 'pipe', 'pipe', fd],
      });
    } finally {
      closeSync(fd);
    }
    const inside = /^Seccomp:\s*(\d+)/m.exec(sc.stdout ?? '');
    const filters = /^Seccomp_filters:\s*(\d+)/m.exec(sc.stdout ?? '');
    const scOk = sc.status === 0 && inside?.[1] === '2';
    findings.push({
      id: 'seccomp',
      status: scOk ? 'ok' : 'fail',
      title: 'seccomp',
      detail: scOk
        ? `boxwright's ${cpu} program installed: inside the trial sandbox Seccomp: 2 (filter mode)${filters ? `, Seccomp_filters: ${filters[1]}` : ''}`
        : `the seccomp trial failed (exit ${sc.status}): ${firstLine(sc.stderr ?? '') || `Seccomp: ${inside?.[1] ?? 'missing'} inside`}`,
      ...(scOk
        ? {}
        : {
            fix:
              'use a kernel with CONFIG_SECCOMP_FILTER; inside a container, allow seccomp(2) and prctl(PR_SET_SECCOMP) (e.g. ' +
              '--security-opt seccomp=unconfined)',
          }),
    });

    // Every kind of operation a compiled view uses, in one sandbox: a tmpfs
    // root with read-only and writable binds, merged-/usr links, an empty
    // read-only file over a file, a read-only tmpfs over a directory, a
    // created workspace entered with --chdir.
    const rw = join(dir, 'rw');
    mkdirSync(join(rw, 'hidden'), { recursive: true });
    writeFileSync(join(rw, 'denied'), 'secret\n');
    // Binds from descriptors, as the launcher makes them (fd 4 on: O_PATH, no final link followed; its
    // own check that each is the checked path is bwrap-argv.c's, held by test/linux/hostile/race.test.ts).
    const fds = [openSync('/dev/null', 'r')];
    let full;
    try {
      const sources = [...['/usr', '/etc'].filter((p) => existsSync(p)).map((p) => ({ p, write: false })), { p: rw, write: true }];
      const binds = sources.flatMap(({ p, write }) => {
        fds.push(openSync(p, O_PATH | O_NOFOLLOW | O_CLOEXEC));
        return [write ? '--bind-fd' : '--ro-bind-fd', String(fds.length + 2), p];
      });
      full = spawnSync(
        bwrap,
        [
          '--unshare-all',
          '--cap-drop',
          'ALL',
          '--die-with-parent',
          '--new-session',
          '--proc',
          '/proc',
          '--ro-bind-try',
          '/proc/sys',
          '/proc/sys',
          '--dev',
          '/dev',
          ...binds,
          ...mergedLinks(),
          '--perms',
          '0444',
          '--ro-bind-data',
          '3',
          join(rw, 'denied'),
          '--tmpfs',
          join(rw, 'hidden'),
          '--remount-ro',
          join(rw, 'hidden'),
          '--dir',
          '/boxwright-workspace',
          '--chdir',
          '/boxwright-workspace',
          '--',
          catPath,
          join(rw, 'denied'),
        ],
        { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'pipe', ...fds] },
      );
    } finally {
      for (const fd of fds) closeSync(fd);
    }
    const fullOk = full.status === 0 && full.stdout === '';
    const noBindFd = /--(ro-)?bind-fd/.test(full.stderr ?? '') && /[Uu]nknown option/.test(full.stderr ?? '');
    findings.push({
      id: 'mount-setup',
      status: fullOk ? 'ok' : 'fail',
      title: 'mount set-up',
      detail: fullOk
        ? 'the complete set-up sequence of a compiled view worked (tmpfs root, read-only and writable binds from ' +
          'verified descriptors, read-only /proc/sys, merged-/usr links, empty-file and empty-tmpfs covers, workspace)'
        : `the complete set-up sequence failed (exit ${full.status}): ${firstLine(full.stderr ?? '') || 'the covered file was not empty'}`,
      ...(fullOk
        ? {}
        : noBindFd
          ? {
              fix:
                'this bubblewrap has no --bind-fd/--ro-bind-fd (upstream 0.10.0, or a backport such as Debian ' +
                "12's 0.8.0-2+deb12u1): boxwright run mounts only from descriptors it has verified, so it refuses to run here; upgrade bubblewrap",
            }
          : {
              fix: `${namespaceHints()}; a capability probe does not test every set-up operation, so qualify the machine with this trial`,
            }),
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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

/** `--symlink usr/X /X` for the host's merged-/usr links, as the lowering recreates them. */
function mergedLinks(): string[] {
  const out: string[] = [];
  for (const [link, target] of [
    ['/bin', 'usr/bin'],
    ['/lib', 'usr/lib'],
    ['/lib64', 'usr/lib64'],
    ['/sbin', 'usr/sbin'],
  ] as const) {
    if (readlinkSafe(link) === target) out.push('--symlink', target, link);
    else if (existsSync(link)) out.push('--ro-bind', link, link);
  }
  return out;
}

function readlinkSafe(p: string): string | undefined {
  try {
    return readlinkSync(p);
  } catch {
    return undefined;
  }
}
