// `npm run bench`: every benchmark, one after the other, each printing one
// JSON line with its figures and ratios against its baseline measured in
// the same run, between two lines saying when and under what load (the
// machine is shared: a median moves with it). NODE_EXTRA_CA_CERTS is unset
// for all of them (bench/lib.mjs). bench/README.md records the latest figures.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, loadavg, release } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './lib.mjs';

const only = process.argv.slice(2);
const benches = [
  'startup-bytes.mjs',
  'cold-lint.mjs',
  'code-cache.mjs',
  'toml-cold.mjs',
  'toml-parse.mjs',
  'toml-shapes.mjs',
  'lint-scale.mjs',
  'trust-walk.mjs',
  'run-start.mjs',
];
const machine = (when) => ({
  bench: when,
  date: new Date().toISOString(),
  loadavg: loadavg().map((x) => +x.toFixed(2)),
  cpus: cpus().length,
  node: process.version,
  kernel: release(),
});
console.log(JSON.stringify(machine('start')));
for (const b of benches) {
  if (only.length && !only.some((o) => b.startsWith(o))) continue;
  const file = join(repoRoot, 'bench', b);
  if (!existsSync(file)) continue;
  const r = spawnSync(process.execPath, [file], { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) process.exitCode = 1;
}
console.log(JSON.stringify(machine('end')));
