import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../src/errors.js'
import { rangeTruncatedFrame } from '../../src/credits/index.js'
import { DEPTH_TABLE } from '../rules/helpers.js'

const DAY = 86_400_000
const FLOOR = Date.UTC(2026, 4, 29)
const NEWEST = Date.UTC(2030, 0, 15, 13, 45) // far enough from the floor for every depth row

describe('rangeTruncatedFrame', () => {
  it.each(DEPTH_TABLE)('since for %s is UTC midnight of the newest candle date minus %i days', (tf, days) => {
    expect(rangeTruncatedFrame(NEWEST, tf).since).toBe(Date.UTC(2030, 0, 15) - days * DAY)
  })

  it('never goes before the 2026-05-29 data floor', () => {
    expect(rangeTruncatedFrame(Date.UTC(2026, 5, 10), '1w').since).toBe(FLOOR)
    expect(rangeTruncatedFrame(Date.UTC(2026, 5, 28, 23, 59), '1m').since).toBe(FLOOR) // 30 days back: 2026-05-29
    expect(rangeTruncatedFrame(Date.UTC(2026, 5, 29), '1m').since).toBe(Date.UTC(2026, 4, 30))
  })

  it('a frame is due only when the limit moved past the one the client saw; since is ISO 8601 UTC', () => {
    const prev = rangeTruncatedFrame(Date.UTC(2026, 8, 30, 23, 59), '1m').since
    expect(rangeTruncatedFrame(Date.UTC(2026, 8, 30, 23, 59, 59), '1m', prev).frame).toBeUndefined()
    const moved = rangeTruncatedFrame(Date.UTC(2026, 9, 1, 0, 0), '1m', prev)
    expect(moved).toEqual({
      since: Date.UTC(2026, 8, 1),
      frame: { type: 'rangeTruncated', since: '2026-09-01T00:00:00.000Z' },
    })
    expect(rangeTruncatedFrame(Date.UTC(2026, 9, 1), '1m').frame).toBeUndefined() // a new stream: nothing to announce
  })

  it('accepts a timeframe object; tick frames have no footprint', () => {
    expect(rangeTruncatedFrame(NEWEST, { unit: 'MINUTE', count: 90 }).since).toBe(Date.UTC(2030, 0, 15) - 180 * DAY)
    expect(() => rangeTruncatedFrame(NEWEST, '100t')).toThrow(MarketDataError)
  })

  it('property: since is non-decreasing as the newest candle moves forward; a frame exactly when it grows', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('1m', '5m', '15m', '30m', '1h', '4h', '1d', '1w'),
        fc.integer({ min: Date.UTC(2026, 4, 1), max: Date.UTC(2032, 0, 1) }),
        fc.array(fc.integer({ min: 0, max: 3 * DAY }), { maxLength: 30 }),
        (tf, start, steps) => {
          let t = start
          let since = rangeTruncatedFrame(t, tf).since
          for (const step of steps) {
            t += step
            const r = rangeTruncatedFrame(t, tf, since)
            expect(r.since).toBeGreaterThanOrEqual(since)
            expect(r.since).toBeGreaterThanOrEqual(FLOOR)
            expect(r.since % DAY).toBe(0)
            expect(r.frame !== undefined).toBe(r.since > since)
            if (r.frame) expect(Date.parse(r.frame.since)).toBe(r.since)
            since = r.since
          }
        },
      ),
      { numRuns: 100 },
    )
  })
})
