import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { autoRowSize, tpoProfiles } from '../../src/tpo/index.js'

const NICE = new Set(Array.from({ length: 15 }, (_, e) => [1, 2, 5].map((m) => m * 10 ** e)).flat())

describe('autoRowSize', () => {
  it('keeps a crypto day at tick 0.1 to tens of rows, and an index day to about 35', () => {
    expect(autoRowSize({ tickSize: '0.1', range: '3600' })).toEqual({ rowSize: 500, rowSizeValue: '50', rows: 73 })
    expect(autoRowSize({ tickSize: '0.25', range: '42.5' })).toEqual({ rowSize: 5, rowSizeValue: '1.25', rows: 35 })
    // fewer ticks than minRows: one tick per row
    expect(autoRowSize({ tickSize: '0.25', range: '5' })).toEqual({ rowSize: 1, rowSizeValue: '0.25', rows: 21 })
    expect(autoRowSize({ tickSize: '0.01' })).toEqual({ rowSize: 1, rowSizeValue: '0.01', rows: 1 })
    // the median of several ranges (lower middle)
    expect(autoRowSize({ tickSize: '1', ranges: ['100', '1000', '200', '10'] })).toEqual(
      autoRowSize({ tickSize: '1', range: '100' }),
    )
    // or daily candles: the median high - low (exact, negative prices allowed)
    const days = [
      { high: '-10.5', low: '-52.75' },
      { high: '5000.25', low: '4950' },
      { high: 12, low: 11 },
    ]
    expect(autoRowSize({ tickSize: '0.25', candles: days })).toEqual(autoRowSize({ tickSize: '0.25', range: '42.25' }))
  })

  it('picks the smallest 1-2-5 row size within maxRows, landing within 30..80 rows whenever the range holds 30 ticks (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('0.1', '0.25', '0.01', '5', '0.00001'),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        (tick, units) => {
          const scale = tick.includes('.') ? tick.length - tick.indexOf('.') - 1 : 0
          const range = (Number(units) / 10 ** scale).toFixed(scale)
          const r = autoRowSize({ tickSize: tick, range })
          const ticks = Math.ceil(Number(units) / Number(tick.replace('.', '').replace(/^0+/, '')))
          expect(Number.isSafeInteger(r.rowSize) && r.rowSize >= 1).toBe(true)
          expect(r.rows).toBe(Math.ceil(ticks / r.rowSize) + 1)
          expect(r.rows).toBeLessThanOrEqual(80)
          if (ticks >= 30) expect(r.rows).toBeGreaterThanOrEqual(30)
          expect(NICE.has(r.rowSize)).toBe(true)
          // one step finer in the series would exceed maxRows
          const finer = [...NICE].filter((k) => k < r.rowSize).sort((a, b) => b - a)[0]
          if (finer !== undefined) expect(Math.ceil(ticks / finer) + 1).toBeGreaterThan(80)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('bounds the rows a real TPO profile of that range shows', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40_000 }), fc.integer({ min: -500, max: 500 }), (span, start) => {
        const lo = start / 10
        const hi = (start + span) / 10
        const r = autoRowSize({ tickSize: '0.1', range: (span / 10).toFixed(1) })
        const t0 = Date.UTC(2026, 5, 1, 10)
        const [p] = tpoProfiles(
          [
            { time: t0, price: lo.toFixed(1), volume: 1, side: 'buy' },
            { time: t0 + 1, price: hi.toFixed(1), volume: 1, side: 'sell' },
          ],
          { timeframe: '1d', tickSize: '0.1', rowSize: r.rowSize },
        )
        expect(p!.rows.length).toBeLessThanOrEqual(r.rows)
        expect(p!.rows.length).toBeGreaterThanOrEqual(r.rows - 1)
      }),
      { numRuns: 100 },
    )
  })

  it('uses any whole tick count when the window is narrower than the 1-2-5 steps', () => {
    // 1000 ticks into 40..45 rows: 1-2-5 gives 50 (21 rows); 23 ticks gives 45 rows
    expect(autoRowSize({ tickSize: '1', range: '1000', minRows: 40, maxRows: 45 })).toEqual({
      rowSize: 23,
      rowSizeValue: '23',
      rows: 45,
    })
  })

  it('refuses bad options, naming the field', () => {
    const bad: [object, string][] = [
      [{ tickSize: '0' }, 'tickSize'],
      [{ tickSize: 'x' }, 'tickSize'],
      [{ tickSize: '1', range: '-1' }, 'range'],
      [{ tickSize: '1', ranges: ['1', 'y'] }, 'ranges[1]'],
      [{ tickSize: '1', ranges: '5' }, 'ranges'],
      [{ tickSize: '1', minRows: 1 }, 'minRows'],
      [{ tickSize: '1', candles: [{ high: '1', low: '2' }] }, 'candles[0]'],
      [{ tickSize: '1', candles: [{ high: 'x', low: '2' }] }, 'candles[0].high'],
      [{ tickSize: '1', candles: [null] }, 'candles[0]'],
      [{ tickSize: '1', maxRows: 2.5 }, 'maxRows'],
      [{ tickSize: '1', minRows: 50, maxRows: 40 }, 'minRows'],
    ]
    for (const [o, field] of bad)
      expect(() => autoRowSize(o as never), field).toThrow(
        expect.objectContaining({ code: 'invalid_option', field }) as Error,
      )
    expect(() => autoRowSize(null as never)).toThrow(expect.objectContaining({ field: 'options' }) as Error)
  })
})
