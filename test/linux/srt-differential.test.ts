/**
 * boxwright's model of sandbox-runtime against sandbox-runtime itself:
 * generated settings files over a generated tree, each loaded the way the
 * `srt` CLI loads `--settings` (dist/utils/config-loader.js, loadConfig)
 * and run by the real library (SandboxManager, under bubblewrap, with its
 * seccomp helper and network bridge), with a static probe that reads and
 * writes every path of the tree inside that sandbox; what it saw is
 * compared with explain's Linux cell at the path (the model's
 * effectiveAt). The truth is what sandbox-runtime does.
 *
 * sandbox-runtime is the pinned devDependency (0.0.83), installed by
 * `npm ci` from the npm registry; bubblewrap, socat and ripgrep come from
 * `.ci/run`. 150 settings files by default, as issue 26 asks (each a real sandbox-runtime start: about
 * a second) in the full budget, test/budget.ts `runs(150)` (BOXWRIGHT_FUZZ_RUNS for more)
 * (BOXWRIGHT_SRT_SEED: the first seed).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { runs as budget } from '../budget.js';
import { checkConfig } from '../../app/check.js';
import { hostView } from '../../compiler/paths/index.js';
import { legend, type Cell } from '../../model/cell.js';
import { repoRoot, requireOrSkip } from '../helpers.js';
import { buildProbe, parseSeen, rand, type Rand, type Seen } from './model-vs-kernel-support.js';
import { bwrapAvailable, onPath } from './support.js';

const srtDir = join(repoRoot, 'node_modules', '@anthropic-ai', 'sandbox-runtime');
const skip =
  requireOrSkip(bwrapAvailable, 'bubblewrap') ??
  requireOrSkip(!!onPath('socat'), 'socat (sandbox-runtime bridges its proxies with it)') ??
  requireOrSkip(!!onPath('rg'), 'ripgrep (sandbox-runtime scans for its mandatory denies with it)') ??
  requireOrSkip(!!onPath('gcc'), 'gcc (to build the static probe)') ??
  requireOrSkip(existsSync(join(srtDir, 'dist', 'index.js')), 'the @anthropic-ai/sandbox-runtime devDependency (npm ci)');

const runs = budget(150);
const firstSeed = Number(process.env.BOXWRIGHT_SRT_SEED ?? 1);

/** The tree: directories and files below the working directory, and the names srt's mandatory denies cover there. */
const dirs = ['a', 'a/b', 'a/b/c', 'a/d', 'e', 'e/f', 'g', '.vscode', '.git', '.git/hooks'];
const files = [
  'a/x.txt',
  'a/b/y.txt',
  'a/b/c/z.txt',
  'a/d/w.txt',
  'e/v.txt',
  'e/f/u.txt',
  'g/t.txt',
  'top.txt',
  '.bashrc',
  '.git/config',
  '.git/HEAD',
  '.vscode/settings.json',
];
/** Paths that do not exist: what an entry may name too. */
const absents = ['a/gone', 'e/f/gone.txt', 'nothere', 'g/new/deeper'];

function makeTree(root: string): void {
  for (const d of dirs) mkdirSync(join(root, d), { recursive: true });
  for (const f of files) writeFileSync(join(root, f), `content of ${f}\n`);
}

/** How an entry spells a path: absolute, relative to the working directory, or with `./`. */
function spell(r: Rand, root: string, rel: string): string {
  const k = r.int(5);
  if (k === 0) return rel;
  if (k === 1) return `./${rel}`;
  return join(root, rel);
}

export function settingsFor(seed: number, root: string): object {
  const r = rand(seed);
  const pool = [...dirs.filter((d) => !d.startsWith('.')), ...files.filter((f) => !f.startsWith('.')), ...absents];
  const some = (n: number, from: readonly string[] = pool): string[] => Array.from({ length: r.int(n + 1) }, () => r.pick(from));
  const denyRead = some(3);
  // allowRead: mostly inside a read deny (what it is for), now and then anywhere.
  const inside = pool.filter((p) => denyRead.some((d) => p.startsWith(d + '/')));
  const allowRead = inside.length && r.chance(0.7) ? some(2, inside) : some(1);
  const allowWrite = some(3);
  if (r.chance(0.25)) allowWrite.push('.');
  const denyWrite = some(3);
  if (r.chance(0.2)) denyWrite.push(r.pick(['.bashrc', '.vscode', '.git/config']));
  const tail = (p: string): string => (r.chance(0.15) && dirs.includes(p) ? `${p}/**` : p);
  return {
    filesystem: {
      denyRead: denyRead.map((p) => spell(r, root, p)),
      allowRead: allowRead.map((p) => spell(r, root, p)),
      allowWrite: allowWrite.map((p) => spell(r, root, tail(p))),
      denyWrite: denyWrite.map((p) => spell(r, root, tail(p))),
    },
    network: { allowedDomains: [], deniedDomains: [] },
  };
}

/**
 * The driver: a Node process in the tree that loads each settings file as
 * the srt CLI does and runs the probe in sandbox-runtime's sandbox, one
 * JSON line per file: the probe's lines, or why srt refused the file.
 */
const driver = String.raw`
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
const [index, loader, jobsFile] = process.argv.slice(2);
const { SandboxManager } = await import(index);
const { loadConfig } = await import(loader);
const jobs = JSON.parse(readFileSync(jobsFile, 'utf8'));
const q = (s) => "'" + s.replace(/'/g, "'\\''") + "'";
let started = false;
for (const job of jobs) {
  const loaded = loadConfig(job.settings);
  if (loaded.kind !== 'ok') { process.stdout.write(JSON.stringify({ refused: loaded.reason ?? loaded.kind }) + '\n'); continue; }
  if (!started) { await SandboxManager.initialize(loaded.config); started = true; } else SandboxManager.updateConfig(loaded.config);
  const command = await SandboxManager.wrapWithSandbox([job.probe, ...job.paths].map(q).join(' '));
  // stdin from /dev/null, not node's default pipe: a socketpair, which bash takes
  // for an rshd connection and then sources ~/.bashrc (Debian builds it with
  // SSH_SOURCE_BASHRC) in both of srt's bash -c layers: seconds of the host's
  // shell start-up (a version manager's init) per settings file, and none of srt's decisions.
  const r = spawnSync(command, { shell: true, encoding: 'utf8', timeout: 30000, stdio: ['ignore', 'pipe', 'pipe'] });
  SandboxManager.cleanupAfterCommand();
  process.stdout.write(JSON.stringify({ status: r.status, lines: String(r.stdout).split('\n').filter(Boolean), stderr: String(r.stderr).slice(0, 2000) }) + '\n');
}
if (started) await SandboxManager.reset();
`;

interface Outcome {
  readonly refused?: string;
  readonly status?: number | null;
  readonly lines?: string[];
  readonly stderr?: string;
}

function runDriver(
  cwd: string,
  scratch: string,
  jobs: readonly { settings: string; probe: string; paths: readonly string[] }[],
): Promise<Outcome[]> {
  const script = join(scratch, 'driver.mjs');
  writeFileSync(script, driver);
  const jobsFile = join(scratch, 'jobs.json');
  writeFileSync(jobsFile, JSON.stringify(jobs));
  return new Promise((resolve, reject) => {
    // The system's programs only: a PATH directory of the user's (a version manager's shims) must not stand in for bwrap, socat or bash.
    const env = {
      HOME: process.env.HOME ?? '/root',
      PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      LANG: 'C.UTF-8',
    };
    const child = spawn(
      process.execPath,
      [script, join(srtDir, 'dist', 'index.js'), join(srtDir, 'dist', 'utils', 'config-loader.js'), jobsFile],
      { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const results = out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Outcome);
      if (results.length !== jobs.length)
        reject(new Error(`the driver exited ${code} after ${results.length} of ${jobs.length} settings files: ${err.slice(-2000)}`));
      else resolve(results);
    });
  });
}

/** Whether what sandbox-runtime's sandbox showed at a path agrees with the model's Linux cell; why not, when not. */
export function srtDisagreement(cell: Cell, seen: Seen, hostExists: boolean): string | undefined {
  const l = legend(cell);
  switch (cell.kind) {
    case 'absent':
      return seen.exists ? `exists (read=${seen.read} write=${+seen.write}), but the model says —` : undefined;
    case 'denied':
      if (!seen.exists) return hostExists ? 'absent, but the model says — (a mask that cannot be opened)' : undefined;
      return seen.read >= 0 || seen.write
        ? `read=${seen.read} write=${+seen.write}, but the model says — (a mask that cannot be opened)`
        : undefined;
    case 'empty':
      if (!seen.exists) return 'absent, but the model says empty';
      return seen.read !== 0 || seen.write ? `read=${seen.read} write=${+seen.write}, but the model says empty` : undefined;
    case 'scratch':
      if (!seen.exists || !seen.dir) return `${seen.exists ? 'a file' : 'absent'}, but the model says scratch`;
      return seen.write && seen.read >= 0 ? undefined : `read=${seen.read} write=${+seen.write}, but the model says scratch`;
    case 'access':
      if (!hostExists)
        return seen.exists
          ? `exists (made by the sandbox: read=${seen.read} write=${+seen.write}), but the host has none [model ${l}]`
          : undefined;
      if (!seen.exists) return `absent, but the model says ${l}`;
      if (cell.read !== seen.read >= 0) return `${seen.read >= 0 ? 'readable' : 'unreadable'}, but the model says ${l}`;
      if (cell.write !== seen.write) return `${seen.write ? 'writable' : 'not writable'}, but the model says ${l}`;
      return undefined;
    default:
      return `the model gives a ${cell.kind} cell`;
  }
}

describe('sandbox-runtime 0.0.83 against the model, path by path', { skip }, () => {
  test(`${runs} generated settings files (seeds ${firstSeed}-${firstSeed + runs - 1}) agree with explain's Linux cells`, async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'boxwright-srt-'));
    try {
      const { probe } = buildProbe(scratch);
      const view = hostView(process.env.HOME ?? '/root');
      // Two drivers side by side, each on a tree of its own: sandbox-runtime makes placeholders on the host
      // for absent write denies while a command runs, which the other's probe must not see.
      const halves = [0, 1].map((h) => {
        const root = join(scratch, `work${h}`);
        mkdirSync(root);
        makeTree(root);
        const seeds = Array.from({ length: runs }, (_, i) => firstSeed + i).filter((_, i) => i % 2 === h);
        return { root, seeds };
      });
      const rels = [...dirs, ...files, ...absents];
      const results = await Promise.all(
        halves.map(async ({ root, seeds }) => {
          const paths = rels.map((p) => join(root, p));
          const settings = seeds.map((seed) => {
            const file = join(scratch, `settings-${seed}.json`);
            const bytes = Buffer.from(JSON.stringify(settingsFor(seed, root), null, 2));
            writeFileSync(file, bytes);
            return { seed, file, bytes };
          });
          const dir = mkdtempSync(join(scratch, 'driver-'));
          const outcomes = await runDriver(
            root,
            dir,
            settings.map((x) => ({ settings: x.file, probe, paths })),
          );
          return { root, paths, settings, outcomes };
        }),
      );
      const problems: string[] = [];
      let probed = 0;
      let notStarted = 0;
      for (const { root, paths, settings, outcomes } of results) {
        outcomes.forEach((o, i) => {
          const { seed, file, bytes } = settings[i]!;
          const checked = checkConfig(bytes, { file, view, worktree: root, platforms: ['linux'] });
          if (o.refused !== undefined)
            return problems.push(
              `seed ${seed}: sandbox-runtime refused the file (${o.refused}); boxwright's verdict: ${checked.verdicts.linux}`,
            );
          // A sandbox that does not start: agreed when the model says Linux refuses it for that reason.
          const unmakeable = checked.diagnostics.some((d) => d.ruleId === 'mandatory-deny' && d.severity === 'error');
          if (o.status !== 0 && /Can't create file at .*Read-only file system/.test(o.stderr ?? '')) {
            if (!unmakeable)
              problems.push(
                `seed ${seed}: sandbox-runtime did not start (${o.stderr!.trim()}), but boxwright's Linux verdict is ${checked.verdicts.linux}`,
              );
            notStarted++;
            return;
          }
          if (unmakeable)
            return problems.push(`seed ${seed}: boxwright says sandbox-runtime cannot start, but it ran the probe (exit ${o.status})`);
          if (o.status !== 0 || o.lines!.length !== paths.length)
            return problems.push(
              `seed ${seed}: the probe exited ${o.status} with ${o.lines!.length} of ${paths.length} lines: ${o.stderr}`,
            );
          assert.ok(checked.model, `seed ${seed}: boxwright checks the file (${checked.diagnostics.map((d) => d.message).join('; ')})`);
          const pa = checked.model.principals[0]!;
          rels.forEach((rel, k) => {
            probed++;
            const seen = parseSeen(o.lines![k]!);
            const cell = pa.effectiveAt(paths[k]!, 'linux');
            const why = srtDisagreement(cell, seen, !absents.includes(rel));
            if (why)
              problems.push(
                `seed ${seed} ${relative(root, paths[k]!)}: ${why}\n    settings: ${bytes.toString().replace(/\s+/g, ' ')}\n    seen: ${o.lines![k]}`,
              );
          });
        });
      }
      assert.deepEqual(problems.slice(0, 15), [], `${problems.length} disagreements`);
      assert.equal(probed + notStarted * rels.length, runs * rels.length, 'every path of every settings file that starts was probed');
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
