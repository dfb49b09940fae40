// Integer units and doubles printed as text without a bigint: the same text as the exact (bigint) printer.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatFixed, formatUnits, parseDecimal } from '../../src/decimal/index.js'
import { doubleText } from '../../src/decimal/units-text.js'

describe('printing without a bigint', () => {
  it('formatUnits of a safe integer = the bigint printer, any scale', () => {
    const units = fc.oneof(fc.maxSafeInteger(), fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), fc.constantFrom(0, -0))
    fc.assert(
      fc.property(units, fc.integer({ min: 0, max: 30 }), (u, s) => {
        expect(formatUnits(u, s)).toBe(formatFixed(BigInt(u), s, 0))
      }),
      { numRuns: 3000 },
    )
  })

  it("doubleText = the double's shortest decimal at the wanted decimals, or undefined when that form has an exponent", () => {
    const doubles = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer({ min: -(10 ** 9), max: 10 ** 9 }).map((k) => k / 10 ** 8),
      fc.integer({ min: 0, max: 10 ** 7 }).map((k) => k / 4),
      fc.constantFrom(0, -0, 1e-7, 1e21, 0.000001, 123456789012345680000),
    )
    fc.assert(
      fc.property(doubles, fc.integer({ min: 0, max: 20 }), (x, d) => {
        const got = doubleText(x, d)
        if (String(x).includes('e')) expect(got).toBeUndefined()
        else {
          const r = parseDecimal(x)
          if (!r.ok) throw new Error(`${x} does not parse`)
          expect(got).toBe(formatFixed(r.value.units, r.value.scale, d))
        }
      }),
      { numRuns: 3000 },
    )
  })
})
