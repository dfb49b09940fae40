// The fast loop's four-record step keeps every sum at most 2^52: a row sum takes four records only while it
// is at most 2^51 and their units sum to at most 2^51, and the pending run of one price grows only to 2^51.
// These streams push each of those sums past 2^53 through that step, whole lots and 8-decimal volumes.
import { fc, test as fcTest } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import { tpoProfiles } from '../../src/tpo/index.js'
import type { Trade } from '../../src/trades/index.js'
import { pick, referenceProfiles, toColumns, type RefOptions } from './reference.js'

const T0 = Date.UTC(2026, 5, 1, 13)
const OPTS: RefOptions = { timeframe: '1d', tickSize: '0.01', timeZone: 'UTC' }

/** `units` at `decimals` decimals as a number volume (exact decimal text, as a feed would give it). */
function lot(units: number, decimals: number): number {
  return Number((units / 10 ** decimals).toFixed(decimals))
}

describe('four-record step: sums past 2^53 stay exact', () => {
  fcTest.prop(
    [
      fc.constantFrom(0, 8),
      fc.integer({ min: 2 ** 48, max: 2 ** 50 }),
      fc.integer({ min: 0, max: 3 }),
      fc.constantFrom<Trade['side']>('buy', 'sell'),
      fc.integer({ min: 40, max: 90 }),
    ],
    { numRuns: 40 },
  )(
    'one record of each four always on the same row and side, with big lots (each position of the four)',
    (decimals, units, at, side, blocks) => {
      const trades: Trade[] = []
      let time = T0
      for (let b = 0; b < blocks; b++) {
        for (let q = 0; q < 4; q++) {
          // the big record repeats its price every fourth record; the others move, so no four repeat a price
          const big = q === at
          trades.push({
            time: time++,
            price: big ? 60000 : Number((60000.01 + 0.01 * ((b + q) % 3)).toFixed(2)),
            volume: big ? lot(units, decimals) : lot(1 + q, decimals),
            side: big ? side : q % 2 === 0 ? 'buy' : 'sell',
          })
        }
      }
      expect(tpoProfiles(toColumns(trades), OPTS).map(pick)).toEqual(referenceProfiles(trades, OPTS))
    },
  )

  fcTest.prop([fc.constantFrom(0, 8), fc.integer({ min: 2 ** 48, max: 2 ** 49 }), fc.integer({ min: 20, max: 60 })], {
    numRuns: 30,
  })('a long run of one price with big lots (the pending run of four-record blocks)', (decimals, units, blocks) => {
    const trades: Trade[] = [{ time: T0, price: 60000, volume: lot(1, decimals), side: 'buy' }]
    for (let i = 0; i < 4 * blocks; i++)
      trades.push({ time: T0 + 1 + i, price: 60000, volume: lot(units, decimals), side: i % 7 === 0 ? 'sell' : 'buy' })
    trades.push({ time: T0 + 1 + 4 * blocks, price: 60000.05, volume: lot(3, decimals), side: 'sell' })
    expect(tpoProfiles(toColumns(trades), OPTS).map(pick)).toEqual(referenceProfiles(trades, OPTS))
  })
})
