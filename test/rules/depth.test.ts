import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../src/errors.js'
import {
  checkCap,
  parseHistoryQuery,
  footprintDepthDays,
  footprintHistoryStart,
  priceOf,
  PROFILE_DATA_START,
  trimToDepth,
  type HistoryRequest,
} from '../../src/rules/index.js'
import { bucketStart, resolveTimeframe } from '../../src/time/index.js'
import { BASE, DAY, DEPTH_TABLE, parsed, tf } from './helpers.js'

const s = (ms: number) => String(ms / 1000)

describe('footprint history depth table', () => {
  it.each(DEPTH_TABLE)('%s -> %i days', (id, days) => expect(footprintDepthDays(tf(id))).toBe(days))

  it('custom counts fall in the row of their length; ticks have no footprint', () => {
    expect(footprintDepthDays(resolveTimeframe({ unit: 'MINUTE', count: 90 }))).toBe(180)
    expect(footprintDepthDays(resolveTimeframe({ unit: 'HOUR', count: 24 }))).toBe(365)
    expect(footprintDepthDays(resolveTimeframe({ unit: 'DAY', count: 7 }))).toBe(1095)
    expect(footprintDepthDays(resolveTimeframe({ unit: 'QUARTER', count: 1 }))).toBe(1095)
    expect(() => footprintDepthDays(tf('5t'))).toThrow(MarketDataError)
  })
})

describe('trimToDepth: each depth row at its boundary days', () => {
  const newest = Date.UTC(2030, 0, 15, 10, 30) // far enough after the data start for every depth to apply
  const midnight = Date.UTC(2030, 0, 15)
  const rows = [
    ['1m', 30],
    ['5m', 45],
    ['15m', 90],
    ['30m', 120],
    ['1h', 180],
    ['4h', 270],
    ['1d', 365],
    ['1w', 1095],
    ['1M', 1095],
  ] as const

  it.each(rows)('%s: depth start = UTC midnight of the newest candle minus %i days', (id, days) => {
    const depthStart = midnight - days * DAY
    expect(footprintHistoryStart(tf(id), newest)).toBe(depthStart)
    const to = s(depthStart + 5 * DAY)
    // one second older than the depth: trimmed, profileStart shows the real start
    const older = parsed('footprint', { ...BASE, timeframe: id, from: s(depthStart - 1000), to })
    expect(trimToDepth(older, { newestCandleTime: newest })).toMatchObject({
      from: depthStart,
      to: depthStart + 5 * DAY,
      profileStart: depthStart,
      empty: false,
    })
    // starting exactly at the depth start: untouched, unless the (whole) bucket holding it begins earlier
    const exact = parsed('footprint', { ...BASE, timeframe: id, from: s(depthStart), to })
    const kept = trimToDepth(exact, { newestCandleTime: newest })
    if (bucketStart(depthStart, tf(id)) === depthStart) {
      expect(kept).toBe(exact)
      expect('profileStart' in kept).toBe(false)
    } else {
      expect(['1w', '1M']).toContain(id) // 2027-01-16 is a Saturday, mid-month
      expect(kept).toEqual({ ...exact, profileStart: depthStart })
    }
    // a range ending at the depth start is empty (200, no profiles, 1,000 credits)
    const before = parsed('footprint', { ...BASE, timeframe: id, from: s(depthStart - 10 * DAY), to: s(depthStart) })
    expect(trimToDepth(before, { newestCandleTime: newest })).toMatchObject({
      empty: true,
      from: depthStart,
      to: depthStart,
    })
    expect(priceOf('footprint', { profiles: 0 })).toBe(1000)
    // one second past it: one second of data is left
    const after = parsed('footprint', {
      ...BASE,
      timeframe: id,
      from: s(depthStart - 10 * DAY),
      to: s(depthStart + 1000),
    })
    expect(trimToDepth(after, { newestCandleTime: newest })).toMatchObject({
      empty: false,
      from: depthStart,
      to: depthStart + 1000,
      profileStart: depthStart,
    })
  })

  it('the depth counts from the UTC date of the newest candle', () => {
    const t = tf('1m')
    expect(footprintHistoryStart(t, Date.UTC(2030, 0, 15))).toBe(midnight - 30 * DAY)
    expect(footprintHistoryStart(t, Date.UTC(2030, 0, 15, 23, 59, 59, 999))).toBe(midnight - 30 * DAY)
    expect(footprintHistoryStart(t, Date.UTC(2030, 0, 14, 23, 59, 59, 999))).toBe(midnight - 31 * DAY)
  })
})

describe('trimToDepth: the 2026-05-29 data floor', () => {
  it('is 2026-05-29T00:00Z', () => expect(PROFILE_DATA_START).toBe(Date.parse('2026-05-29T00:00:00Z')))

  it('footprint: the floor wins while the depth reaches before it', () => {
    expect(footprintHistoryStart(tf('1d'), Date.UTC(2026, 6, 1, 12))).toBe(PROFILE_DATA_START)
    const r = parsed('footprint', {
      ...BASE,
      timeframe: '1d',
      from: s(Date.UTC(2026, 4, 1)),
      to: s(Date.UTC(2026, 5, 10)),
    })
    expect(trimToDepth(r, { newestCandleTime: Date.UTC(2026, 6, 1) })).toMatchObject({
      from: PROFILE_DATA_START,
      profileStart: PROFILE_DATA_START,
    })
  })

  it('tpo: no depth limit, only the floor', () => {
    for (const newest of [Date.UTC(2026, 5, 1), Date.UTC(2040, 0, 1)]) {
      const r = parsed('tpo', { ...BASE, timeframe: '1d', from: s(Date.UTC(2026, 4, 1)), to: s(Date.UTC(2026, 5, 10)) })
      expect(trimToDepth(r, { newestCandleTime: newest })).toMatchObject({
        from: PROFILE_DATA_START,
        profileStart: PROFILE_DATA_START,
      })
      const late = parsed('tpo', {
        ...BASE,
        timeframe: '1d',
        from: s(Date.UTC(2027, 0, 1)),
        to: s(Date.UTC(2027, 2, 1)),
      })
      expect(trimToDepth(late, { newestCandleTime: newest })).toBe(late)
    }
  })

  it('weekly profiles start with the week containing the floor, beginning Monday 25 May; monthly on 1 May', () => {
    for (const e of ['footprint', 'tpo'] as const) {
      const w = trimToDepth(
        parsed(e, { ...BASE, timeframe: '1w', from: s(Date.UTC(2026, 3, 1)), to: s(Date.UTC(2026, 6, 1)) }),
        { newestCandleTime: Date.UTC(2026, 6, 1) },
      )
      expect(w).toMatchObject({ from: PROFILE_DATA_START, profileStart: PROFILE_DATA_START })
      expect(bucketStart(w.from, w.timeframe)).toBe(Date.UTC(2026, 4, 25))
      const m = trimToDepth(
        parsed(e, { ...BASE, timeframe: '1M', from: s(Date.UTC(2026, 0, 1)), to: s(Date.UTC(2026, 8, 1)) }),
        { newestCandleTime: Date.UTC(2026, 6, 1) },
      )
      expect(bucketStart(m.from, m.timeframe)).toBe(Date.UTC(2026, 4, 1))
      expect((m as { profileStart?: number }).profileStart).toBe(PROFILE_DATA_START)
    }
  })

  it('a from at or after the effective start whose first bucket starts before it: profileStart shows the real start', () => {
    // weekly: from Saturday 2026-05-30 (not older than the floor), but its week begins Monday 25 May, before the floor
    for (const e of ['footprint', 'tpo'] as const) {
      const r = parsed(e, { ...BASE, timeframe: '1w', from: s(Date.UTC(2026, 4, 30)), to: s(Date.UTC(2026, 5, 15)) })
      const t = trimToDepth(r, { newestCandleTime: Date.UTC(2026, 6, 1) })
      expect(t).toMatchObject({
        from: Date.UTC(2026, 4, 30),
        to: Date.UTC(2026, 5, 15),
        profileStart: PROFILE_DATA_START,
        empty: false,
      })
      expect(checkCap(t)).toEqual(checkCap(r))
      expect(trimToDepth(t, { newestCandleTime: Date.UTC(2026, 6, 1) })).toEqual(t)
    }
    // depth: a 1d footprint in America/Chicago (local days start 05:00Z or 06:00Z) from 2 h after the UTC-midnight depth start
    const newest = Date.UTC(2030, 0, 15, 10, 30)
    const depthStart = Date.UTC(2030, 0, 15) - 365 * DAY
    const q = { ...BASE, timeframe: '1d', from: s(depthStart + 2 * 3_600_000), to: s(depthStart + 10 * DAY) }
    const chicago = parseHistoryQuery('footprint', q, { now: newest, timeZone: 'America/Chicago' })
    expect(chicago.ok).toBe(true)
    if (chicago.ok)
      expect(trimToDepth(chicago.value, { newestCandleTime: newest })).toMatchObject({
        from: depthStart + 2 * 3_600_000,
        profileStart: depthStart,
      })
    // in UTC the same from lies in the bucket that starts exactly at the depth start: nothing to mark
    const utc = parsed('footprint', q)
    expect(trimToDepth(utc, { newestCandleTime: newest })).toBe(utc)
  })

  it('a range ending before the floor is empty', () => {
    const r = parsed('tpo', { ...BASE, timeframe: '1d', from: s(Date.UTC(2026, 0, 1)), to: s(PROFILE_DATA_START) })
    const t = trimToDepth(r, { newestCandleTime: Date.UTC(2026, 6, 1) })
    expect(t).toMatchObject({ empty: true, from: PROFILE_DATA_START, to: PROFILE_DATA_START })
    expect(checkCap(t)).toBeUndefined()
  })

  it('candles keep their full history: unchanged', () => {
    const r = parsed('candles', { ...BASE, timeframe: '1m', from: '0', to: s(Date.UTC(2026, 0, 1)) })
    expect(trimToDepth(r, { newestCandleTime: Date.UTC(2030, 0, 1) })).toBe(r)
  })

  it('throws MarketDataError for a newestCandleTime that is not a finite number', () => {
    const r = parsed('tpo', { ...BASE, timeframe: '1d' })
    expect(() => trimToDepth(r, { newestCandleTime: Number.NaN })).toThrow(MarketDataError)
  })
})

describe('trimToDepth properties', () => {
  const arb = fc.record({
    endpoint: fc.constantFrom('footprint', 'tpo', 'candles'),
    id: fc.constantFrom('1m', '5m', '15m', '30m', '1h', '4h', '1d', '1w', '1M'),
    from: fc.integer({ min: Date.UTC(2025, 0, 1) / 1000, max: Date.UTC(2031, 0, 1) / 1000 }),
    span: fc.integer({ min: 1, max: 400 * 86_400 }),
    newest: fc.integer({ min: Date.UTC(2026, 4, 29), max: Date.UTC(2031, 6, 1) }),
  })

  it('trimmed ranges never start before the depth start or the floor, keep their end, and mark what they cut', () => {
    fc.assert(
      fc.property(arb, ({ endpoint, id, from, span, newest }) => {
        const timeframe = endpoint === 'tpo' && !['1d', '1w', '1M'].includes(id) ? '1d' : id
        const r = parsed(endpoint, { ...BASE, timeframe, from: String(from), to: String(from + span) })
        const before = JSON.stringify(r)
        const t: HistoryRequest = trimToDepth(r, { newestCandleTime: newest })
        expect(JSON.stringify(r)).toBe(before) // input untouched
        if (endpoint === 'candles') return void expect(t).toBe(r)
        const start = endpoint === 'footprint' ? footprintHistoryStart(r.timeframe, newest) : PROFILE_DATA_START
        expect(start).toBeGreaterThanOrEqual(PROFILE_DATA_START)
        if (endpoint === 'footprint')
          expect(start).toBeGreaterThanOrEqual(Math.floor(newest / DAY) * DAY - footprintDepthDays(r.timeframe) * DAY)
        expect(t.from).toBeGreaterThanOrEqual(start)
        expect(t.from).toBeGreaterThanOrEqual(PROFILE_DATA_START)
        if (r.to <= start) {
          expect(t).toMatchObject({ empty: true, from: start, to: start })
        } else {
          expect(t.empty).toBe(false)
          expect(t.to).toBe(r.to)
          expect(t.from).toBe(Math.max(r.from, start))
          expect(t.from).toBeLessThan(t.to)
          // marked when the first bucket (the one holding from) starts before the effective start
          const p = (t as { profileStart?: number }).profileStart
          expect(p).toBe(bucketStart(r.from, r.timeframe, { timeZone: r.timeZone }) < start ? start : undefined)
        }
        // trimming twice changes nothing more
        expect(trimToDepth(t, { newestCandleTime: newest })).toEqual(t)
      }),
      { numRuns: 400 },
    )
  })
})

describe('trimToDepth: empty requests', () => {
  it('an empty request before the data start moves to the effective start, still empty', () => {
    const r = parsed('footprint', { ...BASE, timeframe: '1m', to: '0', period: '60' }) // [0 - 60 s, 0) clamped: empty at 0
    expect(r).toMatchObject({ empty: true, from: 0, to: 0 })
    const t = trimToDepth(r, { newestCandleTime: Date.UTC(2026, 5, 10, 12) }) // 1m depth 30 days: before the floor
    expect(t).toMatchObject({ empty: true, from: PROFILE_DATA_START, to: PROFILE_DATA_START })
    const tpo = parsed('tpo', { ...BASE, timeframe: '1d', to: '0', period: '60' })
    expect(trimToDepth(tpo, { newestCandleTime: Date.UTC(2026, 5, 10, 12) })).toMatchObject({
      empty: true,
      from: PROFILE_DATA_START,
      to: PROFILE_DATA_START,
    })
  })
})
