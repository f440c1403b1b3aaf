/**
 * Start-up that cannot creep (issue 37): the bytes of JavaScript a cold
 * `boxwright lint` of a small Box config loads and runs stay under the
 * budget recorded in bench/startup-budget.json. bench/startup-bytes.mjs
 * counts them from V8's own coverage of one real run of bin/boxwright.cjs: a
 * count, not a time, so the test is the same on every machine and every run
 * (CONTRIBUTING.md, "Start-up budget", says how to change the budget).
 *
 * The control: a lint.cjs built the same way but with the `run` command
 * imported into the lint command's module (what an innocent-looking
 * `import { runCommand } from './run.js'` in app/cli/lint.ts does: the
 * runner, the platform registry and the targets in every lint's bundle) is
 * measured the same way, and must be over the budget. A lint.cjs built
 * without it in the same place measures exactly what the real build does, so
 * the difference is the runner's, not the copy's.
 *
 * And what the lint no longer loads for its output: bin/boxwright.cjs writes
 * a light command's output to a pipe or a file with fs.writeSync instead of
 * Node's streams (net and the stream modules for a pipe). Its output, both
 * streams and the exit status, is byte for byte what the same bundle prints
 * through Node's own streams, and a reader that closes early ends it quietly.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { repoRoot, requireOrSkip } from '../helpers.js';

interface Measurement {
  readonly loadedBytes: number;
  readonly ranBytes: number;
  readonly files: Readonly<Record<string, { loaded: number; ran: number }>>;
  readonly builtins: readonly string[];
}
interface Budget {
  readonly loadedBytes: { readonly recorded: number; readonly budget: number };
  readonly ranBytes: { readonly recorded: number; readonly budget: number };
  readonly neverLoaded: readonly string[];
}
interface StartupBytes {
  readonly measureStartup: (root?: string) => Measurement;
  readonly overBudget: (m: Measurement, budget?: Budget) => string[];
  readonly readBudget: () => Budget;
}
interface PluginBuild {
  readonly onLoad: (o: { filter: RegExp }, f: (a: { path: string }) => unknown) => void;
  readonly onResolve: (o: { filter: RegExp }, f: () => unknown) => void;
}
type Plugin = { readonly name: string; readonly setup: (build: PluginBuild) => void };
interface Bundles {
  readonly buildBundles: (root: string, outDir: string, options?: { only?: string[]; lintPlugins?: Plugin[] }) => Promise<unknown>;
}
const load = async <T>(...path: string[]): Promise<T> => (await import(pathToFileURL(join(repoRoot, ...path)).href)) as T;

/**
 * Adds the `run` command to the lint command's imports, used (an export of the module), so that no tree-shaking drops it.
 * And node:child_process as it is: lint.cjs's shim of it (scripts/shims/child-process.mjs) has only spawnSync, and the
 * runner's spawn would fail the build first.
 */
const runnerCreepsIntoLint: Plugin = {
  name: 'runner-creeps-into-lint',
  setup(build) {
    build.onResolve({ filter: /^(node:)?child_process$/ }, () => ({ path: 'node:child_process', external: true }));
    build.onLoad({ filter: /[\\/]dist[\\/]app[\\/]cli[\\/]lint\.js$/ }, ({ path }) => ({
      contents: `import { runCommand as creptIn } from './run.js';\nexport { creptIn };\n${readFileSync(path, 'utf8')}`,
      loader: 'js',
    }));
  },
};

describe('the start-up budget of a cold lint', () => {
  const dir = mkdtempSync(join(tmpdir(), 'boxwright-startup-budget-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A package of bin/boxwright.cjs and a lint.cjs built into it, with `lintPlugins`. */
  const packageWith = async (name: string, lintPlugins: Plugin[]): Promise<string> => {
    const root = join(dir, name);
    mkdirSync(join(root, 'bin'), { recursive: true });
    copyFileSync(join(repoRoot, 'bin', 'boxwright.cjs'), join(root, 'bin', 'boxwright.cjs'));
    copyFileSync(join(repoRoot, 'package.json'), join(root, 'package.json'));
    const { buildBundles } = await load<Bundles>('scripts', 'bundles.mjs');
    await buildBundles(repoRoot, join(root, 'dist', 'cli'), { only: ['lint.cjs'], lintPlugins });
    return root;
  };

  /** The real build's figures, measured once for the three tests (each run is a cold lint under coverage). */
  let real: Measurement | undefined;
  const measureReal = async (): Promise<Measurement> =>
    (real ??= (await load<StartupBytes>('bench', 'startup-bytes.mjs')).measureStartup());

  it('holds: the bytes it loads and runs are within bench/startup-budget.json, and it loads none of its neverLoaded built-ins', async () => {
    const { overBudget } = await load<StartupBytes>('bench', 'startup-bytes.mjs');
    const m = await measureReal();
    assert.deepEqual(overBudget(m), []);
    // Only the launcher and the lint bundle: a lint that loaded the full CLI would be over by ~50%.
    assert.deepEqual(Object.keys(m.files).sort(), ['bin/boxwright.cjs', 'dist/cli/lint.cjs']);
  });

  it('is the same count on every run', async () => {
    const { measureStartup } = await load<StartupBytes>('bench', 'startup-bytes.mjs');
    assert.deepEqual(measureStartup(), await measureReal());
  });

  it('the control: the runner imported into the lint command puts a lint over the budget', async () => {
    const { measureStartup, overBudget, readBudget } = await load<StartupBytes>('bench', 'startup-bytes.mjs');
    // Built side by side (esbuild builds in its own process).
    const [plainRoot, creptRoot] = await Promise.all([packageWith('plain', []), packageWith('crept', [runnerCreepsIntoLint])]);
    const plain = measureStartup(plainRoot);
    const crept = measureStartup(creptRoot);
    // The copy is the real build: the same bytes as dist/cli/lint.cjs.
    assert.equal(plain.loadedBytes, (await measureReal()).loadedBytes);
    assert.deepEqual(overBudget(plain), []);
    const budget = readBudget();
    assert.ok(
      crept.loadedBytes > budget.loadedBytes.budget,
      `with the runner, a lint loads ${crept.loadedBytes} bytes (${plain.loadedBytes} without): not over the budget ${budget.loadedBytes.budget}`,
    );
    assert.ok(overBudget(crept).some((p) => p.startsWith('loadedBytes ')));
  });
});

describe("a light command's output to a pipe or a file, written directly", () => {
  const dir = mkdtempSync(join(tmpdir(), 'boxwright-stdio-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const bin = join(repoRoot, 'bin', 'boxwright.cjs');
  const lintBundle = join(repoRoot, 'dist', 'cli', 'lint.cjs');
  const examples = join(repoRoot, 'examples');
  const cases = [
    ['lint', '--fs', join(examples, 'machine.json'), join(examples, 'coding-agent.toml')],
    // Both streams, an unreadable file (exit 2), and ~240 KB: more than a pipe holds at once.
    ['lint', '-f', 'sarif', '--fs', join(examples, 'machine.json'), join(examples, 'coding-agent.toml'), join(dir, 'absent.toml')],
    ['lint', '--bogus'],
  ];
  const env = { ...process.env, NO_COLOR: '1' };

  it("prints through a pipe exactly what the bundle prints through Node's own streams", () => {
    for (const args of cases) {
      const direct = spawnSync(process.execPath, [bin, ...args], { env, encoding: 'utf8', maxBuffer: 1 << 26 });
      const streams = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(lintBundle)}).run(${JSON.stringify(args)})`], {
        env,
        encoding: 'utf8',
        maxBuffer: 1 << 26,
      });
      assert.equal(direct.status, streams.status, args.join(' '));
      assert.equal(direct.stdout, streams.stdout, args.join(' '));
      assert.equal(direct.stderr, streams.stderr, args.join(' '));
      if (args === cases[1]) assert.ok(direct.stdout.length > 128 * 1024 && direct.stderr !== '' && direct.status === 2);
    }
  });

  it('prints into a file what it prints through a pipe, and into /dev/null with the same status', () => {
    const args = cases[1]!;
    const out = join(dir, 'out.txt');
    const fd = openSync(out, 'w');
    const toFile = spawnSync(process.execPath, [bin, ...args], { env, stdio: ['ignore', fd, 'pipe'], encoding: 'utf8' });
    closeSync(fd);
    const toPipe = spawnSync(process.execPath, [bin, ...args], { env, encoding: 'utf8', maxBuffer: 1 << 26 });
    assert.equal(toFile.status, toPipe.status);
    assert.equal(readFileSync(out, 'utf8'), toPipe.stdout);
    // And into /dev/null (a script that keeps the exit status only): the same status and standard error.
    const toNull = spawnSync(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    assert.equal(toNull.status, toPipe.status);
    assert.equal(toNull.stderr, toPipe.stderr);
  });

  it('a full non-blocking pipe is waited on: a slow reader gets every byte', (t) => {
    // Node cannot make a non-blocking pipe for a child; Python's os.pipe and fcntl can.
    const python = spawnSync('python3', ['--version']).status === 0;
    const skip = requireOrSkip(python, 'python3, to hand the lint a non-blocking pipe', 'apt-get install python3');
    if (skip) return t.skip(skip);
    const args = cases[1]!.slice(0, -1);
    const whole = spawnSync(process.execPath, [bin, ...args], { env, maxBuffer: 1 << 26 }).stdout.length;
    const reader = `import fcntl, os, subprocess, sys, time
r, w = os.pipe()
fcntl.fcntl(w, fcntl.F_SETFL, fcntl.fcntl(w, fcntl.F_GETFL) | os.O_NONBLOCK)
p = subprocess.Popen(sys.argv[1:], stdout=w)
os.close(w)
time.sleep(0.5)
n = 0
while True:
    chunk = os.read(r, 65536)
    if not chunk: break
    n += len(chunk)
print(n, p.wait())`;
    const r = spawnSync('python3', ['-c', reader, process.execPath, bin, ...args], { env, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), `${whole} 0`);
  });

  it('a reader that stops early ends the lint with its own status, and nothing on stderr', async () => {
    // Its status read whole: 0 (warnings only).
    assert.equal(spawnSync(process.execPath, [bin, ...cases[1]!.slice(0, -1)], { env, stdio: 'ignore' }).status, 0);
    const child = spawn(process.execPath, [bin, ...cases[1]!.slice(0, -1)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.stdout.once('data', () => child.stdout.destroy());
    const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    assert.equal(status, 0, stderr);
    assert.equal(stderr, '');
  });
});

describe("the lint bundle's node:tty (scripts/shims/tty.mjs)", () => {
  const shim = pathToFileURL(join(repoRoot, 'scripts', 'shims', 'tty.mjs')).href;
  // The shim's answer and node:tty's for descriptors 0-2 (whether it loaded tty for them) and one that is not open.
  const probe = `const { isatty } = await import(${JSON.stringify(shim)});
const shim = [0, 1, 2].map((fd) => isatty(fd));
const loaded = process.moduleLoadList.some((m) => m === 'NativeModule tty');
shim.push(isatty(99));
const tty = await import('node:tty');
console.log(JSON.stringify({ shim, tty: [0, 1, 2, 99].map((fd) => tty.isatty(fd)), loaded }));`;
  const run = (stdin: 'pipe' | 'ignore' | number, cmd = process.execPath, args = ['--input-type=module', '-e', probe]) => {
    const r = spawnSync(cmd, args, { stdio: [stdin, 'pipe', 'pipe'], encoding: 'utf8', input: stdin === 'pipe' ? '' : undefined });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout.trim().split('\n').pop()!) as { shim: boolean[]; tty: boolean[]; loaded: boolean };
  };

  it('answers as node:tty does for a pipe, /dev/null, a file and a directory, without loading tty', () => {
    const file = openSync(join(repoRoot, 'package.json'), 'r');
    const dir = openSync(repoRoot, 'r');
    try {
      for (const stdin of ['pipe', 'ignore', file, dir] as const) {
        const r = run(stdin);
        assert.deepEqual(r.shim, r.tty, String(stdin));
        assert.equal(r.loaded, false, `${String(stdin)}: the shim loaded tty`);
      }
    } finally {
      closeSync(file);
      closeSync(dir);
    }
  });

  it('asks the real isatty for a terminal, and says yes', (t) => {
    const script = '/usr/bin/script';
    const skip = requireOrSkip(existsSync(script), 'script (util-linux), to run a command on a terminal', 'apt-get install bsdutils');
    if (skip) return t.skip(skip);
    // script gives the command a terminal on all three descriptors; -e: its status.
    const quoted = `'${process.execPath}' --input-type=module -e '${probe.replaceAll("'", "'\\''")}'`;
    const r = run('ignore', script, ['-qec', quoted, '/dev/null']);
    assert.deepEqual(r.shim, r.tty);
    assert.deepEqual(r.shim, [true, true, true, false]);
  });
});
