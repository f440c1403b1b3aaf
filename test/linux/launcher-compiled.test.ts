// The launcher's fail-closed refusals on the directory `boxwright compile
// --target linux --out DIR` really writes (launcher.test.ts builds its own
// DIR through launcher-support.ts): what a user wires into an agent's shell
// tool. Each refusal is exit 125 with its message, and a marker file shows
// the command never ran, beside the control in which it does.
//
// Landlock unavailable: this kernel has Landlock, so a kernel without it is
// reproduced at the one point the launcher learns it: the
// landlock_create_ruleset system call. A kernel built without Landlock
// answers ENOSYS (the syscall is not wired), one with Landlock built in but
// left out of lsm= answers EOPNOTSUPP. libseccomp (python3-seccomp, an
// independent tool) installs a filter that gives exactly those answers to
// that one call and allows everything else, then executes DIR/agent.run
// unchanged: the launcher, bubblewrap and the in-sandbox step run the same
// code as on such a kernel (landlock_abi() → 0 → the `landlock` refusal).
// The controls: the same filter on a --landlock off compile runs the
// command, and a filter on an unrelated call lets the Landlock one run.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { requireOrSkip } from '../helpers.js';
import { launch, skip } from './launcher-support.js';
import { boxwright } from './support.js';

const PYTHON = '/usr/bin/python3';
const libseccomp = spawnSync(PYTHON, ['-c', 'import seccomp'], { stdio: 'ignore' }).status === 0;

/** Executes ARGV under a seccomp filter (libseccomp) that answers `syscall` with `errno` and allows everything else. */
const UNDER_FILTER = `
import errno, os, sys, seccomp
name, code = sys.argv[1], getattr(errno, sys.argv[2])
f = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
f.add_rule(seccomp.ERRNO(code), name)
f.load()
os.execv(sys.argv[3], sys.argv[3:])
`;

describe('launcher: the refusals of a DIR that compile --out wrote', { skip, concurrency: 1 }, () => {
  let home = '';
  let config = '';
  let dir = '';
  let offDir = '';
  let quotedDir = '';
  let marker = '';
  const text = '[agent.filesystem]\nread = ["/usr", "~/work"]\nwrite = ["~/work"]\nexec = ["/usr/bin/touch"]\n';
  const touch = (): string[] => ['/usr/bin/touch', marker];

  before(async () => {
    home = realpathSync(mkdtempSync(join(tmpdir(), 'boxwright-compiled-home-')));
    mkdirSync(join(home, 'work'));
    marker = join(home, 'work', 'marker');
    config = join(home, 'c.toml');
    writeFileSync(config, text);
    dir = join(home, 'out');
    offDir = join(home, 'out-off');
    quotedDir = join(home, "it's out");
    for (const [out, extra] of [
      [dir, []],
      [offDir, ['--landlock', 'off']],
      [quotedDir, []],
    ] as const) {
      const r = await boxwright(['compile', config, '--target', 'linux', '--out', out, '--home', home, ...extra]);
      assert.equal(r.status, 0, r.stderr);
      assert.ok(
        existsSync(join(out, 'agent.run')) && existsSync(join(out, 'agent.launch')),
        'compile wrote the launcher and its launch file',
      );
    }
  });
  afterEach(() => {
    rmSync(marker, { force: true });
    writeFileSync(config, text);
  });
  after(() => rmSync(home, { recursive: true, force: true }));

  async function refused(run: Promise<{ status: number | null; stderr: string }>, message: RegExp): Promise<string> {
    const r = await run;
    assert.equal(r.status, 125, r.stderr);
    assert.match(r.stderr, message);
    assert.match(r.stderr, /the command did not run|nothing was run/);
    assert.ok(!existsSync(marker), 'the command never ran');
    return r.stderr;
  }

  it('control: DIR/agent.run runs the command (the marker appears)', async () => {
    const r = await launch(join(dir, 'agent.run'), touch());
    assert.equal(r.status, 0, r.stderr);
    assert.ok(existsSync(marker));
  });

  it('the config edited after compile: 125, never ran; the hint recompiles with the options the compile used', async () => {
    appendFileSync(config, '# edited\n');
    const e = await refused(
      launch(join(dir, 'agent.run'), touch()),
      /agent\.run: .*c\.toml changed since the sandbox in .*out was compiled from it/,
    );
    assert.ok(e.includes(`Recompile: boxwright compile ${config} --target linux --out ${dir} --home ${home}`), e);
    const off = await refused(launch(join(offDir, 'agent.run'), touch()), /changed since the sandbox/);
    assert.ok(off.includes(`Recompile: boxwright compile ${config} --target linux --out ${offDir} --home ${home} --landlock off`), off);
    // A word the shell would split or unquote is quoted, so the hint can be pasted.
    const quoted = await refused(launch(join(quotedDir, 'agent.run'), touch()), /changed since the sandbox/);
    assert.ok(quoted.includes(`--out '${quotedDir.replaceAll("'", "'\\''")}' --home ${home};`), quoted);
  });

  it('bubblewrap missing at compile: the artifacts, and no launcher (said why); at run time neither PATH nor BOXWRIGHT_BWRAP is looked at', async () => {
    const none = join(home, 'out-no-bwrap');
    for (const env of [{ PATH: join(home, 'no-such-dir') }, { BOXWRIGHT_BWRAP: join(home, 'no-bwrap') }]) {
      const r = await boxwright(['compile', config, '--target', 'linux', '--out', none, '--home', home], { env });
      assert.equal(r.status, 0, r.stderr);
      assert.match(
        r.stderr,
        /no launchers \(<principal>\.run\) written: no bubblewrap: .*(no bwrap in the PATH directories outside your home|no-bwrap: no such file)/,
      );
      assert.ok(existsSync(join(none, 'agent.bwrap.args')) && !existsSync(join(none, 'agent.run')));
    }
    const r = await launch(join(dir, 'agent.run'), touch(), {
      env: { PATH: join(home, 'no-such-dir'), BOXWRIGHT_BWRAP: join(home, 'no-bwrap') },
    });
    assert.equal(r.status, 0, r.stderr);
    assert.ok(existsSync(marker), 'the bubblewrap compile recorded ran');
  });

  describe('a kernel without Landlock (landlock_create_ruleset answered as such a kernel answers, by libseccomp)', () => {
    const skipLibseccomp = requireOrSkip(libseccomp, 'python3-seccomp (Debian: apt-get install python3-seccomp)');
    const under = (syscall: string, errno: string, run: string): ReturnType<typeof launch> =>
      launch(PYTHON, ['-c', UNDER_FILTER, syscall, errno, run, ...touch()]);

    it('ENOSYS (not built in) and EOPNOTSUPP (not in lsm=): 125, the in-sandbox step refuses, never ran', {
      skip: skipLibseccomp,
    }, async () => {
      for (const errno of ['ENOSYS', 'EOPNOTSUPP']) {
        await refused(
          under('landlock_create_ruleset', errno, join(dir, 'agent.run')),
          /the kernel offers no Landlock \(ABI 0[^)]*\).*\n.*the in-sandbox step refused \(landlock/s,
        );
      }
    });

    it('controls: a --landlock off compile runs under the same filter; a filter on another call leaves Landlock on', {
      skip: skipLibseccomp,
    }, async () => {
      const off = await under('landlock_create_ruleset', 'ENOSYS', join(offDir, 'agent.run'));
      assert.equal(off.status, 0, off.stderr);
      assert.ok(existsSync(marker), 'the --landlock off sandbox needs no Landlock');
      rmSync(marker);
      const other = await under('acct', 'EPERM', join(dir, 'agent.run'));
      assert.equal(other.status, 0, other.stderr);
      assert.ok(existsSync(marker), 'the filter alone does not stop the run');
      // And Landlock applied there: touch is the one exec grant, so dash cannot run.
      const dash = await launch(PYTHON, ['-c', UNDER_FILTER, 'acct', 'EPERM', join(dir, 'agent.run'), '/usr/bin/dash', '-c', 'true']);
      assert.equal(dash.status, 126, dash.stderr);
      assert.ok(readFileSync(join(dir, 'agent.launch'), 'latin1').includes('landlock\0agent.landlock\0'));
    });
  });
});
