// Prices with more decimals than the grid (a thin altcoin: 8-decimal prices on a 0.000001 grid) take the
// fast loop once the aggregator has seen one (its price scale rises to theirs): the profiles still equal the
// big.js reference, for any decimals, sign, resumed stream and order of finer and coarser prices.
import { fc, test as fcTest } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import { sampleMarketTrades } from '../../src/sample/index.js'
import { createTpoAggregator, tpoProfiles } from '../../src/tpo/index.js'
import type { Trade } from '../../src/trades/index.js'
import { pick, referenceProfiles, toColumns, type RefOptions } from './reference.js'

const T0 = Date.UTC(2026, 5, 1, 22, 10)
const OPTS: RefOptions = { timeframe: '1d', tickSize: '0.000001', blockSize: '30m', timeZone: 'UTC' }

/** Prices near ±0.0014 with 6 to 17 decimals (past 15 the exact path keeps them), 1-8 decimal volumes. */
const streamArb = fc
  .tuple(
    fc.boolean(),
    fc.array(
      fc.record({
        decimals: fc.constantFrom(6, 7, 8, 8, 8, 12, 15, 16, 17),
        units: fc.integer({ min: 1, max: 999 }),
        rows: fc.integer({ min: -3, max: 3 }),
        step: fc.oneof(
          { weight: 10, arbitrary: fc.integer({ min: 0, max: 120_000 }) },
          { weight: 1, arbitrary: fc.integer({ min: -5_000, max: 4_000_000 }) },
        ),
        volume: fc.integer({ min: 1, max: 10 ** 9 }).map((u) => u / 1e8),
        side: fc.constantFrom('buy' as const, 'sell' as const),
      }),
      { minLength: 1, maxLength: 300 },
    ),
  )
  .map(([negative, xs]) => {
    let time = T0
    return xs.map((x): Trade => {
      time += x.step
      // a row of the grid (0.001400 + rows x 0.000001) plus a fraction of a row at the trade's decimals
      const text =
        (0.0014 + x.rows * 1e-6).toFixed(6) +
        String(x.units)
          .padStart(3, '0')
          .slice(0, x.decimals - 6)
      const price = Number(negative ? `-${text}` : text)
      return { time, price, volume: x.volume, side: x.side }
    })
  })

describe('TPO: prices finer than the grid', () => {
  fcTest.prop([streamArb], { numRuns: 150 })('equal the big.js reference; columns = objects', (trades) => {
    const cols = tpoProfiles(toColumns(trades), OPTS)
    expect(cols.map(pick)).toEqual(referenceProfiles(trades, OPTS))
    expect(cols).toEqual(tpoProfiles(trades, OPTS))
  })

  fcTest.prop([streamArb, fc.nat()], { numRuns: 100 })(
    'checkpoint at any split, through JSON, then the rest = the uninterrupted run',
    (trades, at) => {
      const k = at % (trades.length + 1)
      const first = createTpoAggregator(OPTS)
      first.addColumns(toColumns(trades.slice(0, k)))
      const second = createTpoAggregator({ ...OPTS, restore: JSON.parse(JSON.stringify(first.checkpoint())) })
      second.addColumns(toColumns(trades.slice(k)))
      expect(second.flush()).toEqual(tpoProfiles(toColumns(trades), OPTS))
    },
  )

  fcTest.prop([fc.integer({ min: 1, max: 1e6 })], { numRuns: 3 })(
    'a thin-altcoin sample stream equals the big.js reference',
    (seed) => {
      const c = sampleMarketTrades('thin-altcoin', { seed, trades: 3000 })
      const trades: Trade[] = Array.from(c.time, (time, i) => ({
        time,
        price: c.price[i] as number,
        volume: c.volume[i] as number,
        side: c.side[i] === 1 ? 'buy' : 'sell',
      }))
      expect(tpoProfiles(c, OPTS).map(pick)).toEqual(referenceProfiles(trades, OPTS))
    },
  )
})
