/**
 * boxwright's model of Codex's sandbox against Codex itself: generated
 * config.toml files (the legacy `sandbox_mode` with
 * `[sandbox_workspace_write]`, and permission profiles with `extends`,
 * `filesystem` entries, special paths and `network`), each run by the real
 * `codex sandbox` (0.171.0, its own bubblewrap and seccomp) with a probe
 * that reads and writes paths of a generated tree (existing and absent,
 * the protected names, `/tmp`, `$TMPDIR`, other roots) and opens a
 * connection to a listener on the host's loopback; what it saw is
 * compared with explain's Linux cell at each path (the model's
 * effectiveAt) and with the model's network. The truth is what Codex does.
 *
 * The binary is too large for devDependencies: `.ci/run` fetches the
 * pinned package (`npm pack @openai/codex@0.171.0-linux-x64`, its
 * integrity checked against the registry's) into a cache outside the
 * checkout and points BOXWRIGHT_CODEX at the binary. Codex refuses a
 * CODEX_HOME under /tmp, so the config home and the tree live in the
 * user's cache directory. `codex sandbox` ignores the file's
 * `sandbox_mode` (measured): it is passed with `-c` as well; a profile is
 * applied with `-P NAME -C WORKDIR`. 150 configs in the full tier (the
 * one budget knob, test/budget.ts: BOXWRIGHT_TEST_BUDGET=4 or
 * BOXWRIGHT_FUZZ_RUNS=N for more; BOXWRIGHT_CODEX_SEED: the first seed).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { checkConfig } from '../../app/check.js';
import { hostView } from '../../compiler/paths/index.js';
import { legend, type Cell } from '../../model/cell.js';
import { runs as budgetRuns } from '../budget.js';
import { requireOrSkip } from '../helpers.js';
import { pathProbeLines } from './peer-probe.js';
import { rand, type Rand } from './model-vs-kernel-support.js';
import { bwrapAvailable } from './support.js';

const codex = process.env.BOXWRIGHT_CODEX ?? '';
const skip =
  requireOrSkip(bwrapAvailable, 'bubblewrap') ??
  requireOrSkip(
    codex !== '' && existsSync(codex),
    'the Codex binary (BOXWRIGHT_CODEX)',
    '.ci/run fetches @openai/codex@0.171.0-linux-x64 with npm pack and sets BOXWRIGHT_CODEX',
  );

const runs = budgetRuns(150);
/** The unpacked npm package the binary is in (`…/package/vendor/<triple>/bin/codex`). */
const codexPackage = codex ? join(codex, '..', '..', '..', '..') : '';
const firstSeed = Number(process.env.BOXWRIGHT_CODEX_SEED ?? 1);

/** The tree under the working directory W and another root O; `-` marks a path that does not exist. */
const workDirs = ['a', 'a/b', 'e', 'e/f', '.git', '.git/hooks'];
const workFiles = ['a/x.txt', 'a/b/y.txt', 'e/v.txt', 'e/f/u.txt', 'top.txt', '.git/config'];
const otherDirs = ['sub'];
const otherFiles = ['o.txt', 'sub/s.txt', '.codex'];
const workAbsent = ['nothere', 'a/gone', '.codex', '.agents', '.aws', 'e/.git'];

interface Probe {
  readonly path: string;
  /** Only the write is compared (what a read of an absent path says is nothing). */
  readonly absent: boolean;
}

const pick = <T>(r: Rand, xs: readonly T[]): T => xs[r.int(xs.length)]!;

/** A generated config: the file's text and how `codex sandbox` is told to apply it. */
function generate(r: Rand, w: string, o: string, out: string, home: string): { toml: string; args: string[] } {
  const lines: string[] = [];
  const proxy = r.int(3) === 0;
  if (proxy) lines.push('[features]', 'network_proxy = true', '');
  if (r.int(2) === 0) {
    const mode = pick(r, ['read-only', 'workspace-write', 'workspace-write', 'workspace-write', 'danger-full-access']);
    const roots = [o, `${o}/sub`, `${w}/a/b`, `${out}/nothere-root`, `${w}/e`, `${w}/.git/hooks`].filter(() => r.int(3) === 0);
    const top = [`sandbox_mode = "${mode}"`, ''];
    lines.unshift(...top);
    lines.push('[sandbox_workspace_write]', `writable_roots = [${roots.map((p) => JSON.stringify(p)).join(', ')}]`);
    if (r.int(2)) lines.push(`network_access = ${r.int(2) === 0}`);
    if (r.int(2)) lines.push(`exclude_slash_tmp = ${r.int(2) === 0}`);
    if (r.int(2)) lines.push(`exclude_tmpdir_env_var = ${r.int(2) === 0}`);
    return { toml: lines.join('\n') + '\n', args: ['-c', `sandbox_mode="${mode}"`] };
  }
  const access = (): string => pick(r, ['read', 'write', 'none']);
  const base = r.int(3) === 0;
  const ext = base ? 'base' : pick(r, ['', ':workspace', ':read-only']);
  lines.unshift('default_permissions = "dev"', '');
  lines.push('[permissions.dev]');
  if (ext) lines.push(`extends = "${ext}"`);
  // Reads closed now and then: `:minimal` instead of `:root`, with what Codex needs to start its helper (its own home,
  // where it links the helper, and the package its binary is in: without them no command starts, measured).
  if (r.int(3) === 0)
    lines.push(
      '[permissions.dev.filesystem]',
      '":minimal" = "read"',
      `${JSON.stringify(home)} = "read"`,
      `${JSON.stringify(codexPackage)} = "read"`,
    );
  else lines.push('[permissions.dev.filesystem]', '":root" = "read"');
  for (const [key, p] of [
    [o, 1],
    [`${w}/a`, 2],
    [`${w}/e/f`, 3],
    [`${o}/sub`, 4],
  ] as const)
    if (r.int(2) === 0) lines.push(`${JSON.stringify(key)} = "${p === 3 ? 'write' : access()}"`);
  if (r.int(3)) lines.push('":slash_tmp" = "write"');
  if (r.int(3) === 0) lines.push('":tmpdir" = "write"');
  const extraRoot = r.int(3) === 0;
  if (r.int(4)) {
    lines.push('[permissions.dev.filesystem.":workspace_roots"]', `"." = "${pick(r, ['write', 'write', 'read'])}"`);
    if (r.int(2)) lines.push(`"a/b" = "${access()}"`);
  }
  // Another workspace root: `:workspace_roots` entries apply under it too.
  if (extraRoot) lines.push('[permissions.dev.workspace_roots]', `${JSON.stringify(o)} = true`);
  if (r.int(2)) {
    lines.push('[permissions.dev.network]', `enabled = ${r.int(2) === 0}`);
    if (r.int(2)) lines.push('domains = { "example.com" = "allow" }');
  }
  if (base) {
    lines.push(
      '[permissions.base]',
      `extends = "${pick(r, [':workspace', ':read-only'])}"`,
      '[permissions.base.filesystem]',
      '":root" = "read"',
    );
    if (r.int(2)) lines.push(`${JSON.stringify(`${w}/e`)} = "${access()}"`);
  }
  return { toml: lines.join('\n') + '\n', args: ['-P', 'dev', '-C', w] };
}

/** The probe: one line a path, `PATH R W` (R and W each 1 or 0), then `NET 1|0`. Writes made are removed. */
function probeScript(probes: readonly Probe[], port: number): string {
  const body = pathProbeLines(probes.map((p) => p.path));
  return `${body}\nif { exec 3<>/dev/tcp/127.0.0.1/${port} && read -r -t 5 line <&3 && [ "$line" = bw-codex-host ]; } 2>/dev/null; then echo "NET 1"; else echo "NET 0"; fi\n`;
}

function run(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(codex, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

const reads = (c: Cell): boolean => (c.kind === 'access' && c.read) || c.kind === 'empty' || c.kind === 'scratch';
const writes = (c: Cell): boolean => (c.kind === 'access' && c.write) || c.kind === 'scratch';

describe('the Codex model against codex sandbox 0.171.0', { skip }, () => {
  let root = '';
  let server: Server | undefined;
  let port = 0;
  before(async () => {
    const cache = join(homedir(), '.cache', 'boxwright-test');
    mkdirSync(cache, { recursive: true });
    root = mkdtempSync(join(cache, 'codex-diff-'));
    // A token the probe reads back: a port of the sandbox's own (Codex's proxy bridges) that happens to be the same is not the host.
    server = createServer((s) => s.end('bw-codex-host\n'));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  after(() => {
    server?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  test(`${runs} generated configs: each path's read and write, and the network, as explain's Linux cell says`, async () => {
    const disagreements: string[] = [];
    for (let i = 0; i < runs; i++) {
      const seed = firstSeed + i;
      const r = rand(seed);
      const dir = join(root, `run-${seed}`);
      const w = join(dir, 'work');
      const o = join(dir, 'other');
      const t = join(dir, 'tmpdir');
      const home = join(dir, 'codex-home');
      const slashTmp = mkdtempSync('/tmp/bw-codex-');
      for (const d of [home, t, ...workDirs.map((x) => join(w, x)), ...otherDirs.map((x) => join(o, x))]) mkdirSync(d, { recursive: true });
      for (const f of [...workFiles.map((x) => join(w, x)), ...otherFiles.map((x) => join(o, x))]) writeFileSync(f, 'x\n');
      const { toml, args } = generate(r, w, o, dir, home);
      const config = join(home, 'config.toml');
      writeFileSync(config, toml);
      const probes: Probe[] = [
        ...[...workDirs, ...workFiles].map((x) => ({ path: join(w, x), absent: false })),
        ...workAbsent.map((x) => ({ path: join(w, x), absent: true })),
        ...[...otherDirs, ...otherFiles].map((x) => ({ path: join(o, x), absent: false })),
        { path: join(o, '.git'), absent: true },
        { path: join(o, 'gone'), absent: true },
        { path: join(o, 'a'), absent: true },
        { path: t, absent: false },
        { path: join(t, '.agents'), absent: true },
        { path: slashTmp, absent: false },
        { path: join(dir, 'outside.txt'), absent: true },
        { path: '/etc/hostname', absent: false },
      ];
      const env = { PATH: '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', CODEX_HOME: home, TMPDIR: t };
      const res = await run(['sandbox', ...args, '--', 'bash', '-c', probeScript(probes, port)], env, w);
      const checked = checkConfig(readFileSync(config), {
        file: config,
        view: hostView(env.HOME),
        worktree: w,
        tmpdir: t,
        platforms: ['linux'],
        dialect: 'codex',
      });
      rmSync(slashTmp, { recursive: true, force: true });
      const label = `seed ${seed}:\n${toml}`;
      assert.ok(
        checked.ir && checked.model,
        `${label}\nboxwright did not check it: ${checked.diagnostics.map((d) => d.message).join('; ')}`,
      );
      // A `none` inside another `none`: bubblewrap cannot make the inner mount point in the outer one, and Codex does not
      // start (found by this test): the rule codex-nested-none says so, and it must be exactly then that Codex fails.
      const nested = checked.diagnostics.some((d) => d.ruleId === 'codex-nested-none');
      if (nested) {
        assert.notEqual(res.code, 0, `${label}\nCodex started with a none inside a none`);
        assert.match(res.err, /Can't mkdir/, label);
        rmSync(dir, { recursive: true, force: true });
        continue;
      }
      assert.equal(res.code, 0, `${label}\ncodex sandbox failed (${res.code}): ${res.err}`);
      const seen = new Map(
        res.out
          .trim()
          .split('\n')
          .map((l) => l.split(' '))
          .map((parts) => [parts[0]!, parts.slice(1)] as const),
      );
      const pa = checked.model.principals[0]!;
      for (const p of probes) {
        const got = seen.get(p.path);
        assert.ok(got, `${label}\nno probe line for ${p.path}: ${res.out}`);
        const cell = pa.effectiveAt(p.path, 'linux');
        const [gr, gw] = [got[0] === '1', got[1] === '1'];
        if (!p.absent && gr !== reads(cell)) disagreements.push(`${label}  ${p.path}: read ${gr}, explain says ${legend(cell)}`);
        if (p.absent && cell.kind === 'empty' && !gr)
          disagreements.push(`${label}  ${p.path}: an empty placeholder expected, not readable`);
        // A path not there, in a directory of the sandbox's own tmpfs, is made by the probe's write (and vanishes).
        const creatable =
          cell.kind === 'absent' && pa.effectiveAt(p.path.slice(0, p.path.lastIndexOf('/')) || '/', 'linux').kind === 'scratch';
        if (gw !== (writes(cell) || creatable)) disagreements.push(`${label}  ${p.path}: write ${gw}, explain says ${legend(cell)}`);
      }
      const open = seen.get('NET')?.[0] === '1';
      if (open !== (checked.ir.runtime?.codex?.network === 'direct'))
        disagreements.push(`${label}  network: ${open ? 'open' : 'closed'}, the model says ${checked.ir.runtime?.codex?.network}`);
      rmSync(dir, { recursive: true, force: true });
      if (disagreements.length >= 5) break;
    }
    assert.deepEqual(disagreements, []);
  });
});
