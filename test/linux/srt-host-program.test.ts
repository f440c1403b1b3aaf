/**
 * A `bwrapPath` that points into the project is a real way out of
 * sandbox-runtime (issue 36): srt 0.0.83 runs whatever is there to build
 * the sandbox, so a script that runs the command after `--` as it is reads
 * a file the settings deny. The control: the same settings without
 * `bwrapPath` (the system's bubblewrap) keep the file out. boxwright says
 * both: lint refuses the head (`sandbox-bypass`, an error on Linux) and the
 * review gate fails on the change (`the settings widen: \`bwrapPath\``).
 * Likewise a project `ripgrep.command` runs on the host, and
 * `allowAllUnixSockets` reaches a socket the host serves, and a name added
 * to `allowedDomains` is reached through srt's proxy (a server on loopback).
 * The real library is run as srt-differential.test.ts runs it.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { PLATFORMS } from '../../compiler/diagnostic.js';
import { checkConfig } from '../../app/check.js';
import { diffChecks } from '../../app/cli/diff.js';
import { gateFailures } from '../../app/views/delta.js';
import { hostView } from '../../compiler/paths/index.js';
import { repoRoot, requireOrSkip } from '../helpers.js';
import { bwrapAvailable, onPath } from './support.js';

const srtDir = join(repoRoot, 'node_modules', '@anthropic-ai', 'sandbox-runtime');
const skip =
  requireOrSkip(bwrapAvailable, 'bubblewrap') ??
  requireOrSkip(!!onPath('socat'), 'socat (sandbox-runtime bridges its proxies with it)') ??
  requireOrSkip(!!onPath('rg'), 'ripgrep (sandbox-runtime scans for its mandatory denies with it)') ??
  requireOrSkip(existsSync(join(srtDir, 'dist', 'index.js')), 'the @anthropic-ai/sandbox-runtime devDependency (npm ci)');

/** Loads the settings as `srt --settings` does, wraps the command, runs it: what it printed. */
const driver = String.raw`
import { spawn } from 'node:child_process';
const [index, loader, settings, ...argv] = process.argv.slice(2);
const { SandboxManager } = await import(index);
const { loadConfig } = await import(loader);
const loaded = loadConfig(settings);
if (loaded.kind !== 'ok') { process.stdout.write(JSON.stringify({ refused: loaded.reason ?? loaded.kind })); process.exit(0); }
await SandboxManager.initialize(loaded.config);
const q = (s) => "'" + s.replace(/'/g, "'\\''") + "'";
const command = await SandboxManager.wrapWithSandbox(argv.map(q).join(' '));
// Asynchronously: srt's proxies live in this process, and a blocking spawn would keep them from answering the command.
const r = await new Promise((resolve) => {
  const c = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  c.stdout.on('data', (d) => (stdout += d));
  c.stderr.on('data', (d) => (stderr += d));
  const t = setTimeout(() => c.kill('SIGKILL'), 30000);
  c.on('close', (status) => { clearTimeout(t); resolve({ status, stdout, stderr }); });
});
SandboxManager.cleanupAfterCommand();
await SandboxManager.reset();
process.stdout.write(JSON.stringify({ status: r.status, stdout: r.stdout, stderr: String(r.stderr).slice(0, 1000) }));
`;

/** Not bubblewrap: runs what follows `--` on the host, as it is. */
const fakeBwrap = '#!/bin/sh\nwhile [ $# -gt 0 ]; do\n  if [ "$1" = "--" ]; then shift; exec "$@"; fi\n  shift\ndone\nexit 99\n';

interface Outcome {
  readonly refused?: string;
  readonly status?: number;
  readonly stdout?: string;
  readonly stderr?: string;
}

/** One settings file through the real library, the command in its sandbox, from the project directory (asynchronous: a test may serve a socket meanwhile). */
function srt(scratch: string, project: string, settings: object, argv: readonly string[]): Promise<Outcome> {
  const script = join(scratch, 'driver.mjs');
  writeFileSync(script, driver);
  const file = join(scratch, `settings-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(settings));
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [script, join(srtDir, 'dist', 'index.js'), join(srtDir, 'dist', 'utils', 'config-loader.js'), file, ...argv],
      {
        cwd: project,
        // The system's programs only, as srt-differential runs it.
        env: { HOME: process.env.HOME ?? '/root', PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C.UTF-8' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out) as Outcome) : reject(new Error(`the driver exited ${code}: ${err}`)),
    );
  });
}

/** A project and a directory outside every write grant, in a scratch directory removed afterwards. */
async function inScratch(f: (scratch: string, project: string, outside: string) => Promise<void>): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'boxwright-srt-reach-'));
  try {
    const project = join(scratch, 'project');
    const outside = join(scratch, 'outside');
    mkdirSync(join(project, 'tools'), { recursive: true });
    mkdirSync(outside);
    await f(scratch, project, outside);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const plain = (extra: object = {}, network: object = {}) => ({
  network: { allowedDomains: [], deniedDomains: [], ...network },
  filesystem: { denyRead: [], allowWrite: ['.'], denyWrite: [] },
  ...extra,
});

describe('sandbox-runtime 0.0.83: a ripgrep.command in the project runs on the host', { skip }, () => {
  test('srt runs the project rg outside the sandbox (it writes where the command cannot); the control does not', () =>
    inScratch(async (scratch, project, outside) => {
      const mark = join(outside, 'rg-ran');
      writeFileSync(join(project, 'tools', 'rg'), `#!/bin/sh\necho ran > '${mark}'\nexec ${onPath('rg')} "$@"\n`);
      chmodSync(join(project, 'tools', 'rg'), 0o755);
      // Control: the sandboxed command cannot write there, and the system's rg leaves no mark.
      const control = await srt(scratch, project, plain(), ['sh', '-c', `echo x > '${mark}'`]);
      assert.notEqual(control.status, 0, JSON.stringify(control));
      assert.equal(existsSync(mark), false);
      const r = await srt(scratch, project, plain({ ripgrep: { command: join(project, 'tools', 'rg') } }), ['true']);
      assert.equal(r.status, 0, JSON.stringify(r));
      assert.equal(readFileSync(mark, 'utf8'), 'ran\n');
    }));
});

describe('sandbox-runtime 0.0.83: allowAllUnixSockets reaches a socket of the host', { skip }, () => {
  test('the command talks to a host unix socket with it, and cannot without it', () =>
    inScratch(async (scratch, project, outside) => {
      const path = join(outside, 'host.sock');
      const server = createServer((c) => c.end('hello from the host\n'));
      await new Promise<void>((resolve) => server.listen(path, resolve));
      try {
        const argv = ['socat', '-u', `UNIX-CONNECT:${path}`, '-'];
        const control = await srt(scratch, project, plain(), argv);
        assert.notEqual(control.status, 0, JSON.stringify(control));
        assert.doesNotMatch(control.stdout ?? '', /hello/);
        const r = await srt(scratch, project, plain({}, { allowAllUnixSockets: true }), argv);
        assert.equal(r.status, 0, JSON.stringify(r));
        assert.equal(r.stdout, 'hello from the host\n');
        // The gate fails on the change.
        const view = hostView(process.env.HOME ?? '/root');
        const check = (s: object) => checkConfig(Buffer.from(JSON.stringify(s)), { file: 'srt-settings.json', view, worktree: project });
        const d = await diffChecks(check(plain()), check(plain({}, { allowAllUnixSockets: true })), PLATFORMS, { artifacts: false });
        assert.ok('delta' in d);
        assert.ok(gateFailures(d.delta).includes('the settings widen: `network.allowAllUnixSockets`'), gateFailures(d.delta).join('\n'));
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    }));
});

describe('sandbox-runtime 0.0.83: a bwrapPath in the project runs the command outside bubblewrap', { skip }, () => {
  test('the command reads a denied file with the project bwrapPath, not without it; lint and the gate say so', async () => {
    await inScratch(async (scratch, project, outside) => {
      writeFileSync(join(outside, 'secret.txt'), 'the secret\n');
      writeFileSync(join(project, 'tools', 'bwrap'), fakeBwrap);
      chmodSync(join(project, 'tools', 'bwrap'), 0o755);
      const settings = (extra: object) => ({
        network: { allowedDomains: [], deniedDomains: [] },
        filesystem: { denyRead: [outside], allowWrite: ['.'], denyWrite: [] },
        ...extra,
      });
      const base = settings({});
      const head = settings({ bwrapPath: join(project, 'tools', 'bwrap') });
      const run = (s: object) => srt(scratch, project, s, ['cat', join(outside, 'secret.txt')]);
      // Control: the system's bubblewrap keeps the denied directory out.
      const kept = await run(base);
      assert.equal(kept.refused, undefined);
      assert.notEqual(kept.status, 0, JSON.stringify(kept));
      assert.doesNotMatch(kept.stdout ?? '', /the secret/);
      // The project's "bwrap": the same command reads it.
      const escaped = await run(head);
      assert.equal(escaped.refused, undefined);
      assert.equal(escaped.status, 0, JSON.stringify(escaped));
      assert.equal(escaped.stdout, 'the secret\n');

      // boxwright: lint refuses the head on Linux, and the gate fails on the change.
      const view = hostView(process.env.HOME ?? '/root');
      const check = (s: object) =>
        checkConfig(Buffer.from(JSON.stringify(s, null, 2)), { file: 'srt-settings.json', view, worktree: project });
      const b = check(base);
      const h = check(head);
      const bypass = h.diagnostics.filter((d) => d.ruleId === 'sandbox-bypass' && d.severity === 'error');
      assert.deepEqual(
        bypass.map((d) => d.message),
        [
          `\`bwrapPath\` is ${join(project, 'tools', 'bwrap')}, in the project and writable in the sandbox: sandbox-runtime runs it on the host to build the sandbox (a script there runs the command without bubblewrap); whoever writes it runs outside the sandbox, with all your access`,
        ],
      );
      assert.equal(h.verdicts.linux, 'refused');
      const d = await diffChecks(b, h, PLATFORMS, { artifacts: false });
      assert.ok('delta' in d);
      assert.ok(gateFailures(d.delta).includes('the settings widen: `bwrapPath`'), gateFailures(d.delta).join('\n'));
    });
  });
});

describe('sandbox-runtime 0.0.83: a domain added to allowedDomains is reached through its proxy', { skip }, () => {
  test('the command fetches from an allowed name through srt, not from one left out; the gate fails on the addition', () =>
    inScratch(async (scratch, project) => {
      // A server on this machine's loopback only (no traffic leaves it), named `localhost`, reached through srt's HTTP proxy.
      const { createServer: createHttpServer } = await import('node:http');
      const server = createHttpServer((_req, res) => res.end('hello through the proxy\n'));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as { port: number }).port;
      try {
        // srt's environment sends localhost past its proxy (NO_PROXY); --noproxy '' sends every name through it, as a domain is.
        const argv = ['curl', '-sS', '--noproxy', '', '--max-time', '10', `http://localhost:${port}/`];
        // Control: without the name, srt's proxy refuses it.
        const control = await srt(scratch, project, plain(), argv);
        assert.doesNotMatch(control.stdout ?? '', /hello through the proxy/, JSON.stringify(control));
        assert.match(control.stdout ?? '', /blocked by network allowlist/, JSON.stringify(control));
        const r = await srt(scratch, project, plain({}, { allowedDomains: ['localhost'] }), argv);
        assert.equal(r.status, 0, JSON.stringify(r));
        assert.equal(r.stdout, 'hello through the proxy\n');
        // The gate fails on the change, and passes the reverse.
        const view = hostView(process.env.HOME ?? '/root');
        const check = (s: object) => checkConfig(Buffer.from(JSON.stringify(s)), { file: 'srt-settings.json', view, worktree: project });
        const wider = await diffChecks(check(plain()), check(plain({}, { allowedDomains: ['localhost'] })), PLATFORMS, {
          artifacts: false,
        });
        assert.ok('delta' in wider);
        assert.ok(
          gateFailures(wider.delta).some((f) => f.includes('network.allowedDomains')),
          gateFailures(wider.delta).join('\n'),
        );
        const narrower = await diffChecks(check(plain({}, { allowedDomains: ['localhost'] })), check(plain()), PLATFORMS, {
          artifacts: false,
        });
        assert.ok('delta' in narrower);
        assert.deepEqual(gateFailures(narrower.delta), []);
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    }));
});
