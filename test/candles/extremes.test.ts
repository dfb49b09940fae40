// High and low of resampled candles over any finite doubles: in short buckets candleRun takes them by
// branch-free selects (h * a + x * (1 - a)); these must be the exact max / min, never a rounded mix.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { resampleCandleColumns, resampleCandles, type CandleColumns } from '../../src/candles/index.js'
import type { TimeframeId } from '../../src/time/index.js'

const T0 = Date.UTC(2024, 2, 4) // a Monday, 00:00 UTC

/** Prices far apart in magnitude and sign, where a + (b - a) or a mix of products would round. */
const priceArb = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(
    0,
    -0,
    Number.MAX_VALUE,
    -Number.MAX_VALUE,
    Number.MIN_VALUE,
    -Number.MIN_VALUE,
    1e300,
    -1e300,
    1e-300,
    0.1,
    0.3,
    2 ** 53 + 2,
  ),
  fc.integer({ min: -5, max: 5 }).map((k) => 4000 + k * 0.25),
)

interface Case {
  cols: CandleColumns
  minutes: number
}

/** Dense one-minute candles (every minute, so the buckets are short and the selects run), each a valid OHLC. */
const caseArb: fc.Arbitrary<Case> = fc
  .record({
    bars: fc.array(fc.tuple(priceArb, priceArb, priceArb, priceArb, fc.nat(1000), fc.nat(50)), {
      minLength: 1,
      maxLength: 200,
    }),
    wholeLots: fc.boolean(),
    minutes: fc.constantFrom(2, 3, 5, 15, 30),
    skip: fc.nat(3),
  })
  .map(({ bars, wholeLots, minutes, skip }) => {
    const n = bars.length
    const cols: CandleColumns = {
      time: new Float64Array(n),
      open: new Float64Array(n),
      high: new Float64Array(n),
      low: new Float64Array(n),
      close: new Float64Array(n),
      volume: new Float64Array(n),
      value: new Float64Array(n),
      trades: new Float64Array(n),
    }
    bars.forEach(([a, b, c, d, v, k], i) => {
      const p = [a, b, c, d].sort((x, y) => x - y)
      // every minute, with a gap of `skip` minutes after each 7th candle
      cols.time[i] = T0 + (i + Math.floor(i / 7) * skip) * 60_000
      cols.low[i] = p[0] as number
      cols.open[i] = p[1] as number
      cols.close[i] = p[2] as number
      cols.high[i] = p[3] as number
      // whole lots take the pair loop, 0.5 lots the single one
      cols.volume[i] = wholeLots ? v : v / 2
      ;(cols.value as Float64Array)[i] = 0
      ;(cols.trades as Float64Array)[i] = k
    })
    return { cols, minutes }
  })

/** The expected high / low per bucket: a plain max / min (-0 as 0, as the output has it). */
function extremes(c: Case): { time: number[]; high: number[]; low: number[] } {
  const len = c.minutes * 60_000
  const out = { time: [] as number[], high: [] as number[], low: [] as number[] }
  for (let i = 0; i < c.cols.time.length; i++) {
    const b = Math.floor(((c.cols.time[i] as number) - T0) / len) * len + T0
    const h = c.cols.high[i] as number
    const l = c.cols.low[i] as number
    const k = out.time.length - 1
    if (k < 0 || out.time[k] !== b) {
      out.time.push(b)
      out.high.push(h + 0)
      out.low.push(l + 0)
    } else {
      if (h > (out.high[k] as number)) out.high[k] = h + 0
      if (l < (out.low[k] as number)) out.low[k] = l + 0
    }
  }
  return out
}

describe('resampled high / low over any finite doubles', () => {
  it('columns out: each bucket high / low is exactly the max / min of its candles', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const want = extremes(c)
        const got = resampleCandleColumns(c.cols, { timeframe: `${c.minutes}m` as TimeframeId })
        expect(Array.from(got.time)).toEqual(want.time)
        expect(Array.from(got.high)).toEqual(want.high)
        expect(Array.from(got.low)).toEqual(want.low)
      }),
      { numRuns: 300 },
    )
  })

  it('Candle objects out: the same extremes, spelled as those doubles', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const want = extremes(c)
        const got = resampleCandles(c.cols, { sourceTimeframe: '1m', timeframe: `${c.minutes}m` as TimeframeId })
        expect(got.map((x) => x.time)).toEqual(want.time)
        expect(got.map((x) => Number(x.high) + 0)).toEqual(want.high)
        expect(got.map((x) => Number(x.low) + 0)).toEqual(want.low)
      }),
      { numRuns: 300 },
    )
  })
})
