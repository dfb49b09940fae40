// A checkpoint taken while an open bucket holds a volume finer than the fast sums take (kept apart at its
// own scale) restores it exactly: the candle, footprint and TPO outputs equal the uninterrupted run.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createCandleAggregator } from '../../src/candles/index.js'
import { createFootprintAggregator } from '../../src/footprint/index.js'
import { createTpoAggregator } from '../../src/tpo/index.js'
import type { Trade } from '../../src/trades/index.js'

const T0 = Date.UTC(2026, 5, 1, 14)
const fineVolume = fc.constantFrom('0.30000000000000004', '1.0000000000000000001', '0.000000000001', '2')
const tradesArb = fc
  .array(
    fc.record({
      dt: fc.constantFrom(0, 1_000, 600_000),
      p: fc.constantFrom('5000', '5000.25', '5001'),
      v: fineVolume,
      sell: fc.boolean(),
    }),
    { minLength: 1, maxLength: 30 },
  )
  .map((rs) => {
    let t = T0
    return rs.map((r): Trade => ({ time: (t += r.dt), price: r.p, volume: r.v, side: r.sell ? 'sell' : 'buy' }))
  })

const makers = {
  candles: (restore?: unknown) =>
    createCandleAggregator({ timeframe: '1h', ...(restore === undefined ? {} : { restore: restore as never }) }),
  footprint: (restore?: unknown) =>
    createFootprintAggregator({
      timeframe: '1h',
      tickSize: '0.25',
      ...(restore === undefined ? {} : { restore: restore as never }),
    }),
  tpo: (restore?: unknown) =>
    createTpoAggregator({
      timeframe: '1d',
      tickSize: '0.25',
      ...(restore === undefined ? {} : { restore: restore as never }),
    }),
}

describe('checkpoint with volumes finer than the fast sums', () => {
  for (const [name, make] of Object.entries(makers)) {
    it(`${name}: split anywhere, restored = uninterrupted`, () => {
      fc.assert(
        fc.property(tradesArb, fc.nat(), (trades, at) => {
          const k = at % (trades.length + 1)
          const whole = make()
          whole.addTrades(trades)
          const first = make()
          first.addTrades(trades.slice(0, k))
          const second = make(JSON.parse(JSON.stringify(first.checkpoint())))
          second.addTrades(trades.slice(k))
          expect(JSON.stringify(second.flush())).toBe(JSON.stringify(whole.flush()))
        }),
        { numRuns: 150 },
      )
    })
  }
})
