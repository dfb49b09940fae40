// TPO takes the row height as a price (rowSizeValue), as footprint does: a whole number of ticks, the same
// profiles as rowSize in ticks; rowSize and rowSizeValue together are invalid. The CLI: --row-size-value.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createTpoAggregator, tpoFromCandles, tpoProfiles, type Trade } from '../../src/index.js'
import { fixture, run } from '../cli/helpers.js'

const T0 = Date.UTC(2026, 5, 1, 13, 30)
const tradesArb = fc
  .array(
    fc.tuple(
      fc.integer({ min: 0, max: 7 * 3_600_000 }),
      fc.integer({ min: 1, max: 400 }),
      fc.integer({ min: 1, max: 9 }),
    ),
    { minLength: 1, maxLength: 60 },
  )
  .map((xs) =>
    xs
      .map(
        ([dt, p, v], i): Trade => ({
          time: T0 + dt,
          price: (5000 + p * 0.25).toFixed(2),
          volume: String(v),
          side: i % 2 === 0 ? 'buy' : 'sell',
        }),
      )
      .sort((a, b) => a.time - b.time),
  )

describe('TPO rowSizeValue', () => {
  it('rowSizeValue = k x tickSize gives the profiles of rowSize k (any spelling of the value)', () => {
    fc.assert(
      fc.property(tradesArb, fc.integer({ min: 1, max: 12 }), fc.constantFrom('', '0', '00'), (trades, k, zeros) => {
        const value = (k * 0.25).toFixed(2) + zeros
        const want = tpoProfiles(trades, { timeframe: '1d', tickSize: '0.25', rowSize: k })
        expect(tpoProfiles(trades, { timeframe: '1d', tickSize: '0.25', rowSizeValue: value })).toEqual(want)
        const agg = createTpoAggregator({ timeframe: '1d', tickSize: '0.25', rowSizeValue: k * 0.25 })
        agg.addTrades(trades)
        expect(agg.flush()).toEqual(want)
      }),
      { numRuns: 40 },
    )
  })

  it('both rowSize and rowSizeValue, a value off the tick multiple, or not a positive decimal: invalid_option naming the option', () => {
    const trades: Trade[] = [{ time: T0, price: '5000.25', volume: '1', side: 'buy' }]
    const base = { timeframe: '1d', tickSize: '0.25' } as const
    expect(() => tpoProfiles(trades, { ...base, rowSize: 2, rowSizeValue: '0.5' })).toThrow(
      expect.objectContaining({
        code: 'invalid_option',
        field: 'rowSize',
        message: expect.stringContaining('not both'),
      }),
    )
    expect(() => tpoProfiles(trades, { ...base, rowSizeValue: '0.3' })).toThrow(
      expect.objectContaining({
        code: 'invalid_option',
        field: 'rowSizeValue',
        message: expect.stringContaining('whole multiple of tickSize 0.25'),
      }),
    )
    for (const bad of ['0', '-1', 'x', Number.NaN])
      expect(() => tpoProfiles(trades, { ...base, rowSizeValue: bad })).toThrow(
        expect.objectContaining({ code: 'invalid_option', field: 'rowSizeValue' }),
      )
    expect(
      tpoFromCandles([{ time: T0, open: '5000', high: '5001', low: '5000', close: '5001' }], {
        ...base,
        rowSizeValue: '0.5',
      })[0]?.rowSizeValue,
    ).toBe('0.5')
  })

  it('CLI: tpo --row-size-value equals --row-size in ticks; both is a usage error', async () => {
    const a = await run([
      'tpo',
      fixture('trades.csv'),
      '--tick-size',
      '0.25',
      '--row-size-value',
      '1',
      '--format',
      'json',
    ])
    const b = await run(['tpo', fixture('trades.csv'), '--tick-size', '0.25', '--row-size', '4', '--format', 'json'])
    expect(a.code).toBe(0)
    expect(a.stdout).toBe(b.stdout)
    expect(JSON.parse(a.stdout)[0].rowSizeValue).toBe('1')
    const both = await run([
      'tpo',
      fixture('trades.csv'),
      '--tick-size',
      '0.25',
      '--row-size',
      '4',
      '--row-size-value',
      '1',
    ])
    expect(both.code).not.toBe(0)
  })
})
