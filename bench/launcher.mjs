// `DIR/agent.run /usr/bin/true` (the launcher, boxwright-sandbox: no Node on
// the path) against bare bubblewrap running the same compiled view and BPF
// (the artifacts of `boxwright compile --target linux`, fed on the same
// fds), interleaved, medians of 21 (issue 15: at most 1.5x bare bwrap,
// moonshot 1.2x). Besides: bare bwrap with the launcher's one extra mount
// (the program itself bound at /.boxwright/exec, run as the in-sandbox
// step), which splits the launcher's cost into its own work and that
// mount's. Linux with bwrap and a built dist/sandbox only.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, copyFileSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interleaved, repoRoot, timeProcess } from './lib.mjs';

// It would add ~38 ms to every Node start (the compile below); the C programs ignore it.
delete process.env.NODE_EXTRA_CA_CERTS;
const arch = process.arch === 'arm64' ? 'aarch64' : 'x86_64';
const launcher = await import(join(repoRoot, 'dist', 'targets', 'linux', 'launcher', 'index.js'));
const { argsFile, parseArgsFile } = await import(join(repoRoot, 'dist', 'targets', 'linux', 'index.js'));
const { envAllowlist } = await import(join(repoRoot, 'dist', 'targets', 'runner', 'env.js'));
const program = launcher.launcherPath(arch);
const bwrapOk = spawnSync('bwrap', ['--version']).status === 0;
if (!program || !bwrapOk) {
  console.log(JSON.stringify({ bench: 'launcher', skipped: !program ? `no dist/sandbox/boxwright-sandbox.${arch} (a C compiler)` : 'no bwrap' }));
  process.exit(0);
}

const bin = join(repoRoot, 'bin', 'boxwright.cjs');
const home = mkdtempSync(join(tmpdir(), 'boxwright-bench-launcher-'));
try {
  mkdirSync(join(home, 'project', 'output'), { recursive: true });
  writeFileSync(join(home, 'project', 'README.md'), 'bench\n');
  writeFileSync(join(home, 'project', '.env'), 'SECRET=1\n');
  // The agent of bench/run-start.mjs: the project read-only, its output
  // writable, a denied file, the system's /usr.
  const config = join(home, 'agent.toml');
  writeFileSync(config, '[agent.filesystem]\nworkspace = "~/project"\nread = ["~/project", "/usr"]\nwrite = ["~/project/output"]\ndeny = ["~/project/.env"]\n');
  const out = join(home, 'artifacts');
  const c = spawnSync(process.execPath, [bin, 'compile', config, '--home', home, '--target', 'linux', '--out', out], { encoding: 'utf8' });
  if (c.status !== 0) throw new Error(`compile failed: ${c.stderr}`);

  // The launcher's DIR: the compiled view plus the mount of the program at
  // /.boxwright/exec (until the lowering writes it), its launch file, the
  // program as agent.run.
  const compiled = parseArgsFile(readFileSync(join(out, 'agent.bwrap.args')));
  const at = compiled.findIndex((a, i) => a === '--remount-ro' && compiled[i + 1] === '/');
  const dataFds = compiled.filter((a, i) => compiled[i - 1] === '--ro-bind-data').length;
  const withExec = [...compiled.slice(0, at), '--perms', '0555', '--ro-bind-data', String(5 + dataFds), launcher.SANDBOX_EXEC_PATH, ...compiled.slice(at)];
  writeFileSync(join(out, 'agent.bwrap.args'), argsFile(withExec.map((arg) => ({ arg, origin: 'baseline' }))));
  writeFileSync(join(out, 'bare.bwrap.args'), argsFile(compiled.map((arg) => ({ arg, origin: 'baseline' }))));
  // What the launcher makes of that mount: a bind of its own file (bwrap-argv.c).
  const bound = [...compiled.slice(0, at), '--ro-bind', program, launcher.SANDBOX_EXEC_PATH, ...compiled.slice(at)];
  writeFileSync(join(out, 'bound.bwrap.args'), argsFile(bound.map((arg) => ({ arg, origin: 'baseline' }))));
  const sha = createHash('sha256').update(readFileSync(config)).digest('hex');
  const seccomp = Object.fromEntries(launcher.LAUNCH_ARCHES.map((a) => [a, `seccomp.${a}.bpf`]));
  writeFileSync(join(out, 'agent.launch'), launcher.encodeLaunchFile({ config, configSha256: sha, principal: 'agent', args: 'agent.bwrap.args', seccomp, landlock: undefined, ...envAllowlist() }));
  copyFileSync(program, join(out, 'agent.run'));
  chmodSync(join(out, 'agent.run'), 0o755);

  const bare = (argsName, cmd) => () => {
    const fds = [openSync(join(out, argsName), 'r'), openSync(join(out, `seccomp.${arch}.bpf`), 'r'), ...Array.from({ length: dataFds }, () => openSync('/dev/null', 'r'))];
    try {
      const t0 = process.hrtime.bigint();
      const r = spawnSync('bwrap', ['--args', '3', '--', ...cmd], { stdio: ['ignore', 'ignore', 'pipe', ...fds] });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (r.status !== 0) throw new Error(`bwrap exited ${r.status}: ${r.stderr}`);
      return ms;
    } finally {
      fds.forEach((fd) => closeSync(fd));
    }
  };
  const runs = Number(process.env.BENCH_RUNS ?? 31);
  const r = interleaved(
    {
      bwrap: bare('bare.bwrap.args', ['/usr/bin/true']),
      bwrapWithExec: bare('bound.bwrap.args', [launcher.SANDBOX_EXEC_PATH, '--no-landlock', '--', '/usr/bin/true']),
      launcher: () => timeProcess(join(out, 'agent.run'), ['/usr/bin/true']),
    },
    { runs, warmup: 3 },
  );
  const fixed = (x) => +x.toFixed(2);
  console.log(
    JSON.stringify({
      bench: 'launcher',
      bwrap_ms: fixed(r.bwrap.median),
      bwrap_with_exec_mount_ms: fixed(r.bwrapWithExec.median),
      launcher_ms: fixed(r.launcher.median),
      ratio: +(r.launcher.median / r.bwrap.median).toFixed(2),
      target: 1.5,
      moonshot: 1.2,
      runs: r.launcher.runs,
      command: '$TMP/artifacts/agent.run /usr/bin/true  vs  bwrap --args 3 -- /usr/bin/true 3<agent.bwrap.args 4<seccomp.<arch>.bpf 5</dev/null',
    }),
  );
} finally {
  rmSync(home, { recursive: true, force: true });
}
