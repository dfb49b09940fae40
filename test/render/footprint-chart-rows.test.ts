// The footprint chart's rowSize: 'auto' (default) draws one-tick profiles as footprintProfiles' rowSize 'auto'
// would have built them (a crypto day is a few dozen rows, not thousands); a chart within 80 rows is kept; a
// number regrids to that many ticks exactly.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../src/errors.js'
import { footprintProfiles } from '../../src/footprint/index.js'
import { renderFootprintChart } from '../../src/render/index.js'
import type { Trade } from '../../src/trades/index.js'

const START = Date.UTC(2026, 5, 1)

/** A walk of `n` trades a minute apart around `mid`, steps of up to `step` ticks of `tick`. */
const walk = fc
  .record({
    n: fc.integer({ min: 1, max: 300 }),
    step: fc.integer({ min: 0, max: 400 }),
    seed: fc.integer({ min: 1, max: 1_000_000 }),
  })
  .map(({ n, step, seed }) => {
    const trades: Trade[] = []
    let s = seed
    let ticks = 900_000
    for (let i = 0; i < n; i++) {
      s = (s * 48271) % 2147483647
      ticks += (s % (2 * step + 1)) - step
      trades.push({
        time: START + i * 60_000,
        price: (ticks / 10).toFixed(1),
        volume: String(1 + (s % 9)),
        side: s % 2 === 0 ? 'buy' : 'sell',
      })
    }
    return trades
  })

const height = (svg: string) => Number(/<svg [^>]*height="([\d.]+)"/.exec(svg)![1])

describe('renderFootprintChart rowSize', () => {
  it("'auto' (default) draws the profiles footprintProfiles builds with rowSize 'auto'", () => {
    fc.assert(
      fc.property(walk, fc.constantFrom('15m', '1h'), (trades, timeframe) => {
        const one = footprintProfiles(trades, { timeframe, tickSize: '0.1' })
        const auto = footprintProfiles(trades, { timeframe, tickSize: '0.1', rowSize: 'auto' })
        const chart = renderFootprintChart(one, { cellMode: 'text' })
        expect(chart).toBe(renderFootprintChart(auto, { cellMode: 'text', rowSize: auto[0]!.rowSize }))
        expect(renderFootprintChart(one, { cellMode: 'text', rowSize: 'auto' })).toBe(chart)
        // the span of a text-mode chart: at most 80 rows of 16 px (and title, axis and totals)
        expect(height(chart)).toBeLessThan(80 * 16 + 400)
      }),
      { numRuns: 40 },
    )
  })

  it('a crypto day at one tick: thousands of rows tall before, a few dozen rows now', () => {
    const trades: Trade[] = Array.from({ length: 1440 }, (_, i) => ({
      time: START + i * 60_000,
      price: (90_000 + 1800 * Math.sin(i / 200)).toFixed(1),
      volume: '0.5',
      side: i % 2 === 0 ? 'buy' : 'sell',
    }))
    const one = footprintProfiles(trades, { timeframe: '1h', tickSize: '0.1' })
    const tall = renderFootprintChart(one, { cellMode: 'text', rowSize: 1 })
    const auto = renderFootprintChart(one, { cellMode: 'text' })
    expect(height(tall)).toBeGreaterThan(50_000)
    expect(height(auto)).toBeLessThan(1700)
    expect(auto).toContain('| row 50')
  })

  it('a number regrids to that many ticks; the size must be a multiple of the profiles', () => {
    const trades: Trade[] = Array.from({ length: 200 }, (_, i) => ({
      time: START + i * 60_000,
      price: String(5000 + (i % 40) * 0.25),
      volume: '1',
      side: i % 3 === 0 ? 'sell' : 'buy',
    }))
    const one = footprintProfiles(trades, { timeframe: '1h', tickSize: '0.25' })
    const four = footprintProfiles(trades, { timeframe: '1h', tickSize: '0.25', rowSize: 4 })
    expect(renderFootprintChart(one, { rowSize: 4 })).toBe(renderFootprintChart(four, { rowSize: 4 }))
    // 40 rows: within 80, 'auto' keeps them
    expect(renderFootprintChart(one)).toBe(renderFootprintChart(one, { rowSize: 1 }))
    const two = footprintProfiles(trades, { timeframe: '1h', tickSize: '0.25', rowSize: 2 })
    expect(() => renderFootprintChart(two, { rowSize: 3 })).toThrow(expect.objectContaining({ code: 'grid_mismatch' }))
    for (const bad of [0, 1.5, 'big', null]) {
      let e: unknown
      try {
        renderFootprintChart(one, { rowSize: bad as never })
      } catch (x) {
        e = x
      }
      expect(e).toBeInstanceOf(MarketDataError)
      expect((e as MarketDataError).field).toBe('rowSize')
    }
  })
})
