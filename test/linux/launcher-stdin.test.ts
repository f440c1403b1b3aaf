// The C helper's input protocols, fuzzed (issue 34, "every input gets an
// answer"): boxwright-sandbox reads the compiled views on stdin (`--vet
// --views-on-stdin`: NAME NUL LENGTH NUL BYTES, again and again), a launch
// file on stdin (`--check-launch`, the parser every launcher runs on its
// `<stem>.launch`) and Landlock rules from a descriptor (`--rules-fd N
// --check`, the parser of the in-sandbox step). Generated input of every
// shape — random bytes, frames with wrong, huge or negative lengths, many
// views, long tokens, records out of order, past each size bound — gets a
// clean answer: exit 0 for input that happens to be well formed, else a
// refusal (125, or 2 for usage) with a message on stderr; never a signal
// (SIGSEGV, SIGABRT), never a hang. BOXWRIGHT_FUZZ_RUNS sets the budget.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { vetProgram } from '../../targets/linux/run/sandbox/vet.js';
import { requireOrSkip } from '../helpers.js';
import { runs } from '../budget.js';

const program = vetProgram();
const skip = requireOrSkip(typeof program === 'string', 'boxwright-sandbox for this machine (npm run build, with a C compiler)');
const RUNS = runs(60);

interface Answer {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

function ask(args: readonly string[], input: Uint8Array): Answer {
  const r = spawnSync(program as string, args, { input, timeout: 20_000, maxBuffer: 64 << 20 });
  if (r.error) throw new Error(`boxwright-sandbox ${args.join(' ')}: ${r.error.message} (a hang or a failure to start)`);
  return { status: r.status, signal: r.signal, stderr: r.stderr.toString('utf8') };
}

/** An answer, not a crash: no signal; exit 0, or a refusal that says why. */
function assertAnswered(a: Answer, what: string): void {
  assert.equal(a.signal, null, `${what}: killed by ${a.signal}\n${a.stderr}`);
  assert.ok(a.status === 0 || a.status === 125 || a.status === 2, `${what}: exit ${a.status}\n${a.stderr}`);
  if (a.status !== 0) assert.match(a.stderr, /^boxwright-sandbox/, `${what}: a refusal says why`);
}

const bytes = (max: number): fc.Arbitrary<Uint8Array> => fc.uint8Array({ maxLength: max });
/** Tokens as the protocols spell them, and near misses. */
const token = fc.oneof(
  fc.constantFrom('--ro-bind', '--bind', '--ro-bind-fd', '--bind-try', '--tmpfs', '--dir', '--remount-ro', '--proc', '--dev', '--symlink'),
  fc.constantFrom(
    'launch',
    '2',
    'config',
    'config-sha256',
    'principal',
    'args',
    'seccomp',
    'x86_64',
    'landlock',
    'none',
    'bwrap',
    'env',
    'env-prefix',
  ),
  fc.constantFrom('compile-option', 'fs', 'read_file', 'read_dir', 'execute', 'write_file', 'require-abi', 'scope', 'signal', '7', '0755'),
  fc.constantFrom('/', '/usr', '/usr/bin/env', '.', '..', '', 'a'.repeat(64), '0'.repeat(64), '/a//b', '-1', '18446744073709551616'),
  fc.string({ maxLength: 12 }),
  fc.integer({ min: 1, max: 70_000 }).map((n) => `/${'d/'.repeat(n >> 1)}x`),
);
const tokens = (max: number): fc.Arbitrary<Uint8Array> =>
  fc.tuple(fc.array(token, { maxLength: max }), fc.boolean()).map(([t, endNul]) => Buffer.from(t.join('\0') + (endNul ? '\0' : '')));

/** A view frame: a name, a length that may lie, and argv bytes. */
const frame = fc
  .record({
    name: fc.oneof(fc.constantFrom('agent', 'tool.t', ''), fc.string({ maxLength: 300 })),
    body: fc.oneof(tokens(40), bytes(200)),
    length: fc.oneof(
      fc.constant<'true' | 'short' | 'long' | 'huge' | 'negative' | 'text'>('true'),
      fc.constantFrom<'true' | 'short' | 'long' | 'huge' | 'negative' | 'text'>('short', 'long', 'huge', 'negative', 'text'),
    ),
  })
  .map(({ name, body, length }) => {
    const n =
      length === 'true'
        ? String(body.length)
        : length === 'short'
          ? String(Math.max(0, body.length - 1))
          : length === 'long'
            ? String(body.length + 7)
            : length === 'huge'
              ? '99999999999999999999999'
              : length === 'negative'
                ? '-1'
                : 'ten';
    return Buffer.concat([Buffer.from(`${name}\0${n}\0`), body]);
  });
/** Many views, as a config with many principals compiles to. */
const many = fc.tuple(fc.integer({ min: 200, max: 3000 }), fc.boolean()).map(([n, broken]) =>
  Buffer.concat(
    Array.from({ length: n }, (_, i) => {
      const body = Buffer.from(broken && i === n - 1 ? '--frobnicate\0' : `--ro-bind\0/usr\0/usr\0--bind\0/tmp/p${i}\0/tmp/p${i}\0`);
      return Buffer.concat([Buffer.from(`tool.t${i}\0${body.length}\0`), body]);
    }),
  ),
);

describe("boxwright-sandbox's input protocols, fuzzed: an answer for every input, never a crash", { skip }, () => {
  it('--vet --views-on-stdin: frames of every shape, and many views', () => {
    const input = fc.oneof(
      bytes(4096),
      fc.array(frame, { maxLength: 20 }).map((f) => Buffer.concat(f)),
      many,
    );
    fc.assert(
      fc.property(input, (stdin) => {
        const a = ask(['--vet', '--views-on-stdin', '--file', '/usr/bin/env', '--tree', '/tmp'], stdin);
        assertAnswered(a, '--vet');
      }),
      { numRuns: RUNS, seed: 3406 },
    );
  });

  it('--check-launch: launch files of every shape', () => {
    fc.assert(
      fc.property(fc.oneof(bytes(4096), tokens(60)), (stdin) => assertAnswered(ask(['--check-launch'], stdin), '--check-launch')),
      { numRuns: RUNS, seed: 3407 },
    );
  });

  it('--rules-fd 0 --check: Landlock rules of every shape', () => {
    fc.assert(
      fc.property(fc.oneof(bytes(4096), tokens(60)), (stdin) => assertAnswered(ask(['--rules-fd', '0', '--check'], stdin), '--rules-fd')),
      { numRuns: RUNS, seed: 3408 },
    );
  });

  it('past each size bound: a refusal that names the bound', () => {
    const past = (mib: number): Buffer => Buffer.alloc((mib << 20) + 1, 0x61);
    const vet = ask(['--vet', '--views-on-stdin', '--file', '/usr'], past(256));
    assertAnswered(vet, '--vet, 256 MiB + 1');
    assert.equal(vet.status, 125);
    assert.match(vet.stderr, /the views on stdin exceed 256 MiB/);
    // 64 MiB since the launch file lists the write trees' host-trusted names and paths (format 3).
    const launch = ask(['--check-launch'], past(64));
    assertAnswered(launch, '--check-launch, 64 MiB + 1');
    assert.equal(launch.status, 125);
    assert.match(launch.stderr, /the launch file on stdin exceeds 67108864 bytes/);
    const rules = ask(['--rules-fd', '0', '--check'], past(16));
    assertAnswered(rules, '--rules-fd, 16 MiB + 1');
    assert.match(rules.stderr, /the rules exceed 16777216 bytes/);
  });

  it('a well-formed input is accepted (the fuzz can tell an answer from a refusal)', () => {
    const body = Buffer.from('--ro-bind\0/usr\0/usr\0--bind\0/tmp\0/tmp\0');
    const vet = ask(['--vet', '--views-on-stdin', '--file', '/tmp/x'], Buffer.concat([Buffer.from(`agent\0${body.length}\0`), body]));
    assert.equal(vet.status, 0, vet.stderr);
    const rules = ask(['--rules-fd', '0', '--check'], Buffer.from('fs\0read_file\0/usr\0'));
    assert.equal(rules.status, 0, rules.stderr);
  });
});
