import { createHash } from 'node:crypto';

/** Deterministic pseudo-random material for the synthetic bundles. */
export const WORDS = (
  'prime lattice orbit bound integer cycle graph vertex sequence limit series modulus residue polynomial ' +
  'field group ring kernel matrix eigenvalue measure integral partition tiling coloring walk chain ' +
  'invariant symmetry divisor fraction square cube root digit sum product'
).split(' ');

/** A small seeded PRNG (mulberry32) for one record, keyed by the seed, a record kind and its index. */
export function rngFor(seed: number, kind: string, index: number): () => number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (const c of `${kind}:${index}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  let a = h;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(rand: () => number, list: readonly T[]): T => list[Math.floor(rand() * list.length)];
export const words = (rand: () => number, n: number) =>
  Array.from({ length: n }, () => pick(rand, WORDS)).join(' ');
export const sentence = (rand: () => number, n: number) => {
  const text = words(rand, n);
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
};
export const pad = (n: number, width = 6) => String(n).padStart(width, '0');
export const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
export const isoAt = (base: number, minutes: number) => new Date(base + minutes * 60_000).toISOString();

/** Text of about `bytes` bytes, in paragraphs of pseudo-mathematical prose. */
export function prose(rand: () => number, bytes: number): string {
  const parts: string[] = [];
  let length = 0;
  while (length < bytes) {
    const paragraph = Array.from({ length: 3 }, () => sentence(rand, 8 + Math.floor(rand() * 8))).join(' ');
    parts.push(paragraph);
    length += paragraph.length + 2;
  }
  return parts.join('\n\n');
}
