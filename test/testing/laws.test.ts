import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { candlesFromTrades, mergeCandles, type Candle } from '../../src/candles/index.js'
import {
  aggregatorContract,
  candleSeriesArb,
  nestingLaw,
  splitAt,
  tilingLaw,
  timeframeArb,
  timeZoneArb,
  tradeColumnsArb,
  tradesArb,
} from '../../src/testing/index.js'
import { bucketStart, resolveTimeframe, type TimeframeId } from '../../src/time/index.js'
import { validateTradeColumns, validateTrades, type Trade } from '../../src/trades/index.js'
import { validateCandles, type CandleInput } from '../../src/candles/index.js'

const fails = (p: fc.IPropertyWithHooks<unknown[]>) => expect(fc.check(p, { numRuns: 200, seed: 1 }).failed).toBe(true)

describe('arbitraries', () => {
  it('draw valid, time-ordered data', () => {
    fc.assert(
      fc.property(
        tradesArb({ offGrid: true, negativePrices: true }),
        tradeColumnsArb(),
        candleSeriesArb({ timeframe: { id: '2w', unit: 'WEEK', count: 2 }, timeZone: 'Europe/London' }),
        (t, c, cs) => {
          expect(validateTrades(t).ok).toBe(true)
          expect(validateTradeColumns(c).ok).toBe(true)
          expect(validateCandles(cs).ok).toBe(true)
          for (let i = 1; i < t.length; i++)
            expect((t[i] as Trade).time).toBeGreaterThanOrEqual((t[i - 1] as Trade).time)
          for (let i = 1; i < cs.length; i++) expect(cs[i]!.time).toBeGreaterThan(cs[i - 1]!.time)
        },
      ),
      { numRuns: 30 },
    )
    fc.assert(
      fc.property(timeframeArb(), timeZoneArb(), (tf, tz) => {
        expect(tf.count).toBeGreaterThanOrEqual(1)
        expect(Number.isFinite(bucketStart(Date.UTC(2026, 4, 29), tf, { timeZone: tz }))).toBe(true)
      }),
      { numRuns: 30 },
    )
  })

  it('splitAt cuts into consecutive parts that concatenate back', () => {
    fc.assert(
      fc.property(fc.array(fc.nat()), fc.array(fc.nat({ max: 30 })), (xs, cuts) => {
        const parts = splitAt(
          xs,
          [...cuts].sort((a, b) => a - b),
        )
        expect(parts.flat()).toEqual(xs)
        expect(parts.length).toBe(cuts.length + 1)
      }),
    )
  })

  it('splitAt says which parameter a wrong call got wrong, as its TSDoc says', () => {
    expect(() => splitAt(null as never, [1])).toThrow(new TypeError('splitAt: xs must be an array, got null'))
    expect(() => splitAt([1], undefined as never)).toThrow(/^splitAt: cuts must be an array/)
    expect(() => splitAt([1, 2], [Number.NaN])).toThrow(/^splitAt: cuts must hold finite numbers, got NaN/)
    expect(() => splitAt([1, 2], ['1' as never])).toThrow(TypeError)
  })
})

describe('the laws catch broken aggregators', () => {
  const good = (t: Trade[]) => candlesFromTrades(t, { timeframe: '5m' })
  const records = tradesArb({ minLength: 2, maxGapMs: 3 * 60_000 })

  it('a correct aggregator passes every law', () => {
    for (const law of aggregatorContract<Trade, Candle[]>({
      records,
      batch: good,
      merge: mergeCandles,
      invariants: (_, r) => r.every((c) => c.trades! > 0),
    })) {
      fc.assert(law.property, { numRuns: 30 })
    }
  })

  it('merge law fails for a merge that drops the boundary candle, and for a mutating aggregator', () => {
    const badMerge = (a: Candle[], b: Candle[]) => [...a, ...b.filter((c) => c.time !== a[a.length - 1]?.time)]
    const law = aggregatorContract<Trade, Candle[]>({ records, batch: good, merge: badMerge }).find((l) =>
      l.name.startsWith('merge'),
    )!
    fails(law.property)
    const mutating = (t: Trade[]) => {
      t.reverse()
      return [] as Candle[]
    }
    fails(aggregatorContract<Trade, Candle[]>({ records, batch: mutating })[0]!.property)
  })

  it('stream and reference laws fail for a wrong streaming path or a wrong reference', () => {
    const law = aggregatorContract<Trade, Candle[]>({
      records,
      batch: good,
      stream: (parts) => good(parts[parts.length - 1] ?? []),
    }).find((l) => l.name.startsWith('streaming'))!
    fails(law.property)
    const ref = aggregatorContract<Trade, Candle[]>({
      records,
      batch: good,
      reference: (t) => candlesFromTrades(t, { timeframe: '1m' }),
    }).find((l) => l.name.startsWith('equals'))!
    fails(ref.property)
  })

  it('candleSeriesArb takes a timeframe id like the library options: candle times are bucket starts of that frame', () => {
    fc.assert(
      fc.property(candleSeriesArb({ timeframe: '1h', timeZone: 'America/New_York', maxLength: 20 }), (cs) => {
        for (const c of cs)
          expect(bucketStart(c.time, resolveTimeframe('1h'), { timeZone: 'America/New_York' })).toBe(c.time)
        for (let k = 1; k < cs.length; k++) expect(cs[k]!.time - cs[k - 1]!.time).toBeGreaterThanOrEqual(3_600_000)
      }),
      { numRuns: 30 },
    )
    expect(() => candleSeriesArb({ timeframe: '61m' as TimeframeId })).toThrow(/timeframe/)
  })

  it('nesting and tiling laws fail when frames do not nest / buckets are misaligned', () => {
    const series = candleSeriesArb({ maxGapBuckets: 40 })
    // a 'resampler' that only truncates times: 7m buckets do not lie inside 10m buckets, so nesting must fail
    const resample = (x: CandleInput[], tf: string): CandleInput[] => {
      const len = tf === '7m' ? 420_000 : 600_000
      return x.map((c) => ({ ...c, time: Math.floor(c.time / len) * len }))
    }
    expect(
      fc.check(nestingLaw({ input: series, resample, chain: ['7m', '10m'] }), { numRuns: 200, seed: 3 }).failed,
    ).toBe(true)
    const tf = { id: '5m', unit: 'MINUTE' as const, count: 5 }
    expect(
      fc.check(
        tilingLaw({
          records,
          aggregate: (t) => good(t).map((c) => ({ ...c, time: c.time + 1 })),
          timeOf: (t) => t.time,
          bucketStart: (t) => bucketStart(t, tf),
        }),
        { numRuns: 50, seed: 2 },
      ).failed,
    ).toBe(true)
    fc.assert(tilingLaw({ records, aggregate: good, timeOf: (t) => t.time, bucketStart: (t) => bucketStart(t, tf) }), {
      numRuns: 30,
    })
  })
})
