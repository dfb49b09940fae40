// The decimal-volume loop takes four trades a step (decision 0620): its tests for the four at once, its
// plain products under the magnitude bound and limb products past it, its carry on every block, the
// price-units bound of 2^24 and the new extremes found inside a block. Candles on both sides of each bound
// equal the big.js reference, and a record no block may take changes nothing the reference does not.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  candleColumnsFromTrades,
  candlesFromTrades,
  type CandleColumns,
  type CandleOptions,
} from '../../src/candles/index.js'
import { tradesToColumns, type Trade } from '../../src/trades/index.js'
import { asColumns } from './helpers.js'
import { referenceCandlesFromTrades } from './reference.js'

const T0 = Date.UTC(2026, 4, 29, 13)
const NO_VALUE = { trades: new Float64Array(0), session: new Uint8Array(0) } as unknown as CandleColumns
const BLOCK_PRICE = 2 ** 24

// price units (cents) around the block bound 2^24 on both signs, at 2^26 and 2^27, near 0 and at crypto
// levels; volume units (8 decimals) from 0 to past 2^26 multiples and near 2^50
const anyPrice = fc.oneof(
  fc.integer({ min: BLOCK_PRICE - 3, max: BLOCK_PRICE + 3 }),
  fc.integer({ min: -BLOCK_PRICE - 3, max: -BLOCK_PRICE + 3 }),
  fc.integer({ min: 2 ** 26 - 3, max: 2 ** 26 + 3 }),
  fc.integer({ min: 2 ** 27 - 3, max: 2 ** 27 + 3 }),
  fc.integer({ min: -5, max: 5 }),
  fc.integer({ min: 5_999_990, max: 6_000_010 }),
)
const anyUnits = fc.oneof(
  fc.constant(0),
  fc.integer({ min: 1, max: 100_000_000 }),
  fc.integer({ min: 2 ** 26 - 2, max: 2 ** 26 + 2 }),
  fc.integer({ min: 2 ** 27, max: 2 ** 29 }),
  fc.integer({ min: 2 ** 49, max: 2 ** 50 }),
)
// every trade just below the price bound with products of 2^51-2^53: four of them sum on both sides of
// the plain products' bound (2^52) in most blocks
const nearBound = fc.record({
  price: fc.integer({ min: BLOCK_PRICE - 3, max: BLOCK_PRICE - 1 }),
  units: fc.integer({ min: 2 ** 27, max: 2 ** 29 }),
})

const blockTrades: fc.Arbitrary<Trade[]> = fc
  .array(
    fc.record({
      gap: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 3_000 }), fc.integer({ min: 0, max: 200_000 })),
      pick: fc.oneof(fc.record({ price: anyPrice, units: anyUnits }), nearBound),
      // a volume with 9 decimals: not at the candle's scale, so no block may take it (the exact path does)
      fine: fc.oneof({ weight: 20, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      sell: fc.boolean(),
    }),
    { minLength: 1, maxLength: 200 },
  )
  .chain((rows) =>
    // half the cases near the bound throughout
    fc.boolean().map((near) => {
      let t = T0
      return rows.map((r, i) => {
        t += r.gap
        const { price, units } = near ? { price: BLOCK_PRICE - 1 - (i % 3), units: 2 ** 27 + r.pick.units } : r.pick
        const volume = r.fine ? (units * 10 + 1) / 1e9 : units / 1e8
        return { time: t, price: price / 100, volume, side: r.sell ? 'sell' : 'buy' } satisfies Trade
      })
    }),
  )

const frame = fc.constantFrom<CandleOptions['timeframe']>('1m', '5m', '1h', '9t')

describe('decimal volumes four trades a step', () => {
  it('candles on both sides of every block bound = the big.js reference (objects, and columns with value text)', () => {
    fc.assert(
      fc.property(blockTrades, frame, (trades, timeframe) => {
        const opts = { timeframe }
        const want = referenceCandlesFromTrades(trades, opts)
        const cols = tradesToColumns(trades)
        expect(candlesFromTrades(cols, opts)).toEqual(want)
        const w = asColumns(want, NO_VALUE)
        if (w.inexact)
          expect(() => candleColumnsFromTrades(cols, { ...opts, valueText: true })).toThrow(
            expect.objectContaining({ code: 'inexact', field: 'volume' }),
          )
        else
          expect(candleColumnsFromTrades(cols, { ...opts, valueText: true })).toEqual({
            ...w.cols,
            valueText: want.map((c) => c.value),
          })
      }),
      { numRuns: 400 },
    )
  })

  it('a long candle of busy-market trades (thousands of blocks, carries between limbs) = the big.js reference', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 0xffffffff }), fc.constantFrom('1h', '1d'), (seed, timeframe) => {
        // a small deterministic walk: 4,000 trades, a third repeating the price, volumes over four decades
        let s = seed
        const rnd = () => {
          s = (Math.imul(s, 1664525) + 1013904223) >>> 0
          return s / 2 ** 32
        }
        let p = 6_000_000
        let t = T0
        const trades: Trade[] = []
        for (let i = 0; i < 4_000; i++) {
          t += Math.floor(rnd() * 40)
          if (rnd() > 0.33) p += rnd() < 0.5 ? 1 + Math.floor(rnd() * 3) : -1 - Math.floor(rnd() * 3)
          const units = Math.floor(10_000 * 10 ** (rnd() * 4))
          trades.push({ time: t, price: p / 100, volume: units / 1e8, side: rnd() < 0.5 ? 'buy' : 'sell' })
        }
        const want = referenceCandlesFromTrades(trades, { timeframe })
        const got = candleColumnsFromTrades(tradesToColumns(trades), { timeframe, valueText: true })
        expect(got).toEqual({ ...asColumns(want, NO_VALUE).cols, valueText: want.map((c) => c.value) })
      }),
      { numRuns: 20 },
    )
  })
})
