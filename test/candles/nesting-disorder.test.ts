// With sourceTimeframe, a target bucket whose ends are source boundaries needs no check per candle, so the
// nesting guard passes over its candles without testing their times. A bad time inside such a bucket (out of
// order, NaN, not a whole ms) must still be refused at its own index by the aggregator, change nothing, and
// leave the guard as it was: the same stream resumed after the refusal gives the candles without it.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  candlesFromTrades,
  createCandleAggregator,
  MarketDataError,
  resampleCandleColumns,
  resampleCandles,
  type Candle,
  type CandleColumns,
  type Trade,
  type TimeframeId,
} from '../../src/index.js'
import { TEST_TIME_ZONES } from '../../src/testing/index.js'

const PAIRS: [TimeframeId, TimeframeId, number][] = [
  // source, target, the largest gap between trades
  ['1m', '15m', 4 * 60_000],
  ['1m', '1d', 3 * 3_600_000],
  ['5m', '1h', 20 * 60_000],
  ['1h', '1d', 6 * 3_600_000],
]

const columnsOf = (cs: readonly Candle[]): CandleColumns => ({
  time: Float64Array.from(cs, (c) => c.time),
  open: Float64Array.from(cs, (c) => Number(c.open)),
  high: Float64Array.from(cs, (c) => Number(c.high)),
  low: Float64Array.from(cs, (c) => Number(c.low)),
  close: Float64Array.from(cs, (c) => Number(c.close)),
  volume: Float64Array.from(cs, (c) => Number(c.volume)),
  trades: Float64Array.from(cs, (c) => c.trades ?? 0),
})

const slice = (c: CandleColumns, from: number, to: number): CandleColumns => ({
  time: c.time.subarray(from, to),
  open: c.open.subarray(from, to),
  high: c.high.subarray(from, to),
  low: c.low.subarray(from, to),
  close: c.close.subarray(from, to),
  volume: c.volume.subarray(from, to),
  trades: (c.trades as Float64Array).subarray(from, to),
})

function caught(f: () => unknown): unknown {
  try {
    f()
  } catch (e) {
    return e
  }
  return undefined
}

const caseArb = fc
  .tuple(
    fc.constantFrom(...PAIRS),
    fc.constantFrom(...TEST_TIME_ZONES),
    fc.integer({ min: Date.UTC(2025, 0, 1), max: Date.UTC(2027, 0, 1) }),
    fc.array(fc.tuple(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 99 })), {
      minLength: 8,
      maxLength: 120,
    }),
    fc.nat(),
    fc.constantFrom('earlier', 'nan', 'fraction', 'far-earlier'),
  )
  .map(([[S, T, maxGap], timeZone, start, steps, pick, bad]) => {
    const trades: Trade[] = []
    let t = start
    for (let i = 0; i < steps.length; i++) {
      const [g, price] = steps[i] as [number, number]
      trades.push({ time: t, price: String(price), volume: String((i % 3) + 1), side: i % 2 === 0 ? 'buy' : 'sell' })
      t += Math.floor((g * maxGap) / 1000)
    }
    return { S, T, timeZone, trades, pick, bad }
  })

describe('nesting with sourceTimeframe: bad times inside a target bucket', () => {
  it('are refused at their own index, change nothing, and the stream resumed after them gives the candles without them', () => {
    fc.assert(
      fc.property(caseArb, ({ S, T, timeZone, trades, pick, bad }) => {
        const source = candlesFromTrades(trades, { timeframe: S, timeZone })
        if (source.length < 2) return
        const j = 1 + (pick % (source.length - 1))
        const cols = columnsOf(source)
        const prev = cols.time[j - 1] as number
        cols.time[j] =
          bad === 'nan'
            ? Number.NaN
            : bad === 'fraction'
              ? (cols.time[j] as number) + 0.5
              : bad === 'earlier'
                ? prev - 1
                : 0
        const opts = { timeframe: T, sourceTimeframe: S, timeZone }
        const err = caught(() => resampleCandleColumns(cols, opts))
        expect(err).toBeInstanceOf(MarketDataError)
        expect(err).toMatchObject({ index: j, field: 'time' })
        // the stream: refused at j with the same error, nothing of it taken, then the rest after it
        const agg = createCandleAggregator(opts)
        const streamErr = caught(() => agg.addCandleColumns(cols))
        expect(streamErr).toMatchObject({ code: (err as MarketDataError).code, index: j, field: 'time' })
        agg.addCandleColumns(slice(cols, j + 1, cols.time.length))
        const without = [...source.slice(0, j), ...source.slice(j + 1)]
        expect(agg.finish()).toEqual(resampleCandles(columnsOf(without), opts))
        // objects: the same refusal
        const objs = source.map((c, i) => (i === j ? { ...c, time: cols.time[j] as number } : c))
        expect(caught(() => resampleCandles(objs, opts))).toMatchObject({ index: j, field: 'time' })
      }),
      { numRuns: 150 },
    )
  })
})
