// Resampling refuses frames that do not nest: for a source frame S and a target T that nest,
// resample(candles(S), T) = candles(T) on the same trades; for a pair that does not nest, a refusal
// (incompatible) naming a candle whose source bucket holds a target boundary. Random zones, DST included.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  bucketEnd,
  bucketStart,
  candlesFromTrades,
  createCandleAggregator,
  MarketDataError,
  resampleCandleColumns,
  resampleCandles,
  resolveTimeframe,
  tpoFromCandles,
  type Candle,
  type CandleColumns,
  type Trade,
  type TimeframeId,
  type TimeframeInput,
} from '../../src/index.js'
import { TEST_TIME_ZONES } from '../../src/testing/index.js'

const NESTING: [string, string][] = [
  ['1m', '5m'],
  ['1m', '15m'],
  ['5m', '15m'],
  ['15m', '1h'],
  ['1h', '4h'],
  ['1h', '1d'],
  ['1m', '1d'],
  ['30m', '3h'],
  ['1d', '1w'],
  ['1d', '1M'],
  ['1h', '1w'],
  ['1M', '3M'],
  ['1M', '1y'],
  ['1d', '2d'],
  ['3h', '1d'],
  ['7m', '1d'],
]
const NOT_NESTING: [string, string][] = [
  ['5m', '7m'],
  ['5m', '1m'],
  ['7m', '15m'],
  ['1h', '90m'],
  ['1w', '1M'],
  ['2d', '1w'],
  ['1M', '1w'],
  ['1d', '1h'],
  ['4h', '6h'],
]
const frame = (id: string): TimeframeInput =>
  id === '90m' ? { unit: 'MINUTE' as const, count: 90 } : (id as TimeframeId)
const MIN_MS: Record<string, number> = {
  m: 60_000,
  h: 3_600_000,
  d: 82_800_000,
  w: 7 * 82_800_000,
  M: 28 * 82_800_000,
  y: 365 * 82_800_000,
}
/** The shortest a bucket of a frame can be (a DST day is 23 hours, February 28 days). */
const shortest = (id: string): number => Number.parseInt(id, 10) * (MIN_MS[id.slice(-1)] as number)

const startArb = fc.integer({ min: Date.UTC(2025, 0, 1), max: Date.UTC(2027, 0, 1) })
const zoneArb = fc.constantFrom(...TEST_TIME_ZONES)

/** Trades from a random start, up to 40 gaps of random size up to `maxGap` ms (sparse or dense as the caller picks). */
const tradesArb = (maxGap: number) =>
  fc
    .tuple(
      startArb,
      fc.array(fc.tuple(fc.integer({ min: 1, max: Math.max(60_000, maxGap) }), fc.integer({ min: 1, max: 99 })), {
        minLength: 1,
        maxLength: 40,
      }),
    )
    .map(([start, steps]) => {
      const out: Trade[] = []
      let t = start
      for (let i = 0; i < steps.length; i++) {
        const [gap, price] = steps[i] as [number, number]
        out.push({ time: t, price: String(price), volume: String((i % 3) + 1), side: i % 2 === 0 ? 'buy' : 'sell' })
        t += gap
      }
      return out
    })

/** A pair of frames and trades whose gaps go up to `maxGap(S, T)`. */
const pairWithTrades = (pairs: [string, string][], maxGap: (S: string, T: string) => number) =>
  fc.constantFrom(...pairs).chain(([S, T]) => tradesArb(maxGap(S, T)).map((trades) => ({ S, T, trades })))

function caught(f: () => unknown): unknown {
  try {
    f()
  } catch (e) {
    return e
  }
  return undefined
}

const toColumns = (cs: readonly Candle[]): CandleColumns => ({
  time: Float64Array.from(cs, (c) => c.time),
  open: Float64Array.from(cs, (c) => Number(c.open)),
  high: Float64Array.from(cs, (c) => Number(c.high)),
  low: Float64Array.from(cs, (c) => Number(c.low)),
  close: Float64Array.from(cs, (c) => Number(c.close)),
  volume: Float64Array.from(cs, (c) => Number(c.volume)),
})

/** Does the source bucket of candle c hold a target boundary (strictly inside)? The slow reading of the rule. */
function straddles(c: Candle, S: string, T: string, timeZone: string): boolean {
  const sb = bucketStart(c.time, resolveTimeframe(frame(S)), { timeZone })
  const se = bucketEnd(c.time, resolveTimeframe(frame(S)), { timeZone })
  return bucketEnd(sb, resolveTimeframe(frame(T)), { timeZone }) < se
}

describe('resampling nests or refuses', () => {
  it('nesting S -> T: resample(candles(S), T) = candles(T), with sourceTimeframe, for objects and columns', () => {
    fc.assert(
      fc.property(
        pairWithTrades(NESTING, (_S, T) => Math.floor(shortest(T) / 4)),
        zoneArb,
        ({ S, T, trades }, timeZone) => {
          const source = candlesFromTrades(trades, { timeframe: frame(S), timeZone })
          const want = candlesFromTrades(trades, { timeframe: frame(T), timeZone })
          expect(resampleCandles(source, { timeframe: frame(T), sourceTimeframe: frame(S), timeZone })).toEqual(want)
          expect(
            resampleCandleColumns(toColumns(source), { timeframe: frame(T), sourceTimeframe: frame(S), timeZone }).time,
          ).toEqual(Float64Array.from(want, (c) => c.time))
        },
      ),
      { numRuns: 120 },
    )
  })

  it('inference never answers wrong: without sourceTimeframe the answer is candles(T) or a refusal', () => {
    fc.assert(
      fc.property(
        pairWithTrades([...NESTING, ...NOT_NESTING], (S) => 4 * shortest(S)),
        zoneArb,
        ({ S, T, trades }, timeZone) => {
          const source = candlesFromTrades(trades, { timeframe: frame(S), timeZone })
          const e = caught(() => resampleCandles(source, { timeframe: frame(T), timeZone }))
          // a single candle has no spacing to read a frame from: it is taken as is
          fc.pre(source.length >= 2)
          if (e === undefined) {
            // accepted: no candle holds a target boundary, and the answer is the trades' own
            for (const c of source) expect(straddles(c, S, T, timeZone)).toBe(false)
            expect(resampleCandles(source, { timeframe: frame(T), timeZone })).toEqual(
              candlesFromTrades(trades, { timeframe: frame(T), timeZone }),
            )
          } else expect(e).toMatchObject({ code: 'incompatible', field: 'time' })
        },
      ),
      { numRuns: 150 },
    )
  })

  it('candles whose every gap ends at a local midnight have no inferable frame: refused unless sourceTimeframe says it', () => {
    // 4h candles of New York at 16:00 and the next 00:00: the 16:00 candle (16:00-20:00) holds the 6h boundary 18:00
    const ny = 'America/New_York'
    const trades: Trade[] = [
      { time: Date.UTC(2025, 0, 1, 0), price: '1', volume: '1', side: 'buy' },
      { time: Date.UTC(2025, 0, 1, 5), price: '1', volume: '2', side: 'sell' },
    ]
    const fourHours = candlesFromTrades(trades, { timeframe: '4h', timeZone: ny })
    const e = caught(() => resampleCandles(fourHours, { timeframe: '6h', timeZone: ny }))
    expect(e).toMatchObject({ code: 'incompatible', index: 0, field: 'time' })
    expect((e as MarketDataError).message).toContain('give sourceTimeframe')
    // the same two candles as 1h candles nest in 2h: said, they resample; unsaid, they are refused, never mislabelled
    const oneHour = candlesFromTrades(trades, { timeframe: '1h', timeZone: ny })
    expect(resampleCandles(oneHour, { timeframe: '2h', sourceTimeframe: '1h', timeZone: ny })).toEqual(
      candlesFromTrades(trades, { timeframe: '2h', timeZone: ny }),
    )
    expect(caught(() => resampleCandles(oneHour, { timeframe: '2h', timeZone: ny }))).toMatchObject({
      code: 'incompatible',
      index: 0,
    })
    // one candle alone is taken as is
    expect(resampleCandles(fourHours.slice(0, 1), { timeframe: '6h', timeZone: ny })).toHaveLength(1)
  })

  it('not nesting S -> T: dense candles are refused, with or without sourceTimeframe, naming a candle whose bucket holds a target boundary', () => {
    fc.assert(
      fc.property(fc.constantFrom(...NOT_NESTING), zoneArb, startArb, ([S, T], timeZone, start) => {
        // a trade every half of the shortest source bucket, over three of the longer of the two frames: every source bucket has a candle
        const step = Math.floor(shortest(S) / 2)
        const span = 3 * Math.max(shortest(S), shortest(T)) + shortest(S)
        const trades: Trade[] = []
        for (let t = start; t < start + span; t += step) trades.push({ time: t, price: '1', volume: '1', side: 'buy' })
        const source = candlesFromTrades(trades, { timeframe: frame(S), timeZone })
        for (const opts of [
          { timeframe: frame(T), sourceTimeframe: frame(S), timeZone },
          { timeframe: frame(T), timeZone },
        ]) {
          const e = caught(() => resampleCandles(source, opts))
          expect(e).toBeInstanceOf(MarketDataError)
          expect(e).toMatchObject({ code: 'incompatible' })
          const err = e as MarketDataError
          if (err.index !== undefined) {
            expect(straddles(source[err.index] as Candle, S, T, timeZone)).toBe(true)
            // told the frame, the refusal names the boundary inside the candle; left to infer it, a candle whose only
            // gaps end at a local midnight (where minute frames restart) is refused for that reason instead
            const said = 'sourceTimeframe' in opts
            if (said) expect(err.message).toMatch(/covers \[.*\) .* boundary .* lies inside it/)
            else
              expect(err.message).toMatch(
                /covers \[.*\) .* boundary .* lies inside it|may run past the .* target boundary .*give sourceTimeframe/,
              )
          } else expect(err.field).toBe('sourceTimeframe') // a finer target, refused before any candle
          expect(caught(() => resampleCandleColumns(toColumns(source), opts))).toMatchObject({
            code: 'incompatible',
            index: err.index,
          })
        }
      }),
      { numRuns: 120, examples: [[['5m', '1m'], 'UTC', Date.UTC(2025, 11, 31, 23, 55)]] }, // the example: a candle at 23:55 whose only gap ends at midnight
    )
  })

  it('streaming = batch, refusals included, and a refused candle changes nothing', () => {
    fc.assert(
      fc.property(
        pairWithTrades([...NESTING, ...NOT_NESTING], (S) => 2 * shortest(S)),
        zoneArb,
        fc.array(fc.nat(), { maxLength: 4 }),
        ({ S, T, trades }, timeZone, cuts) => {
          const source = candlesFromTrades(trades, { timeframe: frame(S), timeZone })
          const opts = { timeframe: frame(T), timeZone }
          const batch = caught(() => resampleCandles(source, opts))
          const agg = createCandleAggregator(opts)
          const at = [...new Set(cuts.map((c) => c % (source.length + 1)))].sort((a, b) => a - b)
          let from = 0
          let refusal: unknown
          for (const to of [...at, source.length]) {
            refusal = caught(() => agg.addCandles(source, from, to))
            if (refusal !== undefined) break
            from = to
          }
          if (refusal === undefined) refusal = caught(() => agg.finish())
          if (batch === undefined) expect(refusal).toBeUndefined()
          else {
            expect(refusal).toMatchObject({ code: 'incompatible', index: (batch as MarketDataError).index })
            // the aggregator took the candles before the refused one only: the same as a run over that prefix
            const k = (batch as MarketDataError).index as number
            const prefix = createCandleAggregator(opts)
            prefix.addCandles(source, 0, Math.min(source.length, k + 1))
            expect(agg.current()).toEqual(prefix.current())
          }
        },
      ),
      { numRuns: 100 },
    )
  })

  it('examples: 5m -> 7m names candle, bucket and boundary; 5m -> 1m always refused; one candle taken as is', () => {
    const c = (m: number) => ({
      time: Date.UTC(2026, 0, 5, 0, m),
      open: '1',
      high: '1',
      low: '1',
      close: '1',
      volume: '1',
    })
    const five = [0, 5, 10].map(c)
    expect(caught(() => resampleCandles(five, { timeframe: '7m' }))).toMatchObject({
      code: 'incompatible',
      index: 1,
      message: expect.stringContaining('[2026-01-05T00:05:00.000Z, 2026-01-05T00:10:00.000Z) (5m inferred'),
    })
    expect((caught(() => resampleCandles(five, { timeframe: '7m' })) as Error).message).toContain(
      'boundary 2026-01-05T00:07:00.000Z lies inside it',
    )
    expect(caught(() => resampleCandles([], { timeframe: '1m', sourceTimeframe: '5m' }))).toMatchObject({
      code: 'incompatible',
      field: 'sourceTimeframe',
    })
    expect(caught(() => resampleCandles(five, { timeframe: '1m' }))).toMatchObject({ code: 'incompatible', index: 0 })
    expect(resampleCandles([c(5)], { timeframe: '7m' })).toHaveLength(1)
    expect(caught(() => resampleCandles([c(5)], { timeframe: '7m', sourceTimeframe: '5m' }))).toMatchObject({
      code: 'incompatible',
      index: 0,
    })
    // sparse candles: the smallest gap (10m) is not their frame; declaring it resamples them
    const sparse = [0, 10, 20].map(c)
    expect(caught(() => resampleCandles(sparse, { timeframe: '15m' }))).toMatchObject({
      code: 'incompatible',
      message: expect.stringContaining('give sourceTimeframe'),
    })
    expect(resampleCandles(sparse, { timeframe: '15m', sourceTimeframe: '5m' })).toHaveLength(2)
  })

  it('daily candles in a DST zone: local days nest into weeks and months (the 23-hour day is one day)', () => {
    const timeZone = 'America/New_York'
    const trades: Trade[] = []
    for (let t = Date.UTC(2026, 2, 1, 15); t < Date.UTC(2026, 3, 20); t += 86_400_000)
      trades.push({ time: t, price: '1', volume: '1', side: 'buy' })
    const days = candlesFromTrades(trades, { timeframe: '1d', timeZone })
    for (const T of ['1w', '1M', '2d'] as const)
      expect(resampleCandles(days, { timeframe: T, timeZone })).toEqual(
        candlesFromTrades(trades, { timeframe: T, timeZone }),
      )
  })
})

describe('tpoFromCandles: candles lie whole in a block', () => {
  const hour = (h: number, m = 0) => ({
    time: Date.UTC(2026, 5, 1, h, m),
    open: '1',
    high: '2',
    low: '1',
    close: '2',
    volume: '1',
  })
  it('1h candles with 30m blocks are refused, saying blockSize 1h works; 30m candles with 1h blocks are taken', () => {
    const hours = [12, 9, 11, 10].map((h) => hour(h))
    const e = caught(() => tpoFromCandles(hours, { timeframe: '1d', tickSize: '0.25' }))
    expect(e).toMatchObject({ code: 'incompatible', index: 1, message: expect.stringContaining("blockSize '1h'") })
    expect(
      caught(() => tpoFromCandles(hours, { timeframe: '1d', tickSize: '0.25', sourceTimeframe: '1h' })),
    ).toMatchObject({
      code: 'incompatible',
      field: 'sourceTimeframe',
      message: expect.stringContaining("blockSize '1h'"),
    })
    expect(tpoFromCandles(hours, { timeframe: '1d', tickSize: '0.25', blockSize: '1h' })[0]?.blocks).toHaveLength(4)
    const halves = [hour(9), hour(9, 30), hour(10)]
    expect(tpoFromCandles(halves, { timeframe: '1d', tickSize: '0.25', blockSize: '1h' })[0]?.blocks).toHaveLength(2)
  })
})
