// The exec watch (targets/linux/launcher/watch.c): a program the command
// runs that Landlock refuses is named, with the grant that allows it, when
// the command fails (or with -v), under real bubblewrap and the real kernel;
// the watch never lets through what Landlock refuses (the refused program
// does not run, with or without the watch, and a workload that kills the
// watcher ends its own sandbox); its filter, read back from the program,
// notifies execve and execveat only, checks the architecture and the x32
// bit first, and never kills or refuses anything.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decode, SECCOMP_RET_ALLOW, SECCOMP_RET_USER_NOTIF } from '../../targets/linux/seccomp/bpf.js';
import { run as runFilter } from '../support/seccomp/interpreter.js';
import { archInfo, syscallNumber, type Arch } from '../../targets/linux/seccomp/tables.js';
import { verify } from '../support/seccomp/verifier.js';
import { repoRoot, requireOrSkip } from '../helpers.js';
import { helper, ruleset, sandboxed, scratch } from './landlock-support.js';
import { boxwright, bwrapAvailable, onPath } from './support.js';

const native: Arch = process.arch === 'arm64' ? 'aarch64' : 'x86_64';
const foreign: Arch = native === 'x86_64' ? 'aarch64' : 'x86_64';
const program = (arch: Arch): string => join(repoRoot, 'dist', 'sandbox', `boxwright-sandbox.${arch}`);
const qemu = [`qemu-${foreign}-static`, `qemu-${foreign}`].find((q) => onPath(q));

/** The watch's filter as the program holds it, run through boxwright's own seccomp interpreter. */
function filterOf(arch: Arch): ReturnType<typeof decode> {
  const cmd = arch === native ? [program(arch)] : [qemu!, program(arch)];
  return decode(execFileSync(cmd[0]!, [...cmd.slice(1), '--print-watch-filter']));
}

describe("the exec watch's filter", () => {
  for (const arch of [native, foreign]) {
    const skip = requireOrSkip(
      existsSync(program(arch)) && (arch === native || !!qemu),
      arch === native ? `boxwright-sandbox.${arch}` : `qemu-user and boxwright-sandbox.${arch}`,
    );
    it(`${arch}: execve and execveat notify; every other call, another ABI and (x86_64) x32 are allowed, nothing killed`, { skip }, () => {
      const f = filterOf(arch);
      verify(f);
      const info = archInfo(arch);
      const at = (nr: number, auditArch = info.auditArch, high = 0n): number =>
        runFilter(f, { nr, arch: auditArch, args: [high, high, high, high, high, high] }).ret;
      assert.equal(at(syscallNumber(arch, 'execve')!), SECCOMP_RET_USER_NOTIF);
      assert.equal(at(syscallNumber(arch, 'execveat')!), SECCOMP_RET_USER_NOTIF);
      for (const other of ['read', 'openat', 'clone', 'exit_group', 'ptrace'])
        assert.equal(at(syscallNumber(arch, other)!), SECCOMP_RET_ALLOW, other);
      // The other architecture's execve number on this one's arch value means nothing: allowed (the main filter answers it).
      assert.equal(at(syscallNumber(arch, 'execve')!, archInfo(arch === 'x86_64' ? 'aarch64' : 'x86_64').auditArch), SECCOMP_RET_ALLOW);
      if (info.x32Bit !== undefined) assert.equal(at(info.x32Bit | syscallNumber(arch, 'execve')!), SECCOMP_RET_ALLOW);
      // Every return is ALLOW or USER_NOTIF: nothing refused, nothing killed.
      const rets = new Set(f.filter((i) => (i.code & 0x07) === 0x06).map((i) => i.k >>> 0));
      assert.deepEqual([...rets].sort(), [SECCOMP_RET_USER_NOTIF, SECCOMP_RET_ALLOW].sort());
    });
  }
});

const skip = requireOrSkip(bwrapAvailable, 'bubblewrap') ?? requireOrSkip(!!onPath('gcc'), 'gcc (the static test programs)');

/**
 * parent PROGRAM [ARGS]: execs PROGRAM in a child, prints `child=STATUS`
 * and exits with it (the exec's errno as 100 + errno when it fails);
 * victim MARK: creates MARK (proof it ran), exits 0.
 */
const PARENT_C = String.raw`#include <errno.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv) {
  if (argc < 2) return 2;
  pid_t p = fork();
  if (p == 0) { execv(argv[1], argv + 1); _exit(100 + errno); }
  int st; waitpid(p, &st, 0);
  int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  printf("child=%d\n", code);
  return code;
}`;
const VICTIM_C = String.raw`#include <fcntl.h>
#include <unistd.h>
int main(int argc, char **argv) { if (argc > 1) close(open(argv[1], O_CREAT | O_WRONLY, 0600)); return 0; }`;
/** killer: kills its parent (the watcher) with SIGKILL, then tries to exec PROGRAM MARK. */
const KILLER_C = String.raw`#include <signal.h>
#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv) {
  kill(getppid(), SIGKILL);
  usleep(200000);
  execv(argv[1], argv + 1);
  perror("exec after the watcher died");
  return 99;
}`;

describe('the exec watch under boxwright run: refused programs named, never let through', { skip, concurrency: 3 }, () => {
  let home = '';
  const build = (name: string, source: string): string => {
    writeFileSync(join(home, `${name}.c`), source);
    execFileSync('gcc', ['-static', '-O2', '-o', join(home, 'bin', name), join(home, `${name}.c`)]);
    return join(home, 'bin', name);
  };
  let parent = '';
  let victim = '';
  let killer = '';
  before(() => {
    home = realpathSync(mkdtempSync(join(tmpdir(), 'boxwright-watch-')));
    mkdirSync(join(home, 'bin'));
    mkdirSync(join(home, 'out'));
    parent = build('parent', PARENT_C);
    victim = build('victim', VICTIM_C);
    killer = build('killer', KILLER_C);
  });
  after(() => rmSync(home, { recursive: true, force: true }));
  const config = (name: string, extraExec: readonly string[] = []): string => {
    const p = join(home, name);
    writeFileSync(
      p,
      `[agent.filesystem]\nread = ["${home}/bin", "${home}/out"]\nwrite = ["${home}/out"]\nexec = [${[parent, killer, ...extraExec].map((x) => JSON.stringify(x)).join(', ')}]\n`,
    );
    return p;
  };
  const run = (cfg: string, cmd: readonly string[], extra: readonly string[] = []): ReturnType<typeof boxwright> =>
    boxwright(['run', cfg, '--home', home, '--fs', 'host', ...extra, '--', ...cmd]);

  it('a program the command runs and Landlock refuses: named on the failure, with its exec grant; it did not run', async () => {
    const mark = join(home, 'out', 'ran-1');
    const r = await run(config('a.toml'), [parent, victim, mark]);
    assert.equal(r.status, 113, r.stderr); // 100 + EACCES
    assert.equal(r.stdout, 'child=113\n');
    assert.ok(!existsSync(mark), 'the refused program ran');
    assert.match(
      r.stderr,
      new RegExp(
        `boxwright run: Landlock refused to execute "${victim}", which the command ran: exec = \\["${victim}"\\] in \\[agent\\.filesystem\\] of ${join(home, 'a.toml')} allows it`,
      ),
    );
  });

  it('control: with the exec grant it runs, and nothing is reported', async () => {
    const mark = join(home, 'out', 'ran-2');
    const r = await run(config('b.toml', [victim]), [parent, victim, mark]);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(existsSync(mark));
    assert.doesNotMatch(r.stderr, /Landlock refused/);
  });

  it('a command that succeeds anyway: one line, and -v names the program', async () => {
    // A parent that exits 0 whatever its child did (git after a refused `git maintenance`).
    const script = join(home, 'bin', 'tolerant');
    writeFileSync(join(home, 'tolerant.c'), PARENT_C.replace('return code;', 'return 0;'));
    execFileSync('gcc', ['-static', '-O2', '-o', script, join(home, 'tolerant.c')]);
    const cfg = config('c.toml', [script]);
    const quiet = await run(cfg, [script, victim, join(home, 'out', 'x')]);
    assert.equal(quiet.status, 0, quiet.stderr);
    assert.match(quiet.stderr, /the command exited 0, but Landlock refused 1 program it ran \(-v names it/);
    const loud = await run(cfg, [script, victim, join(home, 'out', 'x')], ['-v']);
    assert.match(loud.stderr, new RegExp(`Landlock refused to execute "${victim}"`));
  });

  it('a program written into a write grant: named, with the directory (and the overlap it opens)', async () => {
    const copy = join(home, 'out', 'built');
    execFileSync('cp', [victim, copy]);
    const r = await run(config('d.toml'), [parent, copy, join(home, 'out', 'ran-4')]);
    assert.equal(r.status, 113, r.stderr);
    assert.ok(!existsSync(join(home, 'out', 'ran-4')));
    assert.match(
      r.stderr,
      new RegExp(`it is in a write grant, .*: exec = \\["${join(home, 'out')}"\\] in \\[agent\\.filesystem\\].*write-exec-overlap`),
    );
  });

  it('the workload kills the watcher: its sandbox ends; the refused program never runs', async () => {
    const mark = join(home, 'out', 'ran-5');
    const r = await run(config('e.toml'), [killer, victim, mark]);
    assert.ok(!existsSync(mark), `the program ran after the watcher was killed: ${r.stderr}`);
    assert.notEqual(r.status, 0);
  });

  it('the command itself refused: 126, and the message says Landlock, with the grant', async () => {
    const r = await run(config('f.toml'), [victim, join(home, 'out', 'ran-6')]);
    assert.equal(r.status, 126, r.stderr);
    assert.ok(!existsSync(join(home, 'out', 'ran-6')));
    assert.match(r.stderr, /Landlock/);
  });
});

describe('the in-sandbox step without its watch (--no-watch): the same refusal, nothing written down', {
  skip: skip ?? requireOrSkip(helper !== undefined, 'boxwright-sandbox'),
}, () => {
  const dir = skip ? '' : scratch();
  after(() => dir && rmSync(dir, { recursive: true, force: true }));
  it('with the watch, a `watch refused` line on the ready fd; with --no-watch, none; the exec refused (EACCES) either way', async () => {
    writeFileSync(join(dir, 'p.c'), PARENT_C);
    execFileSync('gcc', ['-static', '-O2', '-o', join(dir, 'parent'), join(dir, 'p.c')]);
    // Execute only the parent; /usr readable (so /usr/bin/true is there and refused), /proc readable (the watcher reads the path there).
    const rules = ruleset([
      [['execute', 'read_file'], join(dir, 'parent')],
      [['read_file', 'read_dir'], '/usr'],
      [['read_file', 'read_dir'], '/proc'],
      [['read_file', 'read_dir', 'write_file'], dir],
    ]);
    for (const watch of [true, false]) {
      const r = await sandboxed(dir, rules, [join(dir, 'parent'), '/usr/bin/true'], {
        helperArgs: ['--rules-fd', '3', '--ready-fd', '4', ...(watch ? [] : ['--no-watch'])],
      });
      assert.equal(r.stdout, 'child=113\n', r.stderr);
      if (watch) assert.match(r.ready, /^watch refused "\/usr\/bin\/true"/m);
      else assert.doesNotMatch(r.ready, /watch/);
    }
  });
});
