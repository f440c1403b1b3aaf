// "explain never lies": for every example Linux accepts, every cell of the
// Linux column of `explain` is checked by a probe inside the compiled
// sandbox, under real bubblewrap. The examples' machine (examples/machine.json)
// is made real in a temporary home first, so the same configs are checked.
// The probe is a small static C program bound into the sandbox, because the
// view holds only granted paths (no shell, no libc unless granted).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { compileConfig } from '../../app/cli/compile.js';
import { explainCheck } from '../../app/cli/explain.js';
import { configReader } from '../../app/cli/options.js';
import { hostArch, parseArgsFile } from '../../targets/linux/index.js';
import { viewFromArgv } from '../../targets/linux/view.js';
import { exampleNames } from '../compile-helpers.js';
import { repoRoot, requireOrSkip } from '../helpers.js';
import { bwrapAvailable, onPath } from './support.js';

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
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>
/*
 * Whether the kernel lets this process execute p: execve in a child, its
 * errno back through a pipe. EACCES: not executable (Landlock's execute
 * right, a noexec mount, the mode). Anything else (it ran; ENOEXEC: the
 * kernel checked and found no format; ENOENT: its interpreter is not in
 * the view) means the kernel allowed the exec itself.
 */
static int can_exec(const char *p) {
  int pfd[2];
  if (pipe2(pfd, O_CLOEXEC) != 0) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    close(pfd[0]);
    int dn = open("/dev/null", O_RDWR);
    dup2(dn, 0); dup2(dn, 1); dup2(dn, 2);
    alarm(5);
    char *a[] = {(char *)p, "--boxwright-probe", NULL};
    char *e[] = {NULL};
    execve(p, a, e);
    int err = errno;
    if (write(pfd[1], &err, sizeof err) < 0) _exit(126);
    _exit(127);
  }
  close(pfd[1]);
  int err = 0;
  ssize_t n = read(pfd[0], &err, sizeof err);
  close(pfd[0]);
  int st;
  waitpid(pid, &st, 0);
  return n <= 0 ? 1 : err == EACCES ? 0 : 1;
}
/* probe PATH: exists, read (bytes or entries), write, exec (the kernel allows it: of the file, or of DIR/.boxwright-x) */
int main(int argc, char **argv) {
  const char *p = argv[1];
  struct stat st;
  if (lstat(p, &st) != 0) { printf("exists=0\n"); return 0; }
  int isdir = S_ISDIR(st.st_mode);
  long amount = -1;
  if (isdir) {
    DIR *d = opendir(p);
    if (d) { amount = 0; struct dirent *e; while ((e = readdir(d))) if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) amount++; closedir(d); }
  } else {
    int fd = open(p, O_RDONLY);
    if (fd >= 0) { char buf[4096]; ssize_t n; amount = 0; while ((n = read(fd, buf, sizeof buf)) > 0) amount += n; if (n < 0) amount = -1; close(fd); }
  }
  int writable = 0;
  if (isdir) {
    char tmp[4096]; snprintf(tmp, sizeof tmp, "%s/.boxwright-probe-%d", p, (int)getpid());
    int fd = open(tmp, O_CREAT | O_EXCL | O_WRONLY, 0600);
    if (fd >= 0) { writable = 1; close(fd); unlink(tmp); }
  } else {
    int fd = open(p, O_WRONLY | O_APPEND);
    if (fd >= 0) { writable = 1; close(fd); }
  }
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
  const kv = Object.fromEntries(out.trim().split(/\s+/).map((x) => x.split('=') as [string, string]));
  return { exists: kv['exists'] === '1', dir: kv['dir'] === '1', read: Number(kv['read'] ?? -1), write: kv['write'] === '1', exec: kv['exec'] === '1', probed: kv['probed'] === '1' };
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
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'examples/machine.json'), 'utf8')) as { home: string; entries: Record<string, 'file' | 'dir' | { symlink: string }> };
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
        if (rules !== undefined) writeFileSync(join(dir, 'rules'), Buffer.concat([Buffer.from(rules), Buffer.from('fs\0execute,read_file\0/.boxwright-probe\0')]));
        for (const row of pm.rows) {
          const legend = row.cells.linux.legend;
          if (!row.path || legend === 'n/a' || legend === 'refused' || row.path.startsWith('%')) continue;
          // 3 the argv, 4 the seccomp program, 5 the in-sandbox step, the denied files, then the Landlock rules.
          const fds = [openSync(join(dir, 'args'), 'r'), openSync(join(dir, 'bpf'), 'r'), openSync(step, 'r'), ...view.dataFds.map(() => openSync('/dev/null', 'r'))];
          const rulesFd = 3 + fds.length;
          if (rules !== undefined) fds.push(openSync(join(dir, 'rules'), 'r'));
          try {
            // The probe is bound before the view's own arguments; the view then
            // remounts its root read-only, as it does for any command. It runs
            // as any command does: through the in-sandbox step.
            const stepArgs = rules !== undefined ? ['--rules-fd', String(rulesFd)] : ['--no-landlock'];
            const r = spawnSync('bwrap', ['--ro-bind', probe, '/.boxwright-probe', '--args', '3', '--', '/.boxwright/exec', ...stepArgs, '--', '/.boxwright-probe', row.path], {
              stdio: ['ignore', 'pipe', 'pipe', ...fds],
              encoding: 'utf8',
            });
            if (r.status !== 0) {
              failures.push(`${name} ${pm.id} ${row.list} ${row.written}: bwrap exited ${r.status}: ${r.stderr.trim()}`);
              continue;
            }
            const probed = parseProbe(r.stdout);
            if (probed.probed) execTried++;
            const wrong = agrees(legend, probed);
            if (wrong) failures.push(`${name} ${pm.id} line ${row.line ?? '-'} ${row.list} ${row.written} (${row.path}): ${wrong} [${r.stdout.trim()}]`);
            checked++;
          } finally {
            for (const fd of fds) closeSync(fd);
          }
        }
      }
    }
    assert.deepEqual(failures, []);
    assert.ok(examples >= 10, `only ${examples} examples were probed`);
    assert.ok(checked >= 20, `only ${checked} cells were probed`);
    assert.ok(execTried >= 20, `only ${execTried} cells were probed by executing`);
  });
});
