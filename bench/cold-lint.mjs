// Cold `boxwright lint` of a small config, whole process, against bare
// `node -e 0` in the same run (issue 15: at most 1.5x, moonshot 1.2x;
// issue 2 asked 2.0x). bench/profile.mjs says where the time goes;
// BENCH_BASELINE=DIR times another build's lint in the same run (bench/lib.mjs).
import { baselineBin, interleaved, timeProcess } from './lib.mjs';

const bin = 'bin/boxwright.cjs';
const lintArgs = [bin, 'lint', '--fs', 'examples/machine.json', 'examples/coding-agent.toml'];
const base = baselineBin();
const r = interleaved({
  node: () => timeProcess(process.execPath, ['-e', '0']),
  lint: () => timeProcess(process.execPath, lintArgs),
  // BENCH_BASELINE (bench/lib.mjs): the same lint by another build, in the same run.
  ...(base ? { base: () => timeProcess(process.execPath, [base, ...lintArgs.slice(1)]) } : {}),
});
const out = {
  bench: 'cold-lint',
  node_ms: +r.node.median.toFixed(1),
  lint_ms: +r.lint.median.toFixed(1),
  ratio: +(r.lint.median / r.node.median).toFixed(2),
  ...(base ? { baseline: base, baseline_ms: +r.base.median.toFixed(1), baseline_ratio: +(r.base.median / r.node.median).toFixed(2) } : {}),
  ...(base ? { lint_over_baseline: +(r.lint.median / r.base.median).toFixed(2) } : {}),
  runs: r.lint.runs,
  target: 1.5,
  moonshot: 1.2,
  command: `node ${lintArgs.join(' ')}`,
};
console.log(JSON.stringify(out));
