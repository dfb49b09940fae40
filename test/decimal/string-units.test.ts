// stringToUnits' inlinable fast path against two references: the exact bigint reading (parseDecimal) and
// the general reader it falls back to (stringToUnitsGeneral). Every shape where the fast path must bail out
// or refuse is generated on purpose: signs, empty parts, junk characters, 18+ significant digits, many
// decimals, trailing zeros past the scale, values around 2^52 and 2^53, scales past 22.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseDecimal, stringToUnits } from '../../src/decimal/index.js'
import { stringToUnitsGeneral } from '../../src/decimal/units.js'

const LIMIT = 2n ** 52n

/** Exact units by bigint: NaN when not a decimal, more significant decimals than `scale`, or |units| >= 2^52. */
function reference(s: string, scale: number): number {
  const d = parseDecimal(s)
  if (!d.ok || d.value.scale > scale) return Number.NaN
  const u = d.value.units * 10n ** BigInt(scale - d.value.scale)
  return u >= LIMIT || u <= -LIMIT ? Number.NaN : Number(u)
}

const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`))

/** Well-formed decimals: sign, leading zeros, 0..25 integer digits, 0..25 decimals, trailing zeros. */
const wellFormed = fc
  .tuple(
    fc.boolean(),
    fc.stringMatching(/^0{0,3}$/),
    digits(1, 25),
    fc.option(fc.tuple(digits(1, 25), fc.stringMatching(/^0{0,6}$/)), { nil: undefined }),
  )
  .map(
    ([neg, zeros, int, frac]) => `${neg ? '-' : ''}${zeros}${int}${frac === undefined ? '' : `.${frac[0]}${frac[1]}`}`,
  )

/** Integers and decimals whose units land next to 2^52 and 2^53 (at scales 0..4). */
const nearLimit = fc
  .tuple(
    fc.constantFrom(2 ** 52, 2 ** 53),
    fc.integer({ min: -3, max: 3 }),
    fc.integer({ min: 0, max: 4 }),
    fc.boolean(),
  )
  .map(([base, d, dec, neg]) => {
    const u = (BigInt(base) + BigInt(d)).toString()
    const s = dec === 0 ? u : `${u.slice(0, u.length - dec)}.${u.slice(u.length - dec)}`
    return neg ? `-${s}` : s
  })

/** Near-misses: every character the syntax refuses, in every position. */
const junk = fc
  .array(fc.constantFrom('0', '1', '5', '9', '.', '-', '+', 'e', 'E', ' ', ',', '/', ':', 'a', '\u0660', '\t'), {
    maxLength: 20,
  })
  .map((xs) => xs.join(''))

const anyString = fc.oneof(
  wellFormed,
  nearLimit,
  junk,
  fc.string({ maxLength: 16 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
)

describe('stringToUnits fast path', () => {
  it('equals the exact bigint reference and the general reader on any string, scales 0..22; never -0', () => {
    fc.assert(
      fc.property(anyString, fc.integer({ min: 0, max: 22 }), (s, scale) => {
        const u = stringToUnits(s, scale)
        expect(u).toBe(reference(s, scale))
        expect(u).toBe(stringToUnitsGeneral(s, scale))
        expect(Object.is(u, -0)).toBe(false)
      }),
      { numRuns: 5000 },
    )
  })

  it('zero is 0 at every scale, past 22 too (the powers of ten stop at 10^22); non-zero values past 2^52 units are NaN', () => {
    for (const scale of [0, 22, 23, 30, 100]) {
      for (const z of ['0', '-0', '0.0', '000.000', '-0.00000000000000000000000000'])
        expect([z, scale, Object.is(stringToUnits(z, scale), 0)]).toEqual([z, scale, true])
      expect(stringToUnits('1', scale)).toBe(scale <= 15 ? 10 ** scale : Number.NaN)
    }
  })

  it('scales past 22 take the general reader', () => {
    fc.assert(
      fc.property(anyString, fc.integer({ min: 23, max: 40 }), (s, scale) => {
        expect(stringToUnits(s, scale)).toBe(stringToUnitsGeneral(s, scale))
      }),
      { numRuns: 500 },
    )
  })

  it('edges: invalid shapes, signs, zeros, 2^52 and 2^53, many digits', () => {
    const invalid = [
      '',
      '-',
      '.',
      '-.',
      '.5',
      '-.5',
      '5.',
      '-5.',
      '1e5',
      '1E5',
      '1,5',
      ' 1',
      '1 ',
      '+1',
      '--1',
      '1-',
      '1..2',
      '1.2.3',
      '0x10',
      'NaN',
      'Infinity',
      '١',
      '1\u0000',
    ]
    for (const s of invalid)
      for (const scale of [0, 2, 8, 22]) expect([s, scale, stringToUnits(s, scale)]).toEqual([s, scale, Number.NaN])
    const cases: [string, number, number][] = [
      ['-0', 2, 0],
      ['-0.000', 2, 0],
      ['0', 0, 0],
      ['000123.4500', 2, 12345],
      ['-000123.4500', 2, -12345],
      ['60000.25', 2, 6000025],
      ['0.01637181', 8, 1637181],
      ['-5000.25', 2, -500025],
      ['7', 22, Number.NaN],
      ['4', 15, 4e15],
      ['5', 15, Number.NaN],
      ['4503599627370495', 0, 2 ** 52 - 1],
      ['4503599627370496', 0, Number.NaN],
      ['-4503599627370495', 0, -(2 ** 52 - 1)],
      ['-4503599627370496', 0, Number.NaN],
      ['9007199254740993', 0, Number.NaN],
      ['450359962737049.5', 1, 4503599627370495],
      ['450359962737049.6', 1, Number.NaN],
      ['45035996273704.95', 3, Number.NaN],
      ['0.0000000000000000000001', 22, 1],
      ['0.00000000000000000000010', 22, 1],
      ['0.00000000000000000000011', 22, Number.NaN],
      ['123456789012345678', 0, Number.NaN],
      ['0.123456789012345678', 18, Number.NaN],
      ['0.000000000000000001', 18, 1],
      ['1.50', 1, 15],
      ['1.55', 1, Number.NaN],
      ['1.5000000000000000000000000000000', 1, 15],
      ['00000000000000000000000000000001', 0, 1],
    ]
    for (const [s, scale, want] of cases) {
      expect([s, scale, stringToUnits(s, scale)]).toEqual([s, scale, want])
      expect([s, scale, stringToUnits(s, scale)]).toEqual([s, scale, reference(s, scale)])
    }
  })
})
