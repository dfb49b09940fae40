// The renderings read profiles given by the caller: any field replaced by any value is refused with a
// MarketDataError naming the field (or still renders), never a raw TypeError or RangeError.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../src/errors.js'
import { footprintProfiles, type FootprintProfile } from '../../src/footprint/index.js'
import { renderFootprint, renderFootprintSvg } from '../../src/render/index.js'

const T = (h: number, m = 0) => Date.UTC(2026, 5, 1, h, m)
const base = footprintProfiles(
  [
    { time: T(14), price: '100', volume: '2', side: 'buy' },
    { time: T(14, 40), price: '101.5', volume: '1', side: 'sell' },
  ],
  { timeframe: '1h', tickSize: '0.25' },
)[0] as FootprintProfile

const hostile = fc.oneof(
  fc.anything(),
  fc.constant(Object.create(null) as unknown),
  fc.bigInt(),
  fc.constant([null]),
  fc.constant([['100', null, null, 1, 1]]),
  fc.constant(Number.NaN),
)

describe('renderings of malformed footprint profiles', () => {
  it('any field replaced by any value: refused with a MarketDataError or rendered', () => {
    fc.assert(
      fc.property(fc.constantFrom(...(Object.keys(base) as (keyof FootprintProfile)[])), hostile, (field, x) => {
        for (const render of [renderFootprint, renderFootprintSvg]) {
          try {
            render({ ...base, [field]: x } as FootprintProfile)
          } catch (e) {
            expect(e).toBeInstanceOf(MarketDataError)
          }
        }
      }),
      { numRuns: 300 },
    )
    expect(() => renderFootprint(null as unknown as FootprintProfile)).toThrow(
      expect.objectContaining({ field: 'profile' }),
    )
    expect(() => renderFootprint({ ...base, volume: Object.create(null) } as FootprintProfile)).toThrow(
      expect.objectContaining({ field: 'volume' }),
    )
  })
})
