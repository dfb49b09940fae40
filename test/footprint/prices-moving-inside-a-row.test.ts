// Prices finer than the grid that change from trade to trade but stay inside one row (a thin altcoin's
// 8-decimal prices on a 0.000001 grid): the columnar path keeps one pending run per row across such
// changes. Its profiles (rows, volumes, counts, high and low) must equal the big.js reference for any walk
// of prices, in and out of rows and back, with volumes of any decimals and both sides.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { footprintColumnsFromTrades, footprintProfiles } from '../../src/footprint/index.js'
import type { TradeColumns } from '../../src/trades/index.js'
import { START } from './arbitraries.js'
import { columnsAsTrades, referenceFootprint } from './reference.js'

interface Step {
  step: number
  gap: number
  vol: number
  volDecimals: number
  buy: boolean
}

/** A walk of prices in units of 10^-8 (100 of them a 0.000001 row), steps mostly inside a row. */
const walk = fc.array(
  fc.record<Step>({
    step: fc.oneof(fc.integer({ min: -30, max: 30 }), fc.integer({ min: -400, max: 400 }), fc.constant(0)),
    gap: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 40_000 })),
    vol: fc.oneof(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 1, max: 9 })),
    volDecimals: fc.integer({ min: 0, max: 8 }),
    buy: fc.boolean(),
  }),
  { minLength: 1, maxLength: 300 },
)

function columnsOf(steps: Step[], first: number): TradeColumns {
  const n = steps.length
  const c = {
    time: new Float64Array(n),
    price: new Float64Array(n),
    volume: new Float64Array(n),
    side: new Uint8Array(n),
  }
  let units = first
  let time = START
  steps.forEach((s, i) => {
    units = Math.max(1, units + s.step)
    time += s.gap
    c.time[i] = time
    c.price[i] = Number(`${units}e-8`)
    c.volume[i] = Number(`${s.vol}e-${s.volDecimals}`)
    c.side[i] = s.buy ? 1 : 2
  })
  return c
}

describe('footprint: prices finer than the grid moving inside a row', () => {
  it('equal the big.js reference (profiles and columns) for any walk of prices', () => {
    fc.assert(
      fc.property(
        walk,
        fc.integer({ min: 100, max: 500_000 }),
        fc.constantFrom('1m', '5m', '1h'),
        (steps, first, timeframe) => {
          const c = columnsOf(steps, first)
          const opts = { timeframe, tickSize: '0.000001' }
          const want = referenceFootprint(columnsAsTrades(c), opts)
          expect(footprintProfiles(c, opts)).toEqual(want)
          const cols = footprintColumnsFromTrades(c, opts)
          expect(Array.from(cols.time)).toEqual(want.map((p) => p.time))
          expect(Array.from(cols.rows.tradesCountBuy).reduce((a, b) => a + b, 0)).toBe(
            steps.filter((s) => s.buy).length,
          )
          expect(Array.from(cols.rows.row).map((r) => (r / 1e6).toFixed(6))).toEqual(
            want.flatMap((p) => p.rows.map((r) => r[0])),
          )
        },
      ),
      { numRuns: 300 },
    )
  })
})
