// The Landlock helper as built and shipped, and its rules encoding: the
// TypeScript encoder and decoder against the C parser (--check), the two
// rights tables against each other, the ELF files (readelf), the tarball
// (npm pack), and the aarch64 build under qemu-user.
//
// The differential property starts the helper once per case: 200 cases by
// default (each a process start), BOXWRIGHT_FUZZ_RUNS=1000 for the 1000 it
// ran before (fast-check draws a new seed each run, so runs add up).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import {
  decodeLandlockRules,
  encodeLandlockRules,
  LANDLOCK_RIGHTS,
  LANDLOCK_SCOPES,
  landlockHelperPath,
  LandlockRulesError,
  type DecodedLandlockRuleset,
  type LandlockRight,
} from '../../targets/linux/landlock/rules.js';
import { repoRoot, requireOrSkip } from '../helpers.js';
import { ALL_RIGHTS, arch, helper, onPath, ruleset, scratch } from './landlock-support.js';
import { finished, WAIT_LIMIT_MS } from '../waits.js';
import { runs } from '../budget.js';

const dir = scratch();
after(() => rmSync(dir, { recursive: true, force: true }));
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const skipHelper = requireOrSkip(
  helper !== undefined,
  `the Landlock helper dist/sandbox/boxwright-sandbox.${arch ?? '?'} (a C compiler: Debian gcc, libc6-dev)`,
);

describe('encodeLandlockRules', () => {
  it('writes require-abi, the fs rules in order with rights in bit order, then the scopes, each token NUL-terminated', () => {
    const bytes = encodeLandlockRules(
      ruleset(
        [
          [['read_dir', 'execute', 'read_file'], '/usr'],
          [['write_file'], '/tmp/x y'],
        ],
        ['signal', 'abstract-unix-socket'],
        6,
      ),
    );
    assert.equal(
      text(bytes),
      'require-abi\x006\x00fs\x00execute,read_file,read_dir\x00/usr\x00fs\x00write_file\x00/tmp/x y\x00scope\x00abstract-unix-socket\x00scope\x00signal\x00',
    );
    assert.equal(text(encodeLandlockRules(ruleset([]))), '');
  });

  it('refuses what the helper would refuse: a NUL, a non-canonical path, unknown or repeated or no rights, a bad ABI, an unknown scope', () => {
    const bad: [string, () => unknown][] = [
      ['NUL', () => encodeLandlockRules(ruleset([[['execute'], '/usr/bin/a\0b']]))],
      ['relative', () => encodeLandlockRules(ruleset([[['execute'], 'usr']]))],
      ['..', () => encodeLandlockRules(ruleset([[['execute'], '/usr/../etc']]))],
      ['//', () => encodeLandlockRules(ruleset([[['execute'], '/usr//bin']]))],
      ['trailing /', () => encodeLandlockRules(ruleset([[['execute'], '/usr/']]))],
      ['unknown right', () => encodeLandlockRules(ruleset([[['fly' as LandlockRight], '/usr']]))],
      ['repeated right', () => encodeLandlockRules(ruleset([[['execute', 'execute'], '/usr']]))],
      ['no rights', () => encodeLandlockRules(ruleset([[[], '/usr']]))],
      ['abi', () => encodeLandlockRules(ruleset([], [], 1000))],
      ['abi', () => encodeLandlockRules(ruleset([], [], 1.5))],
      ['scope', () => encodeLandlockRules(ruleset([], ['ptrace' as 'signal']))],
    ];
    for (const [what, f] of bad) assert.throws(f, LandlockRulesError, what);
  });

  it('decode(encode(r)) is r with rights and scopes in bit order (property)', () => {
    const path = fc
      .array(
        fc.stringMatching(/^[^/\0]+$/).filter((c) => c !== '.' && c !== '..'),
        { maxLength: 4 },
      )
      .map((cs) => `/${cs.join('/')}`);
    const rights = fc.uniqueArray(fc.constantFrom(...ALL_RIGHTS), { minLength: 1 });
    const rs = fc.record({
      requireAbi: fc.integer({ min: 0, max: 999 }),
      fs: fc.array(fc.record({ rights, path, origin: fc.constant('baseline' as const) }), { maxLength: 5 }),
      scopes: fc.uniqueArray(fc.constantFrom(...LANDLOCK_SCOPES.map((s) => s.name))),
    });
    fc.assert(
      fc.property(rs, (r) => {
        const order = <T>(all: readonly T[], some: readonly T[]) => all.filter((x) => some.includes(x));
        assert.deepEqual(decodeLandlockRules(encodeLandlockRules(r)), {
          requireAbi: r.requireAbi,
          fs: r.fs.map((f) => ({ rights: order(ALL_RIGHTS, f.rights), path: f.path })),
          scopes: order(
            LANDLOCK_SCOPES.map((s) => s.name),
            r.scopes,
          ),
        });
      }),
    );
  });
});

/** The helper's --check on `bytes`: its exit status and its lines after `abi N`. */
function check(bin: string[], bytes: Uint8Array) {
  const file = join(dir, 'check-rules');
  writeFileSync(file, bytes);
  const r = spawnSync(bin[0]!, [...bin.slice(1), '--check', '--rules-fd', '3'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe', openSync(file, 'r')],
  });
  return { status: r.status, abi: r.stdout.split('\n')[0], lines: r.stdout.split('\n').slice(1, -1), stderr: r.stderr };
}

/** --check's lines for a decoded ruleset (bytes below 0x20 and \ as \xHH). */
function checkLines(r: DecodedLandlockRuleset): string[] {
  const esc = (p: string) => p.replace(/[\0-\x1f\\]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return [
    ...(r.requireAbi ? [`require-abi ${r.requireAbi}`] : []),
    ...r.fs.map((f) => `fs ${f.rights.join(',')} ${esc(f.path)}`),
    ...r.scopes.map((s) => `scope ${s}`),
  ];
}

describe('the C parser against the TypeScript decoder', { skip: skipHelper }, () => {
  it('accept the same token streams and read them the same way (differential, property)', () => {
    // Records that are mostly well formed, so that accepted streams are common
    // and each single defect (a bad operand, a missing one, no final NUL) is exercised.
    const one = <T>(...xs: T[]) => fc.constantFrom(...xs);
    const path = one('/', '/usr', '/usr/bin/ls', '/tab\there', '/back\\slash', 'usr', '/usr/', '/a/../b', '/a/./b', '/a//b', '');
    const rights = one(
      'execute',
      'read_file,execute',
      'truncate,ioctl_dev,refer',
      'execute,execute',
      'execute,',
      ',execute',
      '',
      'fly',
      'Execute',
    );
    const record = fc.oneof(
      fc.tuple(one('require-abi'), one('0', '3', '6', '007', '999', '1000', '-1', '+1', '', ' 3')),
      fc.tuple(one('fs'), rights, path),
      fc.tuple(one('scope'), one('signal', 'abstract-unix-socket', 'ptrace', '')),
      fc.tuple(one('allow', '', 'FS')),
    );
    const stream = fc.record({ records: fc.array(record, { maxLength: 4 }), drop: fc.nat({ max: 2 }), terminated: fc.boolean() });
    fc.assert(
      fc.property(stream, ({ records, drop, terminated }) => {
        const tokens: string[] = records.flat();
        // Now and then a stream cut short, or without its final NUL.
        if (drop === 2 && tokens.length) tokens.pop();
        const raw = tokens
          .map((t) => `${t}\0`)
          .join('')
          .slice(0, terminated || drop === 0 ? undefined : -1);
        const bytes = new TextEncoder().encode(raw);
        let decoded: DecodedLandlockRuleset | undefined;
        try {
          decoded = decodeLandlockRules(bytes);
        } catch (e) {
          if (!(e instanceof LandlockRulesError)) throw e;
        }
        const c = check([helper!], bytes);
        assert.equal(c.status, decoded ? 0 : 125, `${JSON.stringify(raw)}: ${c.stderr}`);
        if (decoded) assert.deepEqual(c.lines, checkLines(decoded), JSON.stringify(raw));
        else assert.match(c.stderr, /^boxwright-sandbox: .*; nothing was run\n$/);
      }),
      { numRuns: runs(200) },
    );
  });

  it("rights.json and the helper's table agree: names, bit order, ABI, file rights", () => {
    const c = check([helper!], encodeLandlockRules(ruleset([[[...ALL_RIGHTS].reverse(), '/']])));
    assert.deepEqual(c.lines, [`fs ${LANDLOCK_RIGHTS.map((r) => r.name).join(',')} /`]);
    const src = readFileSync(join(repoRoot, 'targets', 'linux', 'landlock', 'landlock.c'), 'utf8');
    const table = [...src.matchAll(/\{"([a-z_]+)", LANDLOCK_ACCESS_FS_([A-Z_]+), (\d)\}/g)].map((m) => ({
      name: m[1],
      abi: Number(m[3]),
      macro: m[2]!,
    }));
    assert.deepEqual(
      table.map((t) => [t.name, t.abi]),
      LANDLOCK_RIGHTS.map((r) => [r.name, r.abi]),
    );
    assert.deepEqual(
      table.map((t) => t.macro.toLowerCase()),
      LANDLOCK_RIGHTS.map((r) => r.name),
    );
    const fileExpr = /file_rights = ([^;]+);/.exec(src)![1]!;
    const fileRights = [...fileExpr.matchAll(/LANDLOCK_ACCESS_FS_([A-Z_]+)/g)].map((m) => m[1]!.toLowerCase());
    assert.deepEqual(
      fileRights,
      LANDLOCK_RIGHTS.filter((r) => r.file).map((r) => r.name),
    );
    const scopes = [...src.matchAll(/\{"([a-z-]+)", LANDLOCK_SCOPE_[A-Z_]+, (\d)\}/g)].map((m) => [m[1], Number(m[2])]);
    assert.deepEqual(
      scopes,
      LANDLOCK_SCOPES.map((s) => [s.name, s.abi]),
    );
  });
});

/** readelf's view of a helper: its machine, and whether it asks for a program interpreter. */
function readelf(file: string): { machine: string; interp: boolean } {
  const h = spawnSync('readelf', ['-h', '-l', '-W', file], { encoding: 'utf8' });
  assert.equal(h.status, 0, h.stderr);
  return { machine: /Machine:\s+(.*)/.exec(h.stdout)![1]!.trim(), interp: /\bINTERP\b/.test(h.stdout) };
}
const machines = { x86_64: 'Advanced Micro Devices X86-64', aarch64: 'AArch64' } as const;
const crossCompiler = (a: string) => !!onPath(`${a}-linux-gnu-gcc`);
const other = arch === 'aarch64' ? 'x86_64' : 'aarch64';
const otherHelper = landlockHelperPath(other);
const skipCross = requireOrSkip(
  otherHelper !== undefined,
  `the ${other} Landlock helper (Debian gcc-${other.replace('_', '-')}-linux-gnu, libc6-dev-${other === 'aarch64' ? 'arm64' : 'amd64'}-cross)`,
);

describe('the built helpers', () => {
  it('the host helper is a static ELF executable for this machine (readelf)', {
    skip: skipHelper ?? requireOrSkip(!!onPath('readelf'), 'readelf (binutils)'),
  }, () => {
    assert.deepEqual(readelf(helper!), { machine: machines[arch!], interp: false });
  });

  it(`the ${other} helper is a static ELF executable for ${other} (readelf)`, { skip: skipCross }, () => {
    assert.ok(crossCompiler(other));
    assert.deepEqual(readelf(otherHelper!), { machine: machines[other], interp: false });
  });

  it('landlockHelperPath finds only an executable file in <root>/dist/sandbox', () => {
    const root = join(dir, 'pkg');
    mkdirSync(join(root, 'dist', 'sandbox'), { recursive: true });
    assert.equal(landlockHelperPath('x86_64', root), undefined);
    writeFileSync(join(root, 'dist', 'sandbox', 'boxwright-sandbox.x86_64'), '');
    chmodSync(join(root, 'dist', 'sandbox', 'boxwright-sandbox.x86_64'), 0o644);
    assert.equal(landlockHelperPath('x86_64', root), undefined);
    chmodSync(join(root, 'dist', 'sandbox', 'boxwright-sandbox.x86_64'), 0o755);
    assert.equal(landlockHelperPath('x86_64', root), join(root, 'dist', 'sandbox', 'boxwright-sandbox.x86_64'));
    assert.equal(landlockHelperPath('aarch64', root), undefined);
  });

  it('npm pack ships both helpers, executable', { skip: skipHelper ?? skipCross, timeout: 120_000 }, () => {
    const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: repoRoot, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const files = (JSON.parse(r.stdout) as { files: { path: string; mode: number }[] }[])[0]!.files;
    const helpers = files.filter((f) => f.path.startsWith('dist/sandbox/'));
    assert.deepEqual(helpers.map((f) => [f.path, (f.mode & 0o111) === 0o111]).sort(), [
      ['dist/sandbox/boxwright-sandbox.aarch64', true],
      ['dist/sandbox/boxwright-sandbox.x86_64', true],
    ]);
    // and run's fast path, which bin/boxwright.cjs tries before it loads the CLI
    assert.ok(
      files.some((f) => f.path === 'dist/cli/run-fast.cjs'),
      'the tarball holds dist/cli/run-fast.cjs',
    );
    const verify = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'build-sandbox.mjs'), '--verify'], { encoding: 'utf8' });
    assert.equal(verify.status, 0, verify.stderr);
  });
});

// The other architecture's helper (aarch64's on x86_64, x86_64's on aarch64), emulated.
const qemu = [`qemu-${other}-static`, `qemu-${other}`].find((q) => onPath(q));
const skipQemu = requireOrSkip(!!qemu && !!otherHelper && !!helper, `qemu-user for ${other} (Debian qemu-user-static) and both helpers`);

describe(`the ${other} helper under qemu-user`, { skip: skipQemu }, () => {
  const run = (args: string[], opts: { input?: Uint8Array } = {}) =>
    spawnSync(qemu!, [otherHelper!, ...args], { encoding: 'utf8', ...opts });
  const hostAbi = Number(spawnSync(helper!, ['--abi'], { encoding: 'utf8' }).stdout.trim());

  it("--abi: 0 where qemu does not pass the Landlock syscalls through, else the kernel's", () => {
    const r = run(['--abi']);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(r.stdout === '0\n' || r.stdout === `${hostAbi}\n`, r.stdout);
  });

  it('--check reads a ruleset exactly as the host helper does', () => {
    const bytes = encodeLandlockRules(
      ruleset(
        [
          [ALL_RIGHTS, '/'],
          [['execute'], '/usr/bin/ls'],
          [['read_file', 'truncate'], '/tmp/a\tb\\c'],
        ],
        ['abstract-unix-socket', 'signal'],
        6,
      ),
    );
    const a = check([qemu!, otherHelper!], bytes);
    const h = check([helper!], bytes);
    assert.equal(a.status, 0, a.stderr);
    assert.deepEqual(a.lines, h.lines);
    assert.deepEqual(a.lines, checkLines(decodeLandlockRules(bytes)));
    assert.equal(check([qemu!, otherHelper!], new TextEncoder().encode('fs\0execute\0usr\0')).status, 125);
  });

  it('applying rules under qemu: refused (125, nothing run) where qemu lacks the syscalls, else applied', () => {
    const abi = Number(run(['--abi']).stdout.trim());
    const marker = join(dir, 'qemu-marker');
    const rulesFile = join(dir, 'qemu-rules');
    writeFileSync(rulesFile, encodeLandlockRules(ruleset([[ALL_RIGHTS, '/']])));
    const r = finished(
      spawnSync(qemu!, [otherHelper!, '--rules-fd', '3', '--', '/usr/bin/touch', marker], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe', openSync(rulesFile, 'r')],
        timeout: WAIT_LIMIT_MS,
      }),
      'the foreign helper under qemu',
    );
    if (abi === 0) {
      assert.equal(r.status, 125, r.stderr);
      assert.match(r.stderr, /^boxwright-sandbox: the kernel offers no Landlock/);
      assert.ok(!existsSync(marker));
    } else {
      assert.equal(r.status, 0, r.stderr);
      assert.ok(existsSync(marker));
    }
  });
});
