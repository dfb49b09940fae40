import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { candlesFromTrades } from '../../src/candles/index.js'
import { MarketDataError } from '../../src/errors.js'
import {
  createFootprintAggregator,
  footprintProfiles,
  mergeFootprintProfiles,
  regridFootprint,
  resampleFootprint,
  type FootprintProfile,
} from '../../src/footprint/index.js'
import { aggregatorContract } from '../../src/testing/index.js'
import type { Trade } from '../../src/trades/index.js'
import { START, TICKS, fpTrades, mergeLists, shuffled, toColumns } from './arbitraries.js'
import { referenceFootprint } from './reference.js'
import type { TimeframeId } from '../../src/time/index.js'

const H = 3_600_000

describe('footprint aggregator contract (batch = streaming = merge of any split = reference; input untouched)', () => {
  const opts = { timeframe: '15m' as const, tickSize: '0.25', rowSize: 2 }
  const laws = aggregatorContract<Trade, FootprintProfile[]>({
    records: fpTrades({ tick: '0.25', offGrid: true, maxGap: 10 * 60_000 }),
    batch: (t) => footprintProfiles(t, opts),
    stream: (parts) => {
      const agg = createFootprintAggregator(opts)
      const out: FootprintProfile[] = []
      for (const part of parts) {
        agg.addAll(part)
        const last = part[part.length - 1]
        if (last !== undefined) out.push(...agg.advance(last.time)) // time-ordered input: nothing later is earlier
      }
      return [...out, ...agg.flush()]
    },
    merge: mergeLists,
    reference: (t) => referenceFootprint(t, opts),
  })
  for (const law of laws) it(law.name, () => fc.assert(law.property, { numRuns: 60 }))
})

describe('footprint laws', () => {
  it('order independence: any permutation of the trades gives the same profiles (objects and columns)', () => {
    fc.assert(
      fc.property(fpTrades({ tick: '0.01', offGrid: true }), fc.integer(), (trades, seed) => {
        const opts = { timeframe: '1h' as const, tickSize: '0.01', rowSize: 3 }
        const mixed = shuffled(trades, seed)
        expect(footprintProfiles(mixed, opts)).toEqual(footprintProfiles(trades, opts))
        expect(footprintProfiles(toColumns(mixed), opts)).toEqual(footprintProfiles(toColumns(trades), opts))
      }),
      { numRuns: 80 },
    )
  })

  it('merge of the profiles of any split (not only by time) = the profile of the whole', () => {
    fc.assert(
      fc.property(fpTrades({ tick: '0.00001' }), fc.array(fc.boolean(), { maxLength: 40 }), (trades, mask) => {
        const opts = { timeframe: '1h' as const, tickSize: '0.00001', rowSize: 7 }
        const a = trades.filter((_, i) => mask[i] === true)
        const b = trades.filter((_, i) => mask[i] !== true)
        expect(mergeLists(footprintProfiles(a, opts), footprintProfiles(b, opts))).toEqual(
          footprintProfiles(trades, opts),
        )
        expect(mergeLists(footprintProfiles(b, opts), footprintProfiles(a, opts))).toEqual(
          footprintProfiles(trades, opts),
        )
      }),
      { numRuns: 80 },
    )
  })

  it('re-gridding to a multiple = aggregating at the coarse row size', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TICKS).chain((tick) => fc.tuple(fc.constant(tick), fpTrades({ tick, offGrid: true }))),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 8 }),
        ([tick, trades], k, m) => {
          const fine = footprintProfiles(trades, { timeframe: '1h', tickSize: tick, rowSize: k })
          const coarse = footprintProfiles(trades, { timeframe: '1h', tickSize: tick, rowSize: k * m })
          expect(fine.map((p) => regridFootprint(p, { rowSize: k * m }))).toEqual(coarse)
          const byValue = coarse[0]?.rowSizeValue
          if (byValue !== undefined)
            expect(fine.map((p) => regridFootprint(p, { rowSizeValue: byValue }))).toEqual(coarse)
        },
      ),
      { numRuns: 60 },
    )
  })

  it('resampling fine frames = aggregating at the coarse frame (zones, custom counts)', () => {
    const pairs: [TimeframeId | { unit: 'MINUTE'; count: number }, TimeframeId | { unit: 'MINUTE'; count: number }][] =
      [
        ['1m', '1h'],
        ['5m', '15m'],
        ['15m', '1d'],
        ['1h', '1d'],
        ['1d', '1w'],
        ['1d', '1M'],
        [
          { unit: 'MINUTE', count: 30 },
          { unit: 'MINUTE', count: 90 },
        ],
      ]
    fc.assert(
      fc.property(
        fpTrades({ tick: '0.25', maxGap: 6 * H }),
        fc.constantFrom(...pairs),
        fc.constantFrom('UTC', 'America/New_York', 'Australia/Lord_Howe'),
        (trades, [fine, coarse], timeZone) => {
          const f = footprintProfiles(trades, { timeframe: fine, tickSize: '0.25', timeZone })
          const c = footprintProfiles(trades, { timeframe: coarse, tickSize: '0.25', timeZone })
          expect(resampleFootprint(f, { timeframe: coarse, timeZone })).toEqual(c)
          expect(resampleFootprint(shuffled(f, trades.length), { timeframe: coarse, timeZone })).toEqual(c)
        },
      ),
      { numRuns: 60 },
    )
  })

  it('resampling is refused when a fine bucket straddles coarse buckets', () => {
    const f = footprintProfiles([{ time: START, price: 1, volume: 1, side: 'buy' }], { timeframe: '1h', tickSize: 1 })
    expect(() => resampleFootprint(f, { timeframe: '45m' })).toThrow(MarketDataError)
    expect(() => resampleFootprint(f, { timeframe: '1h', timeZone: 'Asia/Kathmandu' })).toThrow(
      /does not lie in one 1h bucket/,
    )
  })

  it('totals equal the candle volume and trade count of the same bucket', () => {
    fc.assert(
      fc.property(fpTrades({ tick: '0.01', offGrid: true }), fc.constantFrom('1m', '1h', '1d'), (trades, timeframe) => {
        const ps = footprintProfiles(trades, { timeframe, tickSize: '0.01', rowSize: 5 })
        const cs = candlesFromTrades(trades, { timeframe })
        expect(ps.map((p) => [p.time, p.volume, p.trades])).toEqual(cs.map((c) => [c.time, c.volume, c.trades]))
        // high / low are the candle's extremes, printed with the grid decimals
        ps.forEach((p, i) => {
          expect(Number(p.high)).toBe(Number(cs[i]?.high))
          expect(Number(p.low)).toBe(Number(cs[i]?.low))
        })
      }),
      { numRuns: 60 },
    )
  })

  it('columns are not mutated', () => {
    fc.assert(
      fc.property(fpTrades({ tick: '0.25' }), (trades) => {
        const cols = toColumns(trades)
        const copy = structuredClone(cols)
        footprintProfiles(cols, { timeframe: '1h', tickSize: '0.25' })
        expect(cols).toEqual(copy)
      }),
      { numRuns: 30 },
    )
  })

  it('merge, regrid and resample do not mutate their inputs', () => {
    fc.assert(
      fc.property(fpTrades({ tick: '0.25' }), (trades) => {
        const ps = footprintProfiles(trades, { timeframe: '15m', tickSize: '0.25', analytics: true })
        const copy = structuredClone(ps)
        resampleFootprint(ps, { timeframe: '1h' })
        for (const p of ps) regridFootprint(p, { rowSize: 4 })
        if (ps.length > 0) mergeFootprintProfiles(ps[0] as FootprintProfile, ps[0] as FootprintProfile)
        expect(ps).toEqual(copy)
      }),
      { numRuns: 30 },
    )
  })
})
