// Busy-market streams for the fast loop's one-record step: the price changes on every trade (so runs of 4
// equal prices never apply), volumes carry 1-8 decimals, row sums pass 2^52, and a bad record anywhere is
// refused as it is alone.
import { fc, test as fcTest } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import { MarketDataError } from '../../src/errors.js'
import { createTpoAggregator, tpoProfiles } from '../../src/tpo/index.js'
import type { Trade } from '../../src/trades/index.js'
import { pick, referenceProfiles, toColumns, type RefOptions } from './reference.js'

const T0 = Date.UTC(2026, 5, 1, 23, 40)
const OPTS: RefOptions = { timeframe: '1d', tickSize: '0.01', blockSize: '30m', timeZone: 'UTC' }

/** A volume with `d` decimals (1..8): small lots, lots near the fast loop's 2^40 units, and lots that bring a row near 2^52. */
const volumeArb = fc
  .tuple(
    fc.integer({ min: 1, max: 8 }),
    fc.oneof(
      { weight: 12, arbitrary: fc.integer({ min: 0, max: 99_999_999 }) },
      { weight: 2, arbitrary: fc.integer({ min: 2 ** 40 - 4, max: 2 ** 40 + 4 }) },
      { weight: 3, arbitrary: fc.integer({ min: 2 ** 52 - 2 ** 41, max: 2 ** 52 - 1 }) },
    ),
  )
  .map(([d, units]) => Number((units / 10 ** d).toFixed(d)))

/**
 * Trades near 60,000 on a 0.01 grid whose price moves 1-3 ticks every trade (9 rows, so sums pile up
 * and pass 2^52 and 2^53), times mostly ascending with equal times, some back in time and across blocks and days.
 */
const streamArb = fc
  .array(
    fc.record({
      move: fc.integer({ min: 1, max: 3 }),
      up: fc.boolean(),
      step: fc.oneof(
        { weight: 10, arbitrary: fc.integer({ min: 0, max: 2_000 }) },
        { weight: 1, arbitrary: fc.integer({ min: -5_000, max: 900_000 }) },
      ),
      volume: volumeArb,
      side: fc.constantFrom('buy' as const, 'sell' as const),
    }),
    { minLength: 2, maxLength: 300 },
  )
  .map((xs) => {
    let units = 6_000_000
    let time = T0
    let last = -1
    return xs.map((x): Trade => {
      // a move of 1-3 ticks, kept within 4 rows of the start so rows repeat (never the previous price)
      let next = units + (x.up ? x.move : -x.move)
      if (Math.abs(next - 6_000_000) > 4) next = units - (x.up ? x.move : -x.move)
      if (next === last) next += 1
      last = units = next
      time += x.step
      return { time, price: Number((units / 100).toFixed(2)), volume: x.volume, side: x.side }
    })
  })

/** `e` as what the test compares: code, field, and the message without its record number. */
function refusal(e: unknown): { code: string; field: string | undefined; message: string } {
  if (!(e instanceof MarketDataError)) throw e
  return { code: e.code, field: e.field, message: e.message.replace(/^record \d+: /, '') }
}

describe('fast loop: a price that changes on every trade', () => {
  fcTest.prop([streamArb], { numRuns: 150 })(
    'equals the big.js reference (1-8 decimal volumes, sums past 2^52); columns = objects',
    (trades) => {
      const cols = tpoProfiles(toColumns(trades), OPTS)
      expect(cols.map(pick)).toEqual(referenceProfiles(trades, OPTS))
      expect(cols).toEqual(tpoProfiles(trades, OPTS))
    },
  )

  fcTest.prop([streamArb, fc.array(fc.tuple(fc.boolean(), fc.nat(9_999)), { minLength: 64, maxLength: 64 })], {
    numRuns: 6,
  })(
    'a row sum that the one-record step carries past 2^53 (lots just below 2^40 units, 9,000 trades on two rows) stays exact',
    (head, pattern) => {
      // the step adds lots below 2^40 units into a sum in registers of doubles: past 2^53 it must hand over
      const trades = [...head]
      let time = (trades[trades.length - 1] as Trade).time
      // two rows alternate (each starts just below 2^52 units), then take 4,500 lots each
      const big = Number(((2 ** 52 - 2 ** 41) / 1e8).toFixed(8))
      trades.push(
        { time: ++time, price: 59999.99, volume: big, side: 'buy' },
        { time: ++time, price: 60000.01, volume: big, side: 'buy' },
      )
      for (let i = 0; i < 9_000; i++) {
        const [sell, less] = pattern[i % pattern.length]!
        const price = i % 2 === 0 ? 59999.99 : 60000.01
        trades.push({
          time: ++time,
          price,
          volume: Number(((2 ** 40 - 1 - less) / 1e8).toFixed(8)),
          side: sell && i % 7 === 0 ? 'sell' : 'buy',
        })
      }
      expect(tpoProfiles(toColumns(trades), OPTS).map(pick)).toEqual(referenceProfiles(trades, OPTS))
    },
  )

  fcTest.prop(
    [
      fc.array(
        fc.record({
          repeat: fc.integer({ min: 1, max: 12 }),
          units: fc.oneof(
            fc.integer({ min: 2 ** 39, max: 2 ** 41 }),
            fc.integer({ min: 2 ** 49, max: 2 ** 51 }),
            fc.integer({ min: 2 ** 51, max: 2 ** 52 - 1 }),
          ),
          up: fc.boolean(),
          sell: fc.boolean(),
        }),
        { minLength: 1, maxLength: 60 },
      ),
    ],
    { numRuns: 100 },
  )(
    'runs of one price with lots of 2^39 to 2^52 units (run totals past 2^51 and 2^53) equal the big.js reference',
    (runs) => {
      // the one-record step takes a lot while its run's total stays below 2^51; past that the general loop adds
      const trades: Trade[] = []
      let time = T0
      let cents = 6_000_000
      for (const r of runs) {
        cents += r.up ? 1 : -1
        for (let k = 0; k < r.repeat; k++)
          trades.push({
            time: (time += 1000),
            price: cents / 100,
            volume: Number(((r.units + k) / 1e8).toFixed(8)),
            side: r.sell ? 'sell' : 'buy',
          })
      }
      expect(tpoProfiles(toColumns(trades), OPTS).map(pick)).toEqual(referenceProfiles(trades, OPTS))
    },
  )

  const BAD = ['side', 'volume', 'time', 'price'] as const
  fcTest.prop([streamArb, fc.nat(), fc.constantFrom(...BAD), fc.integer({ min: 0, max: 3 })], { numRuns: 200 })(
    'a bad record anywhere is refused with its index, field and the message it gets alone; the records before it count',
    (trades, at, field, how) => {
      const k = at % trades.length
      const cols = toColumns(trades)
      if (field === 'side') cols.side[k] = [0, 3, 255, 0][how]!
      else if (field === 'volume') cols.volume[k] = [-1, -0.5, Number.NaN, Infinity][how]!
      else if (field === 'time') cols.time[k] = (cols.time[k] as number) + [0.5, Number.NaN, 1e16, -0.25][how]!
      else cols.price[k] = [Number.NaN, Infinity, -Infinity, 60000.001][how]!
      const one = toColumns([trades[k]!])
      one.time[0] = cols.time[k] as number
      one.price[0] = cols.price[k] as number
      one.volume[0] = cols.volume[k] as number
      one.side[0] = cols.side[k] as number
      let alone: unknown
      try {
        createTpoAggregator(OPTS).addColumns(one)
      } catch (e) {
        alone = e
      }
      const agg = createTpoAggregator(OPTS)
      let thrown: unknown
      try {
        agg.addColumns(cols)
      } catch (e) {
        thrown = e
      }
      if (field === 'price' && how === 3) {
        // a price finer than the grid is no error: it takes the exact path, and its row is the reference's
        expect(thrown).toBeUndefined()
        const xs = trades.map((t, i) => (i === k ? { ...t, price: '60000.001' } : t))
        expect(agg.flush().map(pick)).toEqual(referenceProfiles(xs, OPTS))
        return
      }
      expect(thrown).toMatchObject({ index: k, field })
      expect(refusal(thrown)).toEqual(refusal(alone))
      expect(agg.flush()).toEqual(tpoProfiles(trades.slice(0, k), OPTS))
    },
  )
})
