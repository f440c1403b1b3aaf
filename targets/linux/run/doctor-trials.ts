/**
 * `boxwright doctor` on Linux, its trials (doctor.ts reads the machine and
 * bubblewrap first): three real sandboxes started with the bubblewrap doctor
 * found — bare namespaces, the same with boxwright's seccomp program (its
 * status read from inside), and the whole set-up sequence a compiled view
 * uses. Settings (sysctls, AppArmor) are read only to explain a failure.
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
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Finding } from '../../../app/format/doctor.js';
import { lookOnPath, lookupHomes } from '../../../app/host-programs.js';

/** open(2) flags of a bind source's descriptor (Linux's values; Node's fs.constants lacks O_PATH). */
const O_PATH = 0o10000000;
const O_NOFOLLOW = 0o400000;
const O_CLOEXEC = 0o2000000;

/** A host program doctor runs, looked up as every host program boxwright executes (bwrap.ts): outside the homes. */
function onPath(cmd: string): string | undefined {
  return lookOnPath(cmd, process.env, lookupHomes(undefined)).path;
}

/** A kernel setting or status file, trimmed; undefined where it cannot be read. */
export function readSys(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** The last lines (up to three) of a program's output, on one line: what a finding quotes of a failure. */
export const firstLine = (s: string): string => s.trim().split('\n').filter(Boolean).slice(-3).join(' / ');

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

/**
 * The trial sandboxes, in order, each only if the one before it started:
 * user namespaces, then (on an architecture boxwright compiles for) the
 * seccomp program and the complete mount set-up of a compiled view.
 */
export function trialFindings(
  bwrap: string,
  cpu: 'x86_64' | 'aarch64' | undefined,
  seccompProgram: (arch: 'x86_64' | 'aarch64') => Uint8Array,
): Finding[] {
  const findings: Finding[] = [];
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
