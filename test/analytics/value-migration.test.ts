import { fc, test as fcTest } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { valueMigration, valueMigrations, type ValueRelation } from '../../src/analytics/index.js'
import { relationOf } from '../../src/analytics/value-migration.js'
import type { MarketDataError } from '../../src/errors.js'
import { footprintProfiles } from '../../src/footprint/index.js'
import { candleDay, day, dayTrades, type BlockSpec } from './build.js'

/** A day over 70..130 whose value area is set by hand to rows lo..hi. */
const valueDay = (lo: number, hi: number, d: number) => ({
  ...day(
    [
      [70, 130],
      [70, 130],
    ] as BlockSpec[],
    d,
  ),
  valueAreaLow: String(lo),
  valueAreaHigh: String(hi),
})

const MIRROR: Record<ValueRelation, ValueRelation> = {
  higher: 'lower',
  lower: 'higher',
  'overlapping-higher': 'overlapping-lower',
  'overlapping-lower': 'overlapping-higher',
  inside: 'outside',
  outside: 'inside',
  unchanged: 'unchanged',
}

describe('valueMigration: the rule table', () => {
  it.each<[number, number, number, number, ValueRelation]>([
    [100, 104, 105, 108, 'higher'], // current starts one row above the previous top row
    [100, 104, 95, 99, 'lower'],
    [100, 104, 102, 107, 'overlapping-higher'],
    [100, 104, 98, 103, 'overlapping-lower'],
    [100, 104, 101, 103, 'inside'],
    [100, 104, 100, 104, 'unchanged'], // equal value areas
    [100, 100, 100, 100, 'unchanged'], // one-row value areas, equal
    [100, 104, 99, 105, 'outside'],
    [100, 104, 100, 106, 'overlapping-higher'], // same low, higher top: one shared edge, the other moved up
    [100, 104, 100, 103, 'overlapping-lower'], // same low, lower top
    [100, 104, 102, 104, 'overlapping-higher'], // same top, higher low
    [100, 104, 98, 104, 'overlapping-lower'], // same top, lower low
    [100, 104, 104, 108, 'overlapping-higher'], // sharing the row 104 is an overlap
  ])('previous %i-%i, current %i-%i: %s', (a, b, c, d, rel) => {
    const m = valueMigration(valueDay(a, b, 1), valueDay(c, d, 2))
    expect(m.relation).toBe(rel)
    expect(m.previous).toEqual({ valueAreaLow: String(a), valueAreaHigh: String(b) })
    expect(m.current).toEqual({ valueAreaLow: String(c), valueAreaHigh: String(d) })
  })
  it('along a list, and the same from candle profiles', () => {
    const days = [valueDay(100, 104, 1), valueDay(105, 108, 2), valueDay(106, 107, 3)]
    expect(valueMigrations(days).map((m) => m.relation)).toEqual(['higher', 'inside'])
    // candle profiles carry the same TPO value area as the trade profiles of the same blocks
    const blocks: BlockSpec[][] = [
      [
        [100, 104],
        [101, 103],
        [100, 102],
      ],
      [
        [102, 107],
        [103, 106],
        [105, 109],
      ],
    ]
    const fromCandles = valueMigrations(blocks.map((b, i) => candleDay(b, i + 1)))
    expect(fromCandles).toEqual(valueMigrations(blocks.map((b, i) => day(b, i + 1))))
    // day 1: counts 2 3 3 2 1 on 100..104, POC 102, value 100-102; day 2: POC 105, value 103-107
    expect(fromCandles).toMatchObject([
      {
        relation: 'higher',
        previous: { valueAreaLow: '100', valueAreaHigh: '102' },
        current: { valueAreaLow: '103', valueAreaHigh: '107' },
      },
    ])
  })
  it('footprints compare their volume value areas; candle profiles have none', () => {
    const a = footprintProfiles(dayTrades([[100, 104]]), { timeframe: '1d', tickSize: 1 })[0]!
    const b = footprintProfiles(dayTrades([[110, 114]], 2), { timeframe: '1d', tickSize: 1 })[0]!
    expect(valueMigration(a, b).relation).toBe('higher')
    expect(() => valueMigration(candleDay([[1, 2]]), candleDay([[1, 2]], 2), { basis: 'volume' })).toThrow(
      /previous was built from candles/,
    )
    expect(() => valueMigration(a, b, { basis: 'tpo' })).toThrow(/no TPO counts; use \{ basis: 'volume' \}/)
  })
  it('bad options name the field', () => {
    for (const [o, f] of [
      [{ valueAreaPercent: 0 }, 'valueAreaPercent'],
      [{ basis: 'x' }, 'basis'],
      [{ bias: 1 }, 'bias'],
    ] as const) {
      try {
        valueMigration(valueDay(1, 2, 1), valueDay(1, 2, 2), o as never)
        expect.unreachable()
      } catch (e) {
        expect((e as MarketDataError).field).toBe(f)
      }
    }
  })
})

/** Slow reference from sets of rows. */
function reference(p: [number, number], c: [number, number]): ValueRelation {
  const rows = (x: [number, number]) => new Set(Array.from({ length: x[1] - x[0] + 1 }, (_, i) => x[0] + i))
  const P = rows(p)
  const C = rows(c)
  const shared = [...C].filter((r) => P.has(r)).length
  if (shared === 0) return c[0] > p[1] ? 'higher' : 'lower'
  if (shared === C.size && shared === P.size) return 'unchanged'
  // strictly inside / outside: no edge shared
  if (shared === C.size && c[0] !== p[0] && c[1] !== p[1]) return 'inside'
  if (shared === P.size && c[0] !== p[0] && c[1] !== p[1]) return 'outside'
  // one edge shared or none: the side that moved says which way
  return c[0] + c[1] > p[0] + p[1] ? 'overlapping-higher' : 'overlapping-lower'
}

const area = fc
  .tuple(fc.integer({ min: -20, max: 20 }), fc.integer({ min: 0, max: 10 }))
  .map(([lo, w]): [number, number] => [lo, lo + w])

describe('valueMigration laws', () => {
  fcTest.prop([area, area])('equals the row-set reference', (p, c) => {
    const iv = (x: [number, number]) => ({ low: BigInt(x[0]), top: BigInt(x[1] + 1) })
    expect(relationOf(iv(p), iv(c))).toBe(reference(p, c))
  })
  fcTest.prop([area, area])('swapping the periods mirrors the relation (unchanged both ways)', (p, c) => {
    const a = valueDay(p[0] + 100, p[1] + 100, 1)
    const b = valueDay(c[0] + 100, c[1] + 100, 2)
    const ab = valueMigration(a, b).relation
    const ba = valueMigration(b, a).relation
    expect(ba).toBe(MIRROR[ab])
    expect(ab === 'unchanged').toBe(p[0] === c[0] && p[1] === c[1])
  })
})
