// boxwright-sandbox's launcher parts that need no sandbox: the launch file
// (the TypeScript encoder and decoder, and against the C parser by
// --check-launch), the config digest against Node's crypto, the bubblewrap
// option table against test/linux/bwrap-options.ts, --version in both roles.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { BWRAP_OPERANDS } from './bwrap-options.js';
import {
  decodeLaunchFile,
  encodeLaunchFile,
  LAUNCH_ARCHES,
  launcherPath,
  LaunchFileError,
  NO_TRUST_CHECK,
  type LaunchFile,
} from '../../targets/linux/launcher/index.js';
import { envAllowlist } from '../../targets/run/env.js';
import { repoRoot, requireOrSkip } from '../helpers.js';
import { arch, program, sha256 } from './launcher-support.js';
import { onPath } from './support.js';
import { finished, WAIT_LIMIT_MS } from '../waits.js';
import { runs } from '../budget.js';

const skipProgram = requireOrSkip(
  program !== undefined,
  `boxwright-sandbox dist/sandbox/boxwright-sandbox.${arch ?? '?'} (a C compiler: Debian gcc, libc6-dev)`,
);
const dir = mkdtempSync(join(tmpdir(), 'boxwright-launcher-build-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const text = (b: Uint8Array): string => new TextDecoder().decode(b);

const sample: LaunchFile = {
  config: '/home/u/project/box.toml',
  configSha256: 'a'.repeat(64),
  principal: 'tool.fmt',
  args: { name: 'tool.fmt.bwrap.args', sha256: 'b'.repeat(64) },
  seccomp: {
    aarch64: { name: 'seccomp.aarch64.bpf', sha256: 'c'.repeat(64) },
    x86_64: { name: 'seccomp.x86_64.bpf', sha256: 'd'.repeat(64) },
  },
  landlock: { name: 'tool.fmt.landlock', sha256: 'e'.repeat(64) },
  bwrap: { path: '/usr/bin/bwrap', uid: 0, mode: 0o4755 },
  env: ['PATH', 'HOME'],
  envPrefixes: ['LC_'],
  compileOptions: ['--home', '/home/u', '--landlock', 'off'],
  trust: { walk: ['/home/u/project'], names: ['.envrc', '.git'], keep: ['/home/u/project/.git'], absent: ['/home/u/.bashrc'] },
};

describe('encodeLaunchFile / decodeLaunchFile', () => {
  it('writes the records in their order, seccomp by architecture, each token NUL-terminated', () => {
    assert.equal(
      text(encodeLaunchFile(sample)),
      'launch\x003\x00config\x00/home/u/project/box.toml\x00config-sha256\x00' +
        'a'.repeat(64) +
        '\x00principal\x00tool.fmt\x00args\x00tool.fmt.bwrap.args\x00' +
        'b'.repeat(64) +
        '\x00' +
        `seccomp\x00x86_64\x00seccomp.x86_64.bpf\x00${'d'.repeat(64)}\x00seccomp\x00aarch64\x00seccomp.aarch64.bpf\x00${'c'.repeat(64)}\x00landlock\x00tool.fmt.landlock\x00${'e'.repeat(64)}\x00` +
        'bwrap\x00/usr/bin/bwrap\x000\x004755\x00env\x00PATH\x00env\x00HOME\x00env-prefix\x00LC_\x00' +
        'compile-option\x00--home\x00compile-option\x00/home/u\x00compile-option\x00--landlock\x00compile-option\x00off\x00' +
        'walk\x00/home/u/project\x00trusted-name\x00.envrc\x00trusted-name\x00.git\x00keep\x00/home/u/project/.git\x00' +
        'absent\x00/home/u/.bashrc\x00',
    );
    assert.match(
      text(encodeLaunchFile({ ...sample, landlock: undefined, env: [], envPrefixes: [], compileOptions: [], trust: NO_TRUST_CHECK })),
      /landlock\x00none\x00bwrap\x00\/usr\/bin\/bwrap\x000\x004755\x00$/,
    );
  });

  it('envAllowlist() is targets/run/env-allowlist.json', () => {
    const json = JSON.parse(readFileSync(join(repoRoot, 'targets', 'run', 'env-allowlist.json'), 'utf8')) as {
      names: object;
      prefixes: object;
    };
    assert.deepEqual(envAllowlist(), { env: Object.keys(json.names), envPrefixes: Object.keys(json.prefixes) });
  });

  it('refuses what the launcher would refuse', () => {
    const bad: [string, Partial<LaunchFile>][] = [
      ['relative config', { config: 'box.toml' }],
      ['uppercase digest', { configSha256: 'A'.repeat(64) }],
      ['short digest', { configSha256: 'a'.repeat(63) }],
      ['empty principal', { principal: '' }],
      ['args in another directory', { args: { name: '../x.bwrap.args', sha256: 'b'.repeat(64) } }],
      ['args `..`', { args: { name: '..', sha256: 'b'.repeat(64) } }],
      ['args digest short', { args: { name: 'a.bwrap.args', sha256: 'b'.repeat(63) } }],
      ['no seccomp', { seccomp: {} }],
      ['unknown arch', { seccomp: { riscv64: { name: 'x.bpf', sha256: 'c'.repeat(64) } } as LaunchFile['seccomp'] }],
      ['seccomp path', { seccomp: { x86_64: { name: '/abs/x.bpf', sha256: 'c'.repeat(64) } } }],
      ['seccomp digest uppercase', { seccomp: { x86_64: { name: 'x.bpf', sha256: 'C'.repeat(64) } } }],
      ['landlock `none` as a file', { landlock: { name: 'none', sha256: 'e'.repeat(64) } }],
      ['relative bwrap', { bwrap: { path: 'bwrap', uid: 0, mode: 0o755 } }],
      ['bwrap mode beyond the permission bits', { bwrap: { path: '/usr/bin/bwrap', uid: 0, mode: 0o10000 } }],
      ['negative bwrap uid', { bwrap: { path: '/usr/bin/bwrap', uid: -1, mode: 0o755 } }],
      ['env with =', { env: ['A=B'] }],
      ['empty env', { env: [''] }],
      ['empty prefix', { envPrefixes: [''] }],
      ['NUL', { principal: 'a\0b' }],
      ['relative walk', { trust: { ...sample.trust, walk: ['project'] } }],
      ['relative keep', { trust: { ...sample.trust, keep: ['.git'] } }],
      ['relative absent', { trust: { ...sample.trust, absent: ['~/.bashrc'] } }],
      ['trusted-name with /', { trust: { ...sample.trust, names: ['a/.git'] } }],
      ['trusted-name ..', { trust: { ...sample.trust, names: ['..'] } }],
    ];
    for (const [what, change] of bad) assert.throws(() => encodeLaunchFile({ ...sample, ...change }), LaunchFileError, what);
  });

  it('decode(encode(l)) is l (property)', () => {
    const name = fc.stringMatching(/^[^/\0]+$/).filter((s) => s !== '.' && s !== '..' && s !== 'none');
    const envName = fc.stringMatching(/^[^=\0]+$/);
    const hex = fc.stringMatching(/^[0-9a-f]{64}$/);
    const file = fc.record({ name, sha256: hex });
    const launch = fc.record({
      config: fc.stringMatching(/^\/[^\0]*$/),
      configSha256: hex,
      principal: fc.stringMatching(/^[^\0]+$/),
      args: file,
      seccomp: fc.record({ x86_64: file, aarch64: file }, { requiredKeys: ['x86_64'] }),
      landlock: fc.option(file, { nil: undefined }),
      bwrap: fc.record({
        path: fc.stringMatching(/^\/[^\0]*$/),
        uid: fc.integer({ min: 0, max: 0xffffffff }),
        mode: fc.integer({ min: 0, max: 0o7777 }),
      }),
      env: fc.array(envName, { maxLength: 4 }),
      envPrefixes: fc.array(envName, { maxLength: 2 }),
      compileOptions: fc.array(fc.stringMatching(/^[^\0]*$/), { maxLength: 4 }),
      trust: fc.record({
        walk: fc.array(fc.stringMatching(/^\/[^\0]*$/), { maxLength: 3 }),
        names: fc.array(name, { maxLength: 3 }),
        keep: fc.array(fc.stringMatching(/^\/[^\0]*$/), { maxLength: 3 }),
        absent: fc.array(fc.stringMatching(/^\/[^\0]*$/), { maxLength: 3 }),
      }),
    });
    // fast-check's records have no prototype; the decoder's are plain objects.
    const plain = (l: LaunchFile): LaunchFile => ({
      ...l,
      args: { ...l.args },
      seccomp: Object.fromEntries(Object.entries(l.seccomp).map(([a, f]) => [a, { ...f }])),
      landlock: l.landlock && { ...l.landlock },
      bwrap: { ...l.bwrap },
      trust: { ...l.trust },
    });
    fc.assert(fc.property(launch, (l) => assert.deepEqual(decodeLaunchFile(encodeLaunchFile(l)), plain(l))));
  });
});

/** --check-launch's lines for a decoded launch file (bytes below 0x20 and \ as \xHH), as launch_print writes them. */
function printLines(l: LaunchFile): string[] {
  const esc = (s: string): string => s.replace(/[\0-\x1f\\]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return [
    'launch 3',
    `config ${esc(l.config)}`,
    `config-sha256 ${l.configSha256}`,
    `principal ${esc(l.principal)}`,
    `args ${esc(l.args.name)} ${l.args.sha256}`,
    ...LAUNCH_ARCHES.filter((a) => l.seccomp[a] !== undefined).map(
      (a) => `seccomp ${a} ${esc(l.seccomp[a]!.name)} ${l.seccomp[a]!.sha256}`,
    ),
    l.landlock === undefined ? 'landlock none' : `landlock ${esc(l.landlock.name)} ${l.landlock.sha256}`,
    `bwrap ${esc(l.bwrap.path)} ${l.bwrap.uid} ${l.bwrap.mode.toString(8).padStart(4, '0')}`,
    ...l.env.map((n) => `env ${esc(n)}`),
    ...l.envPrefixes.map((p) => `env-prefix ${esc(p)}`),
    ...l.compileOptions.map((o) => `compile-option ${esc(o)}`),
    ...l.trust.walk.map((p) => `walk ${esc(p)}`),
    ...l.trust.names.map((n) => `trusted-name ${esc(n)}`),
    ...l.trust.keep.map((p) => `keep ${esc(p)}`),
    ...l.trust.absent.map((p) => `absent ${esc(p)}`),
  ];
}

describe('the C launch-file parser against the TypeScript decoder', { skip: skipProgram }, () => {
  it('accept the same token streams and read them the same way (differential, property)', () => {
    const one = <T>(...xs: T[]) => fc.constantFrom(...xs);
    const value = one(
      '1',
      '2',
      '0',
      '00',
      '0755',
      '755',
      '07777',
      '4294967295',
      '4294967296',
      '',
      '/',
      '/abs/c.toml',
      'rel.toml',
      '.',
      '..',
      'a/b',
      'none',
      'x=y',
      'tab\there',
      'back\\slash',
      'x86_64',
      'aarch64',
      'riscv64',
      'a'.repeat(64),
      'A'.repeat(64),
      'f'.repeat(63),
      'PATH',
      'LC_',
      'env',
      'seccomp',
      '.git',
      '/home/u/.bashrc',
    );
    const keyword = one(
      'launch',
      'config',
      'config-sha256',
      'principal',
      'args',
      'seccomp',
      'landlock',
      'bwrap',
      'env',
      'env-prefix',
      'compile-option',
      'walk',
      'trusted-name',
      'keep',
      'absent',
      'bogus',
      '',
    );
    const valid = (landlock: boolean): string[] =>
      text(encodeLaunchFile({ ...sample, ...(landlock ? {} : { landlock: undefined }) }))
        .slice(0, -1)
        .split('\0');
    // Mostly a valid file with one or two defects: a token replaced, dropped,
    // duplicated or inserted, records swapped, the final NUL missing.
    const edit = fc.oneof(
      fc.record({ kind: fc.constant('replace' as const), at: fc.nat(40), token: fc.oneof(value, keyword) }),
      fc.record({ kind: fc.constant('drop' as const), at: fc.nat(40) }),
      fc.record({
        kind: fc.constant('insert' as const),
        at: fc.nat(40),
        tokens: fc.array(fc.oneof(value, keyword), { minLength: 1, maxLength: 3 }),
      }),
      fc.record({ kind: fc.constant('swap' as const), at: fc.nat(40), to: fc.nat(40) }),
    );
    const stream = fc.record({ edits: fc.array(edit, { maxLength: 2 }), terminated: fc.nat(9), landlock: fc.boolean() });
    const seen = { accepted: 0, refused: 0 };
    fc.assert(
      fc.property(stream, ({ edits, terminated, landlock }) => {
        const tokens = valid(landlock);
        for (const e of edits) {
          const at = e.at % (tokens.length + 1);
          if (e.kind === 'replace' && at < tokens.length) tokens[at] = e.token;
          if (e.kind === 'drop') tokens.splice(at, 1);
          if (e.kind === 'insert') tokens.splice(at, 0, ...e.tokens);
          if (e.kind === 'swap') {
            const to = e.to % tokens.length;
            [tokens[at % tokens.length], tokens[to]] = [tokens[to]!, tokens[at % tokens.length]!];
          }
        }
        const raw = tokens
          .map((t) => `${t}\0`)
          .join('')
          .slice(0, terminated === 0 ? -1 : undefined);
        const bytes = new TextEncoder().encode(raw);
        let decoded: LaunchFile | undefined;
        try {
          decoded = decodeLaunchFile(bytes);
        } catch (e) {
          if (!(e instanceof LaunchFileError)) throw e;
        }
        seen[decoded ? 'accepted' : 'refused']++;
        const c = spawnSync(program!, ['--check-launch'], { input: bytes, encoding: 'utf8' });
        assert.equal(c.status, decoded ? 0 : 125, `${JSON.stringify(raw)}: ${c.stderr}`);
        if (decoded) assert.deepEqual(c.stdout.split('\n').slice(0, -1), printLines(decoded), JSON.stringify(raw));
        else assert.match(c.stderr, /^boxwright-sandbox: .+\n$/);
      }),
      { numRuns: runs(600) },
    );
    // Both sides of the comparison were exercised.
    assert.ok(seen.accepted > 60 && seen.refused > 60, JSON.stringify(seen));
  });
});

describe('the launcher as a program', { skip: skipProgram }, () => {
  it('--version in both roles: the package version, the architecture, the launch format', () => {
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    const run = join(dir, 'agent.run');
    copyFileSync(program!, run);
    chmodSync(run, 0o755);
    for (const file of [program!, run]) {
      const r = spawnSync(file, ['--version'], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, `boxwright-sandbox ${version} (${arch}, launch format 3)\n`);
    }
  });

  it("its table of bubblewrap options is bwrap-options.ts's: the same names and operand counts, in order", () => {
    const src = readFileSync(join(repoRoot, 'targets', 'linux', 'launcher', 'bwrap-argv.c'), 'utf8');
    const table = /bwrap_options\[\] = \{([^;]+)\};/.exec(src)![1]!;
    const entries = [...table.matchAll(/\{"(--[a-z0-9-]+)", (\d)\}/g)].map((m) => [m[1], Number(m[2])]);
    assert.deepEqual(entries, Object.entries(BWRAP_OPERANDS));
  });

  it("the config's SHA-256 is Node's, at every padding boundary: the digest accepted, one digit off refused", () => {
    // The launcher checks the digest before it looks at bubblewrap: with
    // the recorded one missing, an accepted config gets as far as that.
    const sub = mkdtempSync(join(dir, 'sha-'));
    const run = join(sub, 'agent.run');
    copyFileSync(program!, run);
    chmodSync(run, 0o755);
    const env = { PATH: process.env.PATH ?? '/usr/bin' };
    for (const size of [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 1000, 1 << 20]) {
      const config = join(sub, `c-${size}.toml`);
      const bytes = randomBytes(size);
      writeFileSync(config, bytes);
      const digest = sha256(bytes);
      const launchFile = (configSha256: string): void =>
        writeFileSync(
          join(sub, 'agent.launch'),
          encodeLaunchFile({
            ...sample,
            config,
            configSha256,
            landlock: undefined,
            bwrap: { path: '/nonexistent/bwrap', uid: 0, mode: 0o755 },
          }),
        );
      launchFile(digest);
      const ok = finished(spawnSync(run, ['/usr/bin/true'], { env, encoding: 'utf8', timeout: WAIT_LIMIT_MS }), `${run} /usr/bin/true`);
      assert.equal(ok.status, 125);
      assert.match(ok.stderr, /bubblewrap \(\/nonexistent\/bwrap\) cannot be started/, `${size} bytes: ${ok.stderr}`);
      launchFile(digest.slice(0, -1) + (digest.endsWith('0') ? '1' : '0'));
      const off = finished(spawnSync(run, ['/usr/bin/true'], { env, encoding: 'utf8', timeout: WAIT_LIMIT_MS }), `${run} /usr/bin/true`);
      assert.equal(off.status, 125);
      assert.match(
        off.stderr,
        new RegExp(`changed since the sandbox in .* was compiled from it \\(sha256 ${digest}, compiled from`),
        `${size} bytes`,
      );
    }
  });

  it('launcherPath finds only an executable file in <root>/dist/sandbox', () => {
    const root = mkdtempSync(join(dir, 'pkg-'));
    assert.equal(launcherPath('x86_64', root), undefined);
    spawnSync('mkdir', ['-p', join(root, 'dist', 'sandbox')]);
    writeFileSync(join(root, 'dist', 'sandbox', 'boxwright-sandbox.aarch64'), '');
    assert.equal(launcherPath('aarch64', root), undefined);
    chmodSync(join(root, 'dist', 'sandbox', 'boxwright-sandbox.aarch64'), 0o755);
    assert.equal(launcherPath('aarch64', root), join(root, 'dist', 'sandbox', 'boxwright-sandbox.aarch64'));
  });
});

// The other architecture's program (aarch64's on x86_64, x86_64's on aarch64), emulated.
const other = arch === 'aarch64' ? 'x86_64' : 'aarch64';
const qemu = [`qemu-${other}-static`, `qemu-${other}`].find((q) => onPath(q));
const otherProgram = launcherPath(other);
describe(`the ${other} program under qemu-user`, {
  skip: requireOrSkip(!!qemu && !!otherProgram && !!program, `qemu-user (Debian qemu-user-static) and both programs`),
}, () => {
  it('--version, and --check-launch reading launch files exactly as the host program does', () => {
    const v = spawnSync(qemu!, [otherProgram!, '--version'], { encoding: 'utf8' });
    assert.match(v.stdout, new RegExp(`^boxwright-sandbox \\S+ \\(${other}, launch format 3\\)\\n$`));
    const good = encodeLaunchFile(sample);
    for (const bytes of [good, good.subarray(0, good.length - 1), new TextEncoder().encode('launch\x003\x00')]) {
      const a = spawnSync(qemu!, [otherProgram!, '--check-launch'], { input: bytes, encoding: 'utf8' });
      const h = spawnSync(program!, ['--check-launch'], { input: bytes, encoding: 'utf8' });
      assert.deepEqual([a.status, a.stdout, a.stderr], [h.status, h.stdout, h.stderr]);
    }
  });
});
