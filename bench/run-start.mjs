// A sandboxed /usr/bin/true, whole process, every way of starting it side by
// side in one interleaved run (issue 15 item 5), medians:
//
//   node         `node -e 0`: the floor of anything written in Node
//   bwrap        bare bubblewrap on boxwright's compiled argv and BPF (the
//                artifacts of `boxwright compile --target linux`, fed on the
//                descriptors they name), running /usr/bin/true directly
//   bwrapStep    the same plus what the launcher adds inside: the in-sandbox
//                step bound at /.boxwright/exec, run with --no-landlock
//   bwrapLandlock  the same with the compiled Landlock rules applied
//   bwrapWatch   the same with a ready fd, as the launcher runs the step: the
//                exec watch too (a forked watcher, a seccomp listener that
//                the command's own execve goes through); everything the
//                launcher's sandbox runs, without the launcher's process
//   launcher     `DIR/agent.run /usr/bin/true` (compiled once: no Node)
//   run          `boxwright run c.toml -- /usr/bin/true`, repeated: the fast
//                path (its cache warmed once before timing)
//   runFull      the same with BOXWRIGHT_RUN_CACHE=off: the full path (the
//                CLI checks and compiles the config at each run)
//   codex, codexNpm, srt   the peers, where `npm run bench:peers` installed
//                them: Codex's `codex sandbox -- /usr/bin/true` (its native
//                binary, and through the npm package's Node entry point) and
//                sandbox-runtime's `srt /usr/bin/true`
//
// Targets (issue 15): launcher <= 1.5x bwrap (moonshot 1.2x); run <= 1.5x
// node (moonshot 1.2x). Plus the BPF instructions the kernel runs per call
// for the common syscalls. Linux with bwrap only; everything it writes is
// under bench/out/run-start-PID, removed at the end.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baselineBin, interleaved, repoRoot, timeProcess } from './lib.mjs';

const arch = process.arch === 'arm64' ? 'aarch64' : 'x86_64';
if (process.platform !== 'linux' || spawnSync('bwrap', ['--version']).status !== 0) {
  console.log(
    JSON.stringify({
      bench: 'run-start',
      skipped: process.platform !== 'linux' ? 'not Linux' : 'no bwrap on PATH (apt-get install bubblewrap)',
    }),
  );
  process.exit(0);
}
const { launcherPath, SANDBOX_EXEC_PATH } = await import(join(repoRoot, 'dist', 'targets', 'linux', 'launcher', 'index.js'));
const { argsFile, parseArgsFile } = await import(join(repoRoot, 'dist', 'targets', 'linux', 'index.js'));
const program = launcherPath(arch);
if (!program) {
  console.log(JSON.stringify({ bench: 'run-start', skipped: `no dist/sandbox/boxwright-sandbox.${arch}: the build found no C compiler` }));
  process.exit(0);
}

const bin = join(repoRoot, 'bin', 'boxwright.cjs');
// Outside the checkout: compile --out asks every sandbox config of the repository that holds the config, and this
// repository's TYBA examples make their session worktree (the checkout) writable.
const work = mkdtempSync(join(tmpdir(), 'boxwright-run-start-'));
const codexTriple = { x64: 'x86_64-unknown-linux-musl', arm64: 'aarch64-unknown-linux-musl' }[process.arch];
const note = (s) => process.stderr.write(`run-start: ${s}\n`);
try {
  const home = join(work, 'home');
  const project = join(home, 'project');
  mkdirSync(join(project, 'output'), { recursive: true });
  writeFileSync(join(project, 'README.md'), 'bench\n');
  writeFileSync(join(project, '.env'), 'SECRET=1\n');
  // A realistic agent: the project read-only, its output writable, a denied
  // file, the system's /usr (with the merged-/usr links), and the one
  // program it runs granted execute (Landlock confines execution).
  const config = join(work, 'c.toml');
  writeFileSync(
    config,
    '[agent.filesystem]\nworkspace = "~/project"\nread = ["~/project", "/usr"]\nwrite = ["~/project/output"]\ndeny = ["~/project/.env"]\nexec = ["/usr/bin/true"]\n',
  );
  const out = join(work, 'artifacts');
  const c = spawnSync(process.execPath, [bin, 'compile', config, '--home', home, '--target', 'linux', '--out', out], { encoding: 'utf8' });
  if (c.status !== 0) throw new Error(`compile failed: ${c.stderr}`);

  // Bare bwrap: the compiled argv as written (fd 3), the BPF (fd 4), an
  // empty file for each --ro-bind-data (the denied file, and the mount
  // point of the in-sandbox step, which the launcher binds instead).
  const compiled = parseArgsFile(readFileSync(join(out, 'agent.bwrap.args')));
  const dataFds = compiled.filter((_, i) => compiled[i - 1] === '--ro-bind-data').length;
  // The in-sandbox step bound as the launcher binds it (bwrap-argv.c), in
  // place of the compiled [--perms 0555] --ro-bind-data N /.boxwright/exec.
  const at = compiled.findIndex((a, i) => a === '--ro-bind-data' && compiled[i + 2] === SANDBOX_EXEC_PATH);
  if (at < 0) throw new Error(`the compiled argv mounts nothing at ${SANDBOX_EXEC_PATH}`);
  const from = compiled[at - 2] === '--perms' ? at - 2 : at;
  const bound = [...compiled.slice(0, from), '--ro-bind', program, SANDBOX_EXEC_PATH, ...compiled.slice(at + 3)];
  writeFileSync(join(out, 'bound.bwrap.args'), argsFile(bound.map((arg) => ({ arg, origin: 'baseline' }))));
  const rulesFd = 5 + dataFds;
  const bare =
    (argsName, cmd, extra = [], written = []) =>
    () => {
      const fds = [
        openSync(join(out, argsName), 'r'),
        openSync(join(out, `seccomp.${arch}.bpf`), 'r'),
        ...Array.from({ length: dataFds }, () => openSync('/dev/null', 'r')),
        ...extra.map((f) => openSync(f, 'r')),
        ...written.map((f) => openSync(f, 'w')),
      ];
      try {
        const t0 = process.hrtime.bigint();
        const r = spawnSync('bwrap', ['--args', '3', '--', ...cmd], { stdio: ['ignore', 'ignore', 'pipe', ...fds] });
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        if (r.status !== 0) throw new Error(`bwrap ${cmd.join(' ')} exited ${r.status}: ${r.stderr}`);
        return ms;
      } finally {
        fds.forEach((fd) => closeSync(fd));
      }
    };

  // boxwright run with a private cache: warmed once, and checked to take
  // the fast path (it says so under -v) before anything is timed.
  const cacheEnv = { ...process.env, XDG_CACHE_HOME: join(work, 'cache') };
  const fullEnv = { ...cacheEnv, BOXWRIGHT_RUN_CACHE: 'off' };
  const runArgs = [bin, 'run', config, '--home', home, '--', '/usr/bin/true'];
  const verbose = (env) => spawnSync(process.execPath, [...runArgs.slice(0, 3), '-v', ...runArgs.slice(3)], { env, encoding: 'utf8' });
  const warm = verbose(cacheEnv);
  if (warm.status !== 0) throw new Error(`boxwright run failed: ${warm.stderr}`);
  const fast = verbose(cacheEnv);
  if (fast.status !== 0 || !fast.stderr.includes('boxwright run: the sandbox cached in'))
    throw new Error(`the second run did not take the fast path: ${fast.stderr}`);
  const full = verbose(fullEnv);
  if (full.status !== 0 || full.stderr.includes('the sandbox cached in'))
    throw new Error(`BOXWRIGHT_RUN_CACHE=off took the fast path: ${full.stderr}`);

  // BENCH_BASELINE (bench/lib.mjs): the same repeated run by another build, its own cache warmed the same way.
  const base = baselineBin();
  const baseEnv = { ...process.env, XDG_CACHE_HOME: join(work, 'cache-baseline') };
  const baseArgs = [base, ...runArgs.slice(1)];
  if (base) {
    const warmBase = spawnSync(process.execPath, [...baseArgs.slice(0, 3), '-v', ...baseArgs.slice(3)], { env: baseEnv, encoding: 'utf8' });
    const fastBase = spawnSync(process.execPath, [...baseArgs.slice(0, 3), '-v', ...baseArgs.slice(3)], { env: baseEnv, encoding: 'utf8' });
    if (warmBase.status !== 0 || !fastBase.stderr.includes('boxwright run: the sandbox cached in'))
      throw new Error(`the baseline's second run did not take the fast path: ${fastBase.stderr}`);
  }
  const commands = {
    node: () => timeProcess(process.execPath, ['-e', '0']),
    bwrap: bare('agent.bwrap.args', ['/usr/bin/true']),
    bwrapStep: bare('bound.bwrap.args', [SANDBOX_EXEC_PATH, '--no-landlock', '--', '/usr/bin/true']),
    bwrapLandlock: bare(
      'bound.bwrap.args',
      [SANDBOX_EXEC_PATH, '--rules-fd', String(rulesFd), '--', '/usr/bin/true'],
      [join(out, 'agent.landlock')],
    ),
    bwrapWatch: bare(
      'bound.bwrap.args',
      [SANDBOX_EXEC_PATH, '--rules-fd', String(rulesFd), '--ready-fd', String(rulesFd + 1), '--', '/usr/bin/true'],
      [join(out, 'agent.landlock')],
      [join(out, 'ready')],
    ),
    launcher: () => timeProcess(join(out, 'agent.run'), ['/usr/bin/true']),
    // The floor of any run with Node in front: node starting the compiled launcher and waiting for it, nothing else.
    nodeLauncher: () =>
      timeProcess(process.execPath, [
        '-e',
        `require('node:child_process').spawnSync(${JSON.stringify(join(out, 'agent.run'))}, ['/usr/bin/true'], { stdio: 'inherit' })`,
      ]),
    run: () => timeProcess(process.execPath, runArgs, { env: cacheEnv }),
    runFull: () => timeProcess(process.execPath, runArgs, { env: fullEnv }),
    ...(base ? { runBaseline: () => timeProcess(process.execPath, baseArgs, { env: baseEnv }) } : {}),
  };
  // The watch row must be what it says: Landlock applied and the watch started (no `--no-watch`, a kernel with AT_EXECVE_CHECK).
  commands.bwrapWatch();
  const ready = readFileSync(join(out, 'ready'), 'utf8');
  if (!ready.startsWith('applied abi=')) throw new Error(`the in-sandbox step did not apply Landlock in the bwrapWatch row: ${ready}`);
  const skipped = {};
  Object.assign(commands, peers(project, skipped));

  const runs = Number(process.env.BENCH_RUNS ?? 21);
  const r = interleaved(commands, { runs, warmup: 3 });

  // the tests' interpreter counts them (test/support/seccomp/path-lengths.ts)
  const { seccompPathLengths } = await import(join(repoRoot, 'dist', 'test', 'support', 'seccomp', 'path-lengths.js'));
  const bpf = {};
  for (const p of seccompPathLengths()) {
    if (!['read', 'write', 'openat', 'socket(AF_INET)'].includes(p.call)) continue;
    (bpf[p.arch] ??= {})[p.call] = p.steps;
  }
  const ms = (k) => (r[k] ? +r[k].median.toFixed(1) : null);
  const ratio = (a, b) => (r[a] && r[b] ? +(r[a].median / r[b].median).toFixed(2) : null);
  const tmp = (s) => s.replaceAll(work, '$OUT');
  console.log(
    JSON.stringify({
      bench: 'run-start',
      runs,
      ms: Object.fromEntries(Object.keys(r).map((k) => [k, ms(k)])),
      launcher_over_bwrap: ratio('launcher', 'bwrap'),
      // the floor of launcher_over_bwrap: what runs inside the launcher's sandbox, and the launcher's own process
      bwrap_watch_over_bwrap: ratio('bwrapWatch', 'bwrap'),
      launcher_over_bwrap_watch: ratio('launcher', 'bwrapWatch'),
      run_over_node: ratio('run', 'node'),
      // the floor of run_over_node: Node starting the launcher (run-fast's checks of the cache entry come on top)
      node_launcher_over_node: ratio('nodeLauncher', 'node'),
      run_full_over_node: ratio('runFull', 'node'),
      ...(base
        ? { baseline: base, run_baseline_over_node: ratio('runBaseline', 'node'), run_over_baseline: ratio('run', 'runBaseline') }
        : {}),
      run_over_bwrap: ratio('run', 'bwrap'),
      run_full_over_bwrap: ratio('runFull', 'bwrap'),
      codex_over_bwrap: ratio('codex', 'bwrap'),
      codex_npm_over_bwrap: ratio('codexNpm', 'bwrap'),
      srt_over_bwrap: ratio('srt', 'bwrap'),
      targets: { launcher_over_bwrap: [1.5, 1.2], run_over_node: [1.5, 1.2] },
      peers_skipped: skipped,
      bpf_steps: bpf,
      commands: {
        launcher: '$OUT/artifacts/agent.run /usr/bin/true',
        bwrap: `bwrap --args 3 -- /usr/bin/true 3<$OUT/artifacts/agent.bwrap.args 4<$OUT/artifacts/seccomp.${arch}.bpf${Array.from({ length: dataFds }, (_, i) => ` ${5 + i}</dev/null`).join('')}`,
        run: `XDG_CACHE_HOME=$OUT/cache node ${tmp(runArgs.join(' ')).replace(repoRoot + '/', '')}`,
        run_full: `BOXWRIGHT_RUN_CACHE=off XDG_CACHE_HOME=$OUT/cache node ${tmp(runArgs.join(' ')).replace(repoRoot + '/', '')}`,
        codex: `(cd $OUT/home/project && HOME=$OUT/peer-home $REPO/bench/peers/node_modules/@openai/codex-linux-${process.arch}/vendor/${codexTriple}/bin/codex sandbox -- /usr/bin/true)`,
        srt: '(cd $OUT/home/project && HOME=$OUT/peer-home node $REPO/bench/peers/node_modules/@anthropic-ai/sandbox-runtime/dist/cli.js /usr/bin/true)',
      },
    }),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}

/**
 * The peers installed in bench/peers/node_modules, each with its default
 * policy, run once first: one that is absent or fails is left out with its
 * reason (printed, and in `peers_skipped`).
 */
function peers(project, skipped) {
  const modules = join(repoRoot, 'bench', 'peers', 'node_modules');
  // Both keep state in HOME (Codex its helper links under ~/.codex, which it
  // refuses to create below /tmp; srt reads ~/.srt-settings.json): a private one.
  const env = { ...process.env, HOME: join(work, 'peer-home') };
  mkdirSync(env.HOME, { recursive: true });
  const candidates = {
    codex: [
      join(modules, '@openai', `codex-linux-${process.arch}`, 'vendor', codexTriple, 'bin', 'codex'),
      ['sandbox', '--', '/usr/bin/true'],
    ],
    codexNpm: [process.execPath, [join(modules, '@openai', 'codex', 'bin', 'codex.js'), 'sandbox', '--', '/usr/bin/true']],
    srt: [process.execPath, [join(modules, '@anthropic-ai', 'sandbox-runtime', 'dist', 'cli.js'), '/usr/bin/true']],
  };
  const found = {};
  for (const [name, [cmd, args]] of Object.entries(candidates)) {
    const file = cmd === process.execPath ? args[0] : cmd;
    if (!existsSync(file)) {
      skipped[name] = 'not installed: npm run bench:peers';
      continue;
    }
    const once = spawnSync(cmd, args, { cwd: project, env, encoding: 'utf8' });
    if (once.status !== 0) {
      skipped[name] = `exited ${once.status ?? once.signal}: ${(once.stderr || once.stdout).trim().split('\n').pop()}`;
      continue;
    }
    found[name] = () => timeProcess(cmd, args, { cwd: project, env });
  }
  for (const [name, why] of Object.entries(skipped)) note(`${name} skipped: ${why}`);
  return found;
}
