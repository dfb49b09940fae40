import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { candlesFromTrades } from '../../src/candles/index.js'
import { renderTpoChart } from '../../src/render/index.js'
import { sampleTrades } from '../../src/sample/index.js'
import { autoRowSize, nakedPocs, tpoFromCandles, tpoProfiles, type TpoProfile } from '../../src/tpo/index.js'
import type { Trade } from '../../src/trades/index.js'
import { handTpo } from './fixtures.js'
import { xmlProblem } from './xml-check.js'

const TZ = 'America/New_York'

/** Elements of an SVG carrying a class (class lists split on spaces). */
function marks(svg: string, cls: string): string[] {
  return [...svg.matchAll(/<(\w+) [^>]*class="([^"]*)"[^>]*>/g)]
    .filter((m) => m[2]!.split(' ').includes(cls))
    .map((m) => m[0])
}

const week = sampleTrades({ seed: 2, timeZone: TZ, days: 5 })
const dailyCandles = candlesFromTrades(week, {
  timeframe: '1d',
  timeZone: TZ,
  tickSize: '0.25',
  sessions: ['MAINSESSION'],
})
const rowSize = autoRowSize({ tickSize: '0.25', candles: dailyCandles }).rowSize
const days = tpoProfiles(week, { timeframe: '1d', tickSize: '0.25', rowSize, timeZone: TZ, sessions: ['MAINSESSION'] })

describe('renderTpoChart', () => {
  it('draws each period with its value area, POC, initial balance, open, close and volume POC', () => {
    expect(days.length).toBe(5)
    const svg = renderTpoChart(days, { timeZone: TZ })
    expect(svg).toContain('data-periods="5"')
    for (const cls of ['tpo-period', 'tpo-va', 'tpo-poc', 'tpo-open', 'tpo-close', 'tpo-volume-poc'])
      expect(marks(svg, cls), cls).toHaveLength(5)
    expect(marks(svg, 'tpo-ib')).toHaveLength(days.filter((p) => p.initialBalance !== null).length)
    // one letter or block per TPO
    const tpos = days.reduce((n, p) => n + p.tpoCount, 0)
    expect(marks(svg, 'tpo-letter').length + marks(svg, 'tpo-block').length).toBe(tpos)
    // one histogram bar per row
    expect(marks(svg, 'tpo-volume')).toHaveLength(days.reduce((n, p) => n + p.rows.length, 0))
    expect(xmlProblem(svg)).toBeUndefined()
  })

  it("draws the previous period's POC and value area across each later period, and rays from naked POCs", () => {
    const svg = renderTpoChart(days, { timeZone: TZ })
    expect(marks(svg, 'tpo-prev-poc')).toHaveLength(4)
    expect(marks(svg, 'tpo-prev-va')).toHaveLength(8)
    const naked = nakedPocs(days).filter((x) => x.naked).length
    expect(naked).toBeGreaterThan(0)
    expect(marks(svg, 'tpo-naked-poc')).toHaveLength(naked)
  })

  it('marks single prints, excess and poor extremes as the profiles give them', () => {
    const svg = renderTpoChart(days, { timeZone: TZ })
    expect(marks(svg, 'tpo-single-print')).toHaveLength(days.reduce((n, p) => n + p.singlePrints.length, 0))
    expect(marks(svg, 'tpo-excess-high')).toHaveLength(days.filter((p) => p.excessHigh > 0).length)
    expect(marks(svg, 'tpo-excess-low')).toHaveLength(days.filter((p) => p.excessLow > 0).length)
    expect(marks(svg, 'tpo-poor-high')).toHaveLength(days.filter((p) => p.poorHigh).length)
    expect(marks(svg, 'tpo-poor-low')).toHaveLength(days.filter((p) => p.poorLow).length)
    // the hand-made profile: one single print (101.00), no excess; made poor at both ends, both are marked
    const hand: TpoProfile = { ...handTpo(), poorHigh: true, poorLow: true, excessHigh: 2 }
    const one = renderTpoChart([hand], { style: 'letters' })
    expect(marks(one, 'tpo-single-print')).toHaveLength(1)
    expect(marks(one, 'tpo-poor-high')).toHaveLength(1)
    expect(marks(one, 'tpo-poor-low')).toHaveLength(1)
    expect(marks(one, 'tpo-excess-high')).toHaveLength(1)
    expect(marks(one, 'tpo-letter')).toHaveLength(13)
    expect(marks(renderTpoChart([handTpo()]), 'tpo-poor')).toHaveLength(0)
  })

  it('draws annotations on their period, or on every period without a time', () => {
    const notes = [
      {
        kind: 'single-prints',
        time: days[1]!.time,
        low: days[1]!.rows[2]![0],
        high: days[1]!.rows[4]![0],
        label: 'single-print zone',
      },
      { kind: 'poor-high', low: days[0]!.high, high: days[0]!.high },
    ]
    const svg = renderTpoChart(days, { timeZone: TZ, annotations: notes })
    expect(marks(svg, 'tpo-annotation-single-prints')).toHaveLength(1)
    expect(marks(svg, 'tpo-annotation-poor-high')).toHaveLength(5)
    expect(svg).toContain('>single-print zone</text>')
    expect(() => renderTpoChart(days, { annotations: [{ kind: 'a b', low: '1', high: '2' }] })).toThrow(
      expect.objectContaining({ field: 'annotations' }) as Error,
    )
  })

  it('uses letters up to 100 rows and blocks beyond, unless told', () => {
    expect(renderTpoChart([handTpo()])).toContain('data-style="letters"')
    const fine = tpoProfiles(week, { timeframe: '1d', tickSize: '0.25', timeZone: TZ, sessions: ['MAINSESSION'] })
    expect(renderTpoChart(fine, { timeZone: TZ })).toContain('data-style="blocks"')
    expect(renderTpoChart(fine.slice(0, 1), { style: 'letters' })).toContain('data-style="letters"')
  })

  it('takes candle profiles (no volume histogram) and refuses mixed grids', () => {
    const m30 = candlesFromTrades(week, { timeframe: '30m', timeZone: TZ, tickSize: '0.25', sessions: ['MAINSESSION'] })
    const fromCandles = tpoFromCandles(m30, { timeframe: '1d', tickSize: '0.25', rowSize, timeZone: TZ })
    const svg = renderTpoChart(fromCandles, { timeZone: TZ })
    expect(marks(svg, 'tpo-period')).toHaveLength(fromCandles.length)
    expect(marks(svg, 'tpo-volume')).toHaveLength(0)
    expect(xmlProblem(svg)).toBeUndefined()
    const other = tpoProfiles(week, { timeframe: '1d', tickSize: '0.25', rowSize: rowSize + 1, timeZone: TZ })
    expect(() => renderTpoChart([...days, ...other])).toThrow(
      expect.objectContaining({ code: 'grid_mismatch' }) as Error,
    )
  })

  it('is well-formed XML with one period per profile for any trades (property)', () => {
    const trade = fc.record({
      dt: fc.integer({ min: 0, max: 4 * 3_600_000 }),
      ticks: fc.integer({ min: -40, max: 40 }),
      volume: fc.integer({ min: 0, max: 50 }),
      buy: fc.boolean(),
    })
    fc.assert(
      fc.property(
        fc.array(trade, { minLength: 1, maxLength: 80 }),
        fc.constantFrom('letters' as const, 'blocks' as const),
        (ts, style) => {
          let time = Date.UTC(2026, 5, 1)
          const trades: Trade[] = ts.map((t) => ({
            time: (time += t.dt),
            price: (100 + t.ticks / 4).toFixed(2),
            volume: t.volume,
            side: t.buy ? 'buy' : 'sell',
          }))
          const profiles = tpoProfiles(trades, { timeframe: '1d', tickSize: '0.25' })
          const svg = renderTpoChart(profiles, { style })
          expect(xmlProblem(svg)).toBeUndefined()
          expect(marks(svg, 'tpo-period')).toHaveLength(profiles.length)
          expect(marks(svg, 'tpo-naked-poc')).toHaveLength(nakedPocs(profiles).filter((x) => x.naked).length)
        },
      ),
      { numRuns: 60 },
    )
  })
})
