import { formatInTimeZone } from 'date-fns-tz'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  bucketEnd,
  bucketStart,
  createBucketer,
  resolveTimeframe,
  type Timeframe,
  type TimeframeId,
  type TimeUnit,
} from '../../src/time/index.js'
import { expectTiled } from './laws.js'

const ZONES = ['UTC', 'America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/Sao_Paulo']
const MAX_COUNT: Record<TimeUnit, number> = { MINUTE: 90, HOUR: 30, DAY: 9, WEEK: 4, MONTH: 13, QUARTER: 5, YEAR: 3 }
const UNITS = Object.keys(MAX_COUNT) as TimeUnit[]

const instant = fc.integer({ min: Date.UTC(1995, 0, 1), max: Date.UTC(2040, 0, 1) })
const timeframe = fc
  .constantFrom(...UNITS)
  .chain((unit) =>
    fc.integer({ min: 1, max: MAX_COUNT[unit] }).map((count): Timeframe => resolveTimeframe({ unit, count })),
  )
const zone = fc.constantFrom(...ZONES)

const local = (t: number, tz: string, f: string) => formatInTimeZone(t, tz, f)
const localDayNumber = (t: number, tz: string) => Date.parse(`${local(t, tz, 'yyyy-MM-dd')}T00:00:00Z`) / 86_400_000

describe('buckets tile time', () => {
  it('every instant lies in exactly one bucket, and consecutive buckets touch', () => {
    fc.assert(fc.property(instant, timeframe, zone, expectTiled), { numRuns: 400 })
  })

  it('aligns as docs/concepts.md says, checked against Intl wall times', () => {
    fc.assert(
      fc.property(instant, timeframe, zone, (t, tf, timeZone) => {
        const s = bucketStart(t, tf, { timeZone })
        const day = localDayNumber(s, timeZone)
        const dayStart = bucketStart(t, resolveTimeframe('1d'), { timeZone })
        if (tf.unit === 'MINUTE' || tf.unit === 'HOUR') {
          const len = tf.count * (tf.unit === 'MINUTE' ? 60_000 : 3_600_000)
          expect((s - dayStart) % len).toBe(0)
          return
        }
        // day and longer buckets start at a local day's first instant
        expect(bucketStart(s, resolveTimeframe('1d'), { timeZone })).toBe(s)
        if (tf.unit === 'DAY') expect(((day % tf.count) + tf.count) % tf.count).toBe(0)
        if (tf.unit === 'WEEK') {
          expect(local(s + 3_600_000 * 3, timeZone, 'i')).toBe('1') // a Monday
          expect((((day - 4) % (7 * tf.count)) + 7 * tf.count) % (7 * tf.count)).toBe(0)
        }
        if (tf.unit === 'MONTH' || tf.unit === 'QUARTER' || tf.unit === 'YEAR') {
          const per = tf.unit === 'MONTH' ? tf.count : tf.unit === 'QUARTER' ? 3 * tf.count : 12 * tf.count
          const wall = local(s + 3_600_000 * 3, timeZone, 'yyyy-MM-dd')
          expect(wall.endsWith('-01')).toBe(true)
          const mi = Number(wall.slice(0, 4)) * 12 + Number(wall.slice(5, 7)) - 1
          expect(mi % per).toBe(0)
        }
      }),
      { numRuns: 300 },
    )
  })
})

describe('at the ends of the time range', () => {
  it('instants within 40 days of ±8.64e15 (the Date range) tile time in every zone (no RangeError from Intl, no bucket out of place)', () => {
    // bounds near the ends reach past them; the zone's offset at the end stands there
    const near = fc.oneof(
      fc.integer({ min: 8.64e15 - 40 * 86_400_000, max: 8.64e15 }),
      fc.integer({ min: -8.64e15, max: -8.64e15 + 40 * 86_400_000 }),
    )
    fc.assert(fc.property(near, timeframe, zone, expectTiled), { numRuns: 400 })
  })
})

describe('nesting', () => {
  const chains: [TimeframeId, TimeframeId][] = [
    ['5m', '15m'],
    ['15m', '1h'],
    ['1h', '1d'],
    ['1d', '1w'],
    ['1M', '3M'],
    ['3M', '1y'],
    ['1m', '1d'],
    ['4h', '1d'],
  ]
  it.each(chains)('every %s bucket lies inside one %s bucket', (fine, coarse) => {
    const f = resolveTimeframe(fine)
    const cc = resolveTimeframe(coarse)
    fc.assert(
      fc.property(instant, zone, (t, timeZone) => {
        const o = { timeZone }
        expect(bucketStart(t, cc, o)).toBeLessThanOrEqual(bucketStart(t, f, o))
        expect(bucketEnd(t, f, o)).toBeLessThanOrEqual(bucketEnd(t, cc, o))
      }),
      { numRuns: 150 },
    )
  })
  it('quarters are 3-month buckets and a QUARTER frame equals 3M', () => {
    const q = resolveTimeframe({ unit: 'QUARTER', count: 1 })
    fc.assert(
      fc.property(instant, zone, (t, timeZone) => {
        expect(bucketStart(t, q, { timeZone })).toBe(bucketStart(t, resolveTimeframe('3M'), { timeZone }))
      }),
      { numRuns: 100 },
    )
  })
})

describe('calendar examples', () => {
  const d1 = resolveTimeframe('1d')
  it('DST days are 23 or 25 hours long', () => {
    const ny = { timeZone: 'America/New_York' }
    const spring = Date.UTC(2026, 2, 8, 12)
    const fall = Date.UTC(2026, 10, 1, 12)
    expect((bucketEnd(spring, d1, ny) - bucketStart(spring, d1, ny)) / 3_600_000).toBe(23)
    expect((bucketEnd(fall, d1, ny) - bucketStart(fall, d1, ny)) / 3_600_000).toBe(25)
    const lh = { timeZone: 'Australia/Lord_Howe' } // 30-minute DST change
    const lhDay = Date.UTC(2026, 3, 5, 6)
    expect((bucketEnd(lhDay, d1, lh) - bucketStart(lhDay, d1, lh)) / 60_000).toBe(24 * 60 + 30)
  })
  it('a day whose midnight does not exist starts at the transition (Sao Paulo 2018-11-04)', () => {
    const sp = { timeZone: 'America/Sao_Paulo' }
    expect(new Date(bucketStart(Date.UTC(2018, 10, 4, 12), d1, sp)).toISOString()).toBe('2018-11-04T03:00:00.000Z')
    expect(new Date(bucketEnd(Date.UTC(2019, 1, 16, 12), d1, sp)).toISOString()).toBe('2019-02-17T03:00:00.000Z')
  })
  it('ISO weeks start Monday: 2026-05-29 lies in the week of Monday 2026-05-25', () => {
    const w = resolveTimeframe('1w')
    expect(bucketStart(Date.UTC(2026, 4, 29, 15), w)).toBe(Date.UTC(2026, 4, 25))
    expect(bucketEnd(Date.UTC(2026, 4, 29, 15), w)).toBe(Date.UTC(2026, 5, 1))
  })
  it('minute buckets restart at each local midnight; the last one of a day may be shorter', () => {
    const m7 = resolveTimeframe({ unit: 'MINUTE', count: 7 })
    const t = Date.UTC(2026, 4, 29, 23, 59)
    expect(bucketStart(t, m7)).toBe(Date.UTC(2026, 4, 29, 23, 55)) // 1435 = 205 * 7
    expect(bucketEnd(t, m7)).toBe(Date.UTC(2026, 4, 30))
  })
  it('refuses tick frames, bad zones and non-finite times with MarketDataError', () => {
    expect(() => bucketStart(0, resolveTimeframe('5t'))).toThrow(/tick frames/)
    expect(() => bucketStart(0, d1, { timeZone: 'Mars/Olympus' })).toThrow(/timeZone/)
    expect(() => bucketStart(Number.NaN, d1)).toThrow(/time/)
  })
})

describe('createBucketer', () => {
  it('equals bucketStart/bucketEnd on sorted and unsorted sequences', () => {
    fc.assert(
      fc.property(
        timeframe,
        zone,
        fc.array(fc.integer({ min: 0, max: 40 * 86_400_000 }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2035, 0, 1) }),
        fc.boolean(),
        (tf, timeZone, offsets, base, sorted) => {
          const times = offsets.map((o) => base + o)
          if (sorted) times.sort((a, b) => a - b)
          const b = createBucketer(tf, { timeZone })
          for (const t of times) {
            expect(b.locate(t)).toBe(bucketStart(t, tf, { timeZone }))
            expect(b.end).toBe(bucketEnd(t, tf, { timeZone }))
          }
        },
      ),
      { numRuns: 150 },
    )
  })
})
