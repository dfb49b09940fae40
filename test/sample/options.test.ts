// Boundaries of the sample options (src/sample/options.ts) and of the walk they bound: the 10^15-unit price
// limit, tick decimals, volumeDecimals, the start price floored to the grid, the last day that fits, and
// the 4-/5-digit year switch of the session bounds.
import Big from 'big.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../src/errors.js'
import { sampleTradeBatches, sampleTrades } from '../../src/sample/index.js'
import { validateTradeColumns } from '../../src/trades/index.js'

const D = 86_400_000
const refusedNaming = (field: string, f: () => unknown) => {
  expect(f).toThrow(MarketDataError)
  expect(f).toThrow(expect.objectContaining({ code: 'invalid_option', field }))
}

describe('sample option bounds', () => {
  it('volumeDecimals is 0 or 8 only', () => {
    for (const volumeDecimals of [1, 2, 4, 7, 9, -8, 0.5, '8'])
      refusedNaming('volumeDecimals', () => sampleTrades({ volumeDecimals: volumeDecimals as never, tradesPerDay: 5 }))
    for (const volumeDecimals of [0, 8]) expect(sampleTrades({ volumeDecimals, tradesPerDay: 5 }).time.length).toBe(5)
  })

  it('tickSize has at most 15 decimals', () => {
    const ok = sampleTrades({ tickSize: `0.${'0'.repeat(14)}1`, startPrice: '0.001', tradesPerDay: 50 })
    expect(validateTradeColumns(ok).ok).toBe(true)
    refusedNaming('tickSize', () =>
      sampleTrades({ tickSize: `0.${'0'.repeat(15)}1`, startPrice: '0.001', tradesPerDay: 5 }),
    )
  })

  it("tickSize and startPrice stay below 10^15 units of the tick's last decimal", () => {
    refusedNaming('tickSize', () => sampleTrades({ tickSize: '1000000000000000', tradesPerDay: 5 }))
    refusedNaming('startPrice', () => sampleTrades({ tickSize: '1', startPrice: '1000000000000000', tradesPerDay: 5 }))
    refusedNaming('startPrice', () => sampleTrades({ tickSize: '0.25', startPrice: '10000000000000', tradesPerDay: 5 }))
    // the largest tick: one tick is the only price on the grid below 10^15
    const big = sampleTrades({ tickSize: '999999999999999', tradesPerDay: 200 })
    expect(new Set(big.price)).toEqual(new Set([999999999999999]))
  })

  it('tickSize and startPrice are decimal strings (numbers are refused)', () => {
    refusedNaming('tickSize', () => sampleTrades({ tickSize: 0.25 as never, tradesPerDay: 5 }))
    refusedNaming('startPrice', () => sampleTrades({ startPrice: 5000 as never, tradesPerDay: 5 }))
  })
})

describe('the price walk stays on the grid between one tick and 10^15 units', () => {
  it.each([
    ['1', '999999999999999'],
    ['0.25', '9999999999999.75'],
  ])('tick %s from the top of the range %s: never 10^15 units or more', (tickSize, startPrice) => {
    const top = new Big(startPrice)
    for (const seed of [1, 2]) {
      const c = sampleTrades({ seed, tickSize, startPrice, days: 2, tradesPerDay: 1000 })
      for (const p of c.price) {
        const b = new Big(String(p))
        expect(b.lte(top)).toBe(true)
        expect(b.div(tickSize).round(0, Big.roundDown).eq(b.div(tickSize))).toBe(true)
      }
    }
  })

  it('from the bottom (start price = one tick), over days with overnight gaps: never below one tick', () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const c = sampleTrades({ seed, tickSize: '0.25', startPrice: '0.25', days: 8, tradesPerDay: 40 })
      for (const p of c.price) expect(p).toBeGreaterThanOrEqual(0.25)
    }
  })
})

describe('the start price is floored to the tick grid', () => {
  it("any start price inside one tick row gives the very same trades as the row's price", () => {
    const at = (startPrice: string) =>
      Array.from(sampleTrades({ seed: 3, startPrice, tickSize: '0.25', tradesPerDay: 300 }).price)
    const row = at('5000.25')
    for (const sp of ['5000.3', '5000.26', '5000.49', '5000.499999']) expect(at(sp)).toEqual(row)
    expect(at('5000.5')).not.toEqual(row)
  })
})

describe('the last days that fit before 8.64e15', () => {
  it('a first day 2 days before the end allows exactly 1 day', () => {
    const start = 8.64e15 - 2 * D
    const c = sampleTrades({ start, days: 1, tradesPerDay: 50 })
    expect(validateTradeColumns(c).ok).toBe(true)
    expect(c.time.length).toBe(50)
    refusedNaming('days', () => sampleTrades({ start, days: 2, tradesPerDay: 50 }))
  })

  it('the days the message says fit are accepted; one more is refused', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 400 }), fc.integer({ min: 0, max: D - 1 }), (daysLeft, ms) => {
        // a start some days before the end of the Date range; too many days names how many fit
        const start = 8.64e15 - daysLeft * D + ms
        let msg = ''
        try {
          sampleTradeBatches({ start, days: daysLeft + 5, tradesPerDay: 0 }).next()
        } catch (e) {
          msg = (e as Error).message
        }
        const fit = Number(/at most (\d+) days fit/.exec(msg)?.[1])
        expect(Number.isSafeInteger(fit)).toBe(true)
        if (fit > 0) expect(() => sampleTradeBatches({ start, days: fit, tradesPerDay: 0 }).next()).not.toThrow()
        expect(() => sampleTradeBatches({ start, days: fit + 1, tradesPerDay: 0 }).next()).toThrow(/days fit/)
      }),
      { numRuns: 100 },
    )
  })
})

describe('session bounds across 9999-12-31 / 10000-01-01 (4-digit and 5-digit years)', () => {
  it.each([Date.UTC(9999, 11, 31), Date.UTC(9999, 11, 30), 2_932_897 * D])(
    'start %s: valid, ordered times inside the sample days',
    (start) => {
      for (const timeZone of ['America/New_York', 'UTC']) {
        const c = sampleTrades({ start, days: 2, tradesPerDay: 50, timeZone })
        expect(validateTradeColumns(c).ok).toBe(true)
        const day0 = Math.floor(start / D) * D
        let main = 0
        for (let i = 0; i < c.time.length; i++) {
          const t = c.time[i]!
          expect(t).toBeGreaterThanOrEqual(day0 - 11 * 3_600_000)
          expect(t).toBeLessThanOrEqual(day0 + 2 * D + 9 * 3_600_000)
          if (i > 0) expect(t).toBeGreaterThanOrEqual(c.time[i - 1]!)
          if (timeZone === 'UTC' && c.session![i] === 0) {
            // main session 09:30-16:00 local (= UTC here)
            const ms = ((t % D) + D) % D
            expect(ms).toBeGreaterThanOrEqual(9.5 * 3_600_000)
            expect(ms).toBeLessThan(16 * 3_600_000)
            main++
          }
        }
        if (timeZone === 'UTC') expect(main).toBeGreaterThan(0)
      }
    },
  )
})
