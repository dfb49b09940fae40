import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../src/errors.js'
import { rowSizeScale } from '../../src/footprint/index.js'

describe('rowSizeScale', () => {
  it('examples', () => {
    expect(rowSizeScale({ tickSize: '0.25', typicalRange: '30' })).toEqual({
      min: 1,
      max: 24,
      step: 1,
      default: 4,
      tickSize: '0.25',
      defaultRowSizeValue: '1',
      rangeTicks: 120,
    })
    // 1,000 ticks: finest offer at most 300 rows -> step 5 (1-2-5 series)
    expect(rowSizeScale({ tickSize: '0.01', typicalRange: '10' })).toMatchObject({
      min: 5,
      step: 5,
      default: 35,
      max: 200,
      rangeTicks: 1000,
    })
    expect(rowSizeScale({ tickSize: 1 })).toMatchObject({ min: 1, max: 1000, step: 1, default: 1, rangeTicks: null })
    expect(rowSizeScale({ tickSize: '0.5', ranges: ['10', '2', '6', '100'] })).toMatchObject({
      rangeTicks: 12,
      default: 1,
    }) // lower median 6
    expect(rowSizeScale({ tickSize: '0.00001', typicalRange: '1000' })).toMatchObject({
      min: 1000,
      max: 1000,
      default: 1000,
      step: 1000,
    })
  })

  it('laws: min = step; default and max multiples of step; min <= default <= max <= maxRowSize; rows at each size', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('0.25', '0.01', '0.00001', '5', '1'),
        fc.integer({ min: 0, max: 10 ** 9 }),
        fc.integer({ min: 0, max: 6 }),
        (tick, rangeUnits, scale) => {
          const typicalRange = (rangeUnits / 10 ** scale).toFixed(scale)
          const s = rowSizeScale({ tickSize: tick, typicalRange })
          expect(s.min).toBe(s.step)
          expect(s.default % s.step).toBe(0)
          expect(s.max % s.step).toBe(0)
          expect(s.min <= s.default && s.default <= s.max && s.max <= 1000).toBe(true)
          const T = s.rangeTicks as number
          if (s.step < 1000) {
            expect(T / s.min).toBeLessThanOrEqual(300) // finest offer: at most 300 rows
            if (s.default < 1000 - s.step) expect(T / s.default).toBeLessThanOrEqual(30)
            if (s.default > s.step) expect(T / (s.default - s.step)).toBeGreaterThan(30) // smallest such multiple
          }
        },
      ),
      { numRuns: 300 },
    )
  })

  it('rejects bad options', () => {
    expect(() => rowSizeScale({ tickSize: '0' })).toThrow(MarketDataError)
    expect(() => rowSizeScale({ tickSize: 1, typicalRange: '-1' })).toThrow(/typicalRange/)
    expect(() => rowSizeScale({ tickSize: 1, ranges: ['x'] })).toThrow(/ranges/)
    expect(() => rowSizeScale({ tickSize: 1, targetRows: 0 })).toThrow(/targetRows/)
  })
})
