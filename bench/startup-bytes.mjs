// What a cold `boxwright lint` of a small Box config loads and runs, in
// bytes of JavaScript: a count, not a time, the same on every machine and
// every run, so that test/cli/startup-budget.test.ts can hold it under the
// budget recorded in bench/startup-budget.json (CONTRIBUTING.md says how to
// change it).
//
// The lint runs once, as a user runs it (bin/boxwright.cjs and the built
// bundles), under NODE_V8_COVERAGE: V8 then reports every script it compiled
// and, for each function in it, whether it ran. Of boxwright's own files
// (bin/ and dist/):
// - loaded: the bytes of every script. V8 parses a script whole (every
//   function pre-parsed, even one that never runs), and a code cache is
//   deserialised whole: what a lint loads costs it, used or not;
// - ran: the bytes of the functions that ran, each less its inner functions
//   that did not (V8 compiles a function to bytecode on its first call;
//   the top level of each module runs at load). Module-level work creeps in
//   here: a table built at import, a grammar constructed.
// And Node's built-in modules that must never load for a lint
// (`neverLoaded` in the budget: spawning and hashing belong to other
// commands).
//
// No code cache (BOXWRIGHT_CODE_CACHE=off): the figures are the source's,
// and the run writes nothing beside the bundles.
//
//   node bench/startup-bytes.mjs           the figures and the budget, one JSON line (npm run bench -- startup-bytes)
//   node bench/startup-bytes.mjs --record  records today's figures as the budget (see CONTRIBUTING.md before)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { repoRoot } from './lib.mjs';

export const BUDGET_FILE = join(repoRoot, 'bench', 'startup-budget.json');
/** The small Box config and the filesystem facts it is linted against (a manifest: the host's disk plays no part). */
export const LINT_ARGS = ['lint', '--fs', join(repoRoot, 'examples', 'machine.json'), join(repoRoot, 'examples', 'coding-agent.toml')];
/** The room a budget leaves above the figure it was recorded from: small, so that creep shows early. */
const HEADROOM = 0.02;
/** A figure this far under its recorded one asks to be recorded: the budget follows the code down, never stays slack. */
const SHRINK = 0.05;

/** Bytes of a script that ran: each function's range painted by whether it ran, the largest first (inner functions inside outer ones). */
function ranBytes(functions) {
  const ranges = functions.map((f) => f.ranges[0]).sort((a, b) => b.endOffset - b.startOffset - (a.endOffset - a.startOffset));
  const length = ranges[0]?.endOffset ?? 0;
  const ran = new Uint8Array(length);
  for (const r of ranges) ran.fill(r.count > 0 ? 1 : 0, r.startOffset, r.endOffset);
  let n = 0;
  for (const b of ran) n += b;
  return n;
}

/**
 * Runs `node BIN lint …` from `root` (a checkout or a copy of its bin/ and dist/) and counts.
 * Returns the totals, the figures per file (relative to root) and the built-in modules loaded.
 */
export function measureStartup(root = repoRoot, args = LINT_ARGS) {
  const coverage = mkdtempSync(join(tmpdir(), 'boxwright-startup-bytes-'));
  try {
    const env = { ...process.env, NODE_V8_COVERAGE: coverage, BOXWRIGHT_CODE_CACHE: 'off', NO_COLOR: '1', XDG_CACHE_HOME: coverage };
    for (const name of Object.keys(env))
      if (/^(NODE_OPTIONS|NODE_EXTRA_CA_CERTS|FORCE_COLOR|BOXWRIGHT_(?!CODE_CACHE))/.test(name)) delete env[name];
    const r = spawnSync(process.execPath, [join(root, 'bin', 'boxwright.cjs'), ...args], { cwd: root, env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`boxwright ${args.join(' ')} exited ${r.status ?? r.signal}: ${r.stderr}`);
    const files = {};
    const builtins = new Set();
    for (const name of readdirSync(coverage).filter((f) => f.startsWith('coverage-'))) {
      for (const script of JSON.parse(readFileSync(join(coverage, name), 'utf8')).result) {
        if (script.url.startsWith('node:')) builtins.add(script.url.replace(/^node:(internal\/)?/, 'node:'));
        if (!script.url.startsWith('file:')) continue;
        const path = fileURLToPath(script.url);
        const own = relative(root, path).split(sep).join('/');
        if (own.startsWith('..') || !/^(bin|dist)\//.test(own)) continue;
        const loaded = Math.max(0, ...script.functions.map((f) => f.ranges[0].endOffset));
        files[own] = { loaded, ran: ranBytes(script.functions) };
      }
    }
    const sum = (k) => Object.values(files).reduce((n, f) => n + f[k], 0);
    return { loadedBytes: sum('loaded'), ranBytes: sum('ran'), files, builtins: [...builtins].sort() };
  } finally {
    rmSync(coverage, { recursive: true, force: true });
  }
}

export function readBudget() {
  return JSON.parse(readFileSync(BUDGET_FILE, 'utf8'));
}

/** What is wrong with a measurement against the budget: [] when it holds. */
export function overBudget(m, budget = readBudget()) {
  const problems = [];
  for (const k of ['loadedBytes', 'ranBytes']) {
    const { recorded, budget: most } = budget[k];
    if (m[k] > most)
      problems.push(
        `${k} ${m[k]} is over the budget ${most} (recorded ${recorded}; per file: ${JSON.stringify(m.files)}): see CONTRIBUTING.md, "Start-up budget"`,
      );
    else if (m[k] < recorded * (1 - SHRINK))
      problems.push(
        `${k} ${m[k]} is more than ${SHRINK * 100}% under the recorded ${recorded}: record it (node bench/startup-bytes.mjs --record) so that the budget follows`,
      );
  }
  // On Windows the output goes through Node's streams (bin/boxwright.cjs writes a pipe directly elsewhere only).
  const outputStreams = process.platform === 'win32' ? ['node:net', 'node:stream'] : [];
  for (const b of budget.neverLoaded)
    if (m.builtins.includes(b) && !outputStreams.includes(b)) problems.push(`a lint loaded ${b}, which it must never load`);
  return problems;
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const m = measureStartup();
  if (process.argv.includes('--record')) {
    const old = readBudget();
    const entry = (k) => ({ recorded: m[k], budget: Math.ceil((m[k] * (1 + HEADROOM)) / 1000) * 1000 });
    const next = { ...old, loadedBytes: entry('loadedBytes'), ranBytes: entry('ranBytes'), files: m.files };
    writeFileSync(BUDGET_FILE, `${JSON.stringify(next, null, 2)}\n`);
  }
  const budget = readBudget();
  const problems = overBudget(m, budget);
  const out = {
    bench: 'startup-bytes',
    loadedBytes: m.loadedBytes,
    loaded_budget: budget.loadedBytes.budget,
    ranBytes: m.ranBytes,
    ran_budget: budget.ranBytes.budget,
    files: m.files,
    problems,
  };
  console.log(JSON.stringify(out));
}
