import { describe, expect, it } from 'vitest'
import { checkCap, type HistoryRequest } from '../../src/rules/index.js'
import { bucketEnd, bucketStart, resolveTimeframe, type Timeframe } from '../../src/time/index.js'
import { BASE, DAY, parsed, slowSlotCount, tf } from './helpers.js'

const JUNE_1 = Date.UTC(2026, 5, 1)
const s = (ms: number) => String(ms / 1000)

/** The end of the k-th bucket from the bucket holding `from` (slow reference walk). */
function kthEnd(timeframe: Timeframe, from: number, k: number, timeZone = 'UTC'): number {
  let e = bucketEnd(from, timeframe, { timeZone })
  for (let i = 1; i < k; i++) e = bucketEnd(e, timeframe, { timeZone })
  return e
}

describe('checkCap: the zone the buckets are counted in', () => {
  it('ctx.timeZone overrides the request zone', () => {
    // 1000 UTC days from a UTC midnight: 1000 buckets in UTC; in New York the range starts at 20:00 (or 19:00)
    // local on the day before, so it overlaps 1001 local days
    const r = parsed('footprint', { ...BASE, timeframe: '1d', from: s(JUNE_1), to: s(JUNE_1 + 1000 * DAY) })
    expect(r.timeZone).toBe('UTC')
    expect(slowSlotCount(tf('1d'), r.from, r.to, 'UTC')).toBe(1000)
    expect(slowSlotCount(tf('1d'), r.from, r.to, 'America/New_York')).toBe(1001)
    expect(checkCap(r)).toBeUndefined()
    expect(checkCap(r, { timeZone: 'America/New_York' })?.code).toBe('too_much_data')
    expect(checkCap({ ...r, timeZone: 'America/New_York' }, { timeZone: 'UTC' })).toBeUndefined()
  })

  it('a local day of 48 hours (America/Juneau, October 1867) is one bucket: 1,001 days of time can be 1,000 buckets', () => {
    const zone = 'America/Juneau'
    const d = tf('1d')
    const long = bucketStart(Date.UTC(1867, 9, 18, 20), d, { timeZone: zone })
    expect(bucketEnd(long, d, { timeZone: zone }) - long).toBe(2 * DAY) // the zone moved back by a whole day
    const from = bucketStart(long - 10 * DAY, d, { timeZone: zone })
    const to = kthEnd(d, from, 1000, zone)
    expect(to - from).toBe(1001 * DAY)
    const base = parsed('footprint', { ...BASE, timeframe: '1d', from: s(JUNE_1), to: s(JUNE_1 + DAY) })
    const r: HistoryRequest = { ...base, from, to, timeZone: zone }
    expect(slowSlotCount(d, from, to, zone)).toBe(1000)
    expect(checkCap(r)).toBeUndefined()
    expect(checkCap({ ...r, to: to + 1 })?.code).toBe('too_much_data')
  })
})

describe('checkCap: calendar frames of any count (hand-built requests)', () => {
  const frames = [
    resolveTimeframe({ unit: 'QUARTER', count: 1 }),
    resolveTimeframe({ unit: 'QUARTER', count: 2 }),
    resolveTimeframe({ unit: 'MONTH', count: 7 }),
    resolveTimeframe({ unit: 'WEEK', count: 3 }),
    resolveTimeframe({ unit: 'DAY', count: 5 }),
  ]
  const base = parsed('footprint', { ...BASE, timeframe: '1d', from: s(JUNE_1), to: s(JUNE_1 + DAY) })
  for (const timeframe of frames) {
    it(`${timeframe.id}: exactly 1000 buckets pass, 1001 are too_much_data`, () => {
      const from = Date.UTC(1990, 1, 14, 5)
      const to = kthEnd(timeframe, from, 1000)
      const r: HistoryRequest = { ...base, timeframe, from, to }
      expect(checkCap(r)).toBeUndefined()
      expect(checkCap({ ...r, to: to + 1 })?.code).toBe('too_much_data')
    })
  }

  it('an empty request holds no slots, whatever its bounds say', () => {
    const r = parsed('footprint', { ...BASE, timeframe: '1m', from: '0', to: '253402300799' })
    expect(checkCap(r)?.code).toBe('too_much_data')
    expect(checkCap({ ...r, empty: true })).toBeUndefined()
  })
})
