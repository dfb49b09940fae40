// The columnar hot loops close candles themselves while time moves through a local day (minute and hour
// frames), up to a fixed number of records a call: long days of many short candles must give the
// candles of the big.js reference, whatever the record count, session mix, zone or callback.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { candlesFromTrades, createCandleAggregator, resampleCandleColumns, resampleCandles, type Candle, type CandleColumns } from '../../src/candles/index.js'
import { tradesToColumns, type SessionType, type Trade } from '../../src/trades/index.js'
import { referenceCandlesFromTrades, referenceResample } from './reference.js'

const T0 = Date.UTC(2026, 2, 7, 20) // a day before New York's spring-forward (2026-03-08)
const SESSIONS: SessionType[] = ['MAINSESSION', 'PRE_MARKET', 'POST_MARKET']

/** A long stream: `n` trades `gap` seconds apart (jittered), a random walk on a 0.25 grid, whole lots. */
const streamArb = fc
  .record({
    n: fc.integer({ min: 200, max: 3000 }),
    gap: fc.integer({ min: 1, max: 40 }),
    seed: fc.array(fc.tuple(fc.integer({ min: -3, max: 3 }), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 999 })), { minLength: 64, maxLength: 64 }),
    withSessions: fc.boolean(),
  })
  .map(({ n, gap, seed, withSessions }) => {
    const trades: Trade[] = []
    let p = 4000
    let t = T0
    for (let i = 0; i < n; i++) {
      const [dp, v, s, jitter] = seed[i % 64]!
      p += dp * 0.25 * ((i >> 6) % 2 === 0 ? 1 : -1)
      t += gap * 1000 + (jitter % (gap * 1000))
      const tr: Trade = { time: t, price: String(p), volume: String(v), side: i % 3 === 0 ? 'sell' : 'buy' }
      if (withSessions) tr.session = SESSIONS[s]!
      trades.push(tr)
    }
    return trades
  })

describe('candle stepping in the hot loops: many candles a call', () => {
  it('trade columns -> 1m / 2m / 1h candles = the big.js reference (hundreds of candles in one day), in UTC and New York', () => {
    fc.assert(
      fc.property(streamArb, fc.constantFrom('1m', '2m', '1h'), fc.constantFrom(undefined, 'America/New_York'), (trades, timeframe, timeZone) => {
        const opts = timeZone === undefined ? { timeframe } : { timeframe, timeZone }
        const want = referenceCandlesFromTrades(trades, opts)
        expect(candlesFromTrades(tradesToColumns(trades), opts)).toEqual(want)
      }),
      { numRuns: 40 },
    )
  })

  it('onCandle receives the same candles, in order, as they close', () => {
    fc.assert(
      fc.property(streamArb, (trades) => {
        const got: Candle[] = []
        const agg = createCandleAggregator({ timeframe: '1m', onCandle: (c) => got.push(c) })
        agg.addColumns(tradesToColumns(trades))
        const want = referenceCandlesFromTrades(trades, { timeframe: '1m' })
        // every candle but the open one reached the callback before finish()
        expect(got.length).toBe(want.length - 1)
        expect(agg.take()).toEqual([])
        got.push(...agg.finish())
        expect(got).toEqual(want)
      }),
      { numRuns: 20 },
    )
  })

  it('1m candle columns -> 2m / 3m / 1h columns and objects = the big.js reference (hundreds of buckets in one day)', () => {
    fc.assert(
      fc.property(streamArb, fc.constantFrom('2m', '3m', '1h'), (trades, timeframe) => {
        // one-minute candles, all of the main session (the columns below have no session column)
        const oneMinute = candlesFromTrades(tradesToColumns(trades.map((t) => ({ ...t, session: 'MAINSESSION' as const }))), { timeframe: '1m' })
        // as columns: prices exact doubles on the grid, whole volumes
        const cols: CandleColumns = {
          time: new Float64Array(oneMinute.map((c) => c.time)),
          open: new Float64Array(oneMinute.map((c) => Number(c.open))),
          high: new Float64Array(oneMinute.map((c) => Number(c.high))),
          low: new Float64Array(oneMinute.map((c) => Number(c.low))),
          close: new Float64Array(oneMinute.map((c) => Number(c.close))),
          volume: new Float64Array(oneMinute.map((c) => Number(c.volume))),
          value: new Float64Array(oneMinute.map((c) => Number(c.value))),
          trades: new Float64Array(oneMinute.map((c) => c.trades as number)),
        }
        const want = referenceResample(oneMinute, { timeframe })
        expect(resampleCandles(cols, { timeframe })).toEqual(want)
        const got = resampleCandleColumns(cols, { timeframe })
        expect(Array.from(got.time)).toEqual(want.map((c) => c.time))
        expect(Array.from(got.high)).toEqual(want.map((c) => Number(c.high)))
        expect(Array.from(got.volume)).toEqual(want.map((c) => Number(c.volume)))
        expect(Array.from(got.value as Float64Array)).toEqual(want.map((c) => Number(c.value)))
      }),
      { numRuns: 30 },
    )
  })
})
