// rowSize 'auto': the one-tick result regridded to the row size the autoRowSize rule picks for the span of all
// its rows (checked against the big.js reference at that size and an independent search for the rule), the
// same for columns and async input; the streaming aggregator refuses it naming the option.
import Big from 'big.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../src/errors.js'
import {
  createFootprintAggregator,
  footprintColumnsFromTrades,
  footprintProfiles,
  footprintProfilesAsync,
  regridFootprint,
  type FootprintProfile,
} from '../../src/footprint/index.js'
import type { Trade } from '../../src/trades/index.js'
import { START, TICKS, fpTrades, toColumns } from './arbitraries.js'
import { referenceFootprint } from './reference.js'

/** The rule, searched the slow way: the least 1-2-5 size with at most 80 rows, else (under 30 rows) the least integer. */
function expectedRowSize(ticks: number): number {
  const rows = (k: number) => Math.ceil(ticks / k) + 1
  const nice = [1, 2, 5].flatMap((m) => [1, 10, 100, 1000, 10_000, 100_000].map((p) => m * p)).sort((a, b) => a - b)
  const k = nice.find((x) => rows(x) <= 80) as number
  if (k === 1 || rows(k) >= 30) return k
  let j = 1
  while (rows(j) > 80) j++
  return j
}

/** Ticks from the lowest to the highest traded row of one-tick profiles (big.js). */
function spanTicks(ps: FootprintProfile[], tick: string): number | undefined {
  const withRows = ps.filter((p) => p.rows.length > 0)
  if (withRows.length === 0) return undefined
  const lo = withRows.map((p) => new Big(p.rows[0]![0])).reduce((a, b) => (b.lt(a) ? b : a))
  const hi = withRows.map((p) => new Big(p.rows[p.rows.length - 1]![0])).reduce((a, b) => (b.gt(a) ? b : a))
  return Number(hi.minus(lo).div(tick).toFixed())
}

/** A result, or the code of the MarketDataError it threw. */
function outcome<T>(f: () => T): { value?: T; code?: string } {
  try {
    return { value: f() }
  } catch (e) {
    if (e instanceof MarketDataError) return { code: e.code }
    throw e
  }
}

const frames = fc.constantFrom('5m', '15m', '1h')

describe("footprint rowSize 'auto'", () => {
  it('equals the one-tick result regridded to the picked size, and the reference at that size', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TICKS).chain((tick) => fc.tuple(fc.constant(tick), fpTrades({ tick, offGrid: true }))),
        frames,
        ([tick, trades], timeframe) => {
          const auto = footprintProfiles(trades, { timeframe, tickSize: tick, rowSize: 'auto' })
          const one = referenceFootprint(trades, { timeframe, tickSize: tick, rowSize: 1 })
          const span = spanTicks(one, tick)
          const k = span === undefined ? 1 : expectedRowSize(span)
          expect(auto).toEqual(one.map((p) => regridFootprint(p, { rowSize: k })))
          expect(auto).toEqual(referenceFootprint(trades, { timeframe, tickSize: tick, rowSize: k }))
          for (const p of auto) expect(p.rowSize).toBe(k)
          if (span !== undefined) {
            // rows from the lowest to the highest traded row of the whole result, at the picked size
            const rs = new Big(auto[0]!.rowSizeValue)
            const all = auto.filter((p) => p.rows.length > 0)
            const lo = all.map((p) => new Big(p.rows[0]![0]).div(rs)).reduce((a, b) => (b.lt(a) ? b : a))
            const hi = all
              .map((p) => new Big(p.rows[p.rows.length - 1]![0]).div(rs))
              .reduce((a, b) => (b.gt(a) ? b : a))
            const rows = Number(hi.minus(lo).toFixed()) + 1
            expect(rows).toBeLessThanOrEqual(80)
            expect(rows).toBeGreaterThanOrEqual(Math.min(span + 1, 30) - 1)
          }
        },
      ),
      { numRuns: 120 },
    )
  })

  it('columns: the columns at the picked size; async: the same profiles', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...TICKS).chain((tick) => fc.tuple(fc.constant(tick), fpTrades({ tick, offGrid: true }))),
        frames,
        async ([tick, trades], timeframe) => {
          const cols = toColumns(trades)
          const opts = { timeframe, tickSize: tick }
          const auto = footprintProfiles(cols, { ...opts, rowSize: 'auto' })
          const k = auto[0]?.rowSize ?? 1
          const auto1 = outcome(() => footprintColumnsFromTrades(cols, { ...opts, rowSize: 'auto' }))
          const fixed = outcome(() => footprintColumnsFromTrades(cols, { ...opts, rowSize: k }))
          // 'auto' adds at one tick first: a one-tick sum no double carries is refused even where the coarse one fits
          if (outcome(() => footprintColumnsFromTrades(cols, opts)).code === 'inexact')
            expect(auto1.code).toBe('inexact')
          else expect(auto1).toEqual(fixed)
          expect(await footprintProfilesAsync(trades, { ...opts, rowSize: 'auto' })).toEqual(
            footprintProfiles(trades, { ...opts, rowSize: 'auto' }),
          )
        },
      ),
      { numRuns: 80 },
    )
  })

  it('a crypto-like day at tick 0.1 gets a few dozen rows, not thousands', () => {
    const trades: Trade[] = []
    for (let i = 0; i < 2000; i++)
      trades.push({
        time: START + i * 40_000,
        price: (90_000 + 1800 * Math.sin(i / 300)).toFixed(1),
        volume: '0.01',
        side: i % 3 === 0 ? 'sell' : 'buy',
      })
    const one = footprintProfiles(trades, { timeframe: '1h', tickSize: '0.1' })
    const auto = footprintProfiles(trades, { timeframe: '1h', tickSize: '0.1', rowSize: 'auto' })
    expect(one.reduce((n, p) => n + p.rows.length, 0)).toBeGreaterThan(1000)
    expect(auto[0]!.rowSize).toBe(500)
    expect(auto[0]!.rowSizeValue).toBe('50')
    expect(auto.length).toBe(one.length)
    expect(auto.map((p) => p.volume)).toEqual(one.map((p) => p.volume))
  })

  it('no trades: no profiles; analytics are made at the picked size', () => {
    expect(footprintProfiles([], { timeframe: '1h', tickSize: '0.25', rowSize: 'auto' })).toEqual([])
    const trades: Trade[] = Array.from({ length: 400 }, (_, i) => ({
      time: START + i * 1000,
      price: String(5000 + i * 0.25),
      volume: String(1 + (i % 7)),
      side: i % 2 === 0 ? 'buy' : 'sell',
    }))
    const auto = footprintProfiles(trades, { timeframe: '1h', tickSize: '0.25', rowSize: 'auto', analytics: true })
    const k = auto[0]!.rowSize
    expect(k).toBe(expectedRowSize(399))
    expect(auto).toEqual(footprintProfiles(trades, { timeframe: '1h', tickSize: '0.25', rowSize: k, analytics: true }))
  })

  it('the streaming aggregator refuses it naming rowSize; with rowSizeValue it is refused as any rowSize is', () => {
    const err = (f: () => unknown) => {
      try {
        f()
      } catch (e) {
        return e as MarketDataError
      }
      throw new Error('did not throw')
    }
    const e = err(() => createFootprintAggregator({ timeframe: '1h', tickSize: '0.25', rowSize: 'auto' as never }))
    expect(e).toBeInstanceOf(MarketDataError)
    expect(e.code).toBe('invalid_option')
    expect(e.field).toBe('rowSize')
    expect(e.message).toMatch(/'auto'.*createFootprintAggregator cannot know it/)
    const both = err(() =>
      footprintProfiles([], { timeframe: '1h', tickSize: '0.25', rowSize: 'auto', rowSizeValue: '1' }),
    )
    expect(both.field).toBe('rowSize')
    expect(both.message).toMatch(/not both/)
  })
})
