// Cold `boxwright lint` of a small config, whole process, against bare
// `node -e 0` in the same run (issue 2: at most 2.0x).
import { interleaved, timeProcess } from './lib.mjs';

const bin = 'bin/boxwright.cjs';
const lintArgs = [bin, 'lint', '--fs', 'examples/machine.json', 'examples/coding-agent.toml'];
const r = interleaved({
  node: () => timeProcess(process.execPath, ['-e', '0']),
  lint: () => timeProcess(process.execPath, lintArgs),
});
const out = { bench: 'cold-lint', node_ms: +r.node.median.toFixed(1), lint_ms: +r.lint.median.toFixed(1), ratio: +(r.lint.median / r.node.median).toFixed(2), runs: r.lint.runs, command: `node ${lintArgs.join(' ')}` };
console.log(JSON.stringify(out));
