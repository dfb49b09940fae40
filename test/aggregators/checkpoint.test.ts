import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Trade } from '../../src/trades/index.js'
import { createCandleAggregator } from '../../src/candles/index.js'
import { SUBJECTS, T0, json, toColumns, tradesArb, type Driven } from './harness.js'

type Feed = 'one' | 'array' | 'columns'

/** Feeds trades[from, to) in the given way, advancing after every `every`-th trade; returns the outputs. */
function feed(a: Driven, trades: Trade[], from: number, to: number, how: Feed, every: number): unknown[] {
  const out: unknown[] = []
  let i = from
  while (i < to) {
    const j = Math.min(to, i + every)
    if (how === 'one') for (let k = i; k < j; k++) a.add(trades[k] as Trade)
    else if (how === 'array') a.addTrades(trades, i, j)
    else a.addColumns(toColumns(trades.slice(i, j)))
    out.push(...a.advance((trades[j - 1] as Trade).time))
    i = j
  }
  return out
}

describe.each(SUBJECTS)('$name aggregator: checkpoint -> JSON -> restore continues exactly', (subject) => {
  it('for any stream and split point, the restored run equals the uninterrupted one', () => {
    fc.assert(
      fc.property(tradesArb, fc.nat(), fc.constantFrom<Feed>('one', 'array', 'columns'), fc.integer({ min: 1, max: 9 }), (trades, pos, how, every) => {
        const k = pos % (trades.length + 1)
        const whole = subject.make()
        const expected = json([...feed(whole, trades, 0, trades.length, how, every), ...whole.flush()])
        const first = subject.make()
        const before = feed(first, trades, 0, k, how, every)
        const snap = json(first.snapshot())
        const saved = JSON.parse(JSON.stringify(first.checkpoint()))
        const second = subject.make({ restore: saved })
        expect(json(second.snapshot())).toEqual(snap)
        const after = feed(second, trades, k, trades.length, how, every)
        expect(json([...before, ...after, ...second.flush()])).toEqual(expected)
      }),
      { numRuns: 300 },
    )
  })
})

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
      fc.property(fc.array(fc.record({ step: fc.constantFrom(0, 60_000, 3_600_000), p: fc.constantFrom(10, 10.5, '11.125'), n: fc.option(fc.nat(9)) }), { maxLength: 30 }), fc.nat(), (recs, pos) => {
        let t = T0
        const candles = recs.map((r) => ({ time: (t += r.step), open: r.p, high: 12, low: 9, close: r.p, volume: '2.5', ...(r.n === null ? {} : { trades: r.n }) }))
        const k = pos % (candles.length + 1)
        const whole = createCandleAggregator({ timeframe: '1h' })
        whole.addCandles(candles)
        const first = createCandleAggregator({ timeframe: '1h' })
        first.addCandles(candles, 0, k)
        const second = createCandleAggregator({ timeframe: '1h', restore: JSON.parse(JSON.stringify(first.checkpoint())) })
        second.addCandles(candles, k)
        expect(json(second.finish())).toEqual(json(whole.finish()))
      }),
      { numRuns: 200 },
    )
  })
})
