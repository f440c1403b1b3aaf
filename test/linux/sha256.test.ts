/**
 * The fast path's SHA-256 (targets/linux/run/sandbox/sha256.ts) against node:crypto
 * (OpenSSL): every length across the padding edges of the first blocks,
 * the standard test vectors, and random inputs up to 64 KiB. The cache
 * entry that `boxwright run`'s full path writes is keyed by node:crypto's
 * digest and found by this one: they must agree on every byte string.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { sha256Hex } from '../../targets/linux/run/sandbox/sha256.js';

const oracle = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

describe('sha256Hex', () => {
  it('matches the FIPS 180-4 examples', () => {
    assert.equal(sha256Hex(new TextEncoder().encode('abc')), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(sha256Hex(new Uint8Array(0)), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    assert.equal(
      sha256Hex(new TextEncoder().encode('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')),
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('matches node:crypto on every length up to 300 bytes and on random inputs', () => {
    for (let n = 0; n <= 300; n++) {
      const b = randomBytes(n);
      assert.equal(sha256Hex(b), oracle(b), `length ${n}`);
    }
    for (let i = 0; i < 50; i++) {
      const b = randomBytes(Math.floor(Math.random() * 65536));
      assert.equal(sha256Hex(b), oracle(b), `length ${b.length}`);
    }
    const zeros = new Uint8Array(1 << 20);
    assert.equal(sha256Hex(zeros), oracle(zeros), '1 MiB of zeros');
  });
});
