import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { candlesFromTrades } from '../../src/candles/index.js'
import {
  cumulativeDelta,
  footprintAnalytics,
  footprintProfiles,
  footprintValueArea,
  type FootprintProfile,
} from '../../src/footprint/index.js'
import { renderFootprintChart } from '../../src/render/index.js'
import { sampleTrades } from '../../src/sample/index.js'
import type { Trade } from '../../src/trades/index.js'
import { xmlProblem } from './xml-check.js'

const TZ = 'America/New_York'
const H = 3_600_000

/** Elements of an SVG carrying a class (class lists split on spaces). */
function marks(svg: string, cls: string): string[] {
  return [...svg.matchAll(/<(\w+) [^>]*class="([^"]*)"[^>]*>/g)]
    .filter((m) => m[2]!.split(' ').includes(cls))
    .map((m) => m[0])
}
const attr = (el: string, name: string): number => Number(new RegExp(` ${name}="([^"]*)"`).exec(el)![1])

/**
 * One hour whose rows 100.25, 100.50, 100.75 each buy 10 against 1 sold one row below: three stacked buy
 * imbalances (at 300%); both sides trade at the top and bottom rows (unfinished auctions).
 */
function stackedHour(t0: number): Trade[] {
  const t = (i: number) => t0 + i * 1000
  return [
    { time: t(0), price: '100.00', volume: 1, side: 'sell' },
    { time: t(1), price: '100.00', volume: 1, side: 'buy' },
    { time: t(2), price: '100.25', volume: 10, side: 'buy' },
    { time: t(3), price: '100.25', volume: 1, side: 'sell' },
    { time: t(4), price: '100.50', volume: 10, side: 'buy' },
    { time: t(5), price: '100.50', volume: 1, side: 'sell' },
    { time: t(6), price: '100.75', volume: 10, side: 'buy' },
    { time: t(7), price: '100.75', volume: 4, side: 'sell' },
  ]
}

const T0 = Date.UTC(2026, 5, 1, 14)
const sample = sampleTrades({ seed: 3, timeZone: TZ })

describe('renderFootprintChart', () => {
  it('draws a stacked-imbalance zone over three stacked rows, and none when four are required', () => {
    const profiles = footprintProfiles(stackedHour(T0), { timeframe: '1h', tickSize: '0.25' })
    expect(footprintAnalytics(profiles[0]!).stackedImbalances).toEqual([
      { side: 'buy', low: '100.25', high: '100.75', rows: 3 },
    ])
    const svg = renderFootprintChart(profiles)
    const zones = marks(svg, 'fp-stacked-buy')
    expect(zones).toHaveLength(1)
    expect(marks(svg, 'fp-stacked-sell')).toHaveLength(0)
    // text mode rows are 16 px: the zone covers exactly three of them
    expect(attr(zones[0]!, 'height')).toBe(48)
    expect(marks(svg, 'fp-imbalance-buy')).toHaveLength(3)
    expect(marks(renderFootprintChart(profiles, { stackedRows: 4 }), 'fp-stacked')).toHaveLength(0)
    expect(marks(svg, 'fp-unfinished-high')).toHaveLength(1)
    expect(marks(svg, 'fp-unfinished-low')).toHaveLength(1)
    expect(xmlProblem(svg)).toBeUndefined()
  })

  it('draws N bars for N profiles, each with its POC, value area and wick, and a candle body where a candle is given', () => {
    const profiles = footprintProfiles(sample, { timeframe: '1h', tickSize: '0.25', rowSize: 8, timeZone: TZ }).slice(
      -10,
    )
    const candles = candlesFromTrades(sample, { timeframe: '1h', timeZone: TZ, tickSize: '0.25' })
    const svg = renderFootprintChart(profiles, { candles, timeZone: TZ })
    expect(svg).toContain('data-bars="10"')
    expect(svg).toContain('data-mode="text"')
    for (const cls of ['fp-bar', 'fp-poc', 'fp-va', 'fp-wick', 'fp-candle-body'])
      expect(marks(svg, cls), cls).toHaveLength(10)
    expect(marks(svg, 'fp-cell')).toHaveLength(profiles.reduce((n, p) => n + p.rows.length, 0))
    expect(marks(renderFootprintChart(profiles, { timeZone: TZ }), 'fp-candle-body')).toHaveLength(0)
    // the totals row prints the library's cumulative delta under each bar
    const cum = cumulativeDelta(profiles)
    const printed = [...svg.matchAll(/class="fp-total-cumdelta"[^>]*>([^<]*)</g)].map((m) => m[1])
    expect(printed).toEqual(cum.map((c) => c.cumulativeDelta))
    expect(xmlProblem(svg)).toBeUndefined()
  })

  it('places each value area and POC on the rows footprintValueArea names', () => {
    const profiles = footprintProfiles(sample, { timeframe: '1h', tickSize: '0.25', rowSize: 8, timeZone: TZ }).slice(
      -10,
    )
    const svg = renderFootprintChart(profiles, { timeZone: TZ, valueAreaPercent: 50 })
    const vas = marks(svg, 'fp-va')
    profiles.forEach((p, i) => {
      const va = footprintValueArea(p, { valueAreaPercent: 50 })
      const rows = (Number(va.valueAreaHigh) - Number(va.valueAreaLow)) / Number(p.rowSizeValue) + 1
      expect(attr(vas[i]!, 'height')).toBeCloseTo(rows * 16, 6)
    })
  })

  it('collapses the cells to a colour scale at 60 bars, with no cell text', () => {
    const profiles = footprintProfiles(sample, { timeframe: '15m', tickSize: '0.25', rowSize: 4, timeZone: TZ }).slice(
      0,
      60,
    )
    expect(profiles).toHaveLength(60)
    const svg = renderFootprintChart(profiles, { timeZone: TZ })
    expect(svg).toContain('data-mode="colour"')
    expect(marks(svg, 'fp-bar')).toHaveLength(60)
    expect(svg).not.toMatch(/>\d+<\/text>\n<text[^>]*>x</)
    expect(Number(/<svg [^>]*width="(\d+)"/.exec(svg)![1])).toBeLessThanOrEqual(1600)
    expect(marks(svg, 'fp-total-cumdelta')).toHaveLength(1) // one line over all bars
    expect(xmlProblem(svg)).toBeUndefined()
  })

  it('shows delta or volume in the cells as asked', () => {
    const profiles = footprintProfiles(stackedHour(T0), { timeframe: '1h', tickSize: '0.25' })
    expect(renderFootprintChart(profiles, { cells: 'delta' })).toContain('>+9</text>')
    expect(renderFootprintChart(profiles, { cells: 'volume' })).toContain('>11</text>')
    expect(renderFootprintChart(profiles, { cells: 'bidAsk' })).toContain('>10</text>')
  })

  it('refuses a bad cells option, mixed grids and a non-array, naming the field', () => {
    const a = footprintProfiles(stackedHour(T0), { timeframe: '1h', tickSize: '0.25' })
    const b = footprintProfiles(stackedHour(T0 + H), { timeframe: '1h', tickSize: '0.25', rowSize: 2 })
    expect(() => renderFootprintChart(a, { cells: 'bids' as 'delta' })).toThrow(
      expect.objectContaining({ code: 'invalid_option', field: 'cells' }) as Error,
    )
    expect(() => renderFootprintChart([...a, ...b])).toThrow(
      expect.objectContaining({ code: 'grid_mismatch', field: 'rowSizeValue' }) as Error,
    )
    expect(() => renderFootprintChart('x' as unknown as FootprintProfile[])).toThrow(
      expect.objectContaining({ field: 'profiles' }) as Error,
    )
  })

  it('draws an empty chart for no profiles', () => {
    const svg = renderFootprintChart([])
    expect(svg).toContain('data-bars="0"')
    expect(xmlProblem(svg)).toBeUndefined()
  })

  it('is well-formed XML with one bar per profile for any profiles (property)', () => {
    const trade = fc.record({
      dt: fc.integer({ min: 0, max: 20 * 60_000 }),
      ticks: fc.integer({ min: 0, max: 60 }),
      volume: fc.integer({ min: 0, max: 500 }),
      buy: fc.boolean(),
    })
    fc.assert(
      fc.property(
        fc.array(trade, { minLength: 1, maxLength: 80 }),
        fc.constantFrom('bidAsk' as const, 'delta' as const, 'volume' as const),
        (ts, cells) => {
          let time = T0
          const trades: Trade[] = ts.map((t) => ({
            time: (time += t.dt),
            price: (100 + t.ticks / 4).toFixed(2),
            volume: t.volume,
            side: t.buy ? 'buy' : 'sell',
          }))
          const profiles = footprintProfiles(trades, { timeframe: '15m', tickSize: '0.25' })
          const svg = renderFootprintChart(profiles, { cells })
          expect(xmlProblem(svg)).toBeUndefined()
          expect(marks(svg, 'fp-bar')).toHaveLength(profiles.length)
          const stacked = profiles.reduce((n, p) => n + footprintAnalytics(p).stackedImbalances.length, 0)
          expect(marks(svg, 'fp-stacked')).toHaveLength(stacked)
        },
      ),
      { numRuns: 60 },
    )
  })
})
