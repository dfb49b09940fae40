import Big from 'big.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../src/errors.js'
import {
  cumulativeDelta,
  footprintAnalytics,
  footprintProfiles,
  mergeFootprintProfiles,
  regridFootprint,
  type FootprintProfile,
} from '../../src/footprint/index.js'
import type { Trade } from '../../src/trades/index.js'
import { START, fpTrades } from './arbitraries.js'

const tr = (price: number, volume: number | string, side: 'buy' | 'sell', time = START): Trade => ({
  time,
  price,
  volume,
  side,
})
/** A profile from [price, buy, sell] rows (tick 1). */
const profile = (rows: [number, number, number][], opts: object = {}): FootprintProfile => {
  const trades: Trade[] = []
  for (const [p, b, s] of rows) {
    if (b > 0) trades.push(tr(p, b, 'buy'))
    if (s > 0) trades.push(tr(p, s, 'sell'))
  }
  return footprintProfiles(trades, { timeframe: '1h', tickSize: 1, ...opts })[0] as FootprintProfile
}

describe('footprintAnalytics', () => {
  it('diagonal imbalances: buy at a row vs sell one row below; sell vs buy one row above', () => {
    const p = profile([
      [10, 0, 10],
      [11, 30, 5],
      [12, 4, 20],
      [13, 2, 1],
    ])
    const a = footprintAnalytics(p)
    expect(a.imbalances).toEqual([
      { price: '11', side: 'buy', volume: '30', against: '10' }, // 30 >= 300% of 10
      { price: '12', side: 'sell', volume: '20', against: '2' }, // 20 >= 300% of buy at 13 (2)
    ])
    expect(footprintAnalytics(p, { ratio: 301 }).imbalances.map((i) => i.price)).toEqual(['12'])
    expect(footprintAnalytics(p, { minVolume: 25 }).imbalances.map((i) => i.price)).toEqual(['11'])
  })

  it('a zero diagonal counts (infinite ratio) but only when that row traded; the dominant side must be > 0', () => {
    const p = profile([
      [10, 5, 0],
      [11, 7, 0],
      [13, 0, 3],
    ])
    // 11 buy vs 10 sell 0 -> imbalance; 10 has no row below; 13 has no row above; 12 never traded
    expect(footprintAnalytics(p).imbalances).toEqual([{ price: '11', side: 'buy', volume: '7', against: '0' }])
  })

  it('stacked imbalances: N+ consecutive grid rows on one side; unfinished auctions', () => {
    const p = profile([
      [1, 1, 1],
      [2, 9, 1],
      [3, 9, 1],
      [4, 9, 1],
      [5, 1, 9],
      [6, 1, 1],
    ])
    const a = footprintAnalytics(p)
    expect(a.stackedImbalances).toEqual([{ side: 'buy', low: '2', high: '4', rows: 3 }])
    expect(footprintAnalytics(p, { stackedRows: 4 }).stackedImbalances).toEqual([])
    expect(a.unfinishedHigh).toBe(true)
    expect(a.unfinishedLow).toBe(true)
    const finished = profile([
      [1, 0, 4],
      [2, 3, 3],
      [3, 5, 0],
    ])
    expect(footprintAnalytics(finished)).toMatchObject({ unfinishedHigh: false, unfinishedLow: false })
  })

  it('matches a direct big.js reading of the definition', () => {
    fc.assert(
      fc.property(
        fpTrades({ tick: '0.25' }),
        fc.integer({ min: 100, max: 500 }),
        fc.constantFrom('0', '1', '0.5'),
        (trades, ratio, minVolume) => {
          for (const p of footprintProfiles(trades, { timeframe: '1h', tickSize: '0.25' })) {
            const a = footprintAnalytics(p, { ratio, minVolume })
            const byPrice = new Map(p.rows.map((r) => [new Big(r[0]).toFixed(2), r]))
            const want: string[] = []
            for (const r of p.rows) {
              const below = byPrice.get(new Big(r[0]).minus('0.25').toFixed(2))
              const above = byPrice.get(new Big(r[0]).plus('0.25').toFixed(2))
              const ok = (dom: string, against: string) =>
                new Big(dom).gt(0) &&
                new Big(dom).gte(minVolume) &&
                new Big(dom).times(100).gte(new Big(against).times(ratio))
              if (below !== undefined && ok(r[1], below[2])) want.push(`${r[0]} buy`)
              if (above !== undefined && ok(r[2], above[1])) want.push(`${r[0]} sell`)
            }
            expect(a.imbalances.map((i) => `${i.price} ${i.side}`)).toEqual(want)
          }
        },
      ),
      { numRuns: 50 },
    )
  })

  it('the analytics option puts them on every profile, and merge / regrid recompute them', () => {
    const trades = [tr(10, 1, 'sell'), tr(11, 9, 'buy'), tr(12, 1, 'buy', START + 1)]
    const opts = { timeframe: '1h' as const, tickSize: 1, analytics: { ratio: 200 } }
    const [p] = footprintProfiles(trades, opts)
    expect(p?.analytics).toEqual(footprintAnalytics(p as FootprintProfile, { ratio: 200 }))
    const half = footprintProfiles(trades.slice(0, 2), opts)[0] as FootprintProfile
    const rest = footprintProfiles(trades.slice(2), opts)[0] as FootprintProfile
    expect(mergeFootprintProfiles(half, rest)).toEqual(p)
    const g = regridFootprint(p as FootprintProfile, { rowSize: 2 })
    expect(g.analytics).toEqual(footprintAnalytics(g, { ratio: 200 }))
  })

  it('rejects bad options naming them', () => {
    const p = profile([[1, 1, 1]])
    expect(() => footprintAnalytics(p, { ratio: 0 })).toThrow(/ratio/)
    expect(() => footprintAnalytics(p, { minVolume: '-1' })).toThrow(/minVolume/)
    expect(() => footprintAnalytics(p, { stackedRows: 1 })).toThrow(MarketDataError)
  })
})

describe('cumulativeDelta', () => {
  it('is the exact running sum of the deltas in time order', () => {
    fc.assert(
      fc.property(fpTrades({ tick: '0.01', maxGap: 3_600_000 }), (trades) => {
        const ps = footprintProfiles(trades, { timeframe: '1h', tickSize: '0.01' })
        const cd = cumulativeDelta([...ps].reverse())
        let sum = new Big(0)
        expect(cd.map((c) => c.time)).toEqual(ps.map((p) => p.time))
        cd.forEach((c, i) => {
          sum = sum.plus((ps[i] as FootprintProfile).delta)
          expect(c.cumulativeDelta).toBe(sum.eq(0) ? '0' : sum.toFixed())
        })
      }),
      { numRuns: 50 },
    )
  })
})

describe('mergeFootprintProfiles errors', () => {
  const a = footprintProfiles([tr(1, 1, 'buy')], { timeframe: '1h', tickSize: 1 })[0] as FootprintProfile
  it('different buckets -> incompatible; different grids -> grid_mismatch', () => {
    const later = footprintProfiles([tr(1, 1, 'buy', START + 3_600_000)], {
      timeframe: '1h',
      tickSize: 1,
    })[0] as FootprintProfile
    expect(() => mergeFootprintProfiles(a, later)).toThrow(expect.objectContaining({ code: 'incompatible' }))
    const coarse = footprintProfiles([tr(1, 1, 'buy')], {
      timeframe: '1h',
      tickSize: 1,
      rowSize: 2,
    })[0] as FootprintProfile
    expect(() => mergeFootprintProfiles(a, coarse)).toThrow(expect.objectContaining({ code: 'grid_mismatch' }))
    expect(() => mergeFootprintProfiles(a, regridFootprint(coarse, { rowSize: 4 }))).toThrow(/different price grids/)
  })
  it('regrid to a size that is not a multiple is refused', () => {
    const p = footprintProfiles([tr(1, 1, 'buy')], { timeframe: '1h', tickSize: 1, rowSize: 4 })[0] as FootprintProfile
    expect(() => regridFootprint(p, { rowSize: 6 })).toThrow(expect.objectContaining({ code: 'grid_mismatch' }))
    expect(regridFootprint(p, {})).toEqual(p)
  })
})
