// "explain never lies": for every example Linux accepts, every cell of the
// Linux column of `explain` is checked by a probe inside the compiled
// sandbox, under real bubblewrap (a row of host-trusted paths that do not
// exist, by trying to create each). The examples' machine (examples/machine.json)
// is made real in a temporary home first, so the same configs are checked.
// The probe is a small static C program bound into the sandbox, because the
// view holds only granted paths (no shell, no libc unless granted); it runs
// the dynamically linked programs the exec grants name (git), to check that
// they start exactly where explain does not say they cannot.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { compileConfig } from '../../app/cli/compile.js';
import { explainCheck } from '../../app/cli/explain.js';
import { configReader } from '../../app/cli/options.js';
import { probeLandlockAbi } from '../../targets/linux/run/sandbox/landlock-abi.js';
import { hostView } from '../../compiler/paths/host.js';
import { hostArch, parseArgsFile } from '../../targets/linux/index.js';
import { viewFromArgv } from './view-from-argv.js';
import { exampleNames } from '../compile-helpers.js';
import { repoRoot, requireOrSkip } from '../helpers.js';
import { CAN_EXEC_C, READ_WRITE_C } from './model-vs-kernel-probe.js';
import { bwrapAvailable, onPath } from './support.js';
import { finished, WAIT_LIMIT_MS, within } from '../waits.js';

const arch = hostArch();
const skip =
  requireOrSkip(bwrapAvailable, 'bubblewrap') ??
  requireOrSkip(!!onPath('gcc'), 'gcc (to build the static probe)') ??
  requireOrSkip(arch !== undefined, 'an x86_64 or aarch64 host (the architectures boxwright compiles seccomp for)');

const probeSource = String.raw`
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/statvfs.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
${CAN_EXEC_C}
${READ_WRITE_C}
/*
 * probe --listen NAME: listen on the abstract unix socket NAME, as D-Bus or
 * containerd do (the name's exact length, no padding), until killed.
 * probe --abstract NAME: whether a connect to it succeeds, and its errno.
 */
static socklen_t abstract_address(struct sockaddr_un *a, const char *name) {
  memset(a, 0, sizeof *a);
  a->sun_family = AF_UNIX;
  size_t n = strlen(name);
  if (n + 1 > sizeof a->sun_path) return 0;
  memcpy(a->sun_path + 1, name, n);
  return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
}
static int abstract_listen(const char *name) {
  struct sockaddr_un a;
  socklen_t len = abstract_address(&a, name);
  int s = socket(AF_UNIX, SOCK_STREAM, 0);
  if (!len || s < 0 || bind(s, (struct sockaddr *)&a, len) != 0 || listen(s, 64) != 0) { perror("listen"); return 1; }
  printf("listening\n");
  fflush(stdout);
  for (;;) pause();
}
static int abstract_connect(const char *name) {
  struct sockaddr_un a;
  socklen_t len = abstract_address(&a, name);
  int s = socket(AF_UNIX, SOCK_STREAM, 0);
  if (!len || s < 0) { printf("connect=0 errno=%d\n", errno); return 0; }
  int r = connect(s, (struct sockaddr *)&a, len);
  printf("connect=%d errno=%d\n", r == 0, r == 0 ? 0 : errno);
  return 0;
}
/* probe --rename PATH: whether PATH can be renamed beside itself (put back if it could), and the errno */
static int try_rename(const char *p) {
  char moved[4096];
  snprintf(moved, sizeof moved, "%s.boxwright-moved", p);
  int r = rename(p, moved);
  int err = r == 0 ? 0 : errno;
  if (r == 0) rename(moved, p);
  printf("renamed=%d errno=%d\n", r == 0, err);
  return 0;
}
/* probe --create PATH: whether PATH, which does not exist, can be created (as a directory; removed again if it could), and the errno */
static int try_create(const char *p) {
  int r = mkdir(p, 0755);
  int err = r == 0 ? 0 : errno;
  if (r == 0) rmdir(p);
  printf("created=%d errno=%d\n", r == 0, err);
  return 0;
}
/*
 * probe --start PATH: whether PATH starts, as a dynamically linked program
 * must: the kernel executes it (no errno comes back: its ELF interpreter is
 * there and executable) and its loader finds its libraries (not exit 127
 * with the loader's "error while loading shared libraries").
 */
static int try_start(const char *p) {
  char err[8192];
  int st = 0;
  int errno_back = spawn_probe(p, "--version", &st, err, sizeof err);
  int loader = WIFEXITED(st) && WEXITSTATUS(st) == 127 && strstr(err, "error while loading shared libraries") != NULL;
  printf("started=%d errno=%d\n", errno_back == 0 && !loader, errno_back);
  return 0;
}
/* probe PATH: exists, read (bytes or entries), write, exec (the kernel allows it: of the file, or of DIR/.boxwright-x) */
int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--start") == 0) return try_start(argv[2]);
  if (argc == 3 && strcmp(argv[1], "--rename") == 0) return try_rename(argv[2]);
  if (argc == 3 && strcmp(argv[1], "--create") == 0) return try_create(argv[2]);
  if (argc == 3 && strcmp(argv[1], "--listen") == 0) return abstract_listen(argv[2]);
  if (argc == 3 && strcmp(argv[1], "--abstract") == 0) return abstract_connect(argv[2]);
  const char *p = argv[1];
  struct stat st;
  if (lstat(p, &st) != 0) { printf("exists=0\n"); return 0; }
  int isdir = S_ISDIR(st.st_mode);
  long amount = read_amount(p, isdir);
  int writable = can_write(p, isdir);
  struct statvfs vfs;
  int mount_exec = statvfs(p, &vfs) == 0 && !(vfs.f_flag & ST_NOEXEC);
  char target[4096];
  snprintf(target, sizeof target, "%s/.boxwright-x", p);
  struct stat xt;
  int probed = !isdir || lstat(target, &xt) == 0;
  int exec = !probed ? mount_exec : can_exec(isdir ? target : p);
  printf("exists=1 dir=%d read=%ld write=%d exec=%d probed=%d\n", isdir, amount, writable, exec, probed);
  return 0;
}
`;

interface Probe {
  exists: boolean;
  dir: boolean;
  /** Bytes (file) or entries (directory) read; -1 when reading fails. */
  read: number;
  write: boolean;
  exec: boolean;
  /** Whether exec was tried (an execve), not only read off the mount. */
  probed: boolean;
}

function parseProbe(out: string): Probe {
  const kv = Object.fromEntries(
    out
      .trim()
      .split(/\s+/)
      .map((x) => x.split('=') as [string, string]),
  );
  return {
    exists: kv['exists'] === '1',
    dir: kv['dir'] === '1',
    read: Number(kv['read'] ?? -1),
    write: kv['write'] === '1',
    exec: kv['exec'] === '1',
    probed: kv['probed'] === '1',
  };
}

/** What a Linux legend promises a probe sees. */
function agrees(legend: string, p: Probe): string | undefined {
  switch (legend) {
    case '—':
      return p.exists ? 'exists, but explain says absent' : undefined;
    case 'empty':
      if (!p.exists) return 'absent, but explain says an empty placeholder';
      if (p.read !== 0) return `reads ${p.read} ${p.dir ? 'entries' : 'bytes'}, but explain says empty`;
      return p.write ? 'writable, but an empty placeholder must refuse writes' : undefined;
    case 'r':
    case 'rw':
    case 'rx':
    case 'rwx': {
      if (!p.exists) return `absent, but explain says ${legend}`;
      if (p.read < 0) return `unreadable, but explain says ${legend}`;
      const x = legend.includes('x');
      if (x && !p.exec) return `the kernel refuses to execute it (EACCES), but explain says ${legend}`;
      // Not tried (a directory holding no .boxwright-x, outside the materialized home): the mount alone cannot say no.
      if (!x && p.exec && p.probed) return `executable, but explain says ${legend}`;
      const w = legend.includes('w');
      if (!w && p.write) return `writable, but explain says ${legend}`;
      if (w && !p.write) return `not writable, but explain says ${legend}`;
      return undefined;
    }
    default:
      return `no probe for the legend ${legend}`;
  }
}

const root = mkdtempSync(join(tmpdir(), 'boxwright-truth-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** examples/machine.json made real: its home under a temporary directory. */
function materialize(probe: string): string {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'examples/machine.json'), 'utf8')) as {
    home: string;
    entries: Record<string, 'file' | 'dir' | { symlink: string }>;
  };
  const home = join(root, 'home', 'dev');
  mkdirSync(home, { recursive: true });
  for (const [path, kind] of Object.entries(manifest.entries)) {
    if (!path.startsWith(manifest.home + '/')) continue; // paths outside the home are the host's own
    const real = home + path.slice(manifest.home.length);
    mkdirSync(kind === 'dir' ? real : dirname(real), { recursive: true });
    // An executable in each directory, and every file executable by its mode: what the probe tries to execute, so that only the sandbox can refuse it.
    if (kind === 'dir') copyFileSync(probe, join(real, '.boxwright-x'));
    if (kind === 'file') writeFileSync(real, `content of ${path}\n`, { mode: 0o755 });
    else if (typeof kind === 'object') symlinkSync(kind.symlink, real);
  }
  return home;
}

describe('explain never lies: the Linux column, probed under real bubblewrap', { skip, timeout: 300_000 }, () => {
  it('every cell of every example Linux accepts', async () => {
    const probe = join(root, 'probe');
    writeFileSync(`${probe}.c`, probeSource);
    execFileSync('gcc', ['-static', '-O2', '-o', probe, `${probe}.c`]);
    const home = materialize(probe);
    const args = { fs: 'host', home, worktree: join(home, 'project') };
    const reader = configReader(args);
    const failures: string[] = [];
    let checked = 0;
    let execTried = 0;
    const step = join(repoRoot, 'dist', 'sandbox', `boxwright-sandbox.${arch}`);
    let examples = 0;
    // A host abstract unix socket, listening: what a direct network exception shares the namespace of.
    const abstractName = `boxwright-truth-${process.pid}`;
    const listener = spawn(probe, ['--listen', abstractName], { stdio: ['ignore', 'pipe', 'inherit'] });
    after(() => listener.kill());
    await within(
      new Promise<void>((resolve, reject) => {
        listener.stdout.once('data', () => resolve());
        listener.once('exit', (code) => reject(new Error(`the abstract socket listener exited ${code}`)));
      }),
      WAIT_LIMIT_MS,
      'the abstract socket listener to listen',
    );
    const networkProbed: string[] = [];
    let renameTried = 0;
    let createTried = 0;
    let trustedRows = 0;
    const startTried: string[] = [];
    const host = hostView(home);
    for (const name of exampleNames) {
      const file = join(repoRoot, 'examples', name);
      const bytes = readFileSync(file);
      // One check: the matrix and the artifacts come from the same model.
      const check = reader.check(bytes, `examples/${name}`);
      const { matrix } = explainCheck(check);
      if (!matrix || matrix.verdicts.linux === 'refused') continue;
      const outcome = await compileConfig(check, 'linux', {});
      assert.ok(outcome.ok, `${name}: Linux accepts it, but it does not compile`);
      examples++;
      const bpf = outcome.artifacts.find((a) => a.name === `seccomp.${arch}.bpf`)!.content as Uint8Array;
      for (const pm of matrix.principals) {
        const argsFile = outcome.artifacts.find((a) => a.name === `${pm.id}.bwrap.args`)!.content;
        const argsBytes = typeof argsFile === 'string' ? Buffer.from(argsFile) : Buffer.from(argsFile);
        const view = viewFromArgv(parseArgsFile(argsBytes));
        const dir = mkdtempSync(join(root, 'run-'));
        writeFileSync(join(dir, 'args'), argsBytes);
        writeFileSync(join(dir, 'bpf'), bpf);
        // The principal's Landlock rules, as the in-sandbox step applies them, and execute on the probe itself (a file no cell names).
        const rules = outcome.artifacts.find((a) => a.name === `${pm.id}.landlock`)?.content;
        if (rules !== undefined)
          writeFileSync(join(dir, 'rules'), Buffer.concat([Buffer.from(rules), Buffer.from('fs\0execute,read_file\0/.boxwright-probe\0')]));
        /** The probe with ARGS inside this principal's sandbox, through the in-sandbox step, as any command runs. */
        const inSandbox = (probeArgs: readonly string[]): ReturnType<typeof spawnSync> & { stdout: string; stderr: string } => {
          // 3 the argv, 4 the seccomp program, 5 the in-sandbox step, the denied files, then the Landlock rules.
          const fds = [
            openSync(join(dir, 'args'), 'r'),
            openSync(join(dir, 'bpf'), 'r'),
            openSync(step, 'r'),
            ...view.dataFds.map(() => openSync('/dev/null', 'r')),
          ];
          const rulesFd = 3 + fds.length;
          if (rules !== undefined) fds.push(openSync(join(dir, 'rules'), 'r'));
          try {
            // The probe is bound before the view's own arguments; the view then
            // remounts its root read-only, as it does for any command.
            const stepArgs = rules !== undefined ? ['--rules-fd', String(rulesFd)] : ['--no-landlock'];
            return finished(
              spawnSync(
                'bwrap',
                [
                  '--ro-bind',
                  probe,
                  '/.boxwright-probe',
                  '--args',
                  '3',
                  '--',
                  '/.boxwright/exec',
                  ...stepArgs,
                  '--',
                  '/.boxwright-probe',
                  ...probeArgs,
                ],
                {
                  stdio: ['ignore', 'pipe', 'pipe', ...fds],
                  encoding: 'utf8',
                  timeout: WAIT_LIMIT_MS,
                },
              ),
              'the probe under bubblewrap',
            );
          } finally {
            for (const fd of fds) closeSync(fd);
          }
        };
        for (const row of pm.rows) {
          const legend = row.cells.linux.legend;
          if (!row.path || legend === 'n/a' || legend === 'refused' || row.path.startsWith('%')) continue;
          // A row of host-trusted paths that do not exist: what explain says is whether each can be created.
          if (row.list === 'host-trusted' && row.trusted?.startsWith('absent')) {
            for (const path of row.paths ?? [row.path]) {
              const made = inSandbox(['--create', path]);
              const created = /^created=1/m.test(made.stdout);
              if (made.status !== 0 || created !== legend.includes('w'))
                failures.push(
                  `${name} ${pm.id} host-trusted ${path}: explain says ${legend}, but [${made.stdout.trim()}${made.stderr.trim()}]`,
                );
              createTried++;
            }
            continue;
          }
          const r = inSandbox([row.path]);
          if (r.status !== 0) {
            failures.push(`${name} ${pm.id} ${row.list} ${row.written}: bwrap exited ${r.status}: ${r.stderr.trim()}`);
            continue;
          }
          const probed = parseProbe(r.stdout);
          if (probed.probed) execTried++;
          if (row.list === 'host-trusted') trustedRows++;
          const wrong = agrees(legend, probed);
          if (wrong)
            failures.push(
              `${name} ${pm.id} line ${row.line ?? '-'} ${row.list} ${row.written} (${row.path}): ${wrong} [${r.stdout.trim()}]`,
            );
          checked++;
          // An exec grant of a program (an ELF file or a script on this machine): explain says when it
          // cannot start (exec-dependencies: its loader, its libraries, its #! interpreter not in the view);
          // the program, run in the sandbox, starts exactly when it says nothing.
          const grant = check
            .ir!.principals.find((p) => p.id === pm.id)
            ?.grants.find((g) => g.list === 'exec' && g.path === row.path && g.scope === 'file');
          const kind = grant?.needs ? host.program(grant.path!).kind : undefined;
          if (
            legend.includes('x') &&
            grant?.needs &&
            (kind === 'elf' || kind === 'script') &&
            !grant.needs.unknown.length &&
            !grant.needs.problems.length
          ) {
            const cannot =
              row.cells.linux.disclosures?.some((d) => d.ruleId === 'exec-dependencies' && /cannot start/.test(d.text)) ?? false;
            const started = /started=1/.test(inSandbox(['--start', row.path]).stdout);
            if (started === cannot)
              failures.push(
                `${name} ${pm.id} line ${row.line ?? '-'} exec ${row.written}: explain says it ${cannot ? 'cannot start' : 'starts'}, but run in the sandbox it ${started ? 'started' : 'did not start'}`,
              );
            startTried.push(`${name}:${pm.id}:${started ? 'started' : 'not'}`);
          }
          // A write_file is the file alone: explain says it cannot be renamed (a save through a rename fails): EBUSY (a mount point), or EROFS (its directory is not granted).
          if (row.list === 'write_file' && legend.includes('w') && row.cells.linux.disclosures?.some((d) => /not renamed/.test(d.text))) {
            const moved = inSandbox(['--rename', row.path]);
            if (!/^renamed=0 errno=(16|30)$/m.test(moved.stdout))
              failures.push(
                `${name} ${pm.id} line ${row.line ?? '-'} write_file ${row.written}: explain says it cannot be renamed, but [${moved.stdout.trim()}${moved.stderr.trim()}]`,
              );
            renameTried++;
          }
        }
        // The network row of a direct network exception: the host's abstract
        // unix sockets are reachable or not as the model's fact says (explain's
        // footnote is its wording: Landlock's scope, from ABI 6).
        const network = check.model!.principals.find((pa) => pa.principal.id === pm.id)?.network.linux;
        if (network?.kind === 'host-network-namespace') {
          const r = inSandbox(['--abstract', abstractName]);
          const reached = /connect=1/.test(r.stdout);
          const says = network.abstractSockets;
          if (r.status !== 0 || says === 'scoped-from-abi-6')
            failures.push(
              `${name} ${pm.id} network: ${r.status !== 0 ? `bwrap exited ${r.status}: ${r.stderr.trim()}` : 'the host view knows the Landlock ABI, yet the fact does not'}`,
            );
          else if (reached !== (says === 'reachable'))
            failures.push(
              `${name} ${pm.id} network: explain says the host's abstract sockets are ${says}, but a connect ${reached ? 'succeeded' : `failed [${r.stdout.trim()}]`}`,
            );
          networkProbed.push(`${pm.id}:${says}`);
        }
      }
    }
    assert.deepEqual(failures, []);
    assert.ok(examples >= 10, `only ${examples} examples were probed`);
    assert.ok(checked >= 20, `only ${checked} cells were probed`);
    assert.ok(execTried >= 20, `only ${execTried} cells were probed by executing`);
    assert.ok(networkProbed.length >= 1, 'no direct network exception was probed');
    assert.ok(renameTried >= 2, `only ${renameTried} write_file grants were probed by renaming`);
    // Host-trusted rows: an existing one probed like any cell (read-only), the absent ones by creating them.
    assert.ok(
      trustedRows >= 1 && createTried >= 10,
      `only ${trustedRows} host-trusted rows and ${createTried} absent host-trusted paths were probed`,
    );
    // Both answers were probed: a dynamically linked program that starts, and one that cannot.
    assert.ok(
      startTried.some((x) => x.endsWith(':started')) && startTried.some((x) => x.endsWith(':not')),
      `programs started: ${startTried.join(' ')}`,
    );
    // Where the kernel has the scope, a principal with a direct network exception can no longer reach them.
    const abi = probeLandlockAbi();
    if (abi !== 'unknown' && abi >= 6)
      assert.ok(
        networkProbed.every((x) => x.endsWith(':scoped')),
        networkProbed.join(' '),
      );
  });
});
