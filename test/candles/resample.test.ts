import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  createCandleAggregator,
  mergeCandles,
  resampleCandles,
  type Candle,
  type CandleColumns,
  type CandleInput,
  type CandleOptions,
} from '../../src/candles/index.js'
import { MarketDataError } from '../../src/errors.js'
import { aggregatorContract, candleSeriesArb, nestingLaw, splitAt } from '../../src/testing/index.js'
import { resolveTimeframe, type TimeframeInput } from '../../src/time/index.js'
import type { SessionType } from '../../src/trades/index.js'
import { referenceResample } from './reference.js'

const RUNS = { numRuns: 15 }
const ZONES = ['UTC', 'America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'America/Sao_Paulo']
const Q = { unit: 'QUARTER' as const, count: 1 }

function toColumns(cs: readonly CandleInput[]): CandleColumns {
  const n = cs.length
  const f = () => new Float64Array(n)
  const out: CandleColumns = {
    time: f(),
    open: f(),
    high: f(),
    low: f(),
    close: f(),
    volume: f(),
    value: f(),
    trades: f(),
    session: new Uint8Array(n),
  }
  cs.forEach((c, i) => {
    out.time[i] = c.time
    out.open[i] = Number(c.open)
    out.high[i] = Number(c.high)
    out.low[i] = Number(c.low)
    out.close[i] = Number(c.close)
    out.volume[i] = Number(c.volume)
    out.value![i] = Number(c.value)
    out.trades![i] = c.trades as number
    out.session![i] = c.session === 'PRE_MARKET' ? 1 : c.session === 'POST_MARKET' ? 2 : 0
  })
  return out
}

// starts a few hours before each zone's DST change, so the series crosses it
const DST_START: Record<string, number> = {
  'America/New_York': Date.UTC(2026, 2, 8, 3),
  'Europe/London': Date.UTC(2026, 2, 28, 22),
  'Australia/Lord_Howe': Date.UTC(2026, 3, 4, 11),
  'America/Sao_Paulo': Date.UTC(2026, 2, 7, 20),
  UTC: Date.UTC(2026, 2, 7, 20),
}
const minuteSeries = (timeZone: string) =>
  candleSeriesArb({
    timeZone,
    start: DST_START[timeZone] ?? Date.UTC(2026, 2, 7, 20),
    maxGapBuckets: 200,
    maxLength: 40,
  })
const daySeries = (timeZone: string) =>
  candleSeriesArb({
    timeframe: resolveTimeframe('1d'),
    timeZone,
    start: Date.UTC(2025, 10, 20),
    maxGapBuckets: 20,
    maxLength: 40,
  })

describe('resampleCandles: nesting law', () => {
  for (const timeZone of ZONES) {
    it(`1m -> 5m -> 15m -> 1h -> 4h -> 1d -> 1w in ${timeZone}`, () => {
      fc.assert(
        nestingLaw<CandleInput[], TimeframeInput>({
          input: minuteSeries(timeZone),
          resample: (x, tf) => resampleCandles(x, { sourceTimeframe: '1m' as const, timeframe: tf, timeZone }),
          chain: ['1m', '5m', '15m', '1h', '4h', '1d', '1w'],
        }),
        { numRuns: 10 },
      )
    })
    it(`1d -> 1M -> 1Q -> 1y in ${timeZone}`, () => {
      fc.assert(
        nestingLaw<CandleInput[], TimeframeInput>({
          input: daySeries(timeZone),
          resample: (x, tf) => resampleCandles(x, { sourceTimeframe: '1d', timeframe: tf, timeZone }),
          chain: ['1d', '1M', Q, '1y'],
        }),
        { numRuns: 15 },
      )
    })
  }
  it('custom counts nest too: 30m -> 90m -> 3h -> 2d (UTC) and 2M -> 2Q ... -> 1y', () => {
    fc.assert(
      nestingLaw<CandleInput[], TimeframeInput>({
        input: minuteSeries('UTC'),
        resample: (x, tf) => resampleCandles(x, { sourceTimeframe: '1m' as const, timeframe: tf }),
        chain: ['30m', { unit: 'MINUTE', count: 90 }, '3h', '2d'],
      }),
      { numRuns: 15 },
    )
    fc.assert(
      nestingLaw<CandleInput[], TimeframeInput>({
        input: daySeries('Europe/Berlin'),
        resample: (x, tf) => resampleCandles(x, { sourceTimeframe: '1d', timeframe: tf, timeZone: 'Europe/Berlin' }),
        chain: ['2M', { unit: 'MONTH', count: 4 }, '1y'],
      }),
      { numRuns: 15 },
    )
  })
})

describe('resampleCandles: the aggregator contract', () => {
  for (const [name, series, opts] of [
    ['1m -> 15m UTC', minuteSeries('UTC'), { timeframe: '15m', sourceTimeframe: '1m' as const }],
    [
      '1m -> 90m New York, sessions',
      minuteSeries('America/New_York'),
      {
        sourceTimeframe: '1m' as const,
        timeframe: { unit: 'MINUTE', count: 90 },
        timeZone: 'America/New_York',
        sessions: ['PRE_MARKET', 'MAINSESSION'],
      },
    ],
    [
      '1d -> 1Q Sao Paulo',
      daySeries('America/Sao_Paulo'),
      { sourceTimeframe: '1d', timeframe: Q, timeZone: 'America/Sao_Paulo' },
    ],
    [
      '1d -> 2w London, tickSize',
      daySeries('Europe/London'),
      { sourceTimeframe: '1d', timeframe: '2w', timeZone: 'Europe/London', tickSize: '0.05' },
    ],
  ] as [string, fc.Arbitrary<CandleInput[]>, CandleOptions & { sourceTimeframe: TimeframeInput }][]) {
    const laws = aggregatorContract<CandleInput, Candle[]>({
      records: series,
      batch: (x) => resampleCandles(x, { ...opts, sourceTimeframe: '1m' as const }),
      stream: (parts) => {
        const agg = createCandleAggregator(opts)
        const out: Candle[] = []
        parts.forEach((p, k) => {
          if (k % 2 === 0) agg.addCandles(p)
          else for (const c of p) agg.addCandle(c)
          out.push(...agg.take())
        })
        return [...out, ...agg.finish()]
      },
      merge: mergeCandles,
      reference: (x) => referenceResample(x, opts),
      invariants: (x, r) => r.length <= x.length,
    })
    for (const law of laws) it(`${name}: ${law.name}`, () => fc.assert(law.property, RUNS))
  }

  it("columns = objects (prices as the numbers' spellings via tickSize), any split of columns", () => {
    fc.assert(
      fc.property(
        minuteSeries('America/New_York'),
        fc.constantFrom<TimeframeInput>('5m', '1h', '1d', '1w', '1M'),
        fc.array(fc.nat(), { maxLength: 3 }),
        (x, timeframe, cuts) => {
          const opts = { sourceTimeframe: '1m' as const, timeframe, timeZone: 'America/New_York', tickSize: '0.25' }
          const want = resampleCandles(x, { ...opts, sourceTimeframe: '1m' as const })
          expect(resampleCandles(toColumns(x), { ...opts, sourceTimeframe: '1m' as const })).toEqual(want)
          const parts = splitAt(
            x,
            [...cuts].map((c) => c % (x.length + 1)).sort((a, b) => a - b),
          )
          expect(resampleCandles(parts.map(toColumns), { ...opts, sourceTimeframe: '1m' as const })).toEqual(want)
        },
      ),
      RUNS,
    )
  })

  it('session filter before or after gives the same result', () => {
    fc.assert(
      fc.property(
        minuteSeries('UTC'),
        fc.subarray<SessionType>(['MAINSESSION', 'PRE_MARKET', 'POST_MARKET']),
        (x, sessions) => {
          expect(resampleCandles(x, { sourceTimeframe: '1m' as const, timeframe: '15m', sessions })).toEqual(
            resampleCandles(
              x.filter((c) => sessions.includes(c.session ?? 'MAINSESSION')),
              { sourceTimeframe: '1m' as const, timeframe: '15m' },
            ),
          )
        },
      ),
      RUNS,
    )
  })
})

describe('resampleCandles: the columnar fast path on awkward prices', () => {
  // prices on a grid, with many decimals, past 2^52 units, tiny, negative; mixed with string spellings
  // of more decimals than a double holds (object parts), in one stream
  const price = fc.oneof(
    fc.integer({ min: -400, max: 400 }).map((k) => k / 4),
    fc.double({ min: -1e6, max: 1e6, noNaN: true }),
    fc.integer({ min: 1, max: 9 }).map((k) => k * 1e21),
    fc.integer({ min: 1, max: 999 }).map((k) => k / 1e9),
    fc.constantFrom(0.1, 0.3, 5000.25, -0, 123456789.123, 2 ** 52 + 2),
  )
  const candle = fc.record({
    dt: fc.constantFrom(0, 0, 1, 1, 7, 30).map((k) => k * 60_000),
    p: fc.array(price, { minLength: 4, maxLength: 4 }),
    v: fc.oneof(
      fc.nat(1000),
      fc.integer({ min: 0, max: 10 ** 6 }).map((k) => k / 1000),
    ),
    x: fc.oneof(
      fc.integer({ min: -(10 ** 6), max: 10 ** 6 }),
      fc.integer({ min: -(10 ** 6), max: 10 ** 6 }).map((k) => k / 100),
    ),
    n: fc.nat(50),
    str: fc.boolean(),
  })
  const series = fc.array(candle, { minLength: 1, maxLength: 40 }).map((xs) => {
    let t = Date.UTC(2026, 4, 29, 9)
    return xs.map(({ dt, p, v, x, n, str }) => {
      t += dt
      const [l, a, b, h] = [...p].sort((u, w) => u - w) as [number, number, number, number]
      const c: CandleInput = { time: t, open: a, high: h, low: l, close: b, volume: v, value: x, trades: n }
      // a string twin with more decimals than a double holds, same order as the numbers
      return str
        ? {
            ...c,
            high: `${BigInt(Math.trunc(h)) + 1n}.0000000000000000000001`,
            low: `${BigInt(Math.floor(l)) - 1n}.9999999999999999999999`,
          }
        : c
    })
  })
  it('equals the big.js reference when each part goes in as columns or as objects, any split', () => {
    fc.assert(
      fc.property(
        series,
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.constantFrom<TimeframeInput>('15m', '1h', '1d'),
        (x, cuts, timeframe) => {
          const opts = { sourceTimeframe: '1m' as const, timeframe }
          const want = referenceResample(x, opts)
          const parts = splitAt(
            x,
            [...cuts].map((c) => c % (x.length + 1)).sort((a, b) => a - b),
          )
          // a part goes in as columns when all its prices are numbers, else as objects
          const fed = parts.map((p) =>
            p.every((c) => typeof c.high === 'number' && typeof c.low === 'number') ? toColumns(p) : p,
          )
          const agg = createCandleAggregator(opts)
          for (const p of fed) {
            if (Array.isArray(p)) agg.addCandles(p)
            else agg.addCandleColumns(p)
          }
          expect(agg.finish()).toEqual(want)
          expect(
            resampleCandles(toColumns(x.map((c) => ({ ...c, high: Number(c.high), low: Number(c.low) }))), opts),
          ).toEqual(
            referenceResample(
              x.map((c) => ({ ...c, high: Number(c.high), low: Number(c.low) })),
              opts,
            ),
          )
        },
      ),
      { numRuns: 150 },
    )
  })
})

describe('resampleCandles: examples, equal times, errors', () => {
  const c = (
    time: number,
    o: string,
    h: string,
    l: string,
    cl: string,
    v: string,
    extra: Partial<CandleInput> = {},
  ): CandleInput => ({ time, open: o, high: h, low: l, close: cl, volume: v, ...extra })
  const m = 60_000

  it('combines, keeps spellings, omits value / trades when an input lacks them', () => {
    const out = resampleCandles(
      [
        c(0, '10.0', '12', '9', '11', '1.5', { value: '15', trades: 2, session: 'PRE_MARKET' }),
        c(m, '11', '12.00', '8.5', '9', '2', { value: '20', trades: 1 }),
        c(16 * m, '9', '9', '9', '9', '0', { trades: 0 }),
      ],
      { timeframe: '15m' },
    )
    expect(out).toEqual([
      {
        time: 0,
        open: '10.0',
        high: '12',
        low: '8.5',
        close: '9',
        volume: '3.5',
        value: '35',
        trades: 3,
        session: 'PRE_MARKET',
      },
      { time: 15 * m, open: '9', high: '9', low: '9', close: '9', volume: '0', trades: 0, session: 'MAINSESSION' },
    ])
  })

  it('allows equal times (taken in input order), so resampling concatenated partials works', () => {
    const out = resampleCandles([c(0, '1', '2', '1', '2', '1'), c(0, '2', '5', '0.5', '3', '1')], {
      sourceTimeframe: '1m' as const,
      timeframe: '1m',
    })
    expect(out).toEqual([
      { time: 0, open: '1', high: '5', low: '0.5', close: '3', volume: '2', session: 'MAINSESSION' },
    ])
  })

  it('names index and field of bad or out-of-order candles', () => {
    const good = c(0, '1', '2', '1', '2', '1')
    const fails = (x: unknown[], field: string, index: number, code?: string) => {
      try {
        resampleCandles(x as CandleInput[], { sourceTimeframe: '1m' as const, timeframe: '5m' })
      } catch (e) {
        expect(e).toBeInstanceOf(MarketDataError)
        expect(e).toMatchObject({ field, index, ...(code ? { code } : {}) })
        return
      }
      throw new Error('did not throw')
    }
    fails([good, { ...good, time: -1 }], 'time', 1, 'out_of_order')
    fails([good, good, { ...good, high: '1.5' }], 'high', 2)
    fails([good, { ...good, low: '3', high: '4' }], 'low', 1)
    fails([good, { ...good, volume: '-1' }], 'volume', 1, 'invalid_volume')
    fails([good, { ...good, open: 'abc' }], 'open', 1, 'invalid_decimal')
    fails([good, { ...good, trades: 1.5 }], 'trades', 1)
    fails([good, { ...good, session: 'X' }], 'session', 1)
    fails([good, { ...good, time: Number.NaN }], 'time', 1, 'invalid_time')
    fails([null], 'candle', 0)
    expect(() => resampleCandles([good], { sourceTimeframe: '1m' as const, timeframe: '5t' })).toThrow(/tick/)
  })
})

describe('mergeCandles', () => {
  it('refuses partials that overlap in time and never mutates', () => {
    const a: CandleInput[] = [{ time: 60_000, open: 1, high: 1, low: 1, close: 1, volume: 1 }]
    const b: CandleInput[] = [{ time: 0, open: 1, high: 1, low: 1, close: 1, volume: 1 }]
    expect(() => mergeCandles(a, b)).toThrow(expect.objectContaining({ code: 'incompatible' }))
    const before = structuredClone([a, b])
    mergeCandles(b, a)
    expect([a, b]).toEqual(before)
    expect(mergeCandles(b, a)).toEqual([
      { time: 0, open: '1', high: '1', low: '1', close: '1', volume: '1', session: 'MAINSESSION' },
      { time: 60_000, open: '1', high: '1', low: '1', close: '1', volume: '1', session: 'MAINSESSION' },
    ])
  })

  it('refuses a boundary trade count past 2^53 - 1 (inexact) and keeps one at it', () => {
    const c = (trades: number): CandleInput => ({ time: 0, open: 1, high: 1, low: 1, close: 1, volume: 1, trades })
    expect(() => mergeCandles([c(Number.MAX_SAFE_INTEGER)], [c(1)])).toThrow(
      expect.objectContaining({ code: 'inexact', field: 'trades' }),
    )
    expect(mergeCandles([c(Number.MAX_SAFE_INTEGER - 1)], [c(1)])[0]?.trades).toBe(Number.MAX_SAFE_INTEGER)
  })
})
