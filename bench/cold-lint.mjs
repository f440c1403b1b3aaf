// Cold `boxwright lint` of a small config, whole process, against bare
// `node -e 0` in the same run (issue 15: at most 1.5x, moonshot 1.2x;
// issue 2 asked 2.0x). bench/profile.mjs says where the time goes;
// BENCH_BASELINE=DIR times another build's lint in the same run (bench/lib.mjs).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baselineBin, interleaved, repoRoot, timeProcess } from './lib.mjs';

const bin = 'bin/boxwright.cjs';
const lintArgs = [bin, 'lint', '--fs', 'examples/machine.json', 'examples/coding-agent.toml'];
const base = baselineBin();
// The floor: the same process, bundle, code cache and packages (yargs, chevrotain) doing no lint, `boxwright parse`
// of a one-line TOML file (parse is one of lint.cjs's commands): what a lint costs before it looks at the config.
mkdirSync(join(repoRoot, 'bench', 'out'), { recursive: true });
const tiny = join(repoRoot, 'bench', 'out', 'cold-lint-tiny.toml');
writeFileSync(tiny, 'a = 1\n');
const r = interleaved({
  node: () => timeProcess(process.execPath, ['-e', '0']),
  load: () => timeProcess(process.execPath, [bin, 'parse', tiny]),
  lint: () => timeProcess(process.execPath, lintArgs),
  // BENCH_BASELINE (bench/lib.mjs): the same lint by another build, in the same run.
  ...(base ? { base: () => timeProcess(process.execPath, [base, ...lintArgs.slice(1)]) } : {}),
});
const out = {
  bench: 'cold-lint',
  node_ms: +r.node.median.toFixed(1),
  lint_ms: +r.lint.median.toFixed(1),
  ratio: +(r.lint.median / r.node.median).toFixed(2),
  load_ms: +r.load.median.toFixed(1),
  // the floor of `ratio`: start-up without the lint (node, the bundle, its cache, the packages' top level)
  floor: +(r.load.median / r.node.median).toFixed(2),
  lint_work_ms: +(r.lint.median - r.load.median).toFixed(1),
  ...(base ? { baseline: base, baseline_ms: +r.base.median.toFixed(1), baseline_ratio: +(r.base.median / r.node.median).toFixed(2) } : {}),
  ...(base ? { lint_over_baseline: +(r.lint.median / r.base.median).toFixed(2) } : {}),
  runs: r.lint.runs,
  target: 1.5,
  moonshot: 1.2,
  command: `node ${lintArgs.join(' ')}`,
};
console.log(JSON.stringify(out));
