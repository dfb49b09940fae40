import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  addIsoDuration,
  bucketEnd,
  bucketStart,
  isValidTimeZone,
  resolveTimeframe,
  timeframeRank,
  type IsoDuration,
} from '../../src/time/index.js'
import { expectTiled } from './laws.js'

const HOUR = 3_600_000
const DAY = 86_400_000
const dur = (p: Partial<IsoDuration>): IsoDuration => ({
  years: 0,
  months: 0,
  weeks: 0,
  days: 0,
  hours: 0,
  minutes: 0,
  seconds: 0,
  ...p,
})

describe('addIsoDuration: calendar days keep the wall time across DST (America/New_York)', () => {
  const ny = { timeZone: 'America/New_York' }
  it('03:30 the day before spring-forward + P1D is 03:30 EDT (07:30Z), not 04:30', () => {
    // 2026-03-08 02:00 EST -> 03:00 EDT; 03:30 local exists on both days
    expect(addIsoDuration(Date.UTC(2026, 2, 7, 8, 30), dur({ days: 1 }), ny)).toBe(Date.UTC(2026, 2, 8, 7, 30))
    expect(addIsoDuration(Date.UTC(2026, 2, 1, 8, 30), dur({ weeks: 1 }), ny)).toBe(Date.UTC(2026, 2, 8, 7, 30))
    expect(addIsoDuration(Date.UTC(2026, 2, 8, 7, 30), dur({ days: 1 }), { ...ny, sign: -1 })).toBe(
      Date.UTC(2026, 2, 7, 8, 30),
    )
  })

  it('a wall time that occurs twice (01:30 on fall-back day) takes the earlier instant (EDT)', () => {
    // 2026-11-01 02:00 EDT -> 01:00 EST: 01:30 is 05:30Z (EDT) and 06:30Z (EST)
    expect(addIsoDuration(Date.UTC(2026, 9, 31, 5, 30), dur({ days: 1 }), ny)).toBe(Date.UTC(2026, 10, 1, 5, 30))
    expect(addIsoDuration(Date.UTC(2026, 9, 2, 5, 30), dur({ months: 1 }), ny)).toBe(Date.UTC(2026, 10, 2, 6, 30)) // 01:30 EST on 2 Nov
  })

  it('a wall time in the gap moves forward by the gap (02:30 on spring-forward day is 03:30 EDT)', () => {
    expect(addIsoDuration(Date.UTC(2026, 2, 7, 7, 30), dur({ days: 1 }), ny)).toBe(Date.UTC(2026, 2, 8, 7, 30))
  })

  it('milliseconds survive a calendar step in any zone', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) }),
        fc.constantFrom('UTC', 'Europe/London', 'Asia/Kathmandu', 'America/New_York'),
        (t, timeZone) => {
          const r = addIsoDuration(t, dur({ days: 1 }), { timeZone })
          expect(((r % 1000) + 1000) % 1000).toBe(((t % 1000) + 1000) % 1000)
          expect(Math.abs(r - t - DAY)).toBeLessThanOrEqual(HOUR) // one calendar day is 23..25 h there
        },
      ),
      { numRuns: 60 },
    )
  })

  it('calendar parts first, then elapsed time (RFC 5545 / Temporal order)', () => {
    // 2026-01-30 23:30 + 1 month = 2026-02-28 23:30 (clamped), + 1 hour = 2026-03-01 00:30
    expect(addIsoDuration(Date.UTC(2026, 0, 30, 23, 30), dur({ months: 1, hours: 1 }))).toBe(
      Date.UTC(2026, 2, 1, 0, 30),
    )
    // and subtracting undoes it: elapsed first, then calendar
    expect(addIsoDuration(Date.UTC(2026, 2, 1, 0, 30), dur({ months: 1, hours: 1 }), { sign: -1 })).toBe(
      Date.UTC(2026, 0, 28, 23, 30),
    )
  })

  it('P1W is seven calendar days, in UTC too', () => {
    expect(addIsoDuration(Date.UTC(2026, 5, 1), dur({ weeks: 1 }))).toBe(Date.UTC(2026, 5, 8))
    expect(addIsoDuration(Date.UTC(2026, 5, 1), dur({ weeks: 2, days: 3 }))).toBe(Date.UTC(2026, 5, 18))
  })
})

describe('buckets tile time around odd local-day histories', () => {
  const cases: [string, number][] = [
    ['America/Juneau', Date.UTC(1867, 9, 18, 12)], // a whole day repeated (moved from Asia's side to America's)
    ['America/Sitka', Date.UTC(1867, 9, 18, 12)],
    ['Pacific/Apia', Date.UTC(1892, 6, 4, 12)],
    ['Pacific/Apia', Date.UTC(2011, 11, 30, 12)], // a whole day skipped
    ['Pacific/Kwajalein', Date.UTC(1969, 9, 1)],
    ['America/Sao_Paulo', Date.UTC(2018, 1, 18, 2)], // DST ended at midnight
    ['America/Sao_Paulo', Date.UTC(2018, 10, 4, 3)], // DST started at midnight
    ['Europe/London', -63_000_000_000_000], // about 27 BC: years before 1 print as "n BC"
    ['America/New_York', -70_000_000_000_000],
  ]
  const frames = (['1d', '1h', '15m', '1w', '1M'] as const).map((id) => resolveTimeframe(id))
  it.each(cases)('%s around %d', (zone, center) => {
    for (let t = center - 1.5 * DAY; t <= center + 1.5 * DAY; t += 47 * 60_000) {
      for (const tf of frames) expectTiled(t, tf, zone)
    }
  })

  it('a BC instant lies in the local day that starts within a day of it', () => {
    const t = -63_000_000_000_000
    const s = bucketStart(t, resolveTimeframe('1d'), { timeZone: 'Europe/London' })
    expect(t - s).toBeGreaterThanOrEqual(0)
    expect(t - s).toBeLessThan(DAY)
    expect(((s % DAY) + DAY) % DAY).toBe(75_000) // London's LMT is -0:01:15: local midnight is 00:01:15Z
  })
})

describe('months before year 1 (Intl prints them as "n BC") are proleptic Gregorian months', () => {
  it('a 1M bucket in New York (LMT -4:56:02) starts at local midnight of the 1st', () => {
    const lmt = -(4 * 3600 + 56 * 60 + 2) * 1000
    const month = resolveTimeframe('1M')
    for (let t = -70_000_000_000_000; t < -69_900_000_000_000; t += 3 * DAY + 12_345) {
      const s = bucketStart(t, month, { timeZone: 'America/New_York' })
      expect(s).toBeLessThanOrEqual(t)
      expect(bucketStart(s + lmt, month, { timeZone: 'UTC' })).toBe(s + lmt) // local wall time of s: 00:00 on the 1st
      expect(bucketEnd(t, month, { timeZone: 'America/New_York' })).toBe(
        bucketEnd(t + lmt, month, { timeZone: 'UTC' }) - lmt,
      )
    }
  })
})

describe('zone names', () => {
  it("'Z' is UTC", () => {
    expect(isValidTimeZone('Z')).toBe(true)
    const t = Date.UTC(2026, 5, 1, 13, 7)
    expect(bucketStart(t, resolveTimeframe('1d'), { timeZone: 'Z' })).toBe(Date.UTC(2026, 5, 1))
    expect(addIsoDuration(t, dur({ months: 1 }), { timeZone: 'Z' })).toBe(Date.UTC(2026, 6, 1, 13, 7))
  })
})

describe('timeframeRank: nominal lengths (months of the mean Gregorian year)', () => {
  it('a month is 1/12 of 365.2425 days; a quarter 3 months; ranks order 30d < 1M < 31d', () => {
    const rank = (unit: 'DAY' | 'MONTH' | 'QUARTER' | 'YEAR', count: number) =>
      timeframeRank(resolveTimeframe({ unit, count }))
    expect(rank('YEAR', 1)).toBe(365.2425 * DAY)
    expect(rank('MONTH', 1)).toBeCloseTo((365.2425 * DAY) / 12, 3)
    expect(rank('MONTH', 12)).toBeCloseTo(rank('YEAR', 1), 3)
    expect(rank('QUARTER', 1)).toBeCloseTo(rank('MONTH', 3), 3)
    expect(rank('DAY', 30)).toBeLessThan(rank('MONTH', 1))
    expect(rank('MONTH', 1)).toBeLessThan(rank('DAY', 31))
  })
})
