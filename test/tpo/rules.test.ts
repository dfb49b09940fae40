import { fc, test as fcTest } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { pocIndex } from '../../src/profile/point-of-control.js'
import { profileShape } from '../../src/tpo/profile-shape.js'
import { valueAreaRange } from '../../src/profile/value-area.js'

const big = (xs: number[]) => xs.map(BigInt)
const P70 = { units: 70n, scale: 0 }

describe('POC tie rules (counts listed by ascending price)', () => {
  it('a single maximum wins wherever it is', () => {
    expect(pocIndex(big([1, 1, 1, 1, 4]))).toBe(4)
    expect(pocIndex(big([5]))).toBe(0)
  })
  it('ties go to the row nearest the middle', () => {
    // n = 6, middle between index 2 and 3: index 3 is at distance 0.5 rows, index 0 at 2.5
    expect(pocIndex(big([3, 1, 1, 3, 1, 1]))).toBe(3)
    // n = 5, middle is index 2 itself
    expect(pocIndex(big([2, 1, 2, 1, 2]))).toBe(2)
  })
  it('equally near: the side (above vs below the middle) holding more TPOs', () => {
    // middle index 2; candidates 1 and 3 equally near; above = 3 + 2 = 5 > below = 1 + 3 = 4
    expect(pocIndex(big([1, 3, 1, 3, 2]))).toBe(3)
    // below = 2 + 3 = 5 > above = 3 + 1 = 4
    expect(pocIndex(big([2, 3, 1, 3, 1]))).toBe(1)
    // n = 4, middle between 1 and 2: below = 1 + 3 = 4 < above = 3 + 2 = 5
    expect(pocIndex(big([1, 3, 3, 2]))).toBe(2)
  })
  it('then the lower price', () => {
    expect(pocIndex(big([1, 3, 1, 3, 1]))).toBe(1)
    expect(pocIndex(big([3, 3]))).toBe(0)
    expect(pocIndex(big([2, 1, 2]))).toBe(0)
    expect(pocIndex(big([2, 3, 3, 2]))).toBe(1)
  })
  it('an empty profile has none', () => {
    expect(pocIndex([])).toBe(-1)
  })
})

describe('value area walk (70%)', () => {
  it('one row: the row itself', () => {
    expect(valueAreaRange(big([5]), 0, P70)).toEqual({ low: 0, high: 0 })
  })
  it('two rows: 2 of 3 TPOs is 66.7% < 70%, so the other row is added', () => {
    expect(valueAreaRange(big([2, 1]), 0, P70)).toEqual({ low: 0, high: 1 })
  })
  it('three equal rows: POC in the middle, equal single rows take the upper first, then the lower', () => {
    expect(valueAreaRange(big([1, 1, 1]), 1, P70)).toEqual({ low: 0, high: 2 })
  })
  it('stops as soon as the area holds >= 70% (exactly 70% stops)', () => {
    expect(valueAreaRange(big([3, 7]), 1, P70)).toEqual({ low: 1, high: 1 })
    expect(valueAreaRange(big([4, 6]), 1, P70)).toEqual({ low: 0, high: 1 })
  })
  it('compares pairs: the larger pair is added', () => {
    // POC 6 at index 2; above 1 + 1 = 2, below 0 + 4 = 4 -> below; 10 of 12 >= 70%
    expect(valueAreaRange(big([4, 0, 6, 1, 1]), 2, P70)).toEqual({ low: 0, high: 2 })
  })
  it('equal pairs add the pair above', () => {
    // total 14 (70% = 9.8): area 6; above 2 + 2 = 4 = below 3 + 1 -> above -> 10 >= 9.8
    expect(valueAreaRange(big([1, 3, 6, 2, 2]), 2, P70)).toEqual({ low: 2, high: 4 })
  })
  it('a side with one row left compares that row alone; a spent side gives way to the other', () => {
    // total 17 (70% = 11.9), POC 5 at index 3: pairs 3 + 2 above = 3 + 2 below -> above (10);
    // then one row left above (1) vs the pair below (3 + 2 = 5) -> below: 15 >= 11.9
    expect(valueAreaRange(big([1, 2, 3, 5, 3, 2, 1]), 3, P70)).toEqual({ low: 1, high: 5 })
    // POC at the top: only the lower side exists
    expect(valueAreaRange(big([1, 1, 1, 1, 6]), 4, P70)).toEqual({ low: 2, high: 4 })
  })
  it('a zero total gives the POC row alone', () => {
    expect(valueAreaRange(big([0, 0, 0]), 1, P70)).toEqual({ low: 1, high: 1 })
  })
  it('non-integer shares compare exactly', () => {
    // 7 of 10 = 70% < 70.5% -> one more row
    expect(valueAreaRange(big([3, 7]), 1, { units: 705n, scale: 1 })).toEqual({ low: 0, high: 1 })
    expect(valueAreaRange(big([3, 7]), 1, { units: 100n, scale: 0 })).toEqual({ low: 0, high: 1 })
  })
})

describe('value area properties', () => {
  const counts = fc.array(fc.nat({ max: 12 }), { minLength: 1, maxLength: 40 }).filter((xs) => xs.some((x) => x > 0))
  fcTest.prop([counts, fc.integer({ min: 1, max: 100 })], { numRuns: 300 })(
    'contains the POC, holds >= p%, and the area before its last addition held < p%',
    (xs, pct) => {
      const v = big(xs)
      const poc = pocIndex(v)
      const p = { units: BigInt(pct), scale: 0 }
      const { low, high } = valueAreaRange(v, poc, p)
      const total = xs.reduce((a, b) => a + b, 0)
      const sum = (l: number, h: number) => xs.slice(l, h + 1).reduce((a, b) => a + b, 0)
      expect(low <= poc && poc <= high).toBe(true)
      expect(sum(low, high) * 100 >= pct * total).toBe(true)
      if (low === poc && high === poc) return
      // the last addition took one or two rows from one end; without them the area was under p%
      const candidates: number[] = []
      for (const k of [1, 2]) {
        if (high - k >= poc) candidates.push(sum(low, high - k))
        if (low + k <= poc) candidates.push(sum(low + k, high))
      }
      expect(candidates.some((s) => s * 100 < pct * total)).toBe(true)
    },
  )
  fcTest.prop([counts], { numRuns: 300 })(
    'the POC holds the maximum and is at least as near the middle as any other maximum',
    (xs) => {
      const v = big(xs)
      const i = pocIndex(v)
      const max = Math.max(...xs)
      expect(xs[i]).toBe(max)
      const n = xs.length
      for (let j = 0; j < n; j++)
        if (xs[j] === max) expect(Math.abs(2 * i - (n - 1))).toBeLessThanOrEqual(Math.abs(2 * j - (n - 1)))
    },
  )
})

describe('tails, excess, poor extremes, single prints (Dalton)', () => {
  it('a tail of two single prints at the low is excess; one at the high is not', () => {
    const s = profileShape([1, 1, 2, 3, 1, 2, 1])
    expect(s).toEqual({ singlePrints: [4], poorHigh: false, poorLow: false, excessHigh: 0, excessLow: 2 })
  })
  it('two or more TPOs at an extreme is poor', () => {
    expect(profileShape([2, 3, 2])).toEqual({
      singlePrints: [],
      poorHigh: true,
      poorLow: true,
      excessHigh: 0,
      excessLow: 0,
    })
  })
  it('a one-block profile has no auction to compare with', () => {
    expect(profileShape([1, 1, 1])).toEqual({
      singlePrints: [],
      poorHigh: false,
      poorLow: false,
      excessHigh: 0,
      excessLow: 0,
    })
    expect(profileShape([1])).toEqual({
      singlePrints: [],
      poorHigh: false,
      poorLow: false,
      excessHigh: 0,
      excessLow: 0,
    })
  })
  it('single prints inside, gap rows (0 TPOs) are not single prints', () => {
    expect(profileShape([2, 1, 0, 1, 3, 1, 1, 1])).toEqual({
      singlePrints: [1, 3],
      poorHigh: false,
      poorLow: true,
      excessHigh: 3,
      excessLow: 0,
    })
  })
})
