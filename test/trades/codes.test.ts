// The word-at-a-time code test the columnar hot paths of candles and footprints share: equal to testing
// each byte, for any bytes, any alignment of the column in its buffer, any range and any set of kept codes.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ALL_SESSION_CODES, codeWords, codesKept, SIDE_CODES } from '../../src/trades/codes.js'

/** Bytes mostly 0..3 (where the word tricks have their edges), sometimes anything. */
const byte = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 3 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 255 }) },
)

/** A column of the bytes at byte offset `off` of a larger buffer (so its words start anywhere). */
function column(bytes: number[], off: number): Uint8Array {
  const buf = new Uint8Array(off + bytes.length + 5).fill(7)
  buf.set(bytes, off)
  return buf.subarray(off, off + bytes.length)
}

const naive = (a: Uint8Array, from: number, to: number, keep: Uint8Array) => {
  for (let i = from; i < to; i++) if (keep[a[i] as number] !== 1) return false
  return true
}

const keepOf = (codes: number[]) => {
  const k = new Uint8Array(256)
  for (const c of codes) k[c] = 1
  return k
}

describe('codesKept', () => {
  it('equals a byte-by-byte test for every set of kept codes 0..2, offset and range', () => {
    fc.assert(
      fc.property(
        fc.array(byte, { maxLength: 80 }),
        fc.nat({ max: 7 }),
        fc.subarray([0, 1, 2]),
        fc.nat(),
        fc.nat(),
        (bytes, off, codes, x, y) => {
          const a = column(bytes, off)
          const from = bytes.length === 0 ? 0 : x % (bytes.length + 1)
          const to = from + (bytes.length - from === 0 ? 0 : y % (bytes.length - from + 1))
          const keep = keepOf(codes)
          expect(codesKept(a, codeWords(a), from, to, keep)).toBe(naive(a, from, to, keep))
        },
      ),
      { numRuns: 3000 },
    )
  })

  it('clean columns with one bad byte anywhere: found wherever it sits (sides and sessions)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 70 }),
        fc.nat({ max: 7 }),
        fc.nat(),
        fc.integer({ min: 0, max: 255 }),
        fc.boolean(),
        (n, off, at, bad, side) => {
          const keep = side ? SIDE_CODES : ALL_SESSION_CODES
          const bytes = Array.from({ length: n }, (_, i) => (side ? 1 + (i % 2) : i % 3))
          bytes[at % n] = bad
          const a = column(bytes, off)
          expect(codesKept(a, codeWords(a), 0, n, keep)).toBe(keep[bad] === 1)
        },
      ),
      { numRuns: 2000 },
    )
  })

  it('one bad byte in a clean column: every set of kept codes, any range and offset, shared memory or not', () => {
    // clean runs of 16+ bytes reach the four-words-a-step loops of every code set (the random bytes above rarely do)
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 70 }),
        fc.nat({ max: 7 }),
        fc.nat(),
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 0, max: 255 }),
        fc.subarray([0, 1, 2], { minLength: 1 }),
        fc.boolean(),
        (n, off, at, x, y, bad, codes, shared) => {
          const keep = keepOf(codes)
          const buf = shared ? new SharedArrayBuffer(off + n + 5) : new ArrayBuffer(off + n + 5)
          new Uint8Array(buf).fill(7)
          const a = new Uint8Array(buf, off, n)
          for (let i = 0; i < n; i++) a[i] = codes[i % codes.length] as number
          a[at % n] = bad
          const from = x % (n + 1)
          const to = from + (y % (n - from + 1))
          expect(codesKept(a, codeWords(a), from, to, keep)).toBe(naive(a, from, to, keep))
        },
      ),
      { numRuns: 5000 },
    )
  })

  it('refuses what is not a byte column', () => {
    expect(codeWords([1, 2] as unknown as Uint8Array)).toBeNull()
    expect(codesKept([1, 2], null, 0, 2, SIDE_CODES)).toBe(false)
  })
})
