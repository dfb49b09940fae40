import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createCandleAggregator, type CandleColumns } from '../../src/candles/index.js'
import { MarketDataError } from '../../src/errors.js'
import { T0, json, thrown, tradesArb } from './harness.js'

describe('candle aggregator fed candles: a refused candle changes nothing', () => {
  const badCandleField = fc.oneof(
    fc.record({
      field: fc.constantFrom('open', 'high', 'low', 'close', 'volume', 'value'),
      value: fc.constantFrom<unknown>('abc', Number.NaN, Number.NEGATIVE_INFINITY, null, ''),
    }),
    fc.record({ field: fc.constant('volume'), value: fc.constant<unknown>(-1) }),
    fc.record({ field: fc.constant('high'), value: fc.constant<unknown>(1) }),
    fc.record({ field: fc.constant('low'), value: fc.constant<unknown>(1e6) }),
    fc.record({
      field: fc.constant('trades'),
      value: fc.constantFrom<unknown>(-1, 1.5, 2 ** 53, Number.MAX_SAFE_INTEGER),
    }),
    fc.record({ field: fc.constant('session'), value: fc.constant<unknown>('LUNCH') }),
    fc.record({ field: fc.constant('time'), value: fc.constantFrom<unknown>(Number.NaN, 0.5) }),
  )
  it('a candle with any one field bad, at any position, then valid candles = the run without it', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ step: fc.constantFrom(0, 60_000, 300_000, 3_600_000), p: fc.constantFrom(10, 10.5, 11) }),
          { maxLength: 25 },
        ),
        fc.nat(),
        fc.constantFrom(0, 60_000, 3_600_000),
        badCandleField,
        fc.boolean(),
        (recs, pos, dt, bad, cols) => {
          let t = Date.UTC(2026, 4, 29)
          const candles = recs.map((r) => ({
            time: (t += r.step),
            open: r.p,
            high: r.p + 1,
            low: r.p - 1,
            close: r.p,
            volume: 2,
            value: 20,
            trades: 3,
          }))
          const at = pos % (candles.length + 1)
          const prev = at > 0 ? (candles[at - 1] as { time: number }).time : t
          // a trades count that overflows the candle's sum: refused only in a bucket that has trades
          const overflow = bad.value === Number.MAX_SAFE_INTEGER
          fc.pre(!overflow || at > 0)
          const badOne: Record<string, unknown> = {
            time: overflow ? prev : prev + dt,
            open: 10,
            high: 11,
            low: 9,
            close: 10,
            volume: 1,
            value: 10,
            trades: 1,
          }
          badOne[bad.field] = bad.value
          const feed = (withBad: boolean) => {
            const agg = createCandleAggregator({ timeframe: '1h', sourceTimeframe: '1m' })
            candles.forEach((c, i) => {
              if (i === at && withBad) {
                const before = json(agg.current() ?? null)
                expect(
                  thrown(() => (cols ? agg.addCandleColumns(candleColumns([badOne])) : agg.addCandle(badOne as never))),
                ).toBeInstanceOf(MarketDataError)
                expect(json(agg.current() ?? null)).toEqual(before)
              }
              agg.addCandle(c)
            })
            return json(agg.finish())
          }
          expect(feed(true)).toEqual(feed(false))
        },
      ),
      { numRuns: 300 },
    )
  })
})

function candleColumns(cs: Record<string, unknown>[]): CandleColumns {
  const f = (k: string) => Float64Array.from(cs, (c) => (typeof c[k] === 'number' ? (c[k] as number) : Number.NaN))
  const session = Uint8Array.from(cs, (c) => (c.session === undefined ? 0 : 7))
  return {
    time: f('time'),
    open: f('open'),
    high: f('high'),
    low: f('low'),
    close: f('close'),
    volume: f('volume'),
    value: f('value'),
    trades: f('trades'),
    session,
  }
}

describe('candle aggregator: checkpoint with onCandle callbacks and with candle input', () => {
  it('callbacks: the candles handed to onCandle before and after the restore = those of the uninterrupted run', () => {
    fc.assert(
      fc.property(tradesArb, fc.nat(), fc.constantFrom('1m', '1h', '3t'), (trades, pos, timeframe) => {
        const k = pos % (trades.length + 1)
        const seen: unknown[] = []
        const whole = createCandleAggregator({ timeframe, onCandle: (c) => seen.push(c) })
        whole.addTrades(trades)
        whole.finish()
        const got: unknown[] = []
        const first = createCandleAggregator({ timeframe, onCandle: (c) => got.push(c) })
        first.addTrades(trades, 0, k)
        const saved = JSON.parse(JSON.stringify(first.checkpoint()))
        const second = createCandleAggregator({ timeframe, onCandle: (c) => got.push(c), restore: saved })
        second.addTrades(trades, k)
        second.finish()
        expect(json(got)).toEqual(json(seen))
      }),
      { numRuns: 200 },
    )
  })

  it('candles in (resampling): split anywhere, restored = uninterrupted', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            step: fc.constantFrom(0, 60_000, 3_600_000),
            p: fc.constantFrom(10, 10.5, '11.125'),
            n: fc.option(fc.nat(9)),
          }),
          { maxLength: 30 },
        ),
        fc.nat(),
        (recs, pos) => {
          let t = T0
          const candles = recs.map((r) => ({
            time: (t += r.step),
            open: r.p,
            high: 12,
            low: 9,
            close: r.p,
            volume: '2.5',
            ...(r.n === null ? {} : { trades: r.n }),
          }))
          const k = pos % (candles.length + 1)
          const whole = createCandleAggregator({ timeframe: '1h', sourceTimeframe: '1m' })
          whole.addCandles(candles)
          const first = createCandleAggregator({ timeframe: '1h', sourceTimeframe: '1m' })
          first.addCandles(candles, 0, k)
          const second = createCandleAggregator({
            timeframe: '1h',
            sourceTimeframe: '1m',
            restore: JSON.parse(JSON.stringify(first.checkpoint())),
          })
          second.addCandles(candles, k)
          expect(json(second.finish())).toEqual(json(whole.finish()))
        },
      ),
      { numRuns: 200 },
    )
  })
})

describe('candle aggregator: checkpoint from inside onCandle', () => {
  it('is refused (the loop that called it is mid-way), naming onCandle; between calls it works', () => {
    let inside: unknown
    const agg = createCandleAggregator({
      timeframe: '1m',
      onCandle: () => {
        inside = thrown(() => agg.checkpoint())
      },
    })
    agg.add({ time: T0, price: 1, volume: 1, side: 'buy' })
    agg.add({ time: T0 + 60_000, price: 2, volume: 1, side: 'buy' })
    expect(inside).toBeInstanceOf(MarketDataError)
    expect((inside as MarketDataError).field).toBe('onCandle')
    const again = createCandleAggregator({
      timeframe: '1m',
      onCandle: () => {},
      restore: json(agg.checkpoint()) as never,
    })
    expect(again.snapshot()).toEqual(agg.snapshot())
  })
})
