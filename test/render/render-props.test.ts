import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { renderFootprint, renderFootprintSvg, renderTpo, renderTpoSvg } from '../../src/render/index.js'
import type { FootprintProfile } from '../../src/footprint/index.js'
import type { TpoProfile } from '../../src/tpo/index.js'
import { handFootprint, handTpo } from './fixtures.js'
import { xmlProblem } from './xml-check.js'

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** A TPO profile with n rows of 0.25 from 100.00 and random block sets over `blocks` blocks; POC / VA picked among the rows. */
const tpoArb = fc
  .record({
    blocks: fc.integer({ min: 1, max: 120 }),
    n: fc.integer({ min: 1, max: 40 }),
  })
  .chain(({ blocks, n }) =>
    fc.record({
      blocks: fc.constant(blocks),
      sets: fc.array(fc.uniqueArray(fc.integer({ min: 0, max: blocks - 1 }), { maxLength: 12 }), {
        minLength: n,
        maxLength: n,
      }),
      poc: fc.integer({ min: 0, max: n - 1 }),
      lo: fc.integer({ min: 0, max: n - 1 }),
      hi: fc.integer({ min: 0, max: n - 1 }),
      ib: fc.boolean(),
    }),
  )
  .map(({ blocks, sets, poc, lo, hi, ib }): TpoProfile => {
    const price = (i: number) => ((10_000 + 25 * i) / 100).toFixed(2)
    const p = handTpo()
    p.blocks = Array.from({ length: blocks }, (_, i) => Date.UTC(2026, 5, 1) + i * 30 * 60_000)
    p.rows = sets.map((s, i) => [price(i), s, '1', '0'])
    p.poc = price(poc)
    p.volumePoc = price(poc)
    p.valueAreaLow = price(Math.min(lo, hi, poc))
    p.valueAreaHigh = price(Math.max(lo, hi, poc))
    p.initialBalance = ib ? { low: price(Math.min(lo, hi)), high: price(Math.max(lo, hi)) } : null
    p.singlePrints = sets.flatMap((s, i) => (s.length === 1 ? [price(i)] : []))
    p.low = price(0)
    p.high = price(sets.length - 1)
    return p
  })

describe('renderTpo properties', () => {
  it('one chart line per row, top-down; letters are the row blocks in order; one POC marker; well-formed SVG', () => {
    fc.assert(
      fc.property(tpoArb, (p) => {
        const lines = renderTpo(p).split('\n')
        const rowLines = lines.filter((l) => /^\d+\.\d\d( |$)/.test(l))
        expect(rowLines.map((l) => l.slice(0, 6))).toEqual(p.rows.map((r) => r[0]).reverse())
        rowLines.forEach((l, k) => {
          const idx = [...p.rows[p.rows.length - 1 - k]![1]].sort((a, b) => a - b)
          const letters = idx.map((i) => LETTERS[i % 52]).join('')
          expect(l.slice(10, 10 + letters.length)).toBe(letters)
          expect(l.slice(10 + letters.length, 11 + letters.length).trim()).toBe('')
        })
        expect(rowLines.filter((l) => l[8] === '>')).toHaveLength(1)
        expect(rowLines.filter((l) => l[8] === ':' || l[8] === '>').length).toBeGreaterThanOrEqual(1)
        expect(xmlProblem(renderTpoSvg(p))).toBeUndefined()
      }),
      { numRuns: 60 },
    )
  })
})

describe('renderFootprint properties', () => {
  it('one ladder line per row with its sell x buy volumes; delta = buy - sell; well-formed SVG', () => {
    const fpArb = fc
      .array(fc.tuple(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 0, max: 500 })), {
        minLength: 1,
        maxLength: 30,
      })
      .map((vols): FootprintProfile => {
        const p = handFootprint()
        p.rows = vols.map(([b, s], i) => [
          ((1000 + 25 * i) / 100).toFixed(2),
          String(b),
          String(s),
          b > 0 ? 1 : 0,
          s > 0 ? 1 : 0,
        ])
        let best = 0
        vols.forEach(([b, s], i) => {
          if (b + s > vols[best]![0] + vols[best]![1]) best = i
        })
        p.volumePoc = p.rows[best]![0]
        // high / low are traded prices in the highest / lowest row
        p.low = p.rows[0]![0]
        p.high = p.rows[p.rows.length - 1]![0]
        return p
      })
    fc.assert(
      fc.property(fpArb, (p) => {
        const text = renderFootprint(p)
        const rowLines = text
          .split('\n')
          .filter((l) => / x /.test(l) && !l.startsWith('legend') && !l.includes('price'))
        expect(rowLines).toHaveLength(p.rows.length)
        rowLines.forEach((l, k) => {
          const [price, buy, sell] = p.rows[p.rows.length - 1 - k]!
          const m = /^\s*(\S+) ([ >]) \s*\*?(\d+) x (\d+)\*?\s+([+-]?\d+)/.exec(l)
          expect(m, l).not.toBeNull()
          expect(m![1]).toBe(price)
          expect(m![3]).toBe(sell)
          expect(m![4]).toBe(buy)
          expect(Number(m![5])).toBe(Number(buy) - Number(sell))
          expect(m![2] === '>').toBe(price === p.volumePoc)
        })
        expect(xmlProblem(renderFootprintSvg(p))).toBeUndefined()
      }),
      { numRuns: 60 },
    )
  })
})
