import Big from 'big.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  ExactSums,
  POW10,
  decimalsOf,
  floorDiv,
  floorDivBig,
  floorToGrid,
  formatFixed,
  formatUnits,
  numberToUnits,
  parseDecimal,
  stringToUnits,
  toUnitsBig,
} from '../../src/decimal/index.js'
import { fromPartnerDecimal, toPartnerDecimal } from '../../src/partner/index.js'

Big.DP = 60
Big.NE = -100
Big.PE = 100

/** Decimal strings: optional sign, up to 22 integer digits, up to 12 decimals (18+ significant digits included). */
const decimalString = fc
  .tuple(
    fc.boolean(),
    fc.stringMatching(/^[0-9]{1,22}$/),
    fc.option(fc.stringMatching(/^[0-9]{1,12}$/), { nil: undefined }),
  )
  .map(([neg, i, f]) => `${neg ? '-' : ''}${i}${f === undefined ? '' : `.${f}`}`)

const minimal = (s: string) => new Big(s).toFixed() // big.js minimal plain form ("-0" is normalised below)
const norm = (s: string) => (s === '-0' ? '0' : s)

describe('parseDecimal and formatting equal big.js', () => {
  it('parses and prints strings exactly, in minimal form', () => {
    fc.assert(
      fc.property(decimalString, (s) => {
        const r = parseDecimal(s)
        expect(r.ok).toBe(true)
        if (r.ok) expect(formatUnits(r.value.units, r.value.scale)).toBe(norm(minimal(s)))
      }),
      { numRuns: 500 },
    )
  })
  it('reads numbers by their shortest round-trip form', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        const r = parseDecimal(x)
        expect(r.ok).toBe(true)
        if (r.ok) expect(formatUnits(r.value.units, r.value.scale)).toBe(norm(new Big(String(x)).toFixed()))
      }),
      { numRuns: 500 },
    )
    expect(parseDecimal(0.1)).toEqual({ ok: true, value: { units: 1n, scale: 1 } })
    expect(parseDecimal(1e-7)).toEqual({ ok: true, value: { units: 1n, scale: 7 } })
  })
  it('formatFixed pads to the wanted decimals and never rounds', () => {
    fc.assert(
      fc.property(decimalString, fc.integer({ min: 0, max: 14 }), (s, decimals) => {
        const d = parseDecimal(s)
        if (!d.ok) return
        const out = formatFixed(d.value.units, d.value.scale, decimals)
        expect(new Big(out).eq(new Big(s))).toBe(true)
        const dot = out.indexOf('.')
        const shown = dot < 0 ? 0 : out.length - dot - 1
        expect(shown).toBe(Math.max(decimals, d.value.scale))
      }),
      { numRuns: 300 },
    )
    expect(formatFixed(5000n, 0, 2)).toBe('5000.00')
    expect(formatFixed(0n, 3, 0)).toBe('0')
    expect(formatFixed(-5, 2, 0)).toBe('-0.05')
  })
  it.each(['', '1e5', '1,5', ' 1', '1 ', '+1', '.5', '5.', '-', '--1', '1.2.3', 'NaN', 'Infinity', '0x10', '١'])(
    'refuses the string %j with a message naming it',
    (s) => {
      const r = parseDecimal(s)
      expect(r.ok).toBe(false)
      if (!r.ok) expect(r.error).toContain(JSON.stringify(s))
    },
  )
  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])('refuses the number %s', (x) => {
    expect(parseDecimal(x).ok).toBe(false)
  })
  it('never throws on arbitrary input', () => {
    const hostile = fc.anything({
      withNullPrototype: true,
      withObjectString: true,
      withBoxedValues: true,
      withBigInt: true,
    })
    fc.assert(
      fc.property(hostile, (x) => {
        expect(typeof parseDecimal(x).ok).toBe('boolean')
      }),
    )
    expect(parseDecimal(Object.create(null)).ok).toBe(false)
    fc.assert(
      fc.property(fc.anything(), (x) => {
        expect(typeof fromPartnerDecimal(x).ok).toBe('boolean')
      }),
    )
  })
})

describe('scaled units', () => {
  it('numberToUnits is exact or NaN, never wrong', () => {
    fc.assert(
      fc.property(
        fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }),
        fc.integer({ min: 0, max: 12 }),
        (x, scale) => {
          const u = numberToUnits(x, scale)
          const exact = new Big(String(x)).times(new Big(10).pow(scale))
          if (Number.isNaN(u)) {
            // refused only when not a whole number of units, or (documented) when x * 10^scale may round off by
            // one: at 2^51 units and above (e.g. -411184566352.7955 at scale 4: the product is ...954.5)
            const whole = exact.round(0, Big.roundDown).eq(exact)
            expect(!whole || exact.abs().gte(2 ** 51)).toBe(true)
          } else expect(new Big(u).eq(exact)).toBe(true)
        },
      ),
      { numRuns: 1000 },
    )
  })
  it('numberToUnits between 2^51 and 2^52 units: NaN where the product rounds off, else exact', () => {
    expect(numberToUnits(-411184566352.7955, 4)).toBeNaN()
    expect(numberToUnits(411184566352.7955, 4)).toBe(4111845663527955) // the product rounds half up to the right unit
    fc.assert(
      fc.property(
        fc.integer({ min: 2 ** 51, max: 2 ** 52 - 1 }),
        fc.integer({ min: 1, max: 6 }),
        fc.boolean(),
        (n, scale, neg) => {
          const x = (neg ? -n : n) / (POW10[scale] as number) // the double nearest n / 10^scale
          const u = numberToUnits(x, scale)
          if (!Number.isNaN(u)) expect(new Big(u).eq(new Big(String(x)).times(new Big(10).pow(scale)))).toBe(true)
        },
      ),
      { numRuns: 500 },
    )
  })
  it('numberToUnits on grid prices built from integers (the classic float cases)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: 0, max: 6 }), (n, scale) => {
        const x = n / (POW10[scale] as number)
        expect(numberToUnits(x, scale)).toBe(n === 0 ? 0 : n)
        expect(numberToUnits(x, scale + 2)).toBe(n * 100 === 0 ? 0 : n * 100)
      }),
    )
    expect(numberToUnits(0.07, 2)).toBe(7)
    expect(numberToUnits(0.3, 1)).toBe(3)
    expect(numberToUnits(0.1 + 0.2, 2)).toBeNaN()
  })
  it('stringToUnits equals big.js or refuses', () => {
    fc.assert(
      fc.property(decimalString, fc.integer({ min: 0, max: 14 }), (s, scale) => {
        const u = stringToUnits(s, scale)
        const exact = new Big(s).times(new Big(10).pow(scale))
        if (Number.isNaN(u)) expect(!exact.round(0, Big.roundDown).eq(exact) || exact.abs().gte(2 ** 52)).toBe(true)
        else expect(new Big(u).eq(exact)).toBe(true)
      }),
      { numRuns: 1000 },
    )
  })
  it('toUnitsBig is exact for any size and refuses too many decimals', () => {
    fc.assert(
      fc.property(decimalString, (s) => {
        const scale = 12
        expect(toUnitsBig(s, scale).toString()).toBe(new Big(s).times(new Big(10).pow(scale)).toFixed(0))
      }),
    )
    expect(() => toUnitsBig('0.123', 2)).toThrow(/more than 2 decimals/)
  })
  it('decimalsOf ignores trailing zeros', () => {
    expect(decimalsOf('0.10')).toBe(1)
    expect(decimalsOf(0.07)).toBe(2)
    expect(decimalsOf(1e-7)).toBe(7)
    expect(decimalsOf('5')).toBe(0)
  })
})

describe('exact sums', () => {
  it('equal big.js sums, also past 2^53', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -(2 ** 52) + 1, max: 2 ** 52 - 1 }), { maxLength: 200 }), (xs) => {
        const s = new ExactSums(1)
        const lo = s.lo
        for (const x of xs) {
          lo[0] = (lo[0] as number) + x
          if ((lo[0] as number) > 2 ** 52 || (lo[0] as number) < -(2 ** 52)) s.spill(0)
        }
        const ref = xs.reduce((a, b) => a.plus(b), new Big(0))
        expect(s.get(0).toString()).toBe(ref.toFixed(0))
      }),
    )
    const s = new ExactSums(2)
    for (let i = 0; i < 5; i++) s.add(1, 2 ** 52 - 1)
    expect(s.get(1)).toBe(5n * (2n ** 52n - 1n))
    s.addBig(1, 10n ** 30n)
    expect(s.get(1)).toBe(5n * (2n ** 52n - 1n) + 10n ** 30n)
  })
})

describe('grid and floor division', () => {
  it('floorToGrid equals big.js floor(p / step) * step, negatives floored', () => {
    const step = fc.constantFrom('0.25', '0.01', '0.00001', '5', '0.1', '1', '12.5')
    fc.assert(
      fc.property(decimalString, step, (p, s) => {
        const r = floorToGrid(p, s)
        const ref = new Big(p).div(s).round(0, Big.roundDown)
        const floored = new Big(p).div(s).lt(ref) ? ref.minus(1) : ref
        expect(r.ok).toBe(true)
        if (r.ok) expect(new Big(r.value).eq(floored.times(s))).toBe(true)
      }),
      { numRuns: 500 },
    )
    expect(floorToGrid('0.07', '0.01')).toEqual({ ok: true, value: '0.07' })
    expect(floorToGrid('0.3', '0.1')).toEqual({ ok: true, value: '0.3' })
    expect(floorToGrid('-1.3', '0.5')).toEqual({ ok: true, value: '-1.5' })
    expect(floorToGrid('1', '0').ok).toBe(false)
  })
  it('floorDiv and floorDivBig floor toward -infinity', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 52), max: 2 ** 52 }), fc.integer({ min: 1, max: 1e9 }), (a, b) => {
        const q = floorDiv(a, b)
        expect(BigInt(q)).toBe(floorDivBig(BigInt(a), BigInt(b)))
        expect(q * b <= a && a < (q + 1) * b).toBe(true)
      }),
    )
    expect(floorDiv(-7, 2)).toBe(-4)
    expect(Object.is(floorDiv(-0, 3), 0)).toBe(true)
  })
})

describe('interface A Decimal', () => {
  it('round-trips and matches the spec example', () => {
    expect(toPartnerDecimal('123.45')).toEqual({ ok: true, value: { value: '12345', scale: '100' } })
    expect(fromPartnerDecimal({ value: '12345', scale: '100' })).toEqual({ ok: true, value: '123.45' })
    fc.assert(
      fc.property(decimalString, (s) => {
        const p = toPartnerDecimal(s)
        expect(p.ok).toBe(true)
        if (p.ok) expect(fromPartnerDecimal(p.value)).toEqual({ ok: true, value: norm(minimal(s)) })
      }),
    )
  })
  it.each([
    { value: '1', scale: '0' },
    { value: '1', scale: '20' },
    { value: '1.5', scale: '10' },
    { value: '', scale: '1' },
    { value: '+1', scale: '1' },
    { value: 1, scale: '1' },
    null,
  ])('refuses %j with INVALID_ARGUMENT', (d) => {
    expect(fromPartnerDecimal(d)).toMatchObject({ ok: false, error: { code: 3 } })
  })
})

describe("floorToGrid prints the step's decimals (DESIGN: prices with exactly the grid's decimals)", () => {
  it("equals big.js floor(p / step) * step, formatted with the step's minimal decimals", () => {
    const decimalString = fc
      .tuple(
        fc.boolean(),
        fc.stringMatching(/^[0-9]{1,12}$/),
        fc.option(fc.stringMatching(/^[0-9]{1,8}$/), { nil: undefined }),
      )
      .map(([neg, i, f]) => `${neg ? '-' : ''}${i}${f === undefined ? '' : `.${f}`}`)
    const step = fc.constantFrom('0.25', '0.01', '0.00001', '5', '0.1', '1', '12.5', '0.50', '2.000')
    fc.assert(
      fc.property(decimalString, step, (p, s) => {
        const q = new Big(p).div(s)
        const t = q.round(0, Big.roundDown)
        const floored = q.lt(t) ? t.minus(1) : t
        const row = floored.times(s)
        const expected = row.eq(0) ? new Big(0).toFixed(decimalsOf(s)) : row.toFixed(decimalsOf(s))
        expect(floorToGrid(p, s)).toEqual({ ok: true, value: expected })
      }),
      { numRuns: 300 },
    )
    expect(floorToGrid('5', '0.25')).toEqual({ ok: true, value: '5.00' })
    expect(floorToGrid('7', '0.50')).toEqual({ ok: true, value: '7.0' })
  })
})

describe('ExactSums against a bigint model', () => {
  type Op =
    | { k: 'add'; i: number; u: number }
    | { k: 'addBig'; i: number; u: bigint }
    | { k: 'reset'; i: number }
    | { k: 'clear' }
    | { k: 'grow'; n: number }
  const LIM = 2 ** 52 - 1
  const op: fc.Arbitrary<Op> = fc.oneof(
    {
      weight: 8,
      arbitrary: fc.record({
        k: fc.constant('add' as const),
        i: fc.nat(7),
        u: fc.oneof(fc.integer({ min: -LIM, max: LIM }), fc.constantFrom(LIM, -LIM, LIM - 1, -LIM + 1)),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        k: fc.constant('addBig' as const),
        i: fc.nat(7),
        u: fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ k: fc.constant('reset' as const), i: fc.nat(7) }) },
    { weight: 1, arbitrary: fc.record({ k: fc.constant('clear' as const) }) },
    { weight: 1, arbitrary: fc.record({ k: fc.constant('grow' as const), n: fc.integer({ min: 1, max: 12 }) }) },
  )

  it('get and isZero follow every add, addBig, reset, clear and grow exactly (both signs, past ±2^53)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.array(op, { maxLength: 80 }), (n0, ops) => {
        const s = new ExactSums(n0)
        let model: bigint[] = new Array(s.lo.length).fill(0n)
        for (const o of ops) {
          const cap = s.lo.length
          if (o.k === 'add') {
            s.add(o.i % cap, o.u)
            model[o.i % cap]! += BigInt(o.u)
          } else if (o.k === 'addBig') {
            s.addBig(o.i % cap, o.u)
            model[o.i % cap]! += o.u
          } else if (o.k === 'reset') {
            s.reset(o.i % cap)
            model[o.i % cap] = 0n
          } else if (o.k === 'clear') {
            s.clear()
            model = model.map(() => 0n)
          } else {
            s.grow(o.n)
            while (model.length < s.lo.length) model.push(0n)
          }
          expect(s.lo.length).toBe(model.length)
          for (let i = 0; i < model.length; i++) {
            expect(s.get(i)).toBe(model[i])
            expect(s.isZero(i)).toBe(model[i] === 0n)
          }
        }
      }),
      { numRuns: 200 },
    )
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
