// Lint scaling: a generated config with N read grants and N nested write
// grants over real directories, for N = 2,000 and 20,000, whole process,
// against a cold lint of a small config in the same run.
// Targets: time(20,000) / time(2,000) <= 10 (linear; issue 3), and
// time(20,000) <= 5x the small cold lint (issue 15; moonshot 3x).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { interleaved, repoRoot, timeProcess } from './lib.mjs';

// Not under /tmp: /tmp is a non-canonical spelling for macOS.
mkdirSync(join(repoRoot, 'bench', 'out'), { recursive: true });
const root = mkdtempSync(join(repoRoot, 'bench', 'out', 'scale-'));
function config(n) {
  const base = join(root, `n${n}`);
  const reads = [];
  const writes = [];
  for (let i = 0; i < n; i++) {
    const dir = join(base, `g${Math.floor(i / 100)}`, `d${i}`);
    mkdirSync(join(dir, 'out'), { recursive: true });
    reads.push(JSON.stringify(dir));
    writes.push(JSON.stringify(join(dir, 'out')));
  }
  const file = join(root, `scale-${n}.toml`);
  writeFileSync(file, `[agent.filesystem]\nread = [\n  ${reads.join(',\n  ')},\n]\nwrite = [\n  ${writes.join(',\n  ')},\n]\n`);
  return file;
}
try {
  const small = config(2);
  const n2k = config(2000);
  const n20k = config(20000);
  const bin = 'bin/boxwright.cjs';
  const lint = (file) => () => timeProcess(process.execPath, [bin, 'lint', '--fs', 'host', '--home', root, '--format', 'json', file]);
  const r = interleaved(
    { node: () => timeProcess(process.execPath, ['-e', '0']), small: lint(small), n2000: lint(n2k), n20000: lint(n20k) },
    { runs: 9, warmup: 1 },
  );
  console.log(
    JSON.stringify({
      bench: 'lint-scale',
      small_ms: +r.small.median.toFixed(1),
      n2000_ms: +r.n2000.median.toFixed(1),
      n20000_ms: +r.n20000.median.toFixed(1),
      growth_20000_over_2000: +(r.n20000.median / r.n2000.median).toFixed(2),
      n20000_over_small: +(r.n20000.median / r.small.median).toFixed(2),
      node_ms: +r.node.median.toFixed(1),
      grants: { n2000: 4000, n20000: 40000 },
      runs: r.small.runs,
      target: 5,
      moonshot: 3,
      command: `node ${bin} lint --fs host --home DIR --format json scale-20000.toml`,
    }),
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
