// `boxwright run CONFIG -- /usr/bin/true` start-up, whole process, against
// bare `node -e 0` and against bare bubblewrap running the same compiled view
// (the artifacts of `boxwright compile --target linux`, fed on the same fds),
// interleaved; plus the BPF instructions the kernel runs per call for the
// common syscalls (issue 4: run at most 2.0x node -e 0). Linux with bwrap only.
import { spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interleaved, repoRoot, timeProcess } from './lib.mjs';

const bin = join(repoRoot, 'bin', 'boxwright.cjs');
const home = mkdtempSync(join(tmpdir(), 'boxwright-bench-run-'));
try {
  mkdirSync(join(home, 'project', 'output'), { recursive: true });
  writeFileSync(join(home, 'project', 'README.md'), 'bench\n');
  writeFileSync(join(home, 'project', '.env'), 'SECRET=1\n');
  // A realistic agent: the project read-only, its output writable, a denied
  // file, the system's /usr (with the merged-/usr links) to run programs.
  const config = join(home, 'agent.toml');
  writeFileSync(config, '[agent.filesystem]\nworkspace = "~/project"\nread = ["~/project", "/usr"]\nwrite = ["~/project/output"]\ndeny = ["~/project/.env"]\n');
  const out = join(home, 'artifacts');
  const c = spawnSync(process.execPath, [bin, 'compile', config, '--home', home, '--target', 'linux', '--out', out], { encoding: 'utf8' });
  if (c.status !== 0) throw new Error(`compile failed: ${c.stderr}`);
  const arch = process.arch === 'arm64' ? 'aarch64' : 'x86_64';

  const runArgs = [bin, 'run', config, '--home', home, '--', '/usr/bin/true'];
  // The same CLI in a copy whose V8 code cache was written by a `run` (the
  // build warms it with a `lint`, so run-only functions compile at each
  // start): what warming the cache with a run too would give.
  const warm = join(home, 'warm');
  mkdirSync(join(warm, 'bin'), { recursive: true });
  mkdirSync(join(warm, 'dist', 'cli'), { recursive: true });
  copyFileSync(bin, join(warm, 'bin', 'boxwright.cjs'));
  copyFileSync(join(repoRoot, 'dist', 'cli', 'boxwright.cjs'), join(warm, 'dist', 'cli', 'boxwright.cjs'));
  copyFileSync(join(repoRoot, 'dist', 'cli', 'boxwright.cjs.cache'), join(warm, 'dist', 'cli', 'boxwright.cjs.cache'));
  const warmArgs = [join(warm, 'bin', 'boxwright.cjs'), ...runArgs.slice(1)];
  const w = spawnSync(process.execPath, warmArgs, { env: { ...process.env, BOXWRIGHT_WRITE_CODE_CACHE: '1' }, encoding: 'utf8' });
  if (w.status !== 0) throw new Error(`warm-up run failed: ${w.stderr}`);
  const bareBwrap = () => {
    const fds = [openSync(join(out, 'agent.bwrap.args'), 'r'), openSync(join(out, `seccomp.${arch}.bpf`), 'r'), openSync('/dev/null', 'r')];
    try {
      const t0 = process.hrtime.bigint();
      const r = spawnSync('bwrap', ['--args', '3', '--', '/usr/bin/true'], { stdio: ['ignore', 'ignore', 'pipe', ...fds] });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (r.status !== 0) throw new Error(`bwrap exited ${r.status}: ${r.stderr}`);
      return ms;
    } finally {
      fds.forEach((fd) => closeSync(fd));
    }
  };
  const r = interleaved(
    {
      node: () => timeProcess(process.execPath, ['-e', '0']),
      run: () => timeProcess(process.execPath, runArgs),
      runWarm: () => timeProcess(process.execPath, warmArgs),
      bwrap: bareBwrap,
    },
    { runs: 21, warmup: 3 },
  );

  const { seccompPathLengths } = await import(join(repoRoot, 'dist', 'targets', 'linux', 'seccomp', 'index.js'));
  const bpf = {};
  for (const p of seccompPathLengths()) {
    if (!['read', 'write', 'openat', 'socket(AF_INET)'].includes(p.call)) continue;
    (bpf[p.arch] ??= {})[p.call] = p.steps;
  }
  const fixed = (x) => +x.toFixed(1);
  console.log(
    JSON.stringify({
      bench: 'run-start',
      node_ms: fixed(r.node.median),
      run_ms: fixed(r.run.median),
      bwrap_ms: fixed(r.bwrap.median),
      ratio: +(r.run.median / r.node.median).toFixed(2),
      run_cache_warmed_by_run_ms: fixed(r.runWarm.median),
      ratio_cache_warmed_by_run: +(r.runWarm.median / r.node.median).toFixed(2),
      overhead_vs_bwrap_ms: fixed(r.run.median - r.bwrap.median),
      runs: r.run.runs,
      bpf_steps: bpf,
      command: `node ${runArgs.map((a) => a.replace(home, '$TMP')).join(' ')}`,
    }),
  );
} finally {
  rmSync(home, { recursive: true, force: true });
}
