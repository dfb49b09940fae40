// Thin markets (a few trades a candle, 8-decimal prices, decimal volumes): after a short candle the
// decimal-volume loop closes candles and opens the next ones itself, as records, with the value in two
// limbs. Candles (objects and columns, value as text) equal the big.js reference for any such stream,
// with a session filter, a candle opened at the previous candle's last price, and across a day's end.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { candleColumnsFromTrades, candlesFromTrades, type CandleOptions } from '../../src/candles/index.js'
import { type SessionType, type Trade, tradesToColumns } from '../../src/trades/index.js'
import { referenceCandlesFromTrades } from './reference.js'

const T0 = Date.UTC(2026, 4, 29, 23, 40)
const SESSIONS: SessionType[] = ['MAINSESSION', 'PRE_MARKET', 'POST_MARKET']

const thin: fc.Arbitrary<Trade[]> = fc
  .array(
    fc.record({
      gap: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 30_000 }), fc.integer({ min: 50_000, max: 200_000 })),
      move: fc.oneof(
        { weight: 1, arbitrary: fc.constant(0) },
        { weight: 2, arbitrary: fc.integer({ min: -90, max: 90 }) },
      ),
      units: fc.oneof(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 1, max: 10 ** 15 })),
      vs: fc.integer({ min: 0, max: 8 }),
      sell: fc.boolean(),
      session: fc.nat({ max: 2 }),
    }),
    { minLength: 1, maxLength: 400 },
  )
  .map((rows) => {
    let t = T0
    let p = 140_000
    return rows.map((r) => {
      t += r.gap
      p = Math.max(1, p + r.move)
      const units = r.units - (r.units % 10 ** (8 - r.vs))
      return {
        time: t,
        price: p / 1e8,
        volume: units / 1e8,
        side: r.sell ? 'sell' : 'buy',
        session: SESSIONS[r.session] as SessionType,
      } satisfies Trade
    })
  })

describe('short candles: the decimal-volume loop stepping from candle to candle', () => {
  it('candles and columns (value as text) = the big.js reference, with or without a session filter', () => {
    fc.assert(
      fc.property(
        thin,
        fc.constantFrom<CandleOptions['timeframe']>('1m', '5m', '1h'),
        fc.boolean(),
        (trades, timeframe, filter) => {
          const opts: CandleOptions = filter ? { timeframe, sessions: ['MAINSESSION', 'POST_MARKET'] } : { timeframe }
          const want = referenceCandlesFromTrades(trades, opts)
          const cols = tradesToColumns(trades)
          expect(candlesFromTrades(cols, opts)).toEqual(want)
          const got = candleColumnsFromTrades(cols, { ...opts, valueText: true })
          expect(got.valueText).toEqual(want.map((c) => c.value))
          expect(Array.from(got.time)).toEqual(want.map((c) => c.time))
          expect(Array.from(got.high)).toEqual(want.map((c) => Number(c.high)))
          expect(Array.from(got.close)).toEqual(want.map((c) => Number(c.close)))
          expect(Array.from(got.trades ?? [])).toEqual(want.map((c) => c.trades))
        },
      ),
      { numRuns: 300 },
    )
  })
})
