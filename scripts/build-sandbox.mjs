// boxwright-sandbox (targets/linux/launcher/*.c and targets/linux/landlock/
// landlock.c: the launcher and the in-sandbox step, one program), built
// static for x86_64 and aarch64 into dist/sandbox/boxwright-sandbox.<arch>,
// each with the first compiler found that targets it: $CC, cc, gcc or clang
// for the host's architecture, then <arch>-linux-gnu-gcc (Debian's cross
// compilers, gcc-aarch64-linux-gnu / gcc-x86-64-linux-gnu).
//
// A missing compiler is a note, never a failed build: `boxwright compile`
// then writes no launcher and `run` refuses. A compiler that fails is a
// failed build in CI and a note elsewhere (a user's install must not break
// on a compiler boxwright has never seen).
//
//   node scripts/build-sandbox.mjs            build (what scripts/build.mjs does)
//   node scripts/build-sandbox.mjs --verify   check that both programs are there,
//                                             static ELF for their machine (prepublishOnly)
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const launcherDir = join(root, 'targets', 'linux', 'launcher');
export const sources = [
  ...readdirSync(launcherDir)
    .filter((f) => f.endsWith('.c'))
    .sort()
    .map((f) => join(launcherDir, f)),
  join(root, 'targets', 'linux', 'landlock', 'landlock.c'),
];
export const outDir = join(root, 'dist', 'sandbox');
export const arches = ['x86_64', 'aarch64'];
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const flags = ['-std=gnu11', '-Wall', '-Wextra', '-Werror', '-O2', '-static', '-s', `-DBOXWRIGHT_VERSION="${version}"`];
export const binaryName = (arch) => `boxwright-sandbox.${arch}`;
// ELF e_machine of each architecture.
const elfMachine = { x86_64: 62, aarch64: 183 };

const hostArch = process.arch === 'x64' ? 'x86_64' : process.arch === 'arm64' ? 'aarch64' : undefined;

/** The first compiler that targets `arch` (by its -dumpmachine), or undefined. */
export function compilerFor(arch) {
  const candidates = [...(arch === hostArch ? [process.env.CC, 'cc', 'gcc', 'clang'] : []), `${arch}-linux-gnu-gcc`];
  for (const cc of candidates) {
    if (!cc) continue;
    const r = spawnSync(cc, ['-dumpmachine'], { encoding: 'utf8' });
    if (r.status === 0 && r.stdout.startsWith(`${arch}-`) && r.stdout.includes('linux')) return cc;
  }
  return undefined;
}

function note(text) {
  process.stderr.write(`build: ${text}\n`);
}

/**
 * Starts the compiles (so that they run beside tsc) and returns a promise
 * that they ended; in CI, a compiler that failed ends the build (exit 1).
 */
export function buildSandboxPrograms() {
  mkdirSync(outDir, { recursive: true });
  return Promise.all(
    arches.map((arch) => {
      const cc = compilerFor(arch);
      if (!cc) {
        note(
          arch === hostArch
            ? `no C compiler for ${arch} (cc, gcc, clang): boxwright-sandbox (the launcher and Landlock helper) was not built, so compile writes no launcher and \`boxwright run\` refuses. Debian: apt-get install gcc libc6-dev`
            : `no ${arch} cross compiler (${arch}-linux-gnu-gcc): dist/sandbox lacks the ${arch} program, so a tarball packed here would too`,
        );
        return Promise.resolve();
      }
      const out = join(outDir, binaryName(arch));
      return new Promise((resolve) => {
        const child = spawn(cc, [...flags, '-o', out, ...sources], { stdio: ['ignore', 'inherit', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (d) => (stderr += d));
        child.on('error', (e) => finish(`${cc}: ${e.message}`));
        child.on('close', (status) => finish(status === 0 ? undefined : `${cc} exited with ${status}\n${stderr}`));
        function finish(failure) {
          if (!failure) return resolve();
          note(`the ${arch} boxwright-sandbox did not build: ${failure}`);
          // In CI a program that does not build is a failed build; elsewhere, run refuses without it.
          if (process.env.CI) process.exit(1);
          resolve();
        }
      });
    }),
  );
}

/** Why `file` is not a static ELF executable for `arch`, or undefined. */
export function programProblem(file, arch) {
  let b;
  try {
    b = readFileSync(file);
  } catch (e) {
    return `missing (${e.code})`;
  }
  if (b.length < 64 || b.readUInt32BE(0) !== 0x7f454c46) return 'not an ELF file';
  if (b[4] !== 2 || b[5] !== 1) return 'not a 64-bit little-endian ELF file';
  const machine = b.readUInt16LE(18);
  if (machine !== elfMachine[arch]) return `ELF machine ${machine}, not ${arch} (${elfMachine[arch]})`;
  // A PT_INTERP program header: dynamically linked, so it would not run in a view without its loader.
  const phoff = Number(b.readBigUInt64LE(32));
  const phentsize = b.readUInt16LE(54);
  const phnum = b.readUInt16LE(56);
  for (let i = 0; i < phnum; i++) if (b.readUInt32LE(phoff + i * phentsize) === 3) return 'dynamically linked (has PT_INTERP)';
  return undefined;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === '--verify') {
    const problems = arches.flatMap((arch) => {
      const p = programProblem(join(outDir, binaryName(arch)), arch);
      return p ? [`dist/sandbox/${binaryName(arch)}: ${p}`] : [];
    });
    for (const p of problems) process.stderr.write(`${p}\n`);
    if (problems.length) {
      process.stderr.write(
        'the package must ship boxwright-sandbox for both architectures: install gcc and gcc-aarch64-linux-gnu (or gcc-x86-64-linux-gnu) with libc6-dev-*-cross, then npm run build\n',
      );
      process.exit(1);
    }
  } else {
    await buildSandboxPrograms();
  }
}
