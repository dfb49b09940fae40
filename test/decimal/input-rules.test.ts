import Big from 'big.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ExactSums, decimalsOf, exactDouble, floorToGrid, parseDecimal } from '../../src/decimal/index.js'
import { fromPartnerDecimal } from '../../src/partner/index.js'

Big.DP = 60
Big.NE = -100
Big.PE = 100

// Boundaries and rules of src/decimal that the big.js properties of decimal.test.ts do not pin down.

describe('the 400-character limit (README: "strings longer than 400 characters are refused")', () => {
  it('parseDecimal accepts 400 characters and refuses 401, the sign counted', () => {
    const d400 = '7'.repeat(400)
    expect(parseDecimal(d400)).toEqual({ ok: true, value: { units: BigInt(d400), scale: 0 } })
    expect(parseDecimal(`-${'7'.repeat(399)}`)).toEqual({ ok: true, value: { units: -BigInt('7'.repeat(399)), scale: 0 } })
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
    expect(fromPartnerDecimal({ value: '1', scale: `1${'0'.repeat(399)}` })).toEqual({ ok: true, value: `0.${'0'.repeat(398)}1` })
    expect(fromPartnerDecimal({ value: '1', scale: `1${'0'.repeat(400)}` })).toMatchObject({ ok: false, error: { code: 3 } })
  })
})

describe('messages state the rule', () => {
  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])('a non-finite number %s: "numbers must be finite"', (x) => {
    const r = parseDecimal(x)
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error).toContain('numbers must be finite')
  })
})

describe('fromPartnerDecimal scale is exactly a power of ten', () => {
  it.each(['11', '110', '1001', '10000000001', '101'])('refuses scale %s (digits, starts with 1, but not a power of ten)', (scale) => {
    expect(fromPartnerDecimal({ value: '5', scale })).toMatchObject({ ok: false, error: { code: 3 } })
  })
})

describe('floorToGrid prints the step\'s decimals (DESIGN: prices with exactly the grid\'s decimals)', () => {
  it('equals big.js floor(p / step) * step, formatted with the step\'s minimal decimals', () => {
    const decimalString = fc
      .tuple(fc.boolean(), fc.stringMatching(/^[0-9]{1,12}$/), fc.option(fc.stringMatching(/^[0-9]{1,8}$/), { nil: undefined }))
      .map(([neg, i, f]) => `${neg ? '-' : ''}${i}${f === undefined ? '' : `.${f}`}`)
    const step = fc.constantFrom('0.25', '0.01', '0.00001', '5', '0.1', '1', '12.5', '0.50', '2.000')
    fc.assert(fc.property(decimalString, step, (p, s) => {
      const q = new Big(p).div(s)
      const t = q.round(0, Big.roundDown)
      const floored = q.lt(t) ? t.minus(1) : t
      const row = floored.times(s)
      const expected = row.eq(0) ? new Big(0).toFixed(decimalsOf(s)) : row.toFixed(decimalsOf(s))
      expect(floorToGrid(p, s)).toEqual({ ok: true, value: expected })
    }), { numRuns: 300 })
    expect(floorToGrid('5', '0.25')).toEqual({ ok: true, value: '5.00' })
    expect(floorToGrid('7', '0.50')).toEqual({ ok: true, value: '7.0' })
  })
})

describe('ExactSums against a bigint model', () => {
  type Op = { k: 'add'; i: number; u: number } | { k: 'addBig'; i: number; u: bigint } | { k: 'reset'; i: number } | { k: 'clear' } | { k: 'grow'; n: number }
  const LIM = 2 ** 52 - 1
  const op: fc.Arbitrary<Op> = fc.oneof(
    { weight: 8, arbitrary: fc.record({ k: fc.constant('add' as const), i: fc.nat(7), u: fc.oneof(fc.integer({ min: -LIM, max: LIM }), fc.constantFrom(LIM, -LIM, LIM - 1, -LIM + 1)) }) },
    { weight: 1, arbitrary: fc.record({ k: fc.constant('addBig' as const), i: fc.nat(7), u: fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }) }) },
    { weight: 1, arbitrary: fc.record({ k: fc.constant('reset' as const), i: fc.nat(7) }) },
    { weight: 1, arbitrary: fc.record({ k: fc.constant('clear' as const) }) },
    { weight: 1, arbitrary: fc.record({ k: fc.constant('grow' as const), n: fc.integer({ min: 1, max: 12 }) }) },
  )

  it('get and isZero follow every add, addBig, reset, clear and grow exactly (both signs, past ±2^53)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 4 }), fc.array(op, { maxLength: 80 }), (n0, ops) => {
      const s = new ExactSums(n0)
      let model: bigint[] = new Array(s.lo.length).fill(0n)
      for (const o of ops) {
        const cap = s.lo.length
        if (o.k === 'add') { s.add(o.i % cap, o.u); model[o.i % cap]! += BigInt(o.u) }
        else if (o.k === 'addBig') { s.addBig(o.i % cap, o.u); model[o.i % cap]! += o.u }
        else if (o.k === 'reset') { s.reset(o.i % cap); model[o.i % cap] = 0n }
        else if (o.k === 'clear') { s.clear(); model = model.map(() => 0n) }
        else { s.grow(o.n); while (model.length < s.lo.length) model.push(0n) }
        expect(s.lo.length).toBe(model.length)
        for (let i = 0; i < model.length; i++) {
          expect(s.get(i)).toBe(model[i])
          expect(s.isZero(i)).toBe(model[i] === 0n)
        }
      }
    }), { numRuns: 200 })
  })

  it('negative sums spill too: five adds of -(2^52 - 1) are exact', () => {
    const s = new ExactSums(1)
    for (let i = 0; i < 5; i++) s.add(0, -(2 ** 52 - 1))
    expect(s.get(0)).toBe(-5n * (2n ** 52n - 1n))
  })

  it('a spilled sum is not zero; reset and clear drop the spilled part; grow keeps values', () => {
    const s = new ExactSums(1)
    s.add(0, 2 ** 52 - 1)
    s.add(0, 2) // past 2^52: moves into the bigint part
    expect(s.isZero(0)).toBe(false)
    expect(s.get(0)).toBe(2n ** 52n + 1n)
    s.reset(0)
    expect(s.get(0)).toBe(0n)
    expect(s.isZero(0)).toBe(true)
    s.addBig(0, 10n ** 20n)
    s.clear()
    expect(s.get(0)).toBe(0n)
    s.add(0, 42)
    s.grow(5)
    expect(s.get(0)).toBe(42n)
    expect(s.lo.length).toBeGreaterThanOrEqual(5)
  })
})
