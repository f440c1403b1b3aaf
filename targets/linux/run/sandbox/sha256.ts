/**
 * SHA-256 (FIPS 180-4) of a byte string, as lowercase hex.
 *
 * Why not node:crypto: `boxwright run`'s fast path (targets/linux/run/run-fast.ts)
 * hashes the config to find its cache entry, and loading node:crypto pulls
 * in ~20 internal modules (ciphers, keys, X.509…): ~2.5 ms of a run that
 * costs ~35 ms in all (bench/run-start.mjs). A config is a few hundred
 * bytes; this takes microseconds. test/linux/sha256.test.ts checks it
 * against node:crypto (OpenSSL) on every length around the block edges and
 * on random inputs. Everything else in boxwright uses node:crypto.
 */

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be,
  0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa,
  0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85,
  0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
  0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
  0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/**
 * Written for a cold process: the fast path hashes twice and exits, so this
 * runs in V8's interpreter, where every call and property access costs.
 * Rotations are inlined, the message words read with shifts, the state in
 * locals (half the time of the same code with helpers and a DataView).
 */
export function sha256Hex(data: Uint8Array): string {
  // The message, a 0x80 byte, zeros to 56 mod 64, and the bit length (64-bit big-endian).
  const n = data.length;
  const blocks = Math.ceil((n + 9) / 64);
  const m = new Uint8Array(blocks * 64);
  m.set(data);
  m[n] = 0x80;
  const high = Math.floor(n / 0x20000000);
  const low = (n * 8) >>> 0;
  const end = m.length;
  m[end - 8] = high >>> 24;
  m[end - 7] = high >>> 16;
  m[end - 6] = high >>> 8;
  m[end - 5] = high;
  m[end - 4] = low >>> 24;
  m[end - 3] = low >>> 16;
  m[end - 2] = low >>> 8;
  m[end - 1] = low;

  let h0 = 0x6a09e667,
    h1 = 0xbb67ae85,
    h2 = 0x3c6ef372,
    h3 = 0xa54ff53a,
    h4 = 0x510e527f,
    h5 = 0x9b05688c,
    h6 = 0x1f83d9ab,
    h7 = 0x5be0cd19;
  const w = new Int32Array(64);
  for (let off = 0; off < end; off += 64) {
    for (let t = 0, i = off; t < 16; t++, i += 4) w[t] = (m[i]! << 24) | (m[i + 1]! << 16) | (m[i + 2]! << 8) | m[i + 3]!;
    for (let t = 16; t < 64; t++) {
      const x = w[t - 15]!;
      const y = w[t - 2]!;
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[t] = (w[t - 16]! + s0 + w[t - 7]! + s1) | 0;
    }
    let a = h0,
      b = h1,
      c = h2,
      d = h3,
      e = h4,
      f = h5,
      g = h6,
      h = h7;
    for (let t = 0; t < 64; t++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[t]! + w[t]!) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }
  let hex = '';
  for (const word of [h0, h1, h2, h3, h4, h5, h6, h7]) hex += (word >>> 0).toString(16).padStart(8, '0');
  return hex;
}
