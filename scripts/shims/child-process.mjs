// Stand-in for `node:child_process` inside dist/cli/lint.cjs. A lint asks
// the Landlock ABI of the kernel (targets/linux/run/sandbox/landlock-abi.ts), which
// spawns boxwright-sandbox --abi only once a boot and otherwise reads the
// answer from its cache; importing node:child_process loads it (and net,
// dgram, streams) at every start all the same: ~2-3 ms of a ~50 ms lint,
// more under load (bench/README.md). The real module is loaded on the first
// call. A bundled module that imports another name fails the build
// ("No matching export"): add it here.
import { createRequire } from 'node:module';

let real;
const load = () => (real ??= createRequire(import.meta.url)('node:child_process'));

export function spawnSync(...args) {
  return load().spawnSync(...args);
}
