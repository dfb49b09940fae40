/**
 * Seeded 32-bit generators for the sample data: mulberry32 steps and a seed mixer. Deterministic on
 * every platform (integer arithmetic only); never the platform random source.
 */

/** Advances a mulberry32 state held in `s[i]` and returns a uniform integer in [0, 2^32). */
export function nextUint32(s: Int32Array, i: number): number {
  const a = (s[i]! + 0x6d2b79f5) | 0
  s[i] = a
  let t = Math.imul(a ^ (a >>> 15), 1 | a)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return (t ^ (t >>> 14)) >>> 0
}

/** 2^-32: turns a 32-bit integer into a fraction. */
export const INV_2_32 = 1 / 4294967296

/** Mixes numbers into one 32-bit seed (murmur3 finaliser over each part), so nearby inputs give unrelated streams. */
export function mixSeed(...parts: number[]): number {
  let h = 0x9e3779b9 | 0
  for (let k = 0; k < parts.length; k++) {
    h = Math.imul(h ^ (parts[k]! | 0), 0x85ebca6b)
    h ^= h >>> 13
    h = Math.imul(h, 0xc2b2ae35)
    h ^= h >>> 16
  }
  return h | 0
}
