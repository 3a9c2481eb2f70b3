/**
 * SHA-256 (FIPS 180-4) whose state can be saved between writes and restored in another process: an export writes
 * its file in parts across activity attempts, and a worker that resumes after a crash must go on hashing the whole
 * file from the last recorded part without reading the earlier parts back. Node's `crypto` hash cannot export its
 * state, so this is the algorithm itself; test/unit/resumableSha256.test.ts checks it against `crypto`.
 */

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const INITIAL = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

/** Bytes of a saved state: 8 words, the total length (8 bytes), then the unhashed tail (0 to 63 bytes). */
const STATE_HEADER_BYTES = 40;

export class ResumableSha256 {
  private readonly h = new Uint32Array(INITIAL);
  private readonly w = new Uint32Array(64);
  private readonly tail = new Uint8Array(64);
  private tailLength = 0;
  private totalBytes = 0;

  /** A hash that goes on from a state {@link save} returned. */
  static restore(state: Buffer): ResumableSha256 {
    if (state.length < STATE_HEADER_BYTES || state.length > STATE_HEADER_BYTES + 63)
      throw new Error('not a saved SHA-256 state');
    const hash = new ResumableSha256();
    for (let i = 0; i < 8; i++) hash.h[i] = state.readUInt32BE(i * 4);
    hash.totalBytes = Number(state.readBigUInt64BE(32));
    hash.tailLength = state.length - STATE_HEADER_BYTES;
    if (hash.totalBytes % 64 !== hash.tailLength) throw new Error('not a saved SHA-256 state');
    state.copy(hash.tail, 0, STATE_HEADER_BYTES);
    return hash;
  }

  /** How many bytes have been hashed. */
  get length(): number {
    return this.totalBytes;
  }

  update(data: Uint8Array): this {
    let offset = 0;
    this.totalBytes += data.length;
    if (this.tailLength > 0) {
      const take = Math.min(64 - this.tailLength, data.length);
      this.tail.set(data.subarray(0, take), this.tailLength);
      this.tailLength += take;
      offset = take;
      if (this.tailLength < 64) return this;
      this.compress(this.tail, 0);
      this.tailLength = 0;
    }
    for (; offset + 64 <= data.length; offset += 64) this.compress(data, offset);
    if (offset < data.length) {
      this.tail.set(data.subarray(offset), 0);
      this.tailLength = data.length - offset;
    }
    return this;
  }

  /** The state so far, to {@link restore} later; the hash stays usable. */
  save(): Buffer {
    const state = Buffer.alloc(STATE_HEADER_BYTES + this.tailLength);
    for (let i = 0; i < 8; i++) state.writeUInt32BE(this.h[i], i * 4);
    state.writeBigUInt64BE(BigInt(this.totalBytes), 32);
    Buffer.from(this.tail.buffer, this.tail.byteOffset, this.tailLength).copy(state, STATE_HEADER_BYTES);
    return state;
  }

  /** The digest in lower-case hex; the hash itself is left as it was (a copy is padded). */
  hex(): string {
    const copy = ResumableSha256.restore(this.save());
    const bits = copy.totalBytes * 8;
    const padLength = copy.tailLength < 56 ? 56 - copy.tailLength : 120 - copy.tailLength;
    const padding = Buffer.alloc(padLength + 8);
    padding[0] = 0x80;
    padding.writeUInt32BE(Math.floor(bits / 0x100000000), padLength);
    padding.writeUInt32BE(bits >>> 0, padLength + 4);
    copy.update(padding);
    const digest = Buffer.alloc(32);
    for (let i = 0; i < 8; i++) digest.writeUInt32BE(copy.h[i], i * 4);
    return digest.toString('hex');
  }

  private compress(block: Uint8Array, at: number): void {
    const w = this.w;
    for (let i = 0; i < 16; i++) {
      const j = at + i * 4;
      w[i] = (block[j] << 24) | (block[j + 1] << 16) | (block[j + 2] << 8) | block[j + 3];
    }
    for (let i = 16; i < 64; i++) {
      const x = w[i - 15];
      const y = w[i - 2];
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
    }
    const h = this.h;
    let a = h[0];
    let b = h[1];
    let c = h[2];
    let d = h[3];
    let e = h[4];
    let f = h[5];
    let g = h[6];
    let k = h[7];
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (k + S1 + ch + K[i] + w[i]) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) | 0;
      k = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += k;
  }
}
