// Malformed input to the footprint functions: always a MarketDataError naming the field and the rule, never
// a raw TypeError, a crash or a silently wrong answer.
import Big from 'big.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MarketDataError } from '../../src/errors.js'
import {
  createFootprintAggregator,
  cumulativeDelta,
  footprintAnalytics,
  footprintProfiles,
  mergeFootprintProfiles,
  regridFootprint,
  resampleFootprint,
  rowSizeScale,
  type FootprintProfile,
} from '../../src/footprint/index.js'
import type { Trade } from '../../src/trades/index.js'
import { START } from './arbitraries.js'

const H = 3_600_000
const trades: Trade[] = [
  { time: START, price: '100.25', volume: '1', side: 'buy' },
  { time: START + 60_000, price: '100.5', volume: '2.5', side: 'sell' },
  { time: START + 120_000, price: '100.75', volume: '3', side: 'buy' },
  { time: START + 120_000, price: '100.75', volume: '1', side: 'sell' },
  { time: START + H, price: '99', volume: '4', side: 'sell' },
]
const opts = { timeframe: '1h', tickSize: '0.25' } as const
const [fp, fp2] = footprintProfiles(trades, opts) as [FootprintProfile, FootprintProfile]
const fpA = footprintProfiles(trades, { ...opts, analytics: true })[0] as FootprintProfile

/** [code, index, field] of the MarketDataError thrown by f; fails the test on any other outcome. */
function errorOf(f: () => unknown): [string, number | undefined, string | undefined] {
  try {
    f()
  } catch (e) {
    if (e instanceof MarketDataError) return [e.code, e.index, e.field]
    throw new Error(`not a MarketDataError: ${String(e)}`)
  }
  throw new Error('did not throw')
}

const withRow = (p: FootprintProfile, row: unknown, at = 0): FootprintProfile => {
  const rows = [...p.rows] as unknown[]
  rows[at] = row
  return { ...p, rows } as FootprintProfile
}

describe('analytics option', () => {
  it('null, strings, numbers, BigInt and arrays are refused as invalid_option naming analytics', () => {
    for (const bad of [null, 'yes', 1, 0, 1n, [], ['ratio'], Symbol('x')]) {
      const o = { ...opts, analytics: bad } as never
      expect(errorOf(() => footprintProfiles(trades, o))).toEqual(['invalid_option', undefined, 'analytics'])
      expect(errorOf(() => createFootprintAggregator(o))).toEqual(['invalid_option', undefined, 'analytics'])
    }
    expect(() => footprintProfiles(trades, { ...opts, analytics: null } as never)).toThrow(
      /^analytics: null must be true, false or an options object/,
    )
  })

  it('footprintAnalytics(p, null | non-object) is refused naming options', () => {
    for (const bad of [null, 'yes', 3, 1n, false, []]) {
      expect(errorOf(() => footprintAnalytics(fp, bad as never))).toEqual(['invalid_option', undefined, 'options'])
    }
  })

  it('true, false, an object and a null-prototype object keep working', () => {
    expect(footprintProfiles(trades, { ...opts, analytics: false })[0]?.analytics).toBeUndefined()
    const a = footprintProfiles(trades, { ...opts, analytics: true })[0]?.analytics
    expect(a).toMatchObject({ ratio: '300', minVolume: '0', stackedRows: 3 })
    const np = Object.assign(Object.create(null) as object, { ratio: 200 })
    expect(footprintProfiles(trades, { ...opts, analytics: np })[0]?.analytics?.ratio).toBe('200')
    expect(footprintAnalytics(fp, np)).toEqual(footprintAnalytics(fp, { ratio: 200 }))
    expect(footprintAnalytics(fp)).toEqual(a)
  })

  it('a profile whose analytics is null or not an object is refused by merge / regrid / resample', () => {
    const bad = { ...fp, analytics: null } as never
    expect(errorOf(() => mergeFootprintProfiles(fp, bad))).toEqual(['invalid_option', 1, 'analytics'])
    expect(errorOf(() => regridFootprint(bad, { rowSize: 2 }))).toEqual(['invalid_option', undefined, 'analytics'])
    expect(errorOf(() => resampleFootprint([fp, { ...fp2, analytics: 'x' } as never], { timeframe: '1d' }))).toEqual([
      'invalid_option',
      1,
      'analytics',
    ])
  })
})

describe('cumulativeDelta', () => {
  it('refuses elements that are not profiles, naming the index', () => {
    expect(errorOf(() => cumulativeDelta([fp, null] as never))).toEqual(['invalid_option', 1, 'profiles[1]'])
    expect(errorOf(() => cumulativeDelta([1n] as never))).toEqual(['invalid_option', 0, 'profiles[0]'])
    expect(errorOf(() => cumulativeDelta([{ ...fp, time: 'x' }] as never))).toEqual(['invalid_option', 0, 'time'])
    expect(errorOf(() => cumulativeDelta([fp, { ...fp, time: Number.NaN }]))).toEqual(['invalid_option', 1, 'time'])
    expect(errorOf(() => cumulativeDelta([{ ...fp, delta: 1.5 }] as never))).toEqual(['invalid_decimal', 0, 'delta'])
    expect(errorOf(() => cumulativeDelta([fp, { ...fp, delta: Object.create(null) }] as never))).toEqual([
      'invalid_decimal',
      1,
      'delta',
    ])
    expect(() => cumulativeDelta([fp, null] as never)).toThrow(
      /cumulativeDelta: profiles\[1\]: null is not a FootprintProfile/,
    )
  })

  it('valid input: exact running sum in time order, input untouched', () => {
    const ps = [fp2, fp]
    expect(cumulativeDelta(ps)).toEqual([
      { time: fp.time, delta: fp.delta, cumulativeDelta: '0.5' },
      { time: fp2.time, delta: fp2.delta, cumulativeDelta: '-3.5' },
    ])
    expect(ps).toEqual([fp2, fp])
    expect(cumulativeDelta([])).toEqual([])
  })
})

describe('rows of profiles read by merge / regrid / resample / footprintAnalytics', () => {
  const price = fp.rows[0]?.[0] as string

  it('a row that is not an array of 5 is refused (invalid_option rows[i]), naming the profile', () => {
    expect(errorOf(() => mergeFootprintProfiles(fp, withRow(fp, null)))).toEqual(['invalid_option', 1, 'rows[0]'])
    expect(errorOf(() => mergeFootprintProfiles(withRow(fp, 'x', 2), fp))).toEqual(['invalid_option', 0, 'rows[2]'])
    expect(errorOf(() => mergeFootprintProfiles(fp, withRow(fp, [price, '1', '0', 1])))).toEqual([
      'invalid_option',
      1,
      'rows[0]',
    ])
    expect(errorOf(() => mergeFootprintProfiles(fp, withRow(fp, Object.create(null))))).toEqual([
      'invalid_option',
      1,
      'rows[0]',
    ])
    expect(() => mergeFootprintProfiles(fp, withRow(fp, null))).toThrow(
      /^record 1: mergeFootprintProfiles: b\.rows\[0\]: null must be an array \[price, volumeBuy, volumeSell, tradesCountBuy, tradesCountSell\]$/,
    )
  })

  it('counts must be safe integers >= 0 given as numbers (no string concatenation, no NaN)', () => {
    for (const bad of [1n, '1', -1, 0.5, Number.NaN, Infinity, 2 ** 53, null, undefined, {}]) {
      expect(errorOf(() => mergeFootprintProfiles(fp, withRow(fp, [price, '1', '0', bad, 0])))).toEqual([
        'invalid_option',
        1,
        'rows[0].tradesCountBuy',
      ])
      expect(errorOf(() => mergeFootprintProfiles(fp, withRow(fp, [price, '1', '0', 0, bad])))).toEqual([
        'invalid_option',
        1,
        'rows[0].tradesCountSell',
      ])
    }
    expect(() => mergeFootprintProfiles(fp, withRow(fp, [price, '1', '0', '1', 0]))).toThrow(
      /b\.rows\[0\]\.tradesCountBuy: "1" must be an integer >= 0/,
    )
    expect(() => mergeFootprintProfiles(fp, withRow(fp, [price, '1', '0', 1n, 0]))).toThrow(
      /tradesCountBuy: 1n must be an integer >= 0/,
    )
  })

  it('volumes must be decimal strings >= 0', () => {
    expect(errorOf(() => mergeFootprintProfiles(fp, withRow(fp, [price, '-1', '0', 1, 0])))).toEqual([
      'invalid_volume',
      1,
      'rows[0].volumeBuy',
    ])
    expect(errorOf(() => mergeFootprintProfiles(fp, withRow(fp, [price, '0', '-0.5', 0, 1])))).toEqual([
      'invalid_volume',
      1,
      'rows[0].volumeSell',
    ])
    for (const bad of [1, 1n, null, 'x', '1e3', {}, Object.create(null)]) {
      expect(errorOf(() => mergeFootprintProfiles(fp, withRow(fp, [price, bad, '0', 1, 0])))).toEqual([
        'invalid_decimal',
        1,
        'rows[0].volumeBuy',
      ])
    }
    expect(() => mergeFootprintProfiles(fp, withRow(fp, [price, '-1', '0', 1, 0]))).toThrow(
      /b\.rows\[0\]\.volumeBuy: "-1" must be a decimal string >= 0/,
    )
  })

  it('prices must be decimal strings on the grid whose row index is a safe integer', () => {
    expect(errorOf(() => mergeFootprintProfiles(fp, withRow(fp, [100.25, '1', '0', 1, 0])))).toEqual([
      'invalid_decimal',
      1,
      'rows[0].price',
    ])
    expect(errorOf(() => mergeFootprintProfiles(fp, withRow(fp, ['100.3', '1', '0', 1, 0])))).toEqual([
      'grid_mismatch',
      1,
      'rows[0].price',
    ])
    const far = { ...fp, rows: [['2251799813685248.25', '1', '0', 1, 0]] } as FootprintProfile
    expect(errorOf(() => mergeFootprintProfiles({ ...fp, rows: [] }, far))).toEqual([
      'invalid_decimal',
      1,
      'rows[0].price',
    ])
    // the engine refuses the same price with the same code
    expect(
      errorOf(() => footprintProfiles([{ time: START, price: '2251799813685248.25', volume: '1', side: 'buy' }], opts)),
    ).toEqual(['invalid_decimal', 0, 'price'])
    // just inside the limit is fine
    const near = {
      ...fp,
      rows: [['2251799813685247.75', '1', '0', 1, 0]],
      high: '2251799813685247.75',
      low: '2251799813685247.75',
    } as FootprintProfile
    expect(mergeFootprintProfiles({ ...fp, rows: [] }, near).rows).toEqual([['2251799813685247.75', '1', '0', 1, 0]])
    const desc = { ...fp, rows: [...fp.rows].reverse() }
    expect(errorOf(() => regridFootprint(desc, { rowSize: 2 }))).toEqual(['invalid_option', undefined, `rows[1].price`])
  })

  it('the same rules hold in regridFootprint, resampleFootprint and footprintAnalytics', () => {
    const bad = withRow(fp, [price, '1', '0', '1', 0])
    expect(errorOf(() => regridFootprint(bad, { rowSize: 2 }))).toEqual([
      'invalid_option',
      undefined,
      'rows[0].tradesCountBuy',
    ])
    expect(errorOf(() => footprintAnalytics(bad))).toEqual(['invalid_option', undefined, 'rows[0].tradesCountBuy'])
    expect(errorOf(() => resampleFootprint([fp, { ...fp2, rows: [null] } as never], { timeframe: '1d' }))).toEqual([
      'invalid_option',
      1,
      'rows[0]',
    ])
    expect(errorOf(() => footprintAnalytics(withRow(fp, [price, '-2', '0', 1, 0])))).toEqual([
      'invalid_volume',
      undefined,
      'rows[0].volumeBuy',
    ])
  })

  it('profile-level fields: time, end, profileStart, sessionType, grid strings, high / low', () => {
    expect(errorOf(() => mergeFootprintProfiles(fp, { ...fp, time: 1n } as never))).toEqual([
      'invalid_option',
      1,
      'time',
    ])
    expect(errorOf(() => mergeFootprintProfiles({ ...fp, end: Object.create(null) } as never, fp))).toEqual([
      'invalid_option',
      0,
      'end',
    ])
    expect(errorOf(() => mergeFootprintProfiles(fp, { ...fp, profileStart: '1' } as never))).toEqual([
      'invalid_option',
      1,
      'profileStart',
    ])
    expect(errorOf(() => mergeFootprintProfiles(fp, { ...fp, sessionType: 'toString' } as never))).toEqual([
      'invalid_session',
      1,
      'sessionType',
    ])
    expect(errorOf(() => mergeFootprintProfiles(fp, { ...fp, tickSize: Object.create(null) } as never))).toEqual([
      'invalid_decimal',
      1,
      'tickSize',
    ])
    expect(errorOf(() => mergeFootprintProfiles(fp, { ...fp, rowSizeValue: '0' }))).toEqual([
      'invalid_option',
      1,
      'rowSizeValue',
    ])
    expect(errorOf(() => mergeFootprintProfiles(fp, { ...fp, high: 1 } as never))).toEqual([
      'invalid_decimal',
      1,
      'high',
    ])
    // high / low are traded prices: inside the highest / lowest row, [row price, row price + row size)
    const top = fp.rows[fp.rows.length - 1]?.[0] as string
    const bottom = fp.rows[0]?.[0] as string
    const step = (x: string, k: number) => new Big(x).plus(new Big(fp.rowSizeValue).times(k)).toString()
    expect(errorOf(() => mergeFootprintProfiles(fp, { ...fp, high: step(top, 1) }))).toEqual([
      'invalid_option',
      1,
      'high',
    ])
    expect(errorOf(() => mergeFootprintProfiles({ ...fp, high: step(top, -0.5) }, fp))).toEqual([
      'invalid_option',
      0,
      'high',
    ])
    expect(errorOf(() => mergeFootprintProfiles(fp, { ...fp, low: step(bottom, -0.5) }))).toEqual([
      'invalid_option',
      1,
      'low',
    ])
    expect(errorOf(() => footprintAnalytics({ ...fp, low: step(bottom, 1) }))).toEqual([
      'invalid_option',
      undefined,
      'low',
    ])
    // just inside the rows: taken, and the merge keeps the extremes
    const inside = { ...fp, high: step(top, 0.75), low: bottom }
    expect(mergeFootprintProfiles(fp, inside).high).toBe(step(top, 0.75))
    expect(errorOf(() => mergeFootprintProfiles(fp, null as never))).toEqual(['invalid_option', 1, 'b'])
    expect(errorOf(() => regridFootprint(fp, 'x' as never))).toEqual(['invalid_option', undefined, 'options'])
  })

  it('property: a high / low anywhere is taken exactly when it lies in the highest / lowest row', () => {
    // rows of fp: prices are row lower bounds, rowSizeValue apart; any price in eighths of a row around them
    const top = new Big(fp.rows[fp.rows.length - 1]![0])
    const bottom = new Big(fp.rows[0]![0])
    const row = new Big(fp.rowSizeValue)
    fc.assert(
      fc.property(fc.integer({ min: -24, max: 24 }), fc.boolean(), (eighths, isHigh) => {
        const base = isHigh ? top : bottom
        const x = base.plus(row.times(eighths).div(8))
        const inside = x.gte(base) && x.lt(base.plus(row))
        const p = isHigh ? { ...fp, high: x.toString() } : { ...fp, low: x.toString() }
        if (inside)
          expect(mergeFootprintProfiles(fp, p)[isHigh ? 'high' : 'low']).toBe(
            isHigh ? (x.gt(new Big(fp.high)) ? x.toString() : fp.high) : x.lt(new Big(fp.low)) ? x.toString() : fp.low,
          )
        else
          expect(errorOf(() => mergeFootprintProfiles(fp, p))).toEqual(['invalid_option', 1, isHigh ? 'high' : 'low'])
      }),
      { numRuns: 200 },
    )
  })

  it('summed trade counts past 2^53 - 1 are refused as inexact', () => {
    const big = {
      ...fp,
      rows: [[price, '1', '0', Number.MAX_SAFE_INTEGER, 0]],
      high: price,
      low: price,
    } as FootprintProfile
    expect(errorOf(() => mergeFootprintProfiles(big, big))).toEqual(['inexact', undefined, 'trades'])
  })

  it('valid profiles keep merging, re-gridding and resampling as before', () => {
    const split = footprintProfiles(trades.slice(0, 2), opts)[0] as FootprintProfile
    const rest = footprintProfiles(trades.slice(2, 4), opts)[0] as FootprintProfile
    expect(mergeFootprintProfiles(split, rest)).toEqual(fp)
    expect(regridFootprint(fp, { rowSize: 4 })).toEqual(footprintProfiles(trades, { ...opts, rowSize: 4 })[0])
    expect(resampleFootprint([fp2, fp], { timeframe: '1d' })).toEqual(
      footprintProfiles(trades, { ...opts, timeframe: '1d' }),
    )
    expect(mergeFootprintProfiles(fpA, { ...fpA, rows: [] }).analytics).toEqual(fpA.analytics)
  })
})

describe('other options', () => {
  it("sessions: 'toString' / '__proto__' are not sessions", () => {
    for (const s of ['toString', '__proto__', 'constructor']) {
      expect(errorOf(() => footprintProfiles(trades, { ...opts, sessions: [s] } as never))).toEqual([
        'invalid_option',
        undefined,
        'sessions',
      ])
    }
  })

  it('resampleFootprint checks the time zone also without profiles', () => {
    expect(errorOf(() => resampleFootprint([], { timeframe: '1h', timeZone: 'Nope/Nowhere' }))).toEqual([
      'invalid_option',
      undefined,
      'timeZone',
    ])
  })
})

// ---- property: any value anywhere gives a result or a MarketDataError, never another error ----

const any = fc.anything({
  withBigInt: true,
  withNullPrototype: true,
  withBoxedValues: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
  withDate: true,
  withMap: true,
  withSet: true,
  maxDepth: 2,
})
/** Hostile values plus near-valid ones (strings, numbers and rows of the right shape). */
const hostile = fc.oneof(
  any,
  fc.constantFrom(
    null,
    undefined,
    1n,
    -1,
    0.5,
    Number.NaN,
    Infinity,
    '',
    '1',
    '-1',
    '0.25',
    '100.25',
    'x',
    true,
    false,
    [],
    {},
  ),
  fc.constant(Object.create(null) as unknown),
)
const ROW_FIELDS = 5
const PROFILE_KEYS = [
  'time',
  'end',
  'profileStart',
  'rowSize',
  'rowSizeValue',
  'tickSize',
  'rows',
  'high',
  'low',
  'delta',
  'sessionType',
  'analytics',
] as const

/** A valid profile with one field, one row or one position of one row replaced by a hostile value. */
const mutated: fc.Arbitrary<unknown> = fc.oneof(
  hostile,
  fc
    .record({ base: fc.constantFrom(fp, fp2, fpA), key: fc.constantFrom(...PROFILE_KEYS), v: hostile })
    .map(({ base, key, v }) => ({ ...base, [key]: v })),
  fc
    .record({ base: fc.constantFrom(fp, fpA), at: fc.nat({ max: 2 }), v: hostile })
    .map(({ base, at, v }) => withRow(base, v, at)),
  fc
    .record({
      base: fc.constantFrom(fp, fpA),
      at: fc.nat({ max: 2 }),
      pos: fc.nat({ max: ROW_FIELDS - 1 }),
      v: hostile,
    })
    .map(({ base, at, pos, v }) => {
      const row = [...(base.rows[at] as unknown[])]
      row[pos] = v
      return withRow(base, row, at)
    }),
  fc
    .record({ base: fc.constantFrom(fp, fpA), v: hostile })
    .map(({ base, v }) => Object.assign(Object.create(null) as object, base, { high: v })),
)

function onlyMarketDataErrors(f: () => unknown): void {
  try {
    f()
  } catch (e) {
    if (!(e instanceof MarketDataError)) throw e
  }
}

describe('property: hostile input gives a result or a MarketDataError', () => {
  it('mergeFootprintProfiles, regridFootprint, footprintAnalytics, resampleFootprint, cumulativeDelta', () => {
    fc.assert(
      fc.property(mutated, mutated, hostile, (a, b, o) => {
        onlyMarketDataErrors(() => mergeFootprintProfiles(a as FootprintProfile, b as FootprintProfile))
        onlyMarketDataErrors(() => mergeFootprintProfiles(fp, b as FootprintProfile))
        onlyMarketDataErrors(() => regridFootprint(a as FootprintProfile, { rowSize: 2 }))
        onlyMarketDataErrors(() => regridFootprint(fp, o as never))
        onlyMarketDataErrors(() => regridFootprint(fp, { rowSize: o, rowSizeValue: undefined } as never))
        onlyMarketDataErrors(() => regridFootprint(fp, { rowSizeValue: o } as never))
        onlyMarketDataErrors(() => footprintAnalytics(a as FootprintProfile))
        onlyMarketDataErrors(() => footprintAnalytics(fp, o as never))
        onlyMarketDataErrors(() => footprintAnalytics(fp, { ratio: o, minVolume: o, stackedRows: o } as never))
        onlyMarketDataErrors(() => resampleFootprint([fp, a, b] as FootprintProfile[], { timeframe: '1d' }))
        onlyMarketDataErrors(() => resampleFootprint(a as FootprintProfile[], o as never))
        onlyMarketDataErrors(() => resampleFootprint([fp], { timeframe: o, timeZone: o } as never))
        onlyMarketDataErrors(() => cumulativeDelta([fp, a, b] as FootprintProfile[]))
        onlyMarketDataErrors(() => cumulativeDelta(a as FootprintProfile[]))
      }),
      { numRuns: 400 },
    )
  })

  it('footprintProfiles / createFootprintAggregator options and rowSizeScale', () => {
    const keys = [
      'timeframe',
      'tickSize',
      'rowSize',
      'rowSizeValue',
      'timeZone',
      'sessions',
      'from',
      'to',
      'analytics',
    ] as const
    fc.assert(
      fc.property(fc.constantFrom(...keys), hostile, hostile, (key, v, w) => {
        const o = { ...opts, [key]: v } as never
        onlyMarketDataErrors(() => footprintProfiles(trades, o))
        onlyMarketDataErrors(() => createFootprintAggregator(o).addAll(trades))
        onlyMarketDataErrors(() => footprintProfiles(trades, v as never))
        onlyMarketDataErrors(() =>
          footprintProfiles(trades, { ...opts, analytics: { ratio: v, minVolume: w } } as never),
        )
        onlyMarketDataErrors(() => createFootprintAggregator(opts).advance(v as never))
        onlyMarketDataErrors(() => rowSizeScale(v as never))
        onlyMarketDataErrors(() => rowSizeScale({ tickSize: '0.25', typicalRange: v, targetRows: w } as never))
        onlyMarketDataErrors(() => rowSizeScale({ tickSize: v, ranges: w, maxRowSize: v } as never))
        onlyMarketDataErrors(() => rowSizeScale({ tickSize: '1', ranges: [v, w] } as never))
      }),
      { numRuns: 300 },
    )
  })
})
