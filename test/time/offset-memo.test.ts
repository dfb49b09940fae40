// zoneOffset memoizes the offsets it reads (per zone and whole second): in any order of queries it must give
// what Intl gives at that instant, on both sides of every change, including changes off the hour (old local
// mean times) and half-hour shifts.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { zoneOffset } from '../../src/time/zone.js'

/** The offset at t (whole seconds) read straight from a new Intl formatter: no memo. */
function intlOffset(tz: string, t: number): number {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  })
  const whole = Math.floor(t / 1000) * 1000
  const v: Record<string, number> = {}
  for (const p of f.formatToParts(whole)) if (p.type !== 'literal') v[p.type] = Number(p.value)
  return (
    Date.UTC(
      v.year as number,
      (v.month as number) - 1,
      v.day as number,
      v.hour as number,
      v.minute as number,
      v.second as number,
    ) - whole
  )
}

/** The first second in (a, b] whose offset differs from a's (a and b must differ), by bisection. */
function change(tz: string, a: number, b: number): number {
  const o = intlOffset(tz, a)
  while (b - a > 1000) {
    const m = a + Math.floor((b - a) / 2000) * 1000
    if (intlOffset(tz, m) === o) a = m
    else b = m
  }
  return b
}

const DAY = 86_400_000
// zones whose offset changed at a second off the hour (local mean time ending) or by half an hour
const CASES: [string, number][] = [
  ['Europe/Dublin', Date.UTC(1916, 4, 21)], // Dublin Mean Time -0:25:21 -> summer time +0:34:39
  ['Europe/Dublin', Date.UTC(1916, 9, 1)], // +0:34:39 -> GMT
  ['Africa/Monrovia', Date.UTC(1972, 0, 7)], // -0:44:30 -> 0
  ['Australia/Lord_Howe', Date.UTC(2025, 3, 5)], // a 30-minute DST shift
  ['America/New_York', Date.UTC(2026, 2, 8)],
]

// the changes, found with Intl alone (a window of a day before and after each date)
const CHANGES = CASES.flatMap(([tz, d]) => {
  const a = d - DAY
  const b = d + DAY
  return intlOffset(tz, a) === intlOffset(tz, b) ? [] : [{ tz, at: change(tz, a, b) }]
})

describe('zoneOffset: memoized offsets equal Intl in any query order', () => {
  it('finds a change for every case (the checks below stand on them)', () => {
    expect(CHANGES.map((c) => c.tz)).toEqual(CASES.map(([tz]) => tz))
    // at least one change off the whole UTC hour (where a memo by hour would go wrong)
    expect(CHANGES.some((c) => c.at % 3_600_000 !== 0)).toBe(true)
  })

  it('around each change, seconds to an hour either side, asked in any order, twice', () => {
    const probe = fc.record({
      c: fc.constantFrom(...CHANGES),
      deltas: fc.array(fc.integer({ min: -3600, max: 3600 }), { minLength: 1, maxLength: 12 }),
    })
    fc.assert(
      fc.property(probe, ({ c, deltas }) => {
        for (const d of [...deltas, ...deltas.reverse()]) {
          const t = c.at + d * 1000 + 500
          expect(zoneOffset(c.tz, t)).toBe(intlOffset(c.tz, t))
        }
      }),
      { numRuns: 200 },
    )
  })

  it('any instant in any of these zones, across centuries', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          'Europe/Dublin',
          'Africa/Monrovia',
          'Australia/Lord_Howe',
          'America/New_York',
          'Asia/Kolkata',
          'UTC',
        ),
        fc.integer({ min: -4e12, max: 4e12 }),
        (tz, t) => {
          expect(zoneOffset(tz, t)).toBe(intlOffset(tz, t))
          expect(zoneOffset(tz, t)).toBe(intlOffset(tz, t))
        },
      ),
      { numRuns: 300 },
    )
  })
})
