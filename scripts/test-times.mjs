// How long each test file takes alone: runs every dist/test/**/*.test.js
// (build first) one after the other, each in its own `node --test`, and
// prints them slowest first with their wall time and the total. For finding
// what makes `npm test` slow; the figures depend on the machine and its load,
// so nothing asserts them.
//
//   node scripts/build.mjs && CI=true node scripts/test-times.mjs [N]   (N: show the slowest N)
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist', 'test');
const files = readdirSync(dist, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.test.js'))
  .sort();
const show = Number(process.argv[2] ?? files.length);

const times = [];
for (const f of files) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--test', '--test-reporter=dot', join(dist, f)], { cwd: root, stdio: ['ignore', 'ignore', 'ignore'] });
  times.push({ file: `test/${f.replace(/\.js$/, '.ts')}`, ms: Number(process.hrtime.bigint() - start) / 1e6, ok: r.status === 0 });
}
times.sort((a, b) => b.ms - a.ms);
for (const t of times.slice(0, show)) process.stdout.write(`${(t.ms / 1000).toFixed(2).padStart(7)} s  ${t.file}${t.ok ? '' : '  (failed)'}\n`);
const total = times.reduce((s, t) => s + t.ms, 0);
process.stdout.write(`${(total / 1000).toFixed(2).padStart(7)} s  total of ${files.length} files, one at a time\n`);
if (times.some((t) => !t.ok)) process.exitCode = 1;
