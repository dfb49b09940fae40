import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { regridTpo, tpoProfiles, type TpoProfile } from '../../src/tpo/index.js'
import type { Trade } from '../../src/trades/index.js'

const T0 = Date.UTC(2026, 5, 1, 13, 30)
const trade = fc.record({
  dt: fc.integer({ min: 0, max: 40 * 60_000 }),
  ticks: fc.integer({ min: -300, max: 300 }),
  volume: fc.integer({ min: 0, max: 99 }),
  decimals: fc.integer({ min: 0, max: 3 }),
  buy: fc.boolean(),
  session: fc.constantFrom(undefined, 'MAINSESSION' as const, 'PRE_MARKET' as const),
})
const tradesArb = fc.array(trade, { minLength: 1, maxLength: 60 }).map((ts) => {
  let time = T0
  return ts.map(
    (t): Trade => ({
      time: (time += t.dt),
      price: (t.ticks / 4).toFixed(2),
      volume: (t.volume / 10 ** t.decimals).toFixed(t.decimals),
      side: t.buy ? 'buy' : 'sell',
      ...(t.session ? { session: t.session } : {}),
    }),
  )
})

describe('regridTpo', () => {
  it('equals the profile tpoProfiles builds at the coarser row size from the same trades (property)', () => {
    fc.assert(
      fc.property(
        tradesArb,
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom('MERGE_ALL' as const, 'GROUP_BY_TYPE' as const),
        (trades, base, k, mergeSessions) => {
          const opts = {
            timeframe: '1d',
            tickSize: '0.25',
            blockSize: '30m',
            mergeSessions,
            initialBalance: '1h',
          } as const
          const fine = tpoProfiles(trades, { ...opts, rowSize: base })
          const coarse = tpoProfiles(trades, { ...opts, rowSize: base * k })
          const copy = JSON.stringify(fine)
          expect(fine.map((p) => regridTpo(p, { rowSize: base * k }))).toEqual(coarse)
          expect(JSON.stringify(fine)).toBe(copy) // input untouched
        },
      ),
      { numRuns: 200 },
    )
  })

  it('refuses a row size that is not a multiple of the profile’s, naming rowSize', () => {
    const [p] = tpoProfiles([{ time: T0, price: 10, volume: 1, side: 'buy' }], {
      timeframe: '1d',
      tickSize: '0.25',
      rowSize: 2,
    }) as [TpoProfile]
    for (const bad of [3, 1, 0, 2.5, Number.NaN, '4' as unknown as number]) {
      expect(() => regridTpo(p, { rowSize: bad })).toThrow(
        expect.objectContaining({ code: 'invalid_option', field: 'rowSize' }) as Error,
      )
    }
    expect(regridTpo(p, { rowSize: 2 })).toEqual(p)
  })
})
