import { describe, expect, it } from 'vitest'
import { exactDouble, parseDecimal } from '../../src/decimal/index.js'
import { fromPartnerDecimal } from '../../src/partner/index.js'

// What the decimal readers accept and how they refuse: the 400-character limit, messages that state the rule,
// interface A's scale (a power of ten).

describe('the 400-character limit (README: "strings longer than 400 characters are refused")', () => {
  it('parseDecimal accepts 400 characters and refuses 401, the sign counted', () => {
    const d400 = '7'.repeat(400)
    expect(parseDecimal(d400)).toEqual({ ok: true, value: { units: BigInt(d400), scale: 0 } })
    expect(parseDecimal(`-${'7'.repeat(399)}`)).toEqual({
      ok: true,
      value: { units: -BigInt('7'.repeat(399)), scale: 0 },
    })
    expect(parseDecimal(`0.${'0'.repeat(397)}1`)).toEqual({ ok: true, value: { units: 1n, scale: 398 } })
    expect(parseDecimal('7'.repeat(401)).ok).toBe(false)
    expect(parseDecimal(`-${'7'.repeat(400)}`).ok).toBe(false)
    expect(parseDecimal(`0.${'0'.repeat(398)}1`).ok).toBe(false)
  })

  it('exactDouble refuses what parseDecimal refuses: 401 characters give NaN', () => {
    const s400 = `${'0'.repeat(397)}1.5` // 400 characters, value 1.5
    const s401 = `0${s400}`
    expect(s400.length).toBe(400)
    expect(exactDouble(s400)).toBe(1.5)
    expect(parseDecimal(s401).ok).toBe(false)
    expect(exactDouble(s401)).toBeNaN()
  })

  it('fromPartnerDecimal: a scale of 400 characters is read, one of 401 refused', () => {
    expect(fromPartnerDecimal({ value: '1', scale: `1${'0'.repeat(399)}` })).toEqual({
      ok: true,
      value: `0.${'0'.repeat(398)}1`,
    })
    expect(fromPartnerDecimal({ value: '1', scale: `1${'0'.repeat(400)}` })).toMatchObject({
      ok: false,
      error: { code: 3 },
    })
  })
})

describe('messages state the rule', () => {
  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])(
    'a non-finite number %s: "numbers must be finite"',
    (x) => {
      const r = parseDecimal(x)
      expect(r.ok).toBe(false)
      if (!r.ok) expect(r.error).toContain('numbers must be finite')
    },
  )
})

describe('fromPartnerDecimal scale is exactly a power of ten', () => {
  it.each(['11', '110', '1001', '10000000001', '101'])(
    'refuses scale %s (digits, starts with 1, but not a power of ten)',
    (scale) => {
      expect(fromPartnerDecimal({ value: '5', scale })).toMatchObject({ ok: false, error: { code: 3 } })
    },
  )
})
