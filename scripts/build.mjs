// Build, in four steps:
// 1. tsc type-checks everything and emits dist/ (the tests run from there);
// 2. what would otherwise be computed at start-up is computed here, into
//    dist/: the JSON Schemas as standalone ajv code
//    (scripts/gen-validators.mjs), the TOML parser's lookahead from its
//    grammar (scripts/gen-lookahead.mjs);
// 3. esbuild bundles the CLI (scripts/bundles.mjs: dist/cli/boxwright.cjs,
//    and lint.cjs for the commands that need no target), because
//    loading hundreds of small modules (chevrotain's lodash imports alone)
//    costs more start-up time than everything else together; runs here
//    write this machine's V8 code cache (see bin/boxwright.cjs), which the
//    package does not ship;
// 4. beside them, boxwright-sandbox (the launcher and Landlock helper),
//    static, for each architecture with a C compiler here
//    (scripts/build-sandbox.mjs); the compiles start first and run while
//    tsc does.
//
// With --if-changed (prepare and npm test), nothing is built when dist/ is
// already the build of these sources (scripts/build-stamp.mjs): npm builds a
// checkout twice in a row (install, then pack), and CI's npm test came
// right after npm ci's build.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const { arches, buildSandboxPrograms, compilerFor } = await import('./build-sandbox.mjs');
const { fingerprint, upToDate, writeStamp } = await import('./build-stamp.mjs');
const inputs = fingerprint(root, Object.fromEntries(arches.map((arch) => [arch, compilerFor(arch)])));
if (process.argv.includes('--if-changed') && upToDate(root, inputs)) {
  process.stderr.write('build: dist/ is already the build of these sources (dist/.build-stamp.json); nothing to do\n');
  process.exit(0);
}
// Start clean: a moved or deleted source must not leave a stale .js behind
// (node --test would still run an old test file).
rmSync(join(root, 'dist'), { recursive: true, force: true });
const sandboxPrograms = buildSandboxPrograms();
execFileSync(process.execPath, [tsc, '-p', root], { stdio: 'inherit', cwd: root });
execFileSync(process.execPath, [join(root, 'scripts', 'gen-validators.mjs')], { stdio: 'inherit', cwd: root });
execFileSync(process.execPath, [join(root, 'scripts', 'gen-lookahead.mjs')], { stdio: 'inherit', cwd: root });

await sandboxPrograms;

const { buildBundles } = await import('./bundles.mjs');
const cliDir = join(root, 'dist', 'cli');
await buildBundles(root, cliDir);

// Warm the code caches with representative runs, so the first real run
// starts as fast as the rest: a lint (dist/cli/lint.cjs), and a run (the
// full bundle: it checks and compiles a config; without bubblewrap it fails
// closed, and still warms everything up to the spawn). A later first run of
// another command adds what it compiles to its bundle's cache.
const scratch = mkdtempSync(join(tmpdir(), 'boxwright-warm-'));
const warm = (args) =>
  spawnSync(process.execPath, [join(root, 'bin', 'boxwright.cjs'), ...args], {
    cwd: root,
    stdio: 'ignore',
    // The warm-up's run writes its sandbox into a scratch cache, never the user's.
    env: { ...process.env, BOXWRIGHT_WRITE_CODE_CACHE: '1', BOXWRIGHT_RUN_CACHE: 'off', NO_COLOR: '1', XDG_CACHE_HOME: scratch },
  });
warm(['lint', '--fs', 'examples/machine.json', 'examples/coding-agent.toml', 'examples/tyba-user-config.toml']);
// And a lint of this machine (--fs host, the default): what a hook runs, with the execution closure's ELF and loader-cache readers.
warm(['lint', 'examples/coding-agent.toml']);
try {
  writeFileSync(join(scratch, 'warm.toml'), '[agent.filesystem]\nread = ["/usr"]\nexec = ["/usr/bin/true"]\n');
  warm(['run', join(scratch, 'warm.toml'), '--fs', 'host', '--', '/usr/bin/true']);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
for (const name of ['lint.cjs', 'boxwright.cjs']) {
  if (!existsSync(join(cliDir, `${name}.cache`)))
    throw new Error(`the warm-up runs wrote no code cache for dist/cli/${name}: the CLI did not start`);
}
// Last, once everything above succeeded: the next --if-changed build of the same inputs has nothing to do.
writeStamp(root, inputs);
