import { test as fcTest } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { profileShapeType, singlePrintZones, spike } from '../../src/analytics/index.js'
import { tpoProfiles } from '../../src/tpo/index.js'
import { BLOCK, candleDay, day, mirrorTrades, randomDay, randomTrades, T, type BlockSpec } from './build.js'

// a rally in A and B, then rotation at the top: fat top over a thin lower part
const P_DAY: BlockSpec[] = [
  [100, 105],
  [104, 110],
  [107, 110],
  [107, 110],
  [107, 110],
  [108, 110, 109],
]
const B_DAY: BlockSpec[] = [
  [105, 110],
  [100, 106],
  [100, 103],
  [100, 103],
  [100, 103],
  [100, 102, 101],
]
const NORMAL: BlockSpec[] = [
  [100, 110],
  [101, 109],
  [102, 108],
  [103, 109, 105],
]

describe('profileShapeType', () => {
  it('P: the upper half holds 20 TPOs, the lower 6', () => {
    expect(profileShapeType(day(P_DAY))).toMatchObject({ shape: 'P', upperTpos: 20, lowerTpos: 6, meanTpos: '2.54' })
  })
  it('b: the mirror day', () => {
    expect(profileShapeType(day(B_DAY))).toMatchObject({ shape: 'b', upperTpos: 6, lowerTpos: 20 })
  })
  it('D: 16 above the middle row, 14 below', () => {
    expect(profileShapeType(day(NORMAL))).toMatchObject({ shape: 'D', upperTpos: 16, lowerTpos: 14 })
  })
  it('thin: a trend of single-print steps, 16 TPOs on 13 rows', () => {
    const steps: BlockSpec[] = [
      [100, 103],
      [103, 106],
      [106, 109],
      [109, 112, 112],
    ]
    expect(profileShapeType(day(steps))).toMatchObject({ shape: 'thin', meanTpos: '1.23' })
  })
  it('B: two areas of value apart (the double-distribution rule)', () => {
    const gap: BlockSpec[] = [
      [100, 103],
      [100, 103],
      [101, 103],
      [107, 110],
      [107, 110],
      [107, 110, 108],
    ]
    expect(profileShapeType(day(gap)).shape).toBe('B')
    expect(profileShapeType(day(gap), { distributionMinTpos: 4 }).shape).not.toBe('B')
  })
  it('ties and thresholds: equal halves are D; a higher ratio or a thin limit moves the shape', () => {
    const even = day([
      [100, 104],
      [100, 104],
    ])
    expect(profileShapeType(even)).toMatchObject({ shape: 'D', upperTpos: 4, lowerTpos: 4 })
    expect(profileShapeType(day(P_DAY), { shapeRatio: 4 }).shape).toBe('D')
    expect(profileShapeType(day(P_DAY), { thinMeanTpos: 3 }).shape).toBe('thin')
    expect(profileShapeType(candleDay(P_DAY))).toEqual(profileShapeType(day(P_DAY)))
    expect(() => profileShapeType(day(P_DAY), { shapeRatio: '0.5' })).toThrow(/options.shapeRatio/)
  })
  fcTest.prop([randomTrades])('a profile and its mirror image swap P and b and keep the other shapes', (trades) => {
    const a = profileShapeType(randomDay(trades))
    const b = profileShapeType(tpoProfiles(mirrorTrades(trades, 10010), { timeframe: '1d', tickSize: '0.25' })[0]!)
    const swap = { P: 'b', b: 'P', D: 'D', B: 'B', thin: 'thin' } as const
    expect(b.shape).toBe(swap[a.shape])
    expect([b.upperTpos, b.lowerTpos]).toEqual([a.lowerTpos, a.upperTpos])
  })
})

describe('spike and tails', () => {
  it('the last period trading beyond the day is a spike, not a selling tail', () => {
    const p = day([
      [100, 104],
      [100, 104],
      [101, 104],
      [103, 108, 108],
    ])
    expect(p.excessHigh).toBe(4) // the profile's own count calls it excess
    expect(spike(p)).toEqual({ direction: 'up', low: '105', high: '108', rows: 4, start: T(9) + 3 * BLOCK })
    expect(singlePrintZones(p)).toEqual([{ kind: 'spike', low: '105', high: '108', rows: 4 }])
  })
  it('an early high rejected by later periods is a tail (excess), not a spike', () => {
    const p = day([
      [100, 108],
      [100, 103],
      [100, 103],
      [101, 103],
    ])
    expect(spike(p)).toBeNull()
    expect(singlePrintZones(p)).toEqual([{ kind: 'selling-tail', low: '104', high: '108', rows: 5 }])
  })
  it('the rest of a tail a spike cut is single prints; a spike down', () => {
    const p = day([
      [100, 106],
      [100, 103],
      [100, 103],
      [107, 110, 110],
    ])
    expect(spike(p)).toMatchObject({ direction: 'up', low: '107', high: '110', rows: 4 })
    expect(singlePrintZones(p)).toEqual([
      { kind: 'single-prints', low: '104', high: '106', rows: 3 },
      { kind: 'spike', low: '107', high: '110', rows: 4 },
    ])
    const down = day([
      [104, 110],
      [106, 110],
      [106, 110],
      [100, 103, 100],
    ])
    expect(spike(down)).toMatchObject({ direction: 'down', low: '100', high: '103', rows: 4 })
  })
  it('no spike: one row beyond, both sides, or a one-block day', () => {
    const oneRow = day([
      [100, 104],
      [100, 104],
      [102, 105],
    ])
    expect(spike(oneRow)).toBeNull()
    const both = day([
      [102, 104],
      [102, 104],
      [99, 107],
    ])
    expect(spike(both)).toBeNull()
    expect(spike(day([[100, 104]]))).toBeNull()
  })
  fcTest.prop([randomTrades])('mirroring prices mirrors the spike', (trades) => {
    const a = spike(randomDay(trades))
    const b = spike(tpoProfiles(mirrorTrades(trades, 10010), { timeframe: '1d', tickSize: '0.25' })[0]!)
    expect(b === null).toBe(a === null)
    if (a !== null && b !== null) {
      expect(b.direction).toBe(a.direction === 'up' ? 'down' : 'up')
      expect([b.rows, b.start]).toEqual([a.rows, a.start])
    }
  })
})
