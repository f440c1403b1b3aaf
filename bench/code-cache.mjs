// What the V8 code cache saves (issue 14 item 17): a cold `boxwright lint`
// of a small config with this machine's cache, without one
// (BOXWRIGHT_CODE_CACHE=off), and a run that finds none and writes it (a
// first run of a fresh install), against bare `node -e 0`, interleaved in
// the same run. Run with NODE_EXTRA_CA_CERTS unset.
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { interleaved, repoRoot, timeProcess } from './lib.mjs';

const bin = join(repoRoot, 'bin', 'boxwright.cjs');
// A lint loads dist/cli/lint.cjs (scripts/bundles.mjs).
const cache = join(repoRoot, 'dist', 'cli', 'lint.cjs.cache');
const coverage = `${cache}.json`;
if (!existsSync(cache)) throw new Error('build first: no code cache');
const saved = `${cache}.bench`;
copyFileSync(cache, saved);
copyFileSync(coverage, `${coverage}.bench`);
const lint = [bin, 'lint', '--fs', 'examples/machine.json', 'examples/coding-agent.toml'];
const withEnv = (env) => () => {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, lint, { cwd: repoRoot, stdio: 'ignore', env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`lint exited ${r.status}`);
  return Number(process.hrtime.bigint() - t0) / 1e6;
};
try {
  const r = interleaved({
    node: () => timeProcess(process.execPath, ['-e', '0']),
    cached: () => {
      copyFileSync(saved, cache);
      copyFileSync(`${coverage}.bench`, coverage);
      return withEnv({})();
    },
    uncached: withEnv({ BOXWRIGHT_CODE_CACHE: 'off' }),
    first: () => {
      rmSync(cache, { force: true });
      rmSync(coverage, { force: true });
      return withEnv({})();
    },
  });
  const ms = (k) => +r[k].median.toFixed(1);
  console.log(
    JSON.stringify({
      bench: 'code-cache',
      node_ms: ms('node'),
      cached_ms: ms('cached'),
      uncached_ms: ms('uncached'),
      first_run_ms: ms('first'),
      saved_ms: +(r.uncached.median - r.cached.median).toFixed(1),
      ratio_cached: +(r.cached.median / r.node.median).toFixed(2),
      ratio_uncached: +(r.uncached.median / r.node.median).toFixed(2),
      runs: r.cached.runs,
    }),
  );
} finally {
  copyFileSync(saved, cache);
  copyFileSync(`${coverage}.bench`, coverage);
  rmSync(saved);
  rmSync(`${coverage}.bench`);
}
