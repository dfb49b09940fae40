import { fc, test as fcTest } from '@fast-check/vitest'
import Big from 'big.js'
import { describe, expect, it } from 'vitest'
import { compositeVolumeProfile, volumeNodes } from '../../src/analytics/index.js'
import { MarketDataError } from '../../src/errors.js'
import { footprintProfiles, regridFootprint } from '../../src/footprint/index.js'
import { tpoProfiles } from '../../src/tpo/index.js'
import type { Trade } from '../../src/trades/index.js'
import { BLOCK, candleDay, day, T } from './build.js'

/** Trades over up to three days, tick 0.25, exact volumes with up to 3 decimals. */
const weekTrades = fc
  .array(
    fc.record({
      d: fc.integer({ min: 1, max: 3 }),
      block: fc.integer({ min: 0, max: 11 }),
      k: fc.integer({ min: 0, max: 40 }),
      v: fc.integer({ min: 0, max: 50_000 }),
      sell: fc.boolean(),
    }),
    { minLength: 1, maxLength: 60 },
  )
  .map((xs) =>
    xs.map(
      (x, i): Trade => ({
        time: T(9, 0, x.d) + x.block * BLOCK + i,
        price: 5000 + x.k / 4,
        volume: (x.v / 1000).toString(),
        side: x.sell ? 'sell' : 'buy',
      }),
    ),
  )

describe('compositeVolumeProfile: hand-worked', () => {
  it('two footprints: volumes add per row; POC, value area and nodes of the sum', () => {
    const a: Trade[] = [
      { time: T(10), price: 100, volume: 4, side: 'buy' },
      { time: T(10), price: 101, volume: 2, side: 'sell' },
    ]
    const b: Trade[] = [
      { time: T(10, 0, 2), price: 101, volume: 5, side: 'buy' },
      { time: T(10, 0, 2), price: 104, volume: 1, side: 'sell' },
    ]
    const fps = footprintProfiles([...a, ...b], { timeframe: '1d', tickSize: 1 })
    const c = compositeVolumeProfile(fps)
    expect(c.rows).toEqual([
      ['100', '4', '0'],
      ['101', '5', '2'],
      ['104', '0', '1'],
    ])
    // totals 4 7 0 0 1 on 100..104 (12): POC 101; the walk adds 100 (4) -> 11 >= 8.4
    expect(c).toMatchObject({
      profiles: 2,
      poc: '101',
      valueAreaLow: '100',
      valueAreaHigh: '101',
      volume: '12',
      volumeBuy: '9',
      volumeSell: '3',
      low: '100',
      high: '104',
    })
    expect(c.time).toBe(fps[0]!.time)
    expect(c.end).toBe(fps[1]!.end)
  })
  it('footprints and TPO profiles on one grid mix; candle profiles are refused', () => {
    const [fp] = footprintProfiles([{ time: T(10), price: 100, volume: 3, side: 'buy' }], {
      timeframe: '1d',
      tickSize: 1,
    })
    const tp = day([[100, 102]], 2)
    const c = compositeVolumeProfile([fp!, tp])
    expect(c.rows).toEqual([
      ['100', '3', '1'],
      ['101', '0', '0'],
      ['102', '1', '0'],
    ]) // the day sold 1 at its low, bought 1 at its high
    expect(() => compositeVolumeProfile([fp!, candleDay([[100, 102]])])).toThrow(
      /profiles\[1\] was built from candles.*compositeTpoProfile/,
    )
  })
  it('different row sizes are a grid mismatch; an empty list and bad options are refused', () => {
    const trades: Trade[] = [{ time: T(10), price: 100, volume: 3, side: 'buy' }]
    const [a] = footprintProfiles(trades, { timeframe: '1d', tickSize: 1 })
    const [b] = footprintProfiles(trades, { timeframe: '1d', tickSize: 1, rowSize: 2 })
    expect(() => compositeVolumeProfile([a!, b!])).toThrow(MarketDataError)
    expect(() => compositeVolumeProfile([a!, b!])).toThrow(/profiles\[1\]\.rowSizeValue 2 differs/)
    expect(compositeVolumeProfile([regridFootprint(a!, { rowSize: 2 }), b!]).rows).toEqual([['100', '6', '0']])
    expect(() => compositeVolumeProfile([])).toThrow(/non-empty array/)
    expect(() => compositeVolumeProfile([a!], { valueAreaPercent: 101 })).toThrow(/valueAreaPercent/)
    expect(() => compositeVolumeProfile([a!], { nodes: { smoothing: 4 } })).toThrow(/smoothing/)
    expect(() => compositeVolumeProfile([a!], { extra: 1 } as never)).toThrow(/options.extra is not an option/)
  })
})

describe('compositeVolumeProfile laws', () => {
  fcTest.prop([weekTrades])('a composite of one TPO profile has its volume POC and volume value area', (trades) => {
    for (const p of tpoProfiles(trades, { timeframe: '1d', tickSize: '0.25' })) {
      const c = compositeVolumeProfile([p])
      expect([c.poc, c.valueAreaLow, c.valueAreaHigh]).toEqual([
        p.volumePoc,
        p.volumeValueAreaLow,
        p.volumeValueAreaHigh,
      ])
      expect(c.nodes).toEqual(volumeNodes(p))
    }
  })
  fcTest.prop([weekTrades])(
    'the composite of daily footprints is the footprint of all the trades (merge law), in any order',
    (trades) => {
      const days = footprintProfiles(trades, { timeframe: '1d', tickSize: '0.25' })
      const [all] = footprintProfiles(trades, { timeframe: '1M', tickSize: '0.25' })
      const c = compositeVolumeProfile(days)
      expect(c.rows).toEqual(all!.rows.map((r) => [r[0], r[1], r[2]]))
      expect([c.poc, c.volume, c.volumeBuy, c.volumeSell]).toEqual([
        all!.volumePoc,
        all!.volume,
        all!.volumeBuy,
        all!.volumeSell,
      ])
      const { time, end, ...rest } = c
      const reversed = compositeVolumeProfile([...days].reverse())
      expect(reversed).toMatchObject(rest)
    },
  )
  fcTest.prop([weekTrades])('row volumes equal a big.js sum of the trades per row', (trades) => {
    const c = compositeVolumeProfile(tpoProfiles(trades, { timeframe: '1d', tickSize: '0.25' }))
    const sums = new Map<string, Big>()
    for (const t of trades) {
      const row = new Big(String(t.price)).div('0.25').round(0, Big.roundDown).times('0.25').toFixed(2)
      sums.set(row, (sums.get(row) ?? new Big(0)).plus(String(t.volume)))
    }
    for (const [price, b, s] of c.rows) {
      const want = sums.get(price)
      expect(new Big(b).plus(s).eq(want ?? 0)).toBe(true)
    }
  })
})
