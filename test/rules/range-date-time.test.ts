// readRangeDateTime: one rule for the range bounds of interfaces A and B. A well-formed RFC 3339 date-time
// is its instant when that lies in 1970-01-01 .. 9999-12-31T23:59:59.999Z, else 'before' / 'after'; a
// malformed one is 'format'. The instant of a well-formed one is computed here independently (Date.UTC).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readRangeDateTime, TIME_MAX, TIME_MIN } from '../../src/rules/range.js'

const pad = (n: number, w = 2) => String(n).padStart(w, '0')
const daysIn = (y: number, m: number) =>
  new Date(Date.UTC(2000, m, 0)).getUTCDate() - (m === 2 && !(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)) ? 1 : 0)

const dateTime = fc
  .record({
    y: fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.constantFrom(0, 1969, 1970, 9999)),
    m: fc.integer({ min: 1, max: 12 }),
    d: fc.integer({ min: 1, max: 31 }),
    h: fc.integer({ min: 0, max: 23 }),
    mi: fc.integer({ min: 0, max: 59 }),
    s: fc.integer({ min: 0, max: 59 }),
    ms: fc.integer({ min: 0, max: 999 }),
    off: fc.oneof(fc.constant(0), fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 })),
  })
  .map((x) => ({ ...x, d: Math.min(x.d, daysIn(x.y, x.m)) }))

function text(x: {
  y: number
  m: number
  d: number
  h: number
  mi: number
  s: number
  ms: number
  off: number
}): string {
  const zone =
    x.off === 0 ? 'Z' : `${x.off < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(x.off) / 60))}:${pad(Math.abs(x.off) % 60)}`
  return `${pad(x.y, 4)}-${pad(x.m)}-${pad(x.d)}T${pad(x.h)}:${pad(x.mi)}:${pad(x.s)}.${pad(x.ms, 3)}${zone}`
}

function instant(x: {
  y: number
  m: number
  d: number
  h: number
  mi: number
  s: number
  ms: number
  off: number
}): number {
  const dt = new Date(0)
  dt.setUTCFullYear(x.y, x.m - 1, x.d) // setUTCFullYear keeps years 0..99 as given (Date.UTC would add 1900)
  dt.setUTCHours(x.h, x.mi, x.s, x.ms)
  return dt.getTime() - x.off * 60_000
}

describe('readRangeDateTime', () => {
  it('a well-formed date-time is its instant inside the range, else before / after by which side it falls', () => {
    fc.assert(
      fc.property(dateTime, (x) => {
        const t = instant(x)
        const want = t < TIME_MIN ? 'before' : t >= TIME_MAX ? 'after' : t
        expect(readRangeDateTime(text(x))).toBe(want)
      }),
      { numRuns: 3000 },
    )
  })

  it('a malformed one is "format", whatever year it names', () => {
    fc.assert(
      fc.property(
        dateTime,
        fc.integer({ min: 0, max: 19 }),
        fc.constantFrom('x', ' ', '', '1', '-', ':'),
        (x, at, ch) => {
          const s = text(x)
          const broken = s.slice(0, at) + ch + s.slice(at + 1)
          // a replacement may happen to give another well-formed date-time (a digit for a digit): skip those
          fc.pre(!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(Z|[+-]\d{2}:\d{2})$/.test(broken))
          expect(readRangeDateTime(broken)).toBe('format')
        },
      ),
      { numRuns: 1000 },
    )
  })
})
