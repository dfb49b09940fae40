import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseDecimal } from '../../src/decimal/index.js'
import { footprintProfiles, footprintValueArea, type FootprintProfile } from '../../src/footprint/index.js'
import { MarketDataError } from '../../src/errors.js'
import { valueAreaRange } from '../../src/profile/value-area.js'
import { fpTrades, TICKS } from './arbitraries.js'

/** Exact units of a decimal string at `scale`. */
const units = (s: string, scale: number): bigint => {
  const r = parseDecimal(s)
  if (!r.ok) throw new Error(s)
  return r.value.units * 10n ** BigInt(scale - r.value.scale)
}

/** Reference: every grid row from low to high materialised (0 where nothing traded), then the TPO value-area rule. */
function reference(p: FootprintProfile, percent: number): { low: string; high: string } {
  const scale = 12
  const step = units(p.rowSizeValue, scale)
  const first = units(p.rows[0]![0], scale)
  const span = Number((units(p.rows[p.rows.length - 1]![0], scale) - first) / step) + 1
  const vols: bigint[] = new Array(span).fill(0n)
  for (const [price, b, s] of p.rows)
    vols[Number((units(price, scale) - first) / step)] = units(b, scale) + units(s, scale)
  const pct = parseDecimal(percent)
  if (!pct.ok) throw new Error('percent')
  // the POC is the profile's own (chosen among traded rows: an untraded row never wins a tie of zeros)
  const poc = Number((units(p.volumePoc, scale) - first) / step)
  const r = valueAreaRange(vols, poc, pct.value)
  const price = (i: number) => String(first + BigInt(i) * step)
  return { low: price(r.low), high: price(r.high) }
}

describe('footprintValueArea', () => {
  it('grows from the volume POC by pairs of grid rows, counting untraded rows between traded ones as empty', () => {
    const p: FootprintProfile = footprintProfiles(
      [
        { time: 0, price: '100.00', volume: 10, side: 'buy' },
        { time: 1, price: '100.25', volume: 30, side: 'sell' },
        { time: 2, price: '101.00', volume: 5, side: 'buy' },
        { time: 3, price: '99.00', volume: 6, side: 'sell' },
      ],
      { timeframe: '1h', tickSize: '0.25' },
    )[0]!
    // POC 100.25 (30 of 51); the pair below (100.00, 99.75) holds 10 > above (100.50, 100.75) 0 -> 40 of 51 = 78%
    expect(footprintValueArea(p)).toEqual({
      volumePoc: '100.25',
      valueAreaHigh: '100.25',
      valueAreaLow: '99.75',
      valueAreaPercent: 70,
    })
    // 90%: above (100.50, 100.75: 0) ties below (99.50, 99.25: 0) and is added; then above (101.00: 5) beats
    // below (0): 45 of 51; the top is reached, so the rows below are added down to 99.00
    expect(footprintValueArea(p, { valueAreaPercent: 90 })).toEqual({
      volumePoc: '100.25',
      valueAreaHigh: '101.00',
      valueAreaLow: '99.00',
      valueAreaPercent: 90,
    })
  })

  it('equals the TPO value-area rule on the materialised grid (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TICKS),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 0, max: 1 << 30 }),
        (tick, percent, seed) => {
          const trades = fc.sample(fpTrades({ tick, maxLength: 30 }), { seed, numRuns: 1 })[0]!
          for (const p of footprintProfiles(trades, { timeframe: '1h', tickSize: tick })) {
            const va = footprintValueArea(p, { valueAreaPercent: percent })
            const ref = reference(p, percent)
            const scale = 12
            expect(String(units(va.valueAreaLow, scale))).toBe(ref.low)
            expect(String(units(va.valueAreaHigh, scale))).toBe(ref.high)
            expect(va.volumePoc).toBe(p.volumePoc)
          }
        },
      ),
      { numRuns: 150 },
    )
  })

  it('equals the TPO value-area rule on dense profiles with short gaps (property)', () => {
    const trade = fc.record({
      gap: fc.integer({ min: 0, max: 5 }),
      volume: fc.integer({ min: 0, max: 50 }),
      buy: fc.boolean(),
    })
    fc.assert(
      fc.property(fc.array(trade, { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 100 }), (ts, percent) => {
        let ticks = 0
        const trades = ts.map((t, i) => {
          ticks += t.gap
          return { time: i, price: ticks, volume: t.volume, side: t.buy ? ('buy' as const) : ('sell' as const) }
        })
        const p = footprintProfiles(trades, { timeframe: '1h', tickSize: '1' })[0]!
        const va = footprintValueArea(p, { valueAreaPercent: percent })
        const ref = reference(p, percent)
        expect([String(units(va.valueAreaLow, 12)), String(units(va.valueAreaHigh, 12))]).toEqual([ref.low, ref.high])
      }),
      { numRuns: 400 },
    )
  })

  it('is quick on a sparse profile spanning billions of rows', () => {
    const p: FootprintProfile = footprintProfiles(
      [
        { time: 0, price: '0.01', volume: 1, side: 'buy' },
        { time: 1, price: '50000000', volume: 9, side: 'sell' },
        { time: 2, price: '99999999.99', volume: 1, side: 'buy' },
      ],
      { timeframe: '1h', tickSize: '0.01' },
    )[0]!
    expect(footprintValueArea(p, { valueAreaPercent: 100 })).toMatchObject({
      valueAreaLow: '0.01',
      valueAreaHigh: '99999999.99',
    })
  })

  it('refuses a bad percent and a profile without rows, naming the field', () => {
    const p = footprintProfiles([{ time: 0, price: 1, volume: 1, side: 'buy' }], { timeframe: '1h', tickSize: '1' })[0]!
    for (const bad of [0, 101, Number.NaN, '70' as unknown as number]) {
      expect(() => footprintValueArea(p, { valueAreaPercent: bad })).toThrow(
        expect.objectContaining({ code: 'invalid_option', field: 'valueAreaPercent' }) as Error,
      )
    }
    expect(() => footprintValueArea({ ...p, rows: [] })).toThrow(MarketDataError)
    expect(() => footprintValueArea({ ...p, rows: [] })).toThrow(/rows/)
  })
})
