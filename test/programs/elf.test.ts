// boxwright's ELF reader (compiler/paths/elf.ts) against binutils' readelf
// on the machine's own programs and libraries, and as a reader of hostile
// files: truncated at every length of their headers, mutated byte by byte,
// crafted to break each rule, it gives `malformed` with a reason (never an
// exception) and never reads more than its budget.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { bytesSource, readProgram, type ByteSource, type ProgramFacts } from '../../compiler/paths/elf.js';
import { hostView } from '../../compiler/paths/host.js';
import { requireOrSkip } from '../helpers.js';
import { onPath } from '../linux/support.js';
import { runs } from '../budget.js';

const readelf = onPath('readelf');
const skipReadelf = requireOrSkip(!!readelf && process.platform === 'linux', 'readelf (binutils, with gcc)');

/** Regular files of `dir` (no links), sorted, at most `max`, evenly spread. */
function sample(dir: string, max: number, keep: (name: string) => boolean = () => true): string[] {
  if (!existsSync(dir)) return [];
  const all = readdirSync(dir)
    .filter(keep)
    .map((n) => join(dir, n))
    .filter((p) => {
      try {
        return lstatSync(p).isFile();
      } catch {
        return false;
      }
    })
    .sort();
  const step = Math.max(1, Math.floor(all.length / max));
  return all.filter((_, i) => i % step === 0).slice(0, max);
}

interface ReadelfFacts {
  readonly interpreter?: string;
  readonly needed: string[];
  readonly runpath: string[];
  readonly rpath: string[];
}

/** What readelf says of each file (one run for all: readelf takes many), undefined for one it reads as no ELF file. */
function byReadelf(paths: readonly string[]): Map<string, ReadelfFacts | undefined> {
  const r = spawnSync(readelf!, ['-lWd', ...paths], { encoding: 'utf8', maxBuffer: 256 << 20 });
  // With two files or more, each one's output starts with "File: PATH"; an error goes to stderr, in order, with stdout's "File:" line.
  const merged = r.stdout.split(/^File: /m).slice(1);
  const out = new Map<string, ReadelfFacts | undefined>();
  for (const chunk of merged) {
    const path = chunk.slice(0, chunk.indexOf('\n'));
    const text = chunk.slice(path.length);
    if (!/Program Headers:|There are no program headers/.test(text)) {
      out.set(path, undefined);
      continue;
    }
    const interp = /\[Requesting program interpreter: (.*)\]/.exec(text)?.[1];
    const all = (re: RegExp): string[] => [...text.matchAll(re)].map((m) => m[1]!);
    const split = (xs: string[]): string[] => xs.flatMap((x) => x.split(':')).filter((x) => x !== '');
    out.set(path, {
      ...(interp !== undefined ? { interpreter: interp } : {}),
      needed: all(/\(NEEDED\)\s+Shared library: \[(.*)\]/g),
      runpath: split(all(/\(RUNPATH\)\s+Library runpath: \[(.*)\]/g)),
      rpath: split(all(/\(RPATH\)\s+Library rpath: \[(.*)\]/g)),
    });
  }
  return out;
}

describe("the ELF reader agrees with readelf on this machine's programs and libraries", { skip: skipReadelf }, () => {
  const files = [
    ...sample('/usr/bin', 100),
    ...sample('/usr/lib/x86_64-linux-gnu', 60, (n) => /\.so(\.|$)/.test(n)),
    ...sample('/usr/lib/aarch64-linux-gnu', 30, (n) => /\.so(\.|$)/.test(n)),
    // The cross compiler's target libraries: another machine's ELF files.
    ...sample('/usr/aarch64-linux-gnu/lib', 30, (n) => /\.so(\.|$)/.test(n)),
    // gcc's own programs and plugins (not its archives, which are no programs).
    ...sample('/usr/lib/gcc/x86_64-linux-gnu/12', 20, (n) => !/\.(a|o)$/.test(n)),
  ];
  // Read as lint reads them: through the host view (bounded reads at positions, never the whole file).
  const host = hostView('/');
  it(`${files.length} files: the interpreter, DT_NEEDED, DT_RUNPATH and DT_RPATH`, () => {
    assert.ok(files.length >= 100, `only ${files.length} files found`);
    let elfs = 0;
    const wrong: string[] = [];
    const readelfSays = byReadelf(files);
    for (const f of files) {
      // No "File:" line: readelf could not read a file header (a linker script too short for one).
      const want = readelfSays.get(f);
      const got = host.program(f);
      if (!want) {
        if (got.kind === 'elf') wrong.push(`${f}: readelf reads no ELF file, boxwright does`);
        continue;
      }
      elfs++;
      if (got.kind !== 'elf') {
        wrong.push(`${f}: ${got.kind}${got.kind === 'malformed' ? ` (${got.problem})` : ''}, readelf reads it`);
        continue;
      }
      const mine: ReadelfFacts = {
        ...(got.interpreter !== undefined ? { interpreter: got.interpreter } : {}),
        needed: [...got.needed],
        runpath: [...got.runpath],
        rpath: [...got.rpath],
      };
      // readelf lists a static program's dynamic section too; its loader reads none, and neither does the closure.
      try {
        assert.deepEqual(mine, want);
      } catch {
        wrong.push(`${f}: ${JSON.stringify(mine)} vs readelf ${JSON.stringify(want)}`);
      }
    }
    assert.deepEqual(wrong, []);
    assert.ok(elfs >= 80, `only ${elfs} ELF files among them`);
  });
  it('the machine of an aarch64 library and of an x86_64 program', () => {
    const arm = sample('/usr/aarch64-linux-gnu/lib', 5, (n) => n === 'libc.so.6')[0];
    const x = hostView('/').program(process.execPath);
    assert.equal(x.kind === 'elf' && x.machine, process.arch === 'arm64' ? 183 : 62);
    if (arm) {
      const a = hostView('/').program(arm);
      assert.equal(a.kind === 'elf' && a.machine, 183);
    }
  });
});

/** A source that counts what is read of it. */
function counting(bytes: Uint8Array): ByteSource & { readonly total: () => number } {
  let total = 0;
  return {
    size: bytes.length,
    read(offset, length) {
      const b = bytes.subarray(Math.min(offset, bytes.length), Math.min(offset + length, bytes.length));
      total += b.length;
      return b;
    },
    total: () => total,
  };
}

/** A dynamically linked program of this machine: git (3.7 MB on Debian), else the node running the test. */
const realElf = (): Uint8Array => readFileSync(existsSync('/usr/bin/git') ? '/usr/bin/git' : process.execPath);

describe('hostile files: a clear finding, never an exception, never more than the budget', () => {
  const node = realElf();
  it('truncated at every length of its first 4 KB, and at random lengths beyond', () => {
    const lengths = [
      ...Array.from({ length: 4096 }, (_, i) => i),
      ...Array.from({ length: 200 }, (_, i) => Math.floor(((i + 1) / 201) * node.length)),
    ];
    for (const n of lengths) {
      const facts = readProgram(bytesSource(node.subarray(0, n)));
      assert.ok(['elf', 'malformed', 'other'].includes(facts.kind), `${n} bytes: ${facts.kind}`);
      if (n < 4) assert.equal(facts.kind, 'other');
      if (facts.kind === 'malformed') assert.ok(facts.problem.length > 10, facts.problem);
    }
  });
  it('any bytes over the headers: no exception, bounded reads', () => {
    const head = node.subarray(0, 64 << 10);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(8191), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 24 }),
        fc.nat(head.length),
        (edits, cut) => {
          const b = Buffer.from(head.subarray(0, Math.max(cut, 64)));
          for (const [at, v] of edits) if (at < b.length) b[at] = v;
          const src = counting(b);
          const facts = readProgram(src);
          assert.ok(['elf', 'malformed', 'other', 'script'].includes(facts.kind));
          // Headers, the interpreter, the dynamic section and each string (4 KB each, at most 512 of them).
          assert.ok(src.total() <= 4096 + 4096 + 4096 * 16 + 513 * 4096, `read ${src.total()} bytes`);
        },
      ),
      { numRuns: runs(300), seed: 22 },
    );
  });
  it('each rule the kernel and the loader hold a file to, broken: the reason names it', () => {
    const elf64 = (patch: (b: Buffer) => void): ProgramFacts => {
      const b = Buffer.from(node.subarray(0, 1 << 20));
      patch(b);
      return readProgram(bytesSource(b));
    };
    const problem = (f: ProgramFacts): string => (f.kind === 'malformed' ? f.problem : `not malformed: ${f.kind}`);
    assert.match(problem(elf64((b) => (b[4] = 7))), /class byte is 7/);
    assert.match(problem(elf64((b) => (b[5] = 0))), /data byte is 0/);
    assert.match(problem(elf64((b) => (b[6] = 2))), /version is 2/);
    assert.match(problem(elf64((b) => b.writeUInt16LE(0xffff, 56))), /PN_XNUM/);
    assert.match(problem(elf64((b) => b.writeUInt16LE(200, 56))), /exceed the page/);
    assert.match(problem(elf64((b) => b.writeUInt16LE(40, 54))), /program headers are 40 bytes/);
    assert.match(problem(elf64((b) => b.writeBigUInt64LE(BigInt(node.length) * 4n, 32))), /outside the file/);
    assert.match(problem(elf64((b) => b.writeBigUInt64LE(0xffffffffffffff00n, 32))), /outside the file/);
    // PT_INTERP's size, and its NUL.
    const interpAt = (b: Buffer): number => {
      const phoff = Number(b.readBigUInt64LE(32));
      for (let i = 0; i < b.readUInt16LE(56); i++) if (b.readUInt32LE(phoff + i * 56) === 3) return phoff + i * 56;
      throw new Error('the program has no PT_INTERP');
    };
    assert.match(problem(elf64((b) => b.writeBigUInt64LE(1n, interpAt(b) + 32))), /PT_INTERP is 1 bytes/);
    assert.match(problem(elf64((b) => b.writeBigUInt64LE(70000n, interpAt(b) + 32))), /PT_INTERP is 70000 bytes/);
    assert.match(
      problem(
        elf64((b) => {
          const at = interpAt(b);
          const off = Number(b.readBigUInt64LE(at + 8));
          const size = Number(b.readBigUInt64LE(at + 32));
          b[off + size - 1] = 0x41;
        }),
      ),
      /does not end in a NUL/,
    );
  });
  it('#! lines as the kernel reads them', () => {
    const s = (text: string | Uint8Array): ProgramFacts =>
      readProgram(bytesSource(typeof text === 'string' ? Buffer.from(text, 'latin1') : text));
    assert.deepEqual(s('#!/bin/sh\necho'), { kind: 'script', interpreter: '/bin/sh' });
    assert.deepEqual(s('#! \t/usr/bin/env  node  \r\n'), { kind: 'script', interpreter: '/usr/bin/env', argument: 'node' });
    assert.deepEqual(s('#!/usr/bin/env -S node --jitless\n'), {
      kind: 'script',
      interpreter: '/usr/bin/env',
      argument: '-S node --jitless',
    });
    assert.deepEqual(s('#!/bin/sh'), { kind: 'script', interpreter: '/bin/sh' });
    assert.match(s('#!\n').kind === 'malformed' ? 'ok' : 'no', /ok/);
    assert.match(s(`#!/${'x'.repeat(300)}`).kind, /malformed/);
    assert.deepEqual(s(`#!/bin/sh ${'x'.repeat(300)}`), {
      kind: 'script',
      interpreter: '/bin/sh',
      argument: 'x'.repeat(256 - '#!/bin/sh '.length),
    });
    assert.deepEqual(s('plain text\n'), { kind: 'other' });
    assert.deepEqual(s(''), { kind: 'other' });
  });
});

describe('the host view reads a program file without blocking or following a link', {
  skip: requireOrSkip(process.platform === 'linux', 'Linux (mkfifo, /dev/zero)'),
}, () => {
  const dir = mkdtempSync(join(tmpdir(), 'boxwright-elf-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  it('a FIFO, /dev/zero and a link: unknown at once; a script and a program: read', () => {
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    writeFileSync(join(dir, 'script'), '#!/usr/bin/env node\n');
    execFileSync('ln', ['-s', process.execPath, join(dir, 'link')]);
    const view = hostView(dir);
    assert.deepEqual(view.program(join(dir, 'fifo')), { kind: 'unknown' });
    assert.deepEqual(view.program('/dev/zero'), { kind: 'unknown' });
    assert.deepEqual(view.program(join(dir, 'link')), { kind: 'unknown' });
    assert.deepEqual(view.program(join(dir, 'absent')), { kind: 'unknown' });
    assert.deepEqual(view.program(join(dir, 'script')), { kind: 'script', interpreter: '/usr/bin/env', argument: 'node' });
    assert.equal(view.program(process.execPath).kind, 'elf');
  });
});
