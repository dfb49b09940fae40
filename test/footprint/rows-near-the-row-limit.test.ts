// Prices whose row index lies near ±(2^53 - 1), the largest the footprint takes: the dense lane of rows
// laid around such a row must not reach past the limit (its rows would fall between doubles). Profiles of
// trades there, mixed with ordinary prices, equal the big.js reference, or are refused with a
// MarketDataError naming the price; never another error.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../src/errors.js'
import { footprintProfiles } from '../../src/footprint/index.js'
import type { Trade } from '../../src/trades/index.js'
import { START } from './arbitraries.js'
import { referenceFootprint } from './reference.js'

const LIMIT = Number.MAX_SAFE_INTEGER
/** A price of row index `k` at tick 0.25 (exact: k is a safe integer, k / 4 a double). */
const atRow = (k: number): number => k / 4
const priceArb = fc.oneof(
  fc.constantFrom(5000, 0, -0.25),
  fc.integer({ min: -80, max: 80 }).map((d) => atRow(-LIMIT + Math.abs(d))),
  fc.integer({ min: -80, max: 80 }).map((d) => atRow(LIMIT - Math.abs(d))),
  fc.integer({ min: -80, max: 80 }).map((d) => atRow(-(2 ** 52) + d)),
)

describe('footprint: rows near the row-index limit', () => {
  it('equal the big.js reference, from objects and from columns, in any order', () => {
    let taken = 0
    fc.assert(
      fc.property(
        fc.array(fc.tuple(priceArb, fc.integer({ min: 0, max: 7_199 }), fc.boolean()), { minLength: 1, maxLength: 12 }),
        (xs) => {
          const trades: Trade[] = xs.map(([price, s, buy]) => ({
            time: START + s * 1000,
            price,
            volume: 1,
            side: buy ? 'buy' : 'sell',
          }))
          const opts = { timeframe: '1h' as const, tickSize: '0.25' }
          const columns = {
            time: Float64Array.from(trades, (t) => t.time as number),
            price: Float64Array.from(trades, (t) => t.price as number),
            volume: Float64Array.from(trades, () => 1),
            side: Uint8Array.from(trades, (t) => (t.side === 'buy' ? 1 : 2)),
          }
          let got: unknown
          try {
            got = footprintProfiles(trades, opts)
            expect(footprintProfiles(columns, opts)).toEqual(got)
          } catch (e) {
            expect(e).toBeInstanceOf(MarketDataError)
            expect((e as MarketDataError).field).toBe('price')
            return
          }
          taken++
          expect(got).toEqual(referenceFootprint(trades, opts))
        },
      ),
      { numRuns: 400 },
    )
    // most draws are taken: the property is about the answers, not the refusals
    expect(taken).toBeGreaterThan(200)
  })
})
