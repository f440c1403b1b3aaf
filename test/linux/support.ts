import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { repoRoot } from '../helpers.js';
import { WAIT_LIMIT_MS, within } from '../waits.js';

export const bin = join(repoRoot, 'bin', 'boxwright.cjs');

/**
 * The cache `boxwright run` writes its compiled sandboxes into, for this
 * test process: never the user's (XDG_CACHE_HOME), removed at exit.
 */
export const testCache: string = mkdtempSync(join(tmpdir(), 'boxwright-cache-'));
process.on('exit', () => rmSync(testCache, { recursive: true, force: true }));

export function onPath(cmd: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, cmd), constants.X_OK);
      return join(dir, cmd);
    } catch {
      // next
    }
  }
  return undefined;
}

/** bubblewrap is installed and can start a sandbox here (Linux only). */
export const bwrapAvailable: boolean =
  process.platform === 'linux' &&
  !!onPath('bwrap') &&
  spawnSync('bwrap', ['--unshare-all', '--ro-bind', '/', '/', '--', 'true']).status === 0;

export interface Outcome {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node bin/boxwright.cjs ARGS…` (asynchronously, so tests may run side by side). */
export function boxwright(
  args: readonly string[],
  opts: { env?: Record<string, string | undefined>; cwd?: string; input?: string } = {},
): Promise<Outcome> {
  let child: ChildProcess | undefined;
  const ran = new Promise<Outcome>((resolve, reject) => {
    child = spawn(process.execPath, [bin, ...args], {
      cwd: opts.cwd ?? repoRoot,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '', XDG_CACHE_HOME: testCache, ...opts.env },
      stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    if (opts.input !== undefined) child.stdin!.end(opts.input);
  });
  return within(ran, WAIT_LIMIT_MS, `boxwright ${args.join(' ')}`, () => child?.kill('SIGKILL'));
}

/**
 * A real home for the end-to-end tests: project/ with a README, project/output/
 * (the write grant), project/.env (denied), project/secrets/ (a denied
 * directory) and elsewhere/ (never granted).
 */
export function makeHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'boxwright-e2e-'));
  mkdirSync(join(home, 'project', 'output'), { recursive: true });
  mkdirSync(join(home, 'project', 'secrets'), { recursive: true });
  mkdirSync(join(home, 'elsewhere'), { recursive: true });
  writeFileSync(join(home, 'project', 'README.md'), 'hello from the project\n');
  writeFileSync(join(home, 'project', '.env'), 'API_KEY=do-not-read\n');
  writeFileSync(join(home, 'project', 'secrets', 'key'), 'private\n');
  writeFileSync(join(home, 'elsewhere', 'notes.txt'), 'not granted\n');
  return home;
}

export function writeConfig(home: string, name: string, text: string): string {
  const p = join(home, name);
  writeFileSync(p, text);
  return p;
}

/** The pids of the processes whose command line holds `token` as one argument (this machine's /proc; ones that end meanwhile are skipped). */
export function processesWith(token: string): number[] {
  const pids: number[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      if (readFileSync(`/proc/${e}/cmdline`, 'latin1').split('\0').includes(token)) pids.push(Number(e));
    } catch {
      // ended meanwhile
    }
  }
  return pids;
}
