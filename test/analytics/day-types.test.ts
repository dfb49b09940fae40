import { fc, test as fcTest } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { dayType, type DayTypeOptions } from '../../src/analytics/index.js'
import { MarketDataError } from '../../src/errors.js'
import { footprintProfiles } from '../../src/footprint/index.js'
import { tpoProfiles } from '../../src/tpo/index.js'
import { candleDay, day, dayTrades, randomDay, randomTrades, T, type BlockSpec } from './build.js'

// Hand-built days (tick 1, 30-minute blocks A, B, C, ... from 09:00; the IB is A + B).
const DAYS: Record<string, BlockSpec[]> = {
  // wide IB 100-110; one row of extension (111): 1/11 of the range
  normal: [
    [100, 110],
    [101, 109],
    [102, 108],
    [103, 111, 105],
  ],
  // IB 100-106, extension up to 110 (4 of 10 rows), range < 2 x IB
  'normal-variation': [
    [100, 105],
    [101, 106],
    [104, 109],
    [106, 110, 108],
  ],
  // IB 100-103, range 100-112 (4 x IB) one way, close at the high
  trend: [
    [100, 102],
    [101, 103],
    [103, 106],
    [105, 108],
    [107, 110],
    [109, 112, 112],
  ],
  // a balanced 100-103 area, D's single prints 104-106, a second area 107-110
  'double-distribution': [
    [100, 103],
    [100, 103],
    [101, 103],
    [104, 108],
    [107, 110],
    [107, 110, 108],
  ],
  // IB 100-105, extension down (98) and up (107), close 102 in the middle
  'neutral-center': [
    [100, 104],
    [101, 105],
    [98, 102],
    [103, 107],
    [101, 104, 102],
  ],
  // the same, closing on the high
  'neutral-extreme': [
    [100, 104],
    [101, 105],
    [98, 102],
    [103, 107],
    [101, 104],
    [105, 107, 107],
  ],
}
// a narrow day inside its IB: non-trend when the caller says 3 points is narrow
const QUIET: BlockSpec[] = [
  [100, 102],
  [100, 102],
  [100, 102],
  [101, 102, 101],
]

describe('dayType: one hand-built profile per type', () => {
  for (const [type, blocks] of Object.entries(DAYS)) {
    it(`${type}`, () => {
      expect(dayType(day(blocks)).type).toBe(type)
    })
    it(`${type}, from candles of the same blocks`, () => {
      expect(dayType(candleDay(blocks))).toEqual(dayType(day(blocks)))
    })
  }
  it('non-trend needs narrowRange; without it a quiet day is normal', () => {
    expect(dayType(day(QUIET), { narrowRange: 3 }).type).toBe('non-trend')
    expect(dayType(day(QUIET), { narrowRange: '1.99' }).type).toBe('normal')
    expect(dayType(day(QUIET)).type).toBe('normal')
  })
  it('reports the extension and the measures', () => {
    expect(dayType(day(DAYS.trend!))).toMatchObject({ extension: 'up', range: '12', ibRange: '3' })
    expect(dayType(day(DAYS['neutral-center']!))).toMatchObject({ extension: 'both', range: '9', ibRange: '5' })
    expect(dayType(day(DAYS.normal!))).toMatchObject({ extension: 'up', range: '11', ibRange: '10' })
  })
  it('thresholds move days between types', () => {
    // a 4 x IB day is no trend when a trend must be 5 x IB: its one-sided extension is then a normal variation
    expect(dayType(day(DAYS.trend!), { trendRangeMultiple: 5 }).type).toBe('normal-variation')
    // 4 of 10 rows of extension is normal when 40% is allowed
    expect(dayType(day(DAYS['normal-variation']!), { normalMaxExtension: '0.4' }).type).toBe('normal')
    // a 3-row single-print split is no double distribution when 4 rows are needed
    expect(dayType(day(DAYS['double-distribution']!), { singlePrintRows: 4 }).type).not.toBe('double-distribution')
    // with half the range counted as near each extreme, every close is near one
    expect(dayType(day(DAYS['neutral-center']!), { extremeCloseShare: '0.5' }).type).toBe('neutral-extreme')
  })
})

describe('dayType refuses what it cannot classify', () => {
  it('a profile without an initial balance', () => {
    const [pre] = tpoProfiles(
      dayTrades([[100, 101]]).map((t) => ({ ...t, session: 'PRE_MARKET' as const })),
      { timeframe: '1d', tickSize: 1 },
    )
    expect(() => dayType(pre!)).toThrow(/dayType: profile.initialBalance is null/)
  })
  it('a footprint', () => {
    const [fp] = footprintProfiles(dayTrades(DAYS.normal!), { timeframe: '1d', tickSize: 1 })
    expect(() => dayType(fp as never)).toThrow(/footprint profile; this rule needs a TPO profile/)
  })
  it.each([
    [{ trendRangeMultiple: '0.5' }, 'trendRangeMultiple'],
    [{ normalMaxExtension: 2 }, 'normalMaxExtension'],
    [{ extremeCloseShare: '-0.1' }, 'extremeCloseShare'],
    [{ singlePrintRows: 0 }, 'singlePrintRows'],
    [{ distributionMinShare: 'x' }, 'distributionMinShare'],
    [{ narrowRange: -1 }, 'narrowRange'],
    [{ trendMultiple: 2 }, 'trendMultiple'],
  ])('option %j names %s', (opts, field) => {
    try {
      dayType(day(DAYS.normal!), opts as DayTypeOptions)
      expect.unreachable()
    } catch (e) {
      expect(e).toBeInstanceOf(MarketDataError)
      expect((e as MarketDataError).field).toBe(field)
      expect((e as MarketDataError).message).toContain(field)
    }
  })
})

describe('dayType laws', () => {
  fcTest.prop([randomTrades])('the extension agrees with the IB and with the type', (trades) => {
    const p = randomDay(trades)
    const r = dayType(p)
    const up = Number(p.high) > Number(p.initialBalance!.high)
    const down = Number(p.low) < Number(p.initialBalance!.low)
    expect(r.extension).toBe(up && down ? 'both' : up ? 'up' : down ? 'down' : 'none')
    if (r.type.startsWith('neutral')) expect(r.extension).toBe('both')
    if (r.type === 'trend' || r.type === 'normal-variation') expect(['up', 'down']).toContain(r.extension)
  })
  fcTest.prop([randomTrades, fc.integer({ min: 1, max: 8 })])(
    'a trend stays a trend when the range multiple is lowered',
    (trades, m) => {
      const p = randomDay(trades)
      if (dayType(p, { trendRangeMultiple: m }).type === 'trend') {
        for (let k = 1; k <= m; k++) expect(dayType(p, { trendRangeMultiple: k }).type).toBe('trend')
      }
    },
  )
  fcTest.prop([randomTrades, fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 })])(
    'a larger narrowRange only turns normal days into non-trend days',
    (trades, a, b) => {
      const p = randomDay(trades)
      const [lo, hi] = a <= b ? [a / 4, b / 4] : [b / 4, a / 4]
      const x = dayType(p, { narrowRange: lo }).type
      const y = dayType(p, { narrowRange: hi }).type
      if (x !== y) expect([x, y]).toEqual(['normal', 'non-trend'])
    },
  )
})

it('the hand-built days start at 09:00 UTC (sanity of the builder)', () => {
  expect(day(DAYS.normal!).blocks[0]).toBe(T(9))
})
