// Shared helpers for the benchmarks: whole-process timing, interleaved so
// that both sides of a ratio see the same machine load.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

// Set on these machines, it adds ~38 ms to every Node start and would hide
// most of boxwright's own cost: every process a bench starts runs without it.
delete process.env.NODE_EXTRA_CA_CERTS;

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Wall-clock ms of one process run, which must exit with `expectStatus`. */
export function timeProcess(cmd, args, { expectStatus = 0, input, cwd = repoRoot, env } = {}) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { cwd, input, env, stdio: [input === undefined ? 'ignore' : 'pipe', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== expectStatus) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

/** Runs each command `runs` times, interleaved, after `warmup` rounds; returns medians by name. */
export function interleaved(commands, { runs = 15, warmup = 3 } = {}) {
  const times = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  for (let i = 0; i < warmup + runs; i++) {
    for (const [name, run] of Object.entries(commands)) {
      const ms = run();
      if (i >= warmup) times[name].push(ms);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, { median: median(v), runs: v.length }]));
}

/**
 * BENCH_BASELINE=DIR: another built checkout (the main branch's, a commit
 * before a change) whose bin/boxwright.cjs the benches that support it time
 * too, interleaved with this one's, so that "this build against that one" is
 * measured in one run under one load. Run read-only: its code caches must
 * already cover the commands (a built checkout's do).
 */
export function baselineBin() {
  const dir = process.env.BENCH_BASELINE;
  if (!dir) return undefined;
  const bin = join(dir, 'bin', 'boxwright.cjs');
  if (!existsSync(bin)) throw new Error(`BENCH_BASELINE=${dir}: no bin/boxwright.cjs there`);
  return bin;
}
