// Trade columns with decimal volumes whose price changes on every trade (busy crypto: the loop that takes a
// new price inline, value in 26-bit limbs with a carry): candles equal the big.js reference, and a bad
// record anywhere is refused as the trade-object reader refuses it.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  candleColumnsFromTrades,
  candlesFromTrades,
  createCandleAggregator,
  type CandleColumns,
  type CandleOptions,
} from '../../src/candles/index.js'
import type { MarketDataError } from '../../src/errors.js'
import { tradesToColumns, type Trade } from '../../src/trades/index.js'
import { asColumns } from './helpers.js'
import { referenceCandlesFromTrades } from './reference.js'

const T0 = Date.UTC(2026, 4, 29, 13)
const NO_VALUE = { trades: new Float64Array(0), session: new Uint8Array(0) } as unknown as CandleColumns
const LIMB = 2 ** 26

// prices in cents: near 60,000 moving 1-3 ticks, just below and past 2^26 units (the limb bound), and
// volumes with 1-8 decimals from 1e-8 to beyond 2^52 units (so runs, candle values and volumes pass 2^52)
const cryptoRun: fc.Arbitrary<Trade[]> = fc
  .array(
    fc.record({
      gap: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 4_000 }), fc.integer({ min: 0, max: 400_000 })),
      move: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: -3, max: -1 })),
      jump: fc.oneof(
        { weight: 8, arbitrary: fc.constant(0) },
        { weight: 1, arbitrary: fc.constantFrom(LIMB - 5, LIMB + 7, 2 ** 40) },
      ),
      units: fc.oneof(
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 1, max: 10_000_000_000_000 }),
        fc.integer({ min: 2 ** 50, max: 2 ** 52 - 1 }),
      ),
      vs: fc.integer({ min: 1, max: 8 }),
      sell: fc.boolean(),
    }),
    { minLength: 1, maxLength: 300 },
  )
  .map((rows) => {
    let t = T0
    let p = 6_000_000
    return rows.map((r) => {
      t += r.gap
      // a new price on every trade
      p =
        r.jump !== 0 && r.jump !== p
          ? r.jump
          : p === LIMB - 5 || p === LIMB + 7 || p === 2 ** 40
            ? 6_000_000
            : p + r.move
      const units = r.units - (r.units % 10 ** (8 - r.vs))
      return { time: t, price: p / 100, volume: units / 1e8, side: r.sell ? 'sell' : 'buy' } satisfies Trade
    })
  })

const frame = fc.constantFrom<CandleOptions['timeframe']>('1m', '5m', '1h', '7t')

describe('decimal volumes, a new price on every trade', () => {
  it('candles = the big.js reference (value past 2^52 units, carried between limbs; volume sums past 2^52)', () => {
    fc.assert(
      fc.property(cryptoRun, frame, (trades, timeframe) => {
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
      { numRuns: 300 },
    )
  })

  it('checkpoint at any split, through JSON, then the rest = the big.js reference (the open candle high limb included)', () => {
    fc.assert(
      fc.property(cryptoRun, frame, fc.nat(), fc.boolean(), (trades, timeframe, at, peek) => {
        const k = at % (trades.length + 1)
        const cols = tradesToColumns(trades)
        const part = (from: number, to: number) => ({
          time: cols.time.subarray(from, to),
          price: cols.price.subarray(from, to),
          volume: cols.volume.subarray(from, to),
          side: cols.side.subarray(from, to),
        })
        const first = createCandleAggregator({ timeframe })
        first.addColumns(part(0, k))
        const got = first.take()
        // a snapshot of the open candle reads its sums too (the prefix's last candle), and leaves them as they were
        if (peek)
          expect(first.snapshot()).toEqual(
            referenceCandlesFromTrades(trades.slice(0, k), { timeframe }).slice(got.length),
          )
        const second = createCandleAggregator({ timeframe, restore: JSON.parse(JSON.stringify(first.checkpoint())) })
        second.addColumns(part(k, trades.length))
        got.push(...second.take(), ...second.flush())
        expect(got).toEqual(referenceCandlesFromTrades(trades, { timeframe }))
      }),
      { numRuns: 300 },
    )
  })

  it('a bad record anywhere is refused with the index, field and message the trade-object reader gives', () => {
    const bad = fc.constantFrom(
      'back',
      'fractional time',
      'negative volume',
      'NaN volume',
      'infinite volume',
      'NaN price',
      'infinite price',
      'side',
    )
    fc.assert(
      fc.property(cryptoRun, frame, fc.nat(), bad, (trades, timeframe, at, what) => {
        // (a time moved back needs a record before it: the first record gets a fractional time instead)
        const i = what === 'back' && at % trades.length === 0 ? trades.length - 1 : at % trades.length
        const objs = trades.map((t) => ({ ...t }))
        const o = objs[i] as Trade
        if (what === 'back' && i > 0) o.time = (objs[i - 1] as Trade).time - 1
        if (what === 'fractional time' || (what === 'back' && i === 0)) o.time += 0.5
        if (what === 'negative volume') o.volume = -(o.volume as number) - 1e-8
        if (what === 'NaN volume') o.volume = Number.NaN
        if (what === 'infinite volume') o.volume = Number.POSITIVE_INFINITY
        if (what === 'NaN price') o.price = Number.NaN
        if (what === 'infinite price') o.price = Number.POSITIVE_INFINITY
        if (what === 'side') (o as { side: string }).side = 'both'
        const caught = (f: () => unknown): Record<string, unknown> => {
          try {
            f()
          } catch (e) {
            const m = e as MarketDataError
            // the message up to its explanation (the column reader words a NaN and spells a side code
            // differently from the object reader)
            return {
              code: m.code,
              index: m.index,
              field: m.field,
              message: what === 'side' ? m.message.split(':')[0] : m.message.replace(/ \(.*$/, ''),
            }
          }
          return {}
        }
        // the same corruption in columns made from the valid trades
        const cols = tradesToColumns(trades)
        cols.time[i] = o.time
        cols.price[i] = o.price as number
        cols.volume[i] = o.volume as number
        if (what === 'side') cols.side[i] = 7
        const want = caught(() => candlesFromTrades(objs, { timeframe }))
        expect(want.code).toBeDefined()
        expect(caught(() => candlesFromTrades(cols, { timeframe }))).toEqual(want)
        expect(caught(() => candleColumnsFromTrades(cols, { timeframe, valueText: true }))).toEqual(want)
      }),
      { numRuns: 300 },
    )
  })
})
