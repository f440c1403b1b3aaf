// boxwright's reader of the loader's cache (compiler/paths/ldcache.ts)
// against glibc's own `ldconfig -p`, which prints the same file, and as a
// reader of hostile bytes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CACHE_FLAGS, readLibraryCache } from '../../compiler/paths/ldcache.js';
import { requireOrSkip } from '../helpers.js';
import { runs } from '../budget.js';

const ldconfig = ['/usr/sbin/ldconfig', '/sbin/ldconfig'].find((p) => existsSync(p));
const arch = process.arch === 'x64' ? 'x86_64' : process.arch === 'arm64' ? 'aarch64' : undefined;
const skip = requireOrSkip(!!ldconfig && existsSync('/etc/ld.so.cache') && !!arch, "glibc's ldconfig and /etc/ld.so.cache (a glibc Linux)");

describe("the loader's cache, read as ldconfig -p reads it", { skip }, () => {
  it('every soname of this architecture, with the path ldconfig gives first', () => {
    const bytes = readFileSync('/etc/ld.so.cache');
    const mine = readLibraryCache(bytes, CACHE_FLAGS[arch!]);
    assert.ok(mine, 'the cache was not read');
    const tag = arch === 'x86_64' ? 'libc6,x86-64' : 'libc6,AArch64';
    const want = new Map<string, string>();
    for (const line of spawnSync(ldconfig!, ['-p'], { encoding: 'utf8' }).stdout.split('\n')) {
      const m = /^\s+(\S+) \(([^)]*)\) => (\S+)$/.exec(line);
      // An hwcap entry is for a glibc-hwcaps subdirectory: the reader keeps the baseline library.
      if (m && m[2] === tag && !want.has(m[1]!)) want.set(m[1]!, m[3]!);
    }
    assert.ok(want.size > 20, `ldconfig -p lists only ${want.size} libraries`);
    assert.deepEqual(new Map([...mine].sort()), new Map([...want].sort()));
  });
  it('hostile bytes: truncated or mutated, a map or undefined, never an exception', () => {
    const bytes = readFileSync('/etc/ld.so.cache');
    for (let n = 0; n < Math.min(bytes.length, 2048); n += 7) readLibraryCache(bytes.subarray(0, n), CACHE_FLAGS[arch!]);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(Math.min(bytes.length, 4096) - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 16 }),
        (edits) => {
          const b = Buffer.from(bytes);
          for (const [at, v] of edits) b[at] = v;
          const r = readLibraryCache(b, CACHE_FLAGS[arch!]);
          assert.ok(r === undefined || r instanceof Map);
        },
      ),
      { numRuns: runs(200), seed: 22 },
    );
    assert.equal(readLibraryCache(Buffer.from('glibc-ld.so.cache1.1'), CACHE_FLAGS[arch!]), undefined);
    assert.equal(readLibraryCache(Buffer.alloc(0), CACHE_FLAGS[arch!]), undefined);
  });
});
