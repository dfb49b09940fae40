// The columnar hot loops close candles themselves while time moves through a local day (minute and hour
// frames), up to a fixed number of records a call: long days of many short candles must give the
// candles of the big.js reference, whatever the record count, session mix, zone or callback.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  candleColumnsFromTrades,
  candlesFromTrades,
  createCandleAggregator,
  resampleCandleColumns,
  resampleCandles,
  type Candle,
  type CandleColumns,
} from '../../src/candles/index.js'
import { MarketDataError } from '../../src/errors.js'
import { tradesToColumns, type SessionType, type Trade } from '../../src/trades/index.js'
import { ALL_COLUMNS, asColumns } from './helpers.js'
import { referenceCandlesFromTrades, referenceResample } from './reference.js'

/** Candles as columns with value and trades and no session column (every input candle counts as the main session). */
const columnsOf = (cs: readonly Candle[]): CandleColumns =>
  asColumns(cs, { value: new Float64Array(0), trades: new Float64Array(0) } as CandleColumns).cols

const T0 = Date.UTC(2026, 2, 7, 20) // a day before New York's spring-forward (2026-03-08)
const SESSIONS: SessionType[] = ['MAINSESSION', 'PRE_MARKET', 'POST_MARKET']

/** A long stream: `n` trades `gap` seconds apart (jittered), a random walk on a 0.25 grid, whole lots. */
const streamArb = fc
  .record({
    n: fc.integer({ min: 200, max: 3000 }),
    gap: fc.integer({ min: 1, max: 40 }),
    seed: fc.array(
      fc.tuple(
        fc.integer({ min: -3, max: 3 }),
        fc.integer({ min: 0, max: 9 }),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 0, max: 999 }),
      ),
      { minLength: 64, maxLength: 64 },
    ),
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
      fc.property(
        streamArb,
        fc.constantFrom('1m', '2m', '1h'),
        fc.constantFrom(undefined, 'America/New_York'),
        (trades, timeframe, timeZone) => {
          const opts = timeZone === undefined ? { timeframe } : { timeframe, timeZone }
          const want = referenceCandlesFromTrades(trades, opts)
          expect(candlesFromTrades(tradesToColumns(trades), opts)).toEqual(want)
          // columns out: the closed-candle records go straight into the columns
          const got = candleColumnsFromTrades(tradesToColumns(trades), opts)
          expect(got).toEqual(asColumns(want, ALL_COLUMNS).cols)
        },
      ),
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

  it('inside onCandle no candle is open and feeding the aggregator is refused; a callback that throws leaves nothing open', () => {
    fc.assert(
      fc.property(streamArb, fc.constantFrom('columns', 'objects', 'candles'), (trades, input) => {
        const want = referenceCandlesFromTrades(trades, { timeframe: '1m' })
        const got: Candle[] = []
        const seen: unknown[] = []
        const refused: unknown[] = []
        const agg = createCandleAggregator({
          timeframe: '1m',
          onCandle: (c) => {
            got.push(c)
            seen.push(agg.current())
            for (const feed of [() => agg.advance(c.time + 60_000), () => agg.add(trades[0]!), () => agg.finish()]) {
              try {
                feed()
                refused.push('fed')
              } catch (e) {
                refused.push(
                  e instanceof MarketDataError && e.code === 'invalid_option' && e.field === 'onCandle' ? 'refused' : e,
                )
              }
            }
          },
        })
        if (input === 'columns') agg.addColumns(tradesToColumns(trades))
        else if (input === 'objects') agg.addTrades(trades)
        else {
          // the same candles resampled from their own 1m candle columns
          const cols = columnsOf(candlesFromTrades(tradesToColumns(trades), { timeframe: '1m' }))
          agg.addCandleColumns(cols)
        }
        got.push(...agg.finish())
        expect(seen.every((x) => x === undefined)).toBe(true)
        expect(refused.every((x) => x === 'refused')).toBe(true)
        // three refused feeds in every callback, the one finish() makes for the last candle included
        expect(refused.length).toBe(3 * want.length)
        const cmp = input === 'candles' ? want.map(({ session: _s, ...c }) => ({ ...c, session: 'MAINSESSION' })) : want
        expect(got).toEqual(cmp)
        // a callback that throws: the error reaches the caller, and no candle is left open
        const bad = createCandleAggregator({
          timeframe: '1m',
          onCandle: () => {
            throw new Error('boom')
          },
        })
        if (want.length > 1) {
          expect(() => bad.addColumns(tradesToColumns(trades))).toThrow('boom')
          expect(bad.current()).toBeUndefined()
          expect(bad.finish()).toEqual([])
        }
      }),
      { numRuns: 20 },
    )
  })

  it('1m candle columns -> 2m / 3m / 1h columns and objects = the big.js reference (hundreds of buckets in one day)', () => {
    fc.assert(
      fc.property(streamArb, fc.constantFrom('2m', '3m', '1h'), (trades, timeframe) => {
        // one-minute candles, all of the main session (the columns below have no session column)
        const oneMinute = candlesFromTrades(
          tradesToColumns(trades.map((t) => ({ ...t, session: 'MAINSESSION' as const }))),
          { timeframe: '1m' },
        )
        // as columns: prices exact doubles on the grid, whole volumes
        const cols = columnsOf(oneMinute)
        const want = referenceResample(oneMinute, { timeframe })
        expect(resampleCandles(cols, { sourceTimeframe: '1m', timeframe })).toEqual(want)
        const got = resampleCandleColumns(cols, { sourceTimeframe: '1m', timeframe })
        expect(Array.from(got.time)).toEqual(want.map((c) => c.time))
        expect(Array.from(got.high)).toEqual(want.map((c) => Number(c.high)))
        expect(Array.from(got.volume)).toEqual(want.map((c) => Number(c.volume)))
        expect(Array.from(got.value as Float64Array)).toEqual(want.map((c) => Number(c.value)))
      }),
      { numRuns: 30 },
    )
  })
})
