// Range of `start`/`days` and the cap on materialized samples.
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../src/errors.js'
import {
  MAX_MATERIALIZED_TRADES,
  sampleTradeBatches,
  sampleTradeObjects,
  sampleTrades,
} from '../../src/sample/index.js'
import { validateTradeColumns } from '../../src/trades/index.js'

const D = 86_400_000
function refusal(f: () => unknown): MarketDataError {
  let caught: unknown
  try {
    f()
  } catch (e) {
    caught = e
  }
  expect(caught).toBeInstanceOf(MarketDataError)
  expect((caught as MarketDataError).code).toBe('invalid_option')
  return caught as MarketDataError
}

describe('sample start and days must keep every time within ±8.64e15', () => {
  it.each([-8.64e15, 8.64e15, 1e300, -1e300, 8.64e15 - D, -8.64e15 + D / 2, 1.5, 2 ** 60, Number.NaN])(
    'start %s is refused naming start',
    (start) => {
      const e = refusal(() => sampleTrades({ start, tradesPerDay: 10 }))
      expect(e.field).toBe('start')
      expect(e.message).toMatch(/`start`.*integer.*8\.64e15/)
    },
  )

  it('days running past the end are refused naming days', () => {
    const e = refusal(() => sampleTrades({ start: 8.64e15 - 10 * D, days: 20, tradesPerDay: 1 }))
    expect(e.field).toBe('days')
    expect(e.message).toContain('8.64e15')
    expect(() => [...sampleTradeBatches({ start: 8.64e15 - 10 * D, days: 20, tradesPerDay: 1 })]).toThrow(
      MarketDataError,
    )
  })

  it.each([
    ['the first allowed day', -8.64e15 + D, 2],
    ['the last allowed days', 8.64e15 - 4 * D, 2],
    ['a 5-digit year', 3e14, 2],
    ['year 1', -62135596800000, 2],
    ['year 0', -62167219200000 - D, 2],
  ])('%s gives valid, ordered times on the requested days', (_, start, days) => {
    for (const timeZone of ['America/New_York', 'Pacific/Kiritimati', 'Etc/GMT+12']) {
      const c = sampleTrades({ start, days, tradesPerDay: 50, timeZone })
      expect(validateTradeColumns(c).ok).toBe(true)
      const day0 = Math.floor(start / D) * D
      for (let i = 0; i < c.time.length; i++) {
        expect(c.time[i]!).toBeGreaterThanOrEqual(day0 - 11 * 3_600_000)
        expect(c.time[i]!).toBeLessThanOrEqual(day0 + days * D + 9 * 3_600_000)
        if (i > 0) expect(c.time[i]!).toBeGreaterThanOrEqual(c.time[i - 1]!)
      }
    }
  })

  it('the default start is unchanged', () => {
    expect(sampleTrades({ tradesPerDay: 5 }).time[0]).toBe(
      sampleTrades({ start: Date.UTC(2026, 5, 1), tradesPerDay: 5 }).time[0],
    )
  })
})

describe('materialized samples are capped at 100,000,000 trades', () => {
  it('sampleTrades and sampleTradeObjects refuse more, pointing at sampleTradeBatches', () => {
    expect(MAX_MATERIALIZED_TRADES).toBe(100_000_000)
    const a = refusal(() => sampleTrades({ days: 1e6, tradesPerDay: 1e6 }))
    expect(a.field).toBe('days')
    expect(a.message).toContain('sampleTradeBatches')
    const b = refusal(() => sampleTradeObjects({ tradesPerDay: 100_000_001 }))
    expect(b.field).toBe('tradesPerDay')
    expect(b.message).toMatch(/^sampleTradeObjects: .*100,000,000.*sampleTradeBatches streams any number/)
    const c = refusal(() => sampleTrades({ days: 101, tradesPerDay: 1_000_000 }))
    expect(c.field).toBe('days')
  })

  it('sampleTradeBatches is not capped', () => {
    const it = sampleTradeBatches({ days: 1e6, tradesPerDay: 1e6, batchSize: 1000 })
    const first = it.next()
    expect(first.done).toBe(false)
    expect((first.value as { time: Float64Array }).time.length).toBe(1000)
    it.return(undefined)
  })

  it('hostile option values are described safely', () => {
    const hostile = Object.create(null)
    for (const k of [
      'seed',
      'start',
      'days',
      'tradesPerDay',
      'volumeDecimals',
      'tickSize',
      'startPrice',
      'timeZone',
      'dayKinds',
    ]) {
      refusal(() => sampleTrades({ [k]: hostile }))
      refusal(() => sampleTrades({ [k]: 5n as never }))
    }
  })
})

describe('sample options that are not an object', () => {
  it('are refused naming options (null, a number, a string), never a raw TypeError', () => {
    for (const x of [null, 5, 'x']) {
      expect(() => sampleTrades(x as unknown as Parameters<typeof sampleTrades>[0])).toThrow(
        expect.objectContaining({ code: 'invalid_option', field: 'options' }),
      )
    }
  })
})

describe('sample seeds', () => {
  it('are integers 0..2^32 - 1 (the generator keeps 32 bits: a fraction or a larger seed would silently repeat another)', () => {
    for (const seed of [1.7, -1, 2 ** 32, 2 ** 32 + 1, Number.NaN])
      expect(() => sampleTrades({ seed, tradesPerDay: 10 })).toThrow(
        expect.objectContaining({ code: 'invalid_option', field: 'seed' }),
      )
    expect(sampleTrades({ seed: 2 ** 32 - 1, tradesPerDay: 10 }).time.length).toBe(10)
    expect(sampleTrades({ seed: 0, tradesPerDay: 10 }).time.length).toBe(10)
  })
})
