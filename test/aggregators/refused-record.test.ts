import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../src/errors.js'
import type { Trade } from '../../src/trades/index.js'
import { createCandleAggregator, type CandleColumns } from '../../src/candles/index.js'
import { SUBJECTS, badColumnField, badColumns, badObjectField, badTrade, json, thrown, toColumns, tradesArb, type Driven } from './harness.js'

/** Feeds trades one by one; at `at` the refused one (fed by `refuse`) comes first. Returns every output. */
function run(agg: Driven, trades: Trade[], at: number, refuse?: (agg: Driven) => void): unknown {
  const out: unknown[] = []
  for (let i = 0; i <= trades.length; i++) {
    if (i === at && refuse !== undefined) {
      const before = json(agg.snapshot())
      const e = thrown(() => refuse(agg))
      expect(e).toBeInstanceOf(MarketDataError)
      // changes nothing now (the open buckets) ...
      expect(json(agg.snapshot())).toEqual(before)
    }
    if (i === trades.length) break
    const t = trades[i] as Trade
    agg.add(t)
    if (i % 7 === 6) out.push(...agg.advance(t.time))
  }
  out.push(...agg.flush())
  return json(out)
}

describe.each(SUBJECTS)('$name aggregator: a refused record changes nothing', (subject) => {
  it('a trade object with any one field bad, at any position and time, then valid trades = the run without it', () => {
    fc.assert(
      fc.property(tradesArb, fc.nat(), fc.constantFrom(0, 1, 60_000, 300_000, 86_400_000, 40 * 86_400_000), badObjectField, (trades, pos, dt, bad) => {
        const at = pos % (trades.length + 1)
        const prev = at > 0 ? (trades[at - 1] as Trade).time : trades[0]?.time ?? Date.UTC(2026, 4, 29)
        const expected = run(subject.make(), trades, -1)
        // ... and after it (outputs, and the times later trades may have)
        expect(run(subject.make(), trades, at, (a) => a.add(badTrade(prev + dt, bad)))).toEqual(expected)
      }),
      { numRuns: 300 },
    )
  })

  it('a trade column with any one value bad (its own batch), then valid trades = the run without it', () => {
    fc.assert(
      fc.property(tradesArb, fc.nat(), fc.constantFrom(0, 1, 300_000, 86_400_000), badColumnField, (trades, pos, dt, bad) => {
        const at = pos % (trades.length + 1)
        const prev = at > 0 ? (trades[at - 1] as Trade).time : Date.UTC(2026, 4, 29)
        const expected = run(subject.make(), trades, -1)
        expect(run(subject.make(), trades, at, (a) => a.addColumns(badColumns(prev + dt, bad)))).toEqual(expected)
      }),
      { numRuns: 300 },
    )
  })

  it('a bad trade inside an array batch: the batch throws, and its records after the bad one never count', () => {
    fc.assert(
      fc.property(tradesArb, fc.nat(), fc.constantFrom(0, 300_000, 86_400_000), badObjectField, (trades, pos, dt, bad) => {
        const at = pos % (trades.length + 1)
        const prev = at > 0 ? (trades[at - 1] as Trade).time : Date.UTC(2026, 4, 29)
        const withBad = [...trades.slice(0, at), badTrade(prev + dt, bad), ...trades.slice(at)]
        const a = subject.make()
        expect(thrown(() => a.addTrades(withBad))).toBeInstanceOf(MarketDataError)
        const b = subject.make()
        b.addTrades(trades.slice(0, at))
        expect(json([...a.flush()])).toEqual(json([...b.flush()]))
      }),
      { numRuns: 200 },
    )
  })

  it('a bad row inside a column batch: the batch throws, and its rows after the bad one never count', () => {
    fc.assert(
      fc.property(tradesArb, fc.nat(), fc.constantFrom(0, 300_000, 86_400_000), badColumnField, (trades, pos, dt, bad) => {
        const at = pos % (trades.length + 1)
        const prev = at > 0 ? (trades[at - 1] as Trade).time : Date.UTC(2026, 4, 29)
        const cols = toColumns([...trades.slice(0, at), badTrade(prev + dt, { field: 'side', value: 'buy' }), ...trades.slice(at)])
        ;(cols[bad.field as 'time'] as Float64Array)[at] = bad.value
        const a = subject.make()
        expect(thrown(() => a.addColumns(cols))).toBeInstanceOf(MarketDataError)
        const b = subject.make()
        b.addColumns(toColumns(trades.slice(0, at)))
        expect(json([...a.flush()])).toEqual(json([...b.flush()]))
      }),
      { numRuns: 200 },
    )
  })
})

describe('candle aggregator fed candles: a refused candle changes nothing', () => {
  const badCandleField = fc.oneof(
    fc.record({ field: fc.constantFrom('open', 'high', 'low', 'close', 'volume', 'value'), value: fc.constantFrom<unknown>('abc', Number.NaN, -1e400, null, '') }),
    fc.record({ field: fc.constant('volume'), value: fc.constant<unknown>(-1) }),
    fc.record({ field: fc.constant('high'), value: fc.constant<unknown>(1) }),
    fc.record({ field: fc.constant('low'), value: fc.constant<unknown>(1e6) }),
    fc.record({ field: fc.constant('trades'), value: fc.constantFrom<unknown>(-1, 1.5, 2 ** 53, Number.MAX_SAFE_INTEGER) }),
    fc.record({ field: fc.constant('session'), value: fc.constant<unknown>('LUNCH') }),
    fc.record({ field: fc.constant('time'), value: fc.constantFrom<unknown>(Number.NaN, 0.5) }),
  )
  it('a candle with any one field bad, at any position, then valid candles = the run without it', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ step: fc.constantFrom(0, 60_000, 300_000, 3_600_000), p: fc.constantFrom(10, 10.5, 11) }), { maxLength: 25 }), fc.nat(), fc.constantFrom(0, 60_000, 3_600_000), badCandleField, fc.boolean(), (recs, pos, dt, bad, cols) => {
        let t = Date.UTC(2026, 4, 29)
        const candles = recs.map((r) => ({ time: (t += r.step), open: r.p, high: r.p + 1, low: r.p - 1, close: r.p, volume: 2, value: 20, trades: 3 }))
        const at = pos % (candles.length + 1)
        const prev = at > 0 ? (candles[at - 1] as { time: number }).time : t
        // a trades count that overflows the candle's sum: refused only in a bucket that has trades
        const overflow = bad.value === Number.MAX_SAFE_INTEGER
        fc.pre(!overflow || at > 0)
        const badOne: Record<string, unknown> = { time: overflow ? prev : prev + dt, open: 10, high: 11, low: 9, close: 10, volume: 1, value: 10, trades: 1 }
        badOne[bad.field] = bad.value
        const feed = (withBad: boolean) => {
          const agg = createCandleAggregator({ timeframe: '1h' })
          candles.forEach((c, i) => {
            if (i === at && withBad) {
              const before = json(agg.current() ?? null)
              expect(thrown(() => (cols ? agg.addCandleColumns(candleColumns([badOne])) : agg.addCandle(badOne as never)))).toBeInstanceOf(MarketDataError)
              expect(json(agg.current() ?? null)).toEqual(before)
            }
            agg.addCandle(c)
          })
          return json(agg.finish())
        }
        expect(feed(true)).toEqual(feed(false))
      }),
      { numRuns: 300 },
    )
  })
})

function candleColumns(cs: Record<string, unknown>[]): CandleColumns {
  const f = (k: string) => Float64Array.from(cs, (c) => (typeof c[k] === 'number' ? (c[k] as number) : Number.NaN))
  const session = Uint8Array.from(cs, (c) => (c.session === undefined ? 0 : 7))
  return { time: f('time'), open: f('open'), high: f('high'), low: f('low'), close: f('close'), volume: f('volume'), value: f('value'), trades: f('trades'), session }
}
