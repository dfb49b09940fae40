// The hot loops round to units as Math.floor(x * 10^s + 0.5) instead of Math.round(x * 10^s) (decision 0087):
// followed by the exactness check (u / 10^s === x) and the 2^52 limit, both must accept and refuse the same
// numbers with the same units, on decimals, on every double, and next to halves and the limit.
import { fc, test as fcTest } from '@fast-check/vitest'
import { describe, expect, test } from 'vitest'
import { POW10, UNITS_LIMIT, nextDown, nextUp, numberToUnits } from '../../src/decimal/index.js'

/** The units both roundings prove for x at scale s, or NaN when the check refuses them. */
function proved(u: number, x: number, p: number): number {
  return u / p === x && u < UNITS_LIMIT && u > -UNITS_LIMIT ? u : Number.NaN
}

function agree(x: number, s: number): void {
  const p = POW10[s] as number
  const a = proved(Math.round(x * p), x, p)
  const b = proved(Math.floor(x * p + 0.5), x, p)
  expect(Object.is(a, b) || a === b, `x=${x} scale=${s}: Math.round gives ${a}, floor(+0.5) gives ${b}`).toBe(true)
}

const scaleArb = fc.integer({ min: 0, max: 15 })

/** Numbers that are decimals with up to s digits (the case the check accepts), signed, up to the limit. */
const decimalArb = fc
  .tuple(
    scaleArb,
    fc.oneof(fc.integer({ min: -1e9, max: 1e9 }), fc.double({ min: -(2 ** 53), max: 2 ** 53, noNaN: true })),
  )
  .map(([s, k]) => ({ s, x: Math.trunc(k) / (POW10[s] as number) }))

describe('rounding to units without a branch', () => {
  fcTest.prop([decimalArb, fc.integer({ min: 0, max: 15 })], { numRuns: 2000 })(
    'decimals at their own and other scales: the same units or the same refusal',
    ({ s, x }, t) => {
      agree(x, s)
      agree(x, t)
    },
  )

  fcTest.prop([fc.double({ noNaN: true }), scaleArb], { numRuns: 2000 })('any double', (x, s) => agree(x, s))

  fcTest.prop([fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), scaleArb, fc.integer({ min: -4, max: 4 })], {
    numRuns: 2000,
  })('next to a half: (k + 1/2) / 10^s and its neighbouring doubles', (k, s, d) => {
    const p = POW10[s] as number
    let x = (k + 0.5) / p
    for (let i = 0; i < Math.abs(d); i++) x = d > 0 ? nextUp(x) : nextDown(x)
    agree(x, s)
  })

  test('at the 2^52 limit, at -0 and at the smallest doubles', () => {
    const cases = [0, -0, Number.MIN_VALUE, -Number.MIN_VALUE, 0.49999999999999994, -0.5, 0.5, 2 ** 52, 2 ** 52 - 1]
    for (const s of [0, 1, 2, 8, 15]) {
      const p = POW10[s] as number
      for (const u of [UNITS_LIMIT - 1, UNITS_LIMIT - 2, UNITS_LIMIT, UNITS_LIMIT + 1, -(UNITS_LIMIT - 1)])
        cases.push(u / p, nextUp(u / p), nextDown(u / p))
      for (const x of cases) agree(x, s)
    }
    // the check proves -0 as 0 units either way, as numberToUnits does
    expect(numberToUnits(-0, 2)).toBe(0)
    expect(numberToUnits(0.07, 2)).toBe(7)
  })
})
