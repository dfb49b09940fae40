// Double distribution: two areas of value (a rotation, a TPO-count peak) on each side of a thin zone.
import { fc, test as fcTest } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { dayType, profileShapeType } from '../../src/analytics/index.js'
import { tpoProfiles } from '../../src/tpo/index.js'
import { candleDay, day, dayTrades, mirrorTrades, randomDay, randomTrades, type BlockSpec } from './build.js'

// a trend day stepping up one period at a time, each leaving single prints: IB 100-106, range 100-112
const STEPS: BlockSpec[] = [
  [100, 103],
  [103, 106],
  [106, 109],
  [109, 112, 112],
]
// two areas of value (100-103 and 107-110, three TPOs a row) with rows 104-106 that never traded between them
const GAP: BlockSpec[] = [
  [100, 103],
  [100, 103],
  [101, 103],
  [107, 110],
  [107, 110],
  [107, 110, 108],
]
// the same two areas joined by single prints (D trades 103-107)
const SINGLES: BlockSpec[] = [
  [100, 103],
  [100, 103],
  [101, 103],
  [103, 107],
  [107, 110],
  [107, 110],
  [107, 110, 108],
]

describe('double distribution', () => {
  it('a trend day of single-print steps is a trend, not a double distribution', () => {
    const p = day(STEPS)
    // 100-102 is a buying tail; 104-105 and 107-108 single prints with 5 and 9 of the 16 TPOs beside them
    expect(p.singlePrints).toEqual(['104', '105', '107', '108'])
    expect(dayType(p)).toMatchObject({ type: 'trend', extension: 'up', range: '12', ibRange: '6' })
    expect(profileShapeType(p).shape).not.toBe('B')
  })
  it('two areas of value apart by untraded rows are a double distribution, not a trend', () => {
    const p = day(GAP)
    expect(p.rows.filter((r) => r[1].length === 0).map((r) => r[0])).toEqual(['104', '105', '106'])
    expect(dayType(p).type).toBe('double-distribution')
    expect(dayType(p).reason).toMatch(/^3 thin rows/)
    expect(profileShapeType(p).shape).toBe('B')
    expect(dayType(candleDay(GAP))).toEqual(dayType(p))
  })
  it('single prints between two areas of value are a double distribution', () => {
    expect(dayType(day(SINGLES)).type).toBe('double-distribution')
  })
  it('the thresholds: rows of the zone, TPOs of the peaks, share of each side', () => {
    expect(dayType(day(GAP), { singlePrintRows: 4 }).type).not.toBe('double-distribution')
    expect(dayType(day(GAP), { singlePrintRows: 3 }).type).toBe('double-distribution')
    // each area's fullest row holds 3 TPOs: 4 are not there
    expect(dayType(day(GAP), { distributionMinTpos: 4 }).type).not.toBe('double-distribution')
    // 11 of 23 TPOs lie below the zone (0.478...)
    expect(dayType(day(GAP), { distributionMinShare: '0.48' }).type).not.toBe('double-distribution')
    expect(dayType(day(GAP), { distributionMinShare: '0.47' }).type).toBe('double-distribution')
  })
  it('a thin run at an extreme is a tail, never a separation; a one-block day has no areas', () => {
    // 100-103 three times, then one period up to 110: 104-110 is a selling tail... of the last block
    const tail: BlockSpec[] = [
      [100, 103],
      [100, 103],
      [100, 103],
      [101, 110, 110],
    ]
    expect(dayType(day(tail)).type).not.toBe('double-distribution')
    expect(dayType(day([[100, 110]])).type).toBe('normal')
    expect(profileShapeType(day([[100, 110]])).shape).toBe('thin')
  })
  it('refuses a distributionMinTpos below 2', () => {
    expect(() => dayType(day(GAP), { distributionMinTpos: 1 })).toThrow(/distributionMinTpos/)
  })
})

describe('double distribution laws', () => {
  fcTest.prop([randomTrades])('mirroring prices keeps a double distribution one', (trades) => {
    const p = randomDay(trades)
    const m = tpoProfiles(mirrorTrades(trades, 10010), { timeframe: '1d', tickSize: '0.25' })[0]!
    expect(profileShapeType(m).shape === 'B').toBe(profileShapeType(p).shape === 'B')
  })
  fcTest.prop([randomTrades, fc.integer({ min: 2, max: 6 })])(
    'a higher distributionMinTpos never makes a double distribution',
    (trades, k) => {
      const p = randomDay(trades)
      if (dayType(p, { distributionMinTpos: k + 1 }).type === 'double-distribution')
        expect(dayType(p, { distributionMinTpos: k }).type).toBe('double-distribution')
    },
  )
})

it('the builder trades each block low, high, then last (sanity)', () => {
  expect(dayTrades([[1, 2, 1]]).map((t) => t.price)).toEqual([1, 2, 1])
})
