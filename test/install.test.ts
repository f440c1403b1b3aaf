/**
 * Installing boxwright as a new user does (issue 14 items 1 and 17): a
 * global install from a git repository (`git+file://`, as the CI example's
 * `github:` line), from the `npm pack` tarball and from a local path, each
 * into a prefix of its own, then the installed command run. And what the
 * package holds: no install script, no runtime dependency the bundle does
 * not require, no code cache of the build machine's Node, a LICENSE, and
 * every file the README names.
 *
 * Deterministic and off the network: every npm command runs `--offline`
 * (nested ones inherit it through npm's environment), from the cache that
 * `npm ci` filled for this checkout's lockfile; a package missing from it
 * fails the test (ENOTCACHED) rather than reaching out.
 *
 * The installs run side by side, each into its own prefix: the one from git
 * (npm clones the repository, installs its devDependencies and builds it)
 * starts with the pack, the one from the path as soon as the pack is made,
 * and each test waits for its own. One build from scratch, the git
 * install's (pre-commit's hook install, test/precommit.test.ts, makes the
 * other): the pack is a publisher's, in a copy of this checkout as it is
 * (every file, its build, its devDependencies linked), so its prepack finds
 * the build up to date (scripts/build-stamp.mjs) and packs the build these
 * tests ran against, code caches beside it; the path install of that copy
 * finds it up to date too.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { copyBuild, repoRoot } from './helpers.js';
import { finished, within } from './waits.js';

const root = mkdtempSync(join(tmpdir(), 'boxwright-install-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** The environment of a user's shell: none of the `npm test` run's own npm_* variables. */
const env: Record<string, string> = Object.fromEntries(
  Object.entries(process.env).filter((e): e is [string, string] => !e[0].toLowerCase().startsWith('npm_') && e[1] !== undefined),
);
env['NO_COLOR'] = '1';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=ci@boxwright.test', '-c', 'user.name=ci', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
  });
}

function npm(cwd: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = finished(
    spawnSync('npm', [...args, '--offline', '--no-audit', '--no-fund'], { cwd, env, encoding: 'utf8', timeout: 300_000 }),
    `npm ${args.join(' ')}`,
    300_000,
  );
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `npm` as npm() runs it, without blocking: so that installs into different prefixes run side by side. */
function npmAsync(cwd: string, ...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn('npm', [...args, '--offline', '--no-audit', '--no-fund'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const ran = new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (e) => resolve({ status: null, stdout, stderr: `${stderr}${e.message}` }));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
  return within(ran, 300_000, `npm ${args.join(' ')}`, () => child.kill('SIGKILL'));
}

/** Copies this checkout's files (those git lists, tracked or not ignored) that `keep` keeps into `path`. */
function copyCheckout(path: string, keep: (file: string) => boolean): void {
  const files = git(repoRoot, 'ls-files', '-co', '--exclude-standard')
    .split('\n')
    .filter((f) => f && keep(f));
  for (const f of files) {
    if (!existsSync(join(repoRoot, f))) continue; // deleted in the working tree, still tracked
    mkdirSync(dirname(join(path, f)), { recursive: true });
    cpSync(join(repoRoot, f), join(path, f));
  }
}

/** A repository of this checkout's files as a user clones it: no node_modules, no dist. */
function sourceRepository(): string {
  const path = join(root, 'boxwright-src');
  copyCheckout(path, (f) => !/^(snapshots|test|bench)\//.test(f));
  git(path, 'init', '-q');
  git(path, 'add', '-A');
  git(path, 'commit', '-qm', 'source');
  return path;
}

/**
 * A publisher's checkout after `npm ci`: every file of this one, its build
 * (dist/, with the stamp and the code caches the build's runs wrote) and its
 * devDependencies, linked.
 */
function builtCheckout(): string {
  const path = join(root, 'boxwright-built');
  copyCheckout(path, () => true);
  copyBuild(join(path, 'dist'));
  symlinkSync(join(repoRoot, 'node_modules'), join(path, 'node_modules'));
  return path;
}

const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

/** The installed command works: --version, and a lint of an example shipped in the package. */
function assertInstalled(prefix: string, linked = false): string {
  const pkg = join(prefix, 'lib', 'node_modules', 'boxwright');
  const bin = join(prefix, 'bin', 'boxwright');
  const v = spawnSync(bin, ['--version'], { env, encoding: 'utf8' });
  assert.equal(v.status, 0, `${bin} --version: ${v.stderr}`);
  assert.equal(v.stdout, `${version}\n`);
  const lint = spawnSync(bin, ['lint', '--fs', join(pkg, 'examples', 'machine.json'), join(pkg, 'examples', 'coding-agent.toml')], {
    env,
    encoding: 'utf8',
  });
  assert.equal(lint.status, 0, lint.stdout + lint.stderr);
  assert.match(lint.stdout, /coding-agent\.toml \(box\): macos accepted/);
  // The language server is in the package (dist/cli/lsp.cjs): a piped initialize and shutdown are answered, exit 0.
  const frame = (m: object): string => `Content-Length: ${Buffer.byteLength(JSON.stringify(m))}\r\n\r\n${JSON.stringify(m)}`;
  const input =
    frame({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } }) +
    frame({ jsonrpc: '2.0', id: 1, method: 'shutdown', params: null });
  const lsp = spawnSync(bin, ['lsp', '--stdio'], { env, encoding: 'utf8', input });
  assert.equal(lsp.status, 0, lsp.stderr);
  assert.match(lsp.stdout, /"serverInfo":\{"name":"boxwright"/);
  // A local path is installed as a link to it (npm's way), with whatever the checkout holds.
  if (!linked) assert.ok(!existsSync(join(pkg, 'node_modules')), 'no runtime dependency is installed: the bundle requires none');
  return pkg;
}

describe("npm ci: every dependency's install script decided", () => {
  it('each one the lockfile marks is in allowScripts (run or not), and CONTRIBUTING.md says why', () => {
    const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    const withScripts = Object.entries(lock.packages)
      .filter(([path, p]) => path !== '' && p.hasInstallScript)
      .map(([path]) => path.replace(/^.*node_modules\//, ''))
      .sort();
    assert.ok(withScripts.includes('esbuild'), `the lockfile marks install scripts: ${withScripts.join(', ')}`);
    const allowed =
      (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> }).allowScripts ?? {};
    assert.deepEqual(
      withScripts.filter((n) => !(n in allowed)),
      [],
      'not in allowScripts: npm ci names them, and npm 12 skips them',
    );
    assert.deepEqual(
      Object.keys(allowed).filter((n) => !withScripts.includes(n)),
      [],
      'in allowScripts, but no dependency of that name has an install script',
    );
    const contributing = readFileSync(join(repoRoot, 'CONTRIBUTING.md'), 'utf8');
    const section = contributing.slice(contributing.indexOf('## Install scripts'));
    assert.ok(section.length < contributing.length, 'CONTRIBUTING.md has an "Install scripts" section');
    assert.deepEqual(
      withScripts.filter((n) => !section.includes(`\`${n}\``)),
      [],
      'CONTRIBUTING.md says why for each',
    );
  });
});

describe('a global install, as a new user makes it', { timeout: 600_000 }, () => {
  let source = '';
  let built = '';
  let tarball = '';
  type Npm = { status: number | null; stdout: string; stderr: string };
  let fromGit: Promise<Npm> | undefined;
  let fromPath: Promise<Npm> | undefined;
  let builtByPack = 0;
  before(async () => {
    source = sourceRepository();
    // npm clones the repository's commit: what the pack writes into the checkout (node_modules, dist) is not in it.
    fromGit = npmAsync(root, 'install', '-g', '--prefix', join(root, 'prefix-git'), `git+file://${source}`);
    // The pack is a publisher's, in their built checkout.
    built = builtCheckout();
    builtByPack = statSync(join(built, 'dist', 'cli', 'boxwright.cjs')).mtimeMs;
    // pre-commit reads `npm pack`'s stdout as the tarball's name: it must be that alone.
    const packed = await npmAsync(built, 'pack', '--pack-destination', root);
    assert.equal(packed.status, 0, packed.stderr);
    assert.match(packed.stdout, /^boxwright-[\d.]+\.tgz\n$/, `npm pack printed more than the name:\n${packed.stdout}`);
    tarball = join(root, packed.stdout.trim());
    // After the pack: npm prepares a linked directory, which would build the checkout again.
    fromPath = npmAsync(root, 'install', '-g', '--prefix', join(root, 'prefix-path'), built);
  });
  // Whatever a failed test left running ends before the directory goes.
  after(async () => {
    await Promise.all([fromGit, fromPath]);
  });

  it('the tarball holds the built CLI, a LICENSE and no code cache, and installs with no script and no dependency', () => {
    const listed = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((f) => f.replace(/^package\//, ''));
    for (const f of ['bin/boxwright.cjs', 'dist/cli/boxwright.cjs', 'LICENSE', 'README.md', 'CHANGELOG.md', 'examples/machine.json'])
      assert.ok(listed.includes(f), `the tarball lacks ${f}`);
    assert.ok(
      existsSync(join(built, 'dist', 'cli', 'lint.cjs.cache')),
      'the packed checkout holds code caches: the tarball must leave them out',
    );
    assert.deepEqual(
      listed.filter((f) => /\.cache(\.json)?$|^scripts\/|^test\/|node_modules|unpacked/.test(f)),
      [],
      'no build-machine code cache, build script or test',
    );
    assert.equal(
      readFileSync(join(built, 'package.json'), 'utf8'),
      readFileSync(join(repoRoot, 'package.json'), 'utf8'),
      'the manifest is put back after the pack',
    );
    assert.equal(
      statSync(join(built, 'dist', 'cli', 'boxwright.cjs')).mtimeMs,
      builtByPack,
      "the pack's prepare found the checkout's build up to date (scripts/build-stamp.mjs; build this checkout first, as npm test does)",
    );
    const manifest = JSON.parse(execFileSync('tar', ['xzOf', tarball, 'package/package.json'], { encoding: 'utf8' })) as {
      scripts?: Record<string, string>;
      dependencies?: Record<string, string>;
    };
    assert.deepEqual(
      Object.keys(manifest.scripts ?? {}).filter((s) => /^(pre|post)?install$|^prepare$/.test(s)),
      [],
      'an installed package has no install script',
    );
    assert.deepEqual(manifest.dependencies ?? {}, {});
    const prefix = join(root, 'prefix-tarball');
    const r = npm(root, 'install', '-g', '--prefix', prefix, tarball);
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stdout + r.stderr, /install-scripts|allowScripts/, "npm 11's script policy has nothing to warn about");
    assertInstalled(prefix);
  });

  it("the V8 code cache is this machine's: written by the first run, a foreign one ignored cleanly", () => {
    const prefix = join(root, 'prefix-cache');
    assert.equal(npm(root, 'install', '-g', '--prefix', prefix, tarball).status, 0);
    const pkg = join(prefix, 'lib', 'node_modules', 'boxwright');
    const cache = join(pkg, 'dist', 'cli', 'lint.cjs.cache'); // a lint loads lint.cjs
    const lint = () => {
      const r = spawnSync(
        join(prefix, 'bin', 'boxwright'),
        ['lint', '--fs', join(pkg, 'examples', 'machine.json'), join(pkg, 'examples', 'write-only.toml')],
        { env, encoding: 'utf8' },
      );
      return { status: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    assert.ok(!existsSync(cache), 'none shipped');
    const first = lint();
    assert.equal(first.status, 1, first.stderr);
    assert.ok(statSync(cache).size > 100_000, 'the first run wrote one');
    const written = statSync(cache).mtimeMs;
    assert.deepEqual(lint(), first);
    assert.equal(statSync(cache).mtimeMs, written, 'an accepted cache of a command already run is not rewritten');
    // What V8 does with data it did not write for this V8 and this source
    // (another Node version's cache, a truncated file): it rejects it.
    for (const foreign of [Buffer.from('not a V8 code cache'), readFileSync(cache).subarray(0, 4096)]) {
      writeFileSync(cache, foreign);
      assert.deepEqual(lint(), first, 'the same output and status, no warning');
      assert.ok(statSync(cache).size > 100_000, 'and the cache is written anew');
    }
  });

  it('every path the README names exists, and is in the package unless it is a development file', () => {
    const listed = new Set(
      execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' })
        .split('\n')
        .map((f) => f.replace(/^package\//, '')),
    );
    const top = new Set(
      git(repoRoot, 'ls-files')
        .split('\n')
        .map((f) => f.split('/')[0]),
    );
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const named = [...new Set([...readme.matchAll(/`([A-Za-z0-9_.-]+\/[A-Za-z0-9_./-]*)`/g)].map((m) => m[1]!))].filter((p) =>
      top.has(p.split('/')[0]!),
    );
    assert.ok(named.length > 10, named.join(' '));
    const development = /^(test|bench|scripts|snapshots|\.ci|compiler|model|rules|app)\//;
    const problems = named.flatMap((p) => {
      if (!existsSync(join(repoRoot, p))) return [`${p}: no such file in the repository`];
      if (development.test(p)) return [];
      const shipped = p.endsWith('/') ? [...listed].some((f) => f.startsWith(p)) : listed.has(p);
      return shipped ? [] : [`${p}: not in the package`];
    });
    assert.deepEqual(problems, []);
  });

  it('from git (git+file:// of a clone): npm prepares the clone, builds it, installs the package', async () => {
    const prefix = join(root, 'prefix-git');
    const r = await fromGit!;
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const pkg = assertInstalled(prefix);
    assert.ok(!lstatSync(pkg).isSymbolicLink(), 'a real directory, not a link into the deleted clone (npm/cli#3692)');
  });

  it('from a local path (the checkout)', async () => {
    const prefix = join(root, 'prefix-path');
    const r = await fromPath!;
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assertInstalled(prefix, true);
    assert.equal(
      statSync(join(built, 'dist', 'cli', 'boxwright.cjs')).mtimeMs,
      builtByPack,
      "npm's prepare of the built checkout did not build it again (scripts/build-stamp.mjs)",
    );
  });
});

describe('the package', () => {
  it('the bundles require node built-ins only, so the package has no runtime dependency', () => {
    for (const name of ['boxwright.cjs', 'lint.cjs', 'lsp.cjs', 'run-fast.cjs']) {
      const bundle = readFileSync(join(repoRoot, 'dist', 'cli', name), 'utf8');
      const required = [...new Set([...bundle.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]!))];
      assert.ok(required.length > 2, `${name}: ${required.join(' ')}`);
      assert.deepEqual(
        required.filter((r) => !builtinModules.includes(r.replace(/^node:/, ''))),
        [],
        name,
      );
    }
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
      dependencies?: object;
      scripts: Record<string, string>;
    };
    assert.deepEqual(manifest.dependencies ?? {}, {});
  });
  it('a LICENSE, and npm pack tarballs kept out of git', () => {
    assert.match(readFileSync(join(repoRoot, 'LICENSE'), 'utf8'), /^MIT License/);
    assert.equal(spawnSync('git', ['check-ignore', '-q', 'boxwright-0.1.0.tgz'], { cwd: repoRoot }).status, 0, '*.tgz is ignored');
  });
});
