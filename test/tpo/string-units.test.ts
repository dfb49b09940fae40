// The contract of stringToUnits (src/decimal/units.ts), which the TPO engineer also owns for speed: every
// string, well-formed or not, against an oracle built on a regular expression and big.js.
import Big from 'big.js'
import { fc } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { parseDecimal, stringToUnits } from '../../src/decimal/index.js'
import { parseDataDecimal } from '../../src/decimal/parse.js'
import { exactDouble } from '../../src/decimal/index.js'

const SYNTAX = /^-?[0-9]+(\.[0-9]+)?$/

function oracle(s: string, scale: number): number {
  if (!SYNTAX.test(s)) return Number.NaN
  const exact = new Big(s).times(new Big(10).pow(scale))
  if (!exact.round(0, Big.roundDown).eq(exact) || exact.abs().gte(2 ** 52)) return Number.NaN
  const n = Number(exact.toFixed(0))
  return n === 0 ? 0 : n
}

/** Strings near the syntax: digits, dots, minus signs, junk; leading and trailing zeros; long runs. */
const text = fc.oneof(
  fc.stringMatching(/^-?[0-9]{0,20}(\.[0-9]{0,20})?$/),
  fc.stringMatching(/^-?0{0,30}[0-9]{0,17}\.?[0-9]{0,12}0{0,30}$/),
  fc
    .array(fc.constantFrom('0', '1', '9', '5', '.', '-', '+', 'e', ' ', '/', ':', 'a'), { maxLength: 24 })
    .map((xs) => xs.join('')),
  fc.string({ maxLength: 12 }),
)

describe('stringToUnits', () => {
  it('equals the oracle on any string and scale; never -0', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 22 }), (s, scale) => {
        const u = stringToUnits(s, scale)
        expect(u).toBe(oracle(s, scale))
        expect(Object.is(u, -0)).toBe(false)
      }),
      { numRuns: 3000 },
    )
  })

  it('edges: chunk boundaries, 2^52, dropped zeros, empty parts', () => {
    const cases: [string, number][] = [
      ['12345678', 0],
      ['123456789', 0],
      ['1234567890123456', 0],
      ['4503599627370495', 0],
      ['4503599627370496', 0],
      ['450359962737049.5', 1],
      ['45035996273704.96', 2],
      ['0.00000001', 8],
      ['0.000000010000', 8],
      ['0.000000015', 8],
      ['5.', 2],
      ['.5', 2],
      ['-', 2],
      ['', 2],
      ['-0.00', 2],
      ['1..2', 2],
      ['1.2.', 3],
      ['1.20.', 3],
      ['99999999.99999999', 8],
      ['00000000000000000000000000001.5', 1],
      ['1.000000000000000000000000000', 0],
      ['7', 22],
      ['1.5', 22],
      ['1.5', 23],
    ]
    for (const [s, scale] of cases) expect([s, scale, stringToUnits(s, scale)]).toEqual([s, scale, oracle(s, scale)])
  })
})

const DATA_EXPONENT = /^-?\d+(\.\d+)?[eE][+-]?\d{1,6}$/

describe('exactDouble (src/decimal; the TPO trade reader uses it)', () => {
  /** The double that carries the decimal exactly (same decimal back from its shortest form), else NaN. */
  function ref(s: string): number {
    // data syntax: plain, or with an exponent (the exponent reader is checked against big.js elsewhere)
    if (!(SYNTAX.test(s) || DATA_EXPONENT.test(s)) || s.length > 400) return Number.NaN
    const v = Number(s)
    const a = parseDataDecimal(s)
    const b = parseDecimal(v)
    if (!a.ok || !b.ok || a.value.units !== b.value.units || a.value.scale !== b.value.scale) return Number.NaN
    return v === 0 ? 0 : v
  }
  it('equals the reference on any string; never -0', () => {
    fc.assert(
      fc.property(text, (s) => {
        const v = exactDouble(s)
        expect(v).toBe(ref(s))
        expect(Object.is(v, -0)).toBe(false)
      }),
      { numRuns: 3000 },
    )
  })
  it('edges: 15 and 16 digits, zeros, signs', () => {
    for (const s of [
      '999999999999999',
      '9999999999999999',
      '0.000000000000001',
      '123456789.123456',
      '1234567890.1234567',
      '-0.0',
      '-0',
      '0.1',
      '5000.25',
      '9007199254740993',
      '900719925474099.3',
      '00000000000000000000.5',
      '0.10000000000000000000',
    ]) {
      expect([s, exactDouble(s)]).toEqual([s, ref(s)])
    }
  })
  it('numbers: finite ones are themselves (-0 is 0), non-finite ones and non-decimals NaN', () => {
    fc.assert(
      fc.property(fc.double(), (x) => {
        expect(exactDouble(x)).toBe(Number.isFinite(x) ? x + 0 : Number.NaN)
      }),
      { numRuns: 1000 },
    )
    for (const x of [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN, null, undefined, 5n, {}])
      expect(exactDouble(x)).toBeNaN()
  })
})
