// `npm run bench`: every benchmark, one after the other, each printing one
// JSON line with its figures and ratios against its baseline measured in
// the same run. bench/README.md records the latest figures.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './lib.mjs';

const only = process.argv.slice(2);
const benches = ['cold-lint.mjs', 'code-cache.mjs', 'toml-cold.mjs', 'toml-parse.mjs', 'toml-shapes.mjs', 'lint-scale.mjs', 'run-start.mjs', 'launcher.mjs'];
for (const b of benches) {
  if (only.length && !only.some((o) => b.startsWith(o))) continue;
  const file = join(repoRoot, 'bench', b);
  if (!existsSync(file)) continue;
  const r = spawnSync(process.execPath, [file], { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) process.exitCode = 1;
}
