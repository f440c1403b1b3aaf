// Issue 22's first "done when": real toolchains under `boxwright run`
// without trial and error. For each of the distribution's own programs —
// git, python3, gcc through make (and the program make builds), node
// --jitless, a node_modules/.bin tool — a config that names only the
// command (and the task's own files) is linted with `--fs host`; the
// reads and execs exec-dependencies says it needs are added as its fixes
// give them, and then the program runs under real bubblewrap, Landlock and
// seccomp. What lint cannot know before the run (the program make built, a
// native binary a script spawns, the JIT) `boxwright run` says after it, and
// what it prints is what is added next. The control for each: the config
// without the added grants does not run.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { configReader } from '../../app/cli/options.js';
import { applyFix } from '../../rules/engine/fix.js';
import { repoRoot, requireOrSkip } from '../helpers.js';
import { bin, boxwright, bwrapAvailable, type Outcome } from './support.js';

const debian = existsSync('/usr/lib/x86_64-linux-gnu/libc.so.6') && existsSync('/etc/debian_version');
const skip =
  requireOrSkip(bwrapAvailable, 'bubblewrap') ??
  requireOrSkip(debian, "a Debian x86_64 machine (the distribution's /usr/bin programs, their paths)");
const real = (p: string): string => realpathSync(p);

/** Lints `file` with --fs host and applies every exec-dependencies fix, one at a time (each moves the next one's offsets), until none is left; returns what was added. */
function addWhatLintSays(file: string, home: string): string[] {
  const reader = configReader({ fs: 'host', home });
  const suggestions: string[] = [];
  for (let round = 0; round < 20; round++) {
    const text = readFileSync(file, 'utf8');
    const d = reader.check(Buffer.from(text), file).diagnostics.find((x) => x.ruleId === 'exec-dependencies' && x.fix);
    if (!d) return suggestions;
    suggestions.push(d.suggestion ?? '');
    writeFileSync(file, applyFix(text, d.fix!));
  }
  throw new Error(`exec-dependencies still reports after 20 fixes: ${file}`);
}

/** The grants a `boxwright run` message names (`exec = ["…"] in [agent.filesystem]`), added to the config's exec list. */
function addWhatRunSays(file: string, stderr: string): string {
  const m = /exec = \[("[^"]+")\] in \[agent\.filesystem\]/.exec(stderr);
  assert.ok(m, `run named no grant:\n${stderr}`);
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, text.replace(/^exec = \[/m, `exec = [${m[1]}, `));
  return JSON.parse(m[1]!) as string;
}

describe('real toolchains: what lint says they need, then they run under boxwright run', { skip, concurrency: 3, timeout: 600_000 }, () => {
  let home = '';
  const run = (cfg: string, cmd: readonly string[], env: Record<string, string> = {}, extra: readonly string[] = []): Promise<Outcome> =>
    boxwright(['run', cfg, '--home', home, '--fs', 'host', ...extra, '--', ...cmd], { env: { BOXWRIGHT_RUN_CACHE: 'off', ...env } });
  const config = (name: string, lines: string): string => {
    const p = join(home, name);
    writeFileSync(p, `[agent.filesystem]\n${lines}\n`);
    return p;
  };
  before(() => {
    home = realpathSync(mkdtempSync(join(tmpdir(), 'boxwright-tools-')));
  });
  after(() => rmSync(home, { recursive: true, force: true }));

  it('git: its loader and libraries, exactly; then init, add, commit and log run (the control: not before)', {
    skip: requireOrSkip(existsSync('/usr/bin/git'), 'git'),
  }, async () => {
    // An existing repository, as an agent finds it. Its .git is host-trusted
    // (issue 21): read-only inside write = [repo], so the agent's commits
    // need a grant naming it, which lifts the carve-out (a warning, and a
    // widening in diff); its config and hooks stay read-only even then.
    const repo = join(home, 'repo');
    mkdirSync(repo);
    execFileSync('/usr/bin/git', ['init', '-q', repo]);
    const cfg = config(
      'git.toml',
      `workspace = "${repo}"\nread = ["${repo}"]\nwrite = ["${repo}", "${repo}/.git"]\nexec = ["/usr/bin/git"]`,
    );
    const before = await run(cfg, ['/usr/bin/git', '--version']);
    assert.equal(before.status, 127, before.stderr);
    assert.deepEqual(addWhatLintSays(cfg, home), ['Add to [agent.filesystem]: read = ["/usr/lib/x86_64-linux-gnu", "/usr/lib64"]']);
    writeFileSync(join(repo, 'a.txt'), 'hello\n');
    for (const cmd of [
      ['add', 'a.txt'],
      ['-c', 'user.name=u', '-c', 'user.email=u@example.com', 'commit', '-qm', 'first'],
      ['log', '--oneline'],
    ]) {
      const r = await run(cfg, ['/usr/bin/git', ...cmd]);
      assert.equal(r.status, 0, `git ${cmd.join(' ')}: ${r.stderr}`);
      assert.doesNotMatch(r.stderr, /cannot exec|Landlock refused/);
    }
  });

  it('python3: its loader, libraries and standard library; then it runs', {
    skip: requireOrSkip(existsSync('/usr/bin/python3'), "Debian's python3"),
  }, async () => {
    const py = real('/usr/bin/python3');
    const cfg = config('py.toml', `exec = ["${py}"]`);
    const suggestions = addWhatLintSays(cfg, home);
    assert.equal(suggestions.length, 1);
    assert.match(
      suggestions[0]!,
      new RegExp(`read = \\["/usr/lib/${py.slice(py.lastIndexOf('/') + 1)}", "/usr/lib/x86_64-linux-gnu", "/usr/lib64"\\]`),
    );
    const r = await run(cfg, [py, '-c', 'import json, sys; print(json.dumps({"major": sys.version_info[0]}))']);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, '{"major": 3}\n');
  });

  it('make and gcc: what make runs (sh, cc, the compiler proper, as, ld) and reads; then make builds; the program it built: named by run, then it runs', {
    skip: requireOrSkip(existsSync('/usr/bin/make') && existsSync('/usr/bin/cc'), 'make and gcc'),
  }, async () => {
    const proj = join(home, 'proj');
    mkdirSync(join(proj, 'output'), { recursive: true });
    mkdirSync(join(proj, 'tmp'));
    writeFileSync(join(proj, 'hello.c'), '#include <stdio.h>\nint main(void) { puts("hello from what make built"); return 0; }\n');
    writeFileSync(join(proj, 'Makefile'), 'output/hello: hello.c\n\tcc -o output/hello hello.c\n\ntest: output/hello\n\t./output/hello\n');
    const cfg = config(
      'make.toml',
      `workspace = "${proj}"\nread = ["${proj}"]\nwrite = ["${proj}/output", "${proj}/tmp"]\nexec = ["/usr/bin/make"]`,
    );
    const tmp = { TMPDIR: join(proj, 'tmp') };
    const control = await run(cfg, ['make']);
    assert.notEqual(control.status, 0, 'make ran without its loader');
    const suggestions = addWhatLintSays(cfg, home);
    // The grants first; then, with gcc able to start, that it writes temporary files and /tmp is not writable: a temp of its own.
    assert.equal(suggestions.length, 2, suggestions.join('\n'));
    assert.match(suggestions[1]!, /^Set private_tmp = true in this principal's filesystem table/);
    const gcc = real('/usr/bin/cc');
    for (const path of ['/usr/bin/dash', gcc, '/usr/lib/gcc/x86_64-linux-gnu', '/usr/include', '/etc/alternatives', '/usr/bin'])
      assert.ok(suggestions[0]!.includes(`"${path}`), `${path} in ${suggestions[0]}`);
    const built = await run(cfg, ['make'], tmp);
    assert.equal(built.status, 0, built.stderr);
    assert.ok(existsSync(join(proj, 'output', 'hello')));
    // The program make built is in a write grant: Landlock refuses it, and run says which grant allows it.
    const refused = await run(cfg, ['make', 'test'], tmp);
    assert.notEqual(refused.status, 0);
    assert.match(refused.stderr, /Landlock refused to execute .*output\/hello.*write-exec-overlap/);
    assert.equal(addWhatRunSays(cfg, refused.stderr), join(proj, 'output'));
    // Lint now says what that grant opens.
    const overlap = configReader({ fs: 'host', home })
      .check(readFileSync(cfg), cfg)
      .diagnostics.filter((d) => d.ruleId === 'write-exec-overlap');
    assert.equal(overlap.length, 1);
    const ran = await run(cfg, ['make', 'test'], tmp);
    assert.equal(ran.status, 0, ran.stderr);
    assert.match(ran.stdout, /hello from what make built/);
  });

  it('node --jitless: its loader and libraries; with its JIT it aborts and run prints the command line that works; copied, it runs', async () => {
    const node = real(process.execPath);
    const cfg = config('node.toml', `exec = ["${node}"]`);
    assert.deepEqual(addWhatLintSays(cfg, home).length, 1);
    const jit = await run(cfg, [node, '-e', 'console.log("ok")']);
    assert.equal(jit.status, 133, jit.stderr);
    const remedy = /: (boxwright run .*)$/m.exec(jit.stderr)?.[1];
    assert.ok(remedy, jit.stderr);
    // The remedy as a shell runs it (the command line it ran, changed), with this checkout's boxwright.
    assert.match(remedy, new RegExp(`-- ${node} --jitless -e`));
    const copied = spawnSync('sh', ['-c', remedy.replace(/^boxwright /, `${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} `)], {
      encoding: 'utf8',
      env: { ...process.env, BOXWRIGHT_RUN_CACHE: 'off', NO_COLOR: '1' },
    });
    assert.equal(copied.status, 0, copied.stderr);
    assert.equal(copied.stdout, 'ok\n');
  });

  it('a node_modules/.bin tool (tsc): #! env, env runs node; the JIT remedy sets NODE_OPTIONS for the command alone; the native program it spawns: named by run; then it compiles', {
    skip: requireOrSkip(existsSync(join(repoRoot, 'node_modules', '.bin', 'tsc')), "this checkout's node_modules (npm ci)"),
  }, async () => {
    const proj = join(home, 'ts');
    mkdirSync(join(proj, 'out'), { recursive: true });
    writeFileSync(join(proj, 'a.ts'), 'const n: number = 21 * 2;\nconsole.log(n);\n');
    const modules = join(repoRoot, 'node_modules');
    const tool = join(modules, '.bin', 'tsc');
    const cfg = config(
      'ts.toml',
      `workspace = "${proj}"\nread = ["${proj}", "${modules}"]\nwrite = ["${proj}/out"]\nexec = ["${real(tool)}"]`,
    );
    const suggestions = addWhatLintSays(cfg, home);
    assert.equal(suggestions.length, 1);
    assert.match(suggestions[0]!, /exec = \["\/usr\/bin\/env", ".*node"\]/);
    const args = [tool, '--outDir', 'out', 'a.ts'];
    const jit = await run(cfg, args);
    assert.equal(jit.status, 133, jit.stderr);
    assert.match(jit.stderr, /--pass-env NODE_OPTIONS=--jitless -- /);
    const spawned = await run(cfg, args, {}, ['--pass-env', 'NODE_OPTIONS=--jitless']);
    // TypeScript 7 runs a native compiler: a program the script ran, refused, and named with its grant.
    if (spawned.status !== 0) {
      assert.match(spawned.stderr, /Landlock refused to execute/);
      addWhatRunSays(cfg, spawned.stderr);
    }
    const compiled = await run(cfg, args, {}, ['--pass-env', 'NODE_OPTIONS=--jitless']);
    assert.equal(compiled.status, 0, compiled.stderr);
    assert.match(readFileSync(join(proj, 'out', 'a.js'), 'utf8'), /21 \* 2/);
    execFileSync(process.execPath, [join(proj, 'out', 'a.js')]);
  });
});
