// The host-trust search over a write tree of 100,000 directories (issue 35:
// no budget, every depth), whole process: `boxwright lint --fs host` of
// `write = [TREE]` against `find TREE -type d` of the same tree, in the same
// run, interleaved; a small lint's time beside them says how much of the
// figure is start-up. A repository sits at the deepest level: the search
// must reach it (the lint's JSON is checked for its carve-out).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { interleaved, repoRoot, timeProcess } from './lib.mjs';

mkdirSync(join(repoRoot, 'bench', 'out'), { recursive: true });
const root = mkdtempSync(join(repoRoot, 'bench', 'out', 'walk-'));
try {
  const tree = join(root, 'tree');
  // 100 × 100 × 9 leaves + their parents: 100 + 10,000 + 90,000 = 100,100 directories below the root.
  for (let a = 0; a < 100; a++)
    for (let b = 0; b < 100; b++) for (let c = 0; c < 9; c++) mkdirSync(join(tree, `a${a}`, `b${b}`, `c${c}`), { recursive: true });
  mkdirSync(join(tree, 'a99', 'b99', 'c8', 'repo', '.git'), { recursive: true });
  const config = join(root, 'walk.toml');
  writeFileSync(config, `[agent.filesystem]\nread = [${JSON.stringify(tree)}]\nwrite = [${JSON.stringify(tree)}]\n`);
  const small = join(root, 'small.toml');
  mkdirSync(join(root, 'small'));
  writeFileSync(
    small,
    `[agent.filesystem]\nread = [${JSON.stringify(join(root, 'small'))}]\nwrite = [${JSON.stringify(join(root, 'small'))}]\n`,
  );
  const bin = 'bin/boxwright.cjs';
  const lintArgs = (file) => [bin, 'lint', '--fs', 'host', '--home', root, '--format', 'json', file];
  const check = spawnSync(process.execPath, lintArgs(config), { cwd: repoRoot, encoding: 'utf8' });
  if (!check.stdout.includes(join(tree, 'a99', 'b99', 'c8', 'repo', '.git')))
    throw new Error(`the search did not reach the deepest repository: ${check.stdout.slice(0, 400)}${check.stderr}`);
  const r = interleaved(
    {
      find: () => timeProcess('find', [tree, '-type', 'd']),
      small: () => timeProcess(process.execPath, lintArgs(small)),
      walk: () => timeProcess(process.execPath, lintArgs(config)),
    },
    { runs: 7, warmup: 1 },
  );
  console.log(
    JSON.stringify({
      bench: 'trust-walk',
      directories: 100_101,
      find_ms: +r.find.median.toFixed(1),
      small_lint_ms: +r.small.median.toFixed(1),
      walk_lint_ms: +r.walk.median.toFixed(1),
      walk_over_find: +(r.walk.median / r.find.median).toFixed(2),
      search_over_find: +((r.walk.median - r.small.median) / r.find.median).toFixed(2),
      runs: r.walk.runs,
      command: `node ${bin} lint --fs host --format json walk.toml (write = [TREE]) against find TREE -type d`,
    }),
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
