// Day and longer targets take their candles in a loop of their own (long buckets, no stepping), two at a
// time when the columns have trade counts and no session codes. Against the big.js reference: decimal
// volumes of mixed scales (a pair with one volume the current scale cannot carry), values or none, bad
// values anywhere in a pair.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { resampleCandleColumns, resampleCandles, type Candle, type CandleOptions } from '../../src/candles/index.js'
import type { MarketDataError } from '../../src/errors.js'
import { buildCandles, candleArb } from './arbitraries.js'
import { asColumns } from './helpers.js'
import { referenceResample } from './reference.js'

const decimalVolumeArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(1, 2, 44.43345034, 0.5, 0.25, 12.5, 100000.12345678) },
  { weight: 1, arbitrary: fc.constantFrom(1e-8, 0.1, 0.30000000000000004, -1, Number.NaN, 2 ** 52, 3e15, 0.123456789) },
)
const recArb = fc.tuple(candleArb, decimalVolumeArb).map(([r, volume]) => ({ ...r, volume }))
const optsArb: fc.Arbitrary<CandleOptions> = fc.record({
  timeframe: fc.constantFrom<CandleOptions['timeframe']>('1d', '2d', '1w', '1M'),
  timeZone: fc.constantFrom('UTC', 'America/New_York'),
})

describe('resampling into long buckets = the reference', () => {
  it('decimal volumes of mixed scales, with or without a value column, trade counts, no session codes', () => {
    fc.assert(
      fc.property(fc.array(recArb, { minLength: 1, maxLength: 40 }), fc.boolean(), optsArb, (recs, value, opts) => {
        const { cols, objs } = buildCandles(
          recs.map((r) => ({ ...r, step: r.step % 3 === 0 ? 60_000 : r.step })),
          { value, trades: true, session: false },
        )
        const run = () => resampleCandleColumns(cols, { ...opts, sourceTimeframe: '1m' })
        // the object path: the big.js reference's candles, or the refusal of the first bad candle
        let objects: Candle[]
        try {
          objects = resampleCandles(objs, { ...opts, sourceTimeframe: '1m' })
        } catch (err) {
          const { code, index, field } = err as MarketDataError
          expect(run).toThrow(expect.objectContaining({ code, index, field }))
          return
        }
        expect(objects).toEqual(referenceResample(objs, opts))
        const want = asColumns(objects, cols)
        if (want.inexact) expect(run).toThrow(expect.objectContaining({ code: 'inexact' }))
        else expect(run()).toEqual(want.cols)
      }),
      { numRuns: 400 },
    )
  })
})
