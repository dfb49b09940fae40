// The columnar fast loops (trade runs, candle columns) against the big.js reference, on inputs built to hit
// every bail-out: sums near 2^52 / 2^53, many decimals, negative and huge prices, equal, unsorted and
// fractional times, invalid sides and sessions, filtered sessions, tick frames, slices past 16384 records.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  candleColumnsFromTrades,
  candlesFromTrades,
  createCandleAggregator,
  resampleCandles,
  type CandleColumns,
  type CandleInput,
  type CandleOptions,
} from '../../src/candles/index.js'
import { MarketDataError } from '../../src/errors.js'
import type { SessionType, Trade, TradeColumns } from '../../src/trades/index.js'
import { referenceCandlesFromTrades, referenceResample } from './reference.js'
import { buildCandles, candleArb, priceArb, SESSIONS, T0, volumeArb } from './arbitraries.js'
import { ALL_COLUMNS as ALL, asColumns } from './helpers.js'

const MAX_TIME = 8.64e15
/** One record: time step (0 = equal time), repeat count of its price and volume (long runs feed the tight loop). */
const recordArb = fc.record({
  step: fc.oneof(
    { weight: 5, arbitrary: fc.integer({ min: 0, max: 20_000 }) },
    { weight: 1, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.integer({ min: 60_000, max: 4_000_000 }) },
  ),
  price: priceArb,
  volume: volumeArb,
  side: fc.constantFrom(1, 2),
  session: fc.oneof({ weight: 5, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constantFrom(1, 2) }),
  repeat: fc.oneof(fc.constant(1), fc.integer({ min: 2, max: 40 })),
})
const optsArb: fc.Arbitrary<CandleOptions> = fc.record(
  {
    timeframe: fc.constantFrom<CandleOptions['timeframe']>('1m', '15m', '1h', '3t', '50t'),
    sessions: fc.option(fc.subarray(SESSIONS, { minLength: 1 }), { nil: undefined }),
  },
  { requiredKeys: ['timeframe'] },
)

type Rec = typeof recordArb extends fc.Arbitrary<infer R> ? R : never

function build(recs: Rec[], withSession: boolean): { cols: TradeColumns; trades: Trade[] } {
  const rows: { t: number; p: number; v: number; sd: number; s: number }[] = []
  let t = T0
  for (const r of recs) {
    for (let k = 0; k < r.repeat; k++) {
      t += k === 0 ? r.step : r.step % 3
      rows.push({ t, p: r.price, v: r.volume, sd: r.side, s: withSession ? r.session : 0 })
    }
  }
  const n = rows.length
  const cols: TradeColumns = {
    time: new Float64Array(n),
    price: new Float64Array(n),
    volume: new Float64Array(n),
    side: new Uint8Array(n),
    ...(withSession ? { session: new Uint8Array(n) } : {}),
  }
  rows.forEach((r, i) => {
    cols.time[i] = r.t
    cols.price[i] = r.p
    cols.volume[i] = r.v
    cols.side[i] = r.sd
    if (cols.session !== undefined) cols.session[i] = r.s
  })
  return {
    cols,
    trades: rows.map((r) => ({
      time: r.t,
      price: r.p,
      volume: r.v,
      side: r.sd === 1 ? 'buy' : 'sell',
      ...(withSession && r.s !== 0 ? { session: SESSIONS[r.s] as SessionType } : {}),
    })),
  }
}

/** The first record the columns must refuse, by the rules (not by the library), or -1. */
function firstInvalid(c: TradeColumns): number {
  let last = Number.NEGATIVE_INFINITY
  for (let i = 0; i < c.time.length; i++) {
    const t = c.time[i] as number
    if (!(t >= -MAX_TIME && t <= MAX_TIME) || Math.floor(t) !== t || t < last) return i
    last = t
    const sd = c.side[i] as number
    if (sd !== 1 && sd !== 2) return i
    if (c.session !== undefined && (c.session[i] as number) > 2) return i
    const v = c.volume[i] as number
    if (!(v >= 0) || !Number.isFinite(v)) return i
    if (!Number.isFinite(c.price[i] as number)) return i
  }
  return -1
}

describe('columnar trades fast path = big.js reference', () => {
  it('valid columns, with and without a session column, any frame, sessions filter; batch = uneven batches', () => {
    fc.assert(
      fc.property(
        fc.array(recordArb, { maxLength: 60 }),
        fc.boolean(),
        optsArb,
        fc.array(fc.nat(), { maxLength: 3 }),
        (recs, withSession, opts, cuts) => {
          const { cols, trades } = build(recs, withSession)
          const want = referenceCandlesFromTrades(trades, opts)
          expect(candlesFromTrades(cols, opts)).toEqual(want)
          // columns out: the same candles as numbers, or inexact when a sum has more digits than a double carries
          const { cols: wantCols, inexact } = asColumns(want, ALL)
          if (inexact)
            expect(() => candleColumnsFromTrades(cols, opts)).toThrow(expect.objectContaining({ code: 'inexact' }))
          else expect(candleColumnsFromTrades(cols, opts)).toEqual(wantCols)
          const n = cols.time.length
          const at = [...new Set(cuts.map((x) => x % (n + 1)))].sort((a, b) => a - b)
          const agg = createCandleAggregator({ ...opts, sourceTimeframe: '1m' })
          let prev = 0
          for (const b of [...at, n]) {
            const sub = (a: Float64Array | Uint8Array) => a.slice(prev, b)
            agg.addColumns({
              time: sub(cols.time) as Float64Array,
              price: sub(cols.price) as Float64Array,
              volume: sub(cols.volume) as Float64Array,
              side: sub(cols.side) as Uint8Array,
              ...(cols.session ? { session: sub(cols.session) as Uint8Array } : {}),
            })
            prev = b
          }
          expect(agg.finish()).toEqual(want)
        },
      ),
      { numRuns: 150 },
    )
  })

  it('a bad record anywhere (unsorted, fractional or out-of-range time, side, session, volume, price) throws at its index', () => {
    const badArb = fc.record({
      field: fc.constantFrom('back', 'frac', 'far', 'nan', 'side0', 'side3', 'session', 'neg', 'infv', 'infp'),
      at: fc.nat(),
    })
    fc.assert(
      fc.property(
        fc.array(recordArb, { minLength: 1, maxLength: 40 }),
        badArb,
        fc.option(fc.subarray(SESSIONS, { minLength: 1 }), { nil: undefined }),
        (recs, bad, sessions) => {
          const { cols } = build(recs, true)
          const i = bad.at % cols.time.length
          const t = cols.time[i] as number
          if (bad.field === 'back') cols.time[i] = t - 1 - (i > 0 ? t - (cols.time[i - 1] as number) : 0)
          if (bad.field === 'frac') cols.time[i] = t + 0.5
          if (bad.field === 'far') cols.time[i] = MAX_TIME + 1
          if (bad.field === 'nan') cols.time[i] = Number.NaN
          if (bad.field === 'side0') cols.side[i] = 0
          if (bad.field === 'side3') cols.side[i] = 3
          if (bad.field === 'session') (cols.session as Uint8Array)[i] = 32
          if (bad.field === 'neg') cols.volume[i] = -1
          if (bad.field === 'infv') cols.volume[i] = Number.POSITIVE_INFINITY
          if (bad.field === 'infp') cols.price[i] = Number.NEGATIVE_INFINITY
          const want = firstInvalid(cols)
          for (const timeframe of ['1m', '4t'] as const) {
            const opts = { timeframe, ...(sessions !== undefined ? { sessions } : {}) }
            const caught = (f: () => unknown): unknown => {
              try {
                f()
              } catch (e) {
                return e
              }
              return undefined
            }
            const got = caught(() => candlesFromTrades(cols, opts))
            if (want < 0) expect(got).toBeUndefined()
            else {
              expect(got).toBeInstanceOf(MarketDataError)
              expect((got as MarketDataError).index).toBe(want)
            }
            // columns out: the same error (code, index, field), or inexact sums only when the input is valid
            const gotCols = caught(() => candleColumnsFromTrades(cols, opts))
            const fields = (e: unknown) => {
              const m = e as MarketDataError
              return { name: m.name, code: m.code, index: m.index, field: m.field, message: m.message }
            }
            if (want >= 0) expect(fields(gotCols)).toEqual(fields(got))
            else if (gotCols !== undefined) expect(gotCols).toMatchObject({ code: 'inexact' })
          }
        },
      ),
      { numRuns: 200 },
    )
  })

  it('one long price run whose volume passes 2^52 and 2^53 units (whole lots and 8 decimals), over slices of 16384', () => {
    for (const [v, big] of [
      [2 ** 40, 5000],
      [1.5e12, 7000],
      [0.12345678, 20_000],
      [123456.12345678, 40_000],
    ] as const) {
      const n = big
      const trades: Trade[] = Array.from({ length: n }, (_, i) => ({
        time: T0 + i * 10,
        price: i % 9000 === 8999 ? -2.25 : 4503599627.25,
        volume: v,
        side: 'buy',
      }))
      const cols: TradeColumns = {
        time: new Float64Array(trades.map((t) => t.time)),
        price: new Float64Array(trades.map((t) => t.price as number)),
        volume: new Float64Array(n).fill(v),
        side: new Uint8Array(n).fill(1),
      }
      for (const timeframe of ['1d', '1000t'] as const)
        expect(candlesFromTrades(cols, { timeframe })).toEqual(referenceCandlesFromTrades(trades, { timeframe }))
    }
  })
})

describe('columnar candles fast path = big.js reference', () => {
  const hasArb = fc.record({ value: fc.boolean(), trades: fc.boolean(), session: fc.boolean() })
  const frameArb = fc.record(
    {
      timeframe: fc.constantFrom<CandleOptions['timeframe']>('15m', '1h', '1d'),
      sessions: fc.option(fc.subarray(SESSIONS, { minLength: 1 }), { nil: undefined }),
    },
    { requiredKeys: ['timeframe'] },
  )

  it('valid columns: sums near 2^52 / 2^53, many decimals, negative prices, equal times, optional columns; batch = uneven batches', () => {
    fc.assert(
      fc.property(
        fc.array(candleArb, { maxLength: 50 }),
        hasArb,
        frameArb,
        fc.array(fc.nat(), { maxLength: 3 }),
        (recs, has, opts, cuts) => {
          const { cols, objs } = buildCandles(recs, has)
          const want = referenceResample(objs, opts)
          if (want.some((c) => (c.trades ?? 0) > Number.MAX_SAFE_INTEGER)) {
            // a trade count past 2^53 - 1 has no exact number: refused at the record that passes it
            expect(() => resampleCandles(cols, { ...opts, sourceTimeframe: '1m' })).toThrow(
              expect.objectContaining({ code: 'inexact', field: 'trades' }),
            )
            return
          }
          expect(resampleCandles(cols, { ...opts, sourceTimeframe: '1m' })).toEqual(want)
          const n = cols.time.length
          const at = [...new Set(cuts.map((x) => x % (n + 1)))].sort((a, b) => a - b)
          const agg = createCandleAggregator({ ...opts, sourceTimeframe: '1m' })
          let prev = 0
          for (const b of [...at, n]) {
            const part = {} as Record<string, Float64Array | Uint8Array>
            for (const [k, v] of Object.entries(cols)) part[k] = (v as Float64Array).slice(prev, b)
            agg.addCandleColumns(part as unknown as CandleColumns)
            prev = b
          }
          expect(agg.finish()).toEqual(want)
        },
      ),
      { numRuns: 150 },
    )
  })

  it('a bad candle anywhere (unsorted or fractional time, OHLC out of order, negative or fractional-unit volume, trades, session) throws at its index', () => {
    const badArb = fc.record({
      field: fc.constantFrom(
        'back',
        'frac',
        'far',
        'lowOpen',
        'highClose',
        'closeAbove',
        'closeBelow',
        'infHigh',
        'negVol',
        'nanVol',
        'nanValue',
        'fracTrades',
        'negTrades',
        'session',
      ),
      at: fc.nat(),
    })
    fc.assert(
      fc.property(fc.array(candleArb, { minLength: 1, maxLength: 40 }), badArb, frameArb, (recs, bad, opts) => {
        const { cols, objs } = buildCandles(recs, { value: true, trades: true, session: true })
        // no trade count past 2^53 - 1 (refused on its own) before the bad candle
        fc.pre(referenceResample(objs, opts).every((c) => (c.trades ?? 0) <= Number.MAX_SAFE_INTEGER))
        const n = cols.time.length
        // a time before the previous one needs a previous one
        const i = bad.field === 'back' ? (n > 1 ? 1 + (bad.at % (n - 1)) : -1) : bad.at % n
        fc.pre(i >= 0)
        const t = cols.time[i] as number
        if (bad.field === 'back') cols.time[i] = (cols.time[i - 1] as number) - 1
        if (bad.field === 'frac') cols.time[i] = t + 0.25
        if (bad.field === 'far') cols.time[i] = MAX_TIME + 1
        if (bad.field === 'lowOpen')
          cols.low[i] = (cols.open[i] as number) + Math.max(1, Math.abs(cols.open[i] as number) * 1e-9)
        if (bad.field === 'highClose')
          cols.high[i] = (cols.close[i] as number) - Math.max(1, Math.abs(cols.close[i] as number) * 1e-9)
        const d = (x: number) => Math.max(1, Math.abs(x) * 1e-9)
        if (bad.field === 'closeAbove') cols.close[i] = (cols.high[i] as number) + d(cols.high[i] as number)
        if (bad.field === 'closeBelow') cols.close[i] = (cols.low[i] as number) - d(cols.low[i] as number)
        if (bad.field === 'infHigh') cols.high[i] = Number.POSITIVE_INFINITY
        if (bad.field === 'negVol') cols.volume[i] = -0.5
        if (bad.field === 'nanVol') cols.volume[i] = Number.NaN
        if (bad.field === 'nanValue') (cols.value as Float64Array)[i] = Number.NaN
        if (bad.field === 'fracTrades') (cols.trades as Float64Array)[i] = 1.5
        if (bad.field === 'negTrades') (cols.trades as Float64Array)[i] = -1
        if (bad.field === 'session') (cols.session as Uint8Array)[i] = 35
        let got: unknown
        try {
          resampleCandles(cols, { ...opts, sourceTimeframe: '1m' })
        } catch (e) {
          got = e
        }
        expect(got).toBeInstanceOf(MarketDataError)
        expect((got as MarketDataError).index).toBe(i)
      }),
      { numRuns: 200 },
    )
  })

  it('long columns (slices of 16384) whose volume and value sums pass 2^52 and 2^53, trades 2^52', () => {
    const n = 40_000
    for (const [v, x] of [
      [2 ** 40, 2 ** 41 + 0.25],
      [0.12345678, -1234.5678],
      [1e12, 7.5e12],
    ] as const) {
      const objs: CandleInput[] = Array.from({ length: n }, (_, i) => ({
        time: T0 + i * 60_000,
        open: 10.5,
        high: 11 + (i % 7),
        low: -3.25 + (i % 5),
        close: 10.5,
        volume: v,
        value: x,
        trades: 2 ** 39,
      }))
      const { cols } = {
        cols: {
          time: new Float64Array(objs.map((o) => o.time)),
          open: new Float64Array(n).fill(10.5),
          high: new Float64Array(objs.map((o) => o.high as number)),
          low: new Float64Array(objs.map((o) => o.low as number)),
          close: new Float64Array(n).fill(10.5),
          volume: new Float64Array(n).fill(v),
          value: new Float64Array(n).fill(x),
          trades: new Float64Array(n).fill(2 ** 39),
        },
      }
      for (const timeframe of ['1d', '1w'] as const)
        expect(resampleCandles(cols, { sourceTimeframe: '1m', timeframe })).toEqual(
          referenceResample(objs, { timeframe }),
        )
    }
  })

  it('a trade count past 2^53 - 1 is refused (inexact, field trades) at the candle that passes it, columns or objects, any batch', () => {
    for (const at of [1, 2, 5, 20_000]) {
      const n = at + 3
      // counts 1 before `at`, where the count makes the hour's total 2^53, then 0
      const trades = new Float64Array(n).map((_, i) => (i < at ? 1 : 0))
      trades[at] = Number.MAX_SAFE_INTEGER - at + 1
      const cols: CandleColumns = {
        time: new Float64Array(n).map((_, i) => T0 + i),
        open: new Float64Array(n).fill(1),
        high: new Float64Array(n).fill(1),
        low: new Float64Array(n).fill(1),
        close: new Float64Array(n).fill(1),
        volume: new Float64Array(n).fill(1),
        trades,
      }
      const objs: CandleInput[] = Array.from({ length: n }, (_, i) => ({
        time: T0 + i,
        open: 1,
        high: 1,
        low: 1,
        close: 1,
        volume: 1,
        trades: trades[i] as number,
      }))
      const refused = expect.objectContaining({ code: 'inexact', field: 'trades', index: at })
      expect(() => resampleCandles(cols, { sourceTimeframe: '1m', timeframe: '1h' })).toThrow(refused)
      expect(() => resampleCandles(objs, { sourceTimeframe: '1m', timeframe: '1h' })).toThrow(refused)
      // one candle short of it is exact
      expect(
        resampleCandles(
          cols.time.length > at ? { ...cols, trades: trades.map((x, i) => (i === at ? x - 1 : x)) } : cols,
          { sourceTimeframe: '1m', timeframe: '1h' },
        )[0]?.trades,
      ).toBe(Number.MAX_SAFE_INTEGER)
    }
  })
})

describe('candle columns after candle objects in one bucket', () => {
  it('an extreme or close spelled by an object ("10.50") keeps its spelling when later columns do not pass it', () => {
    const opts = { timeframe: '15m' as const }
    const objs: CandleInput[] = [
      { time: T0, open: '10.00', high: '10.50', low: '9.750', close: '10.00', volume: '2', value: '20.5', trades: 2 },
    ]
    const n = 3
    const cols: CandleColumns = {
      time: new Float64Array([T0 + 60_000, T0 + 120_000, T0 + 900_000]),
      open: new Float64Array(n).fill(10),
      high: new Float64Array(n).fill(10.25),
      low: new Float64Array(n).fill(10),
      close: new Float64Array(n).fill(10.25),
      volume: new Float64Array(n).fill(1),
      value: new Float64Array(n).fill(10.25),
      trades: new Float64Array(n).fill(1),
    }
    const agg = createCandleAggregator({ ...opts, sourceTimeframe: '1m' })
    agg.addCandles(objs)
    agg.addCandleColumns(cols)
    const got = agg.finish()
    const all: CandleInput[] = [
      ...objs,
      ...Array.from({ length: n }, (_, i) => ({
        time: cols.time[i] as number,
        open: 10,
        high: 10.25,
        low: 10,
        close: 10.25,
        volume: 1,
        value: 10.25,
        trades: 1,
      })),
    ]
    expect(got).toEqual(referenceResample(all, opts))
    expect(got[0]).toMatchObject({ open: '10.00', high: '10.50', low: '9.750', close: '10.25', volume: '4', trades: 4 })
  })
})

describe('trade columns: side and session codes checked 4 bytes at a time', () => {
  it('any bad code at any position of a view at any byte offset throws at its index; all-good codes give the reference', () => {
    const codeArb = fc.record({
      n: fc.integer({ min: 1, max: 70 }),
      offset: fc.integer({ min: 0, max: 7 }),
      sides: fc.array(fc.constantFrom(1, 2), { minLength: 70, maxLength: 70 }),
      sessions: fc.array(fc.constantFrom(0, 1, 2), { minLength: 70, maxLength: 70 }),
      bad: fc.array(
        fc.record({
          at: fc.nat(),
          side: fc.boolean(),
          code: fc.oneof(fc.constantFrom(0, 3, 4, 255, 128, 129), fc.integer({ min: 0, max: 255 })),
        }),
        { maxLength: 3 },
      ),
      withSession: fc.boolean(),
    })
    fc.assert(
      fc.property(codeArb, ({ n, offset, sides, sessions, bad, withSession }) => {
        const sideBuf = new Uint8Array(n + 8)
        const sessBuf = new Uint8Array(n + 8)
        const side = sideBuf.subarray(offset, offset + n)
        const session = sessBuf.subarray(7 - offset, 7 - offset + n)
        for (let i = 0; i < n; i++) {
          side[i] = sides[i] as number
          session[i] = sessions[i] as number
        }
        for (const b of bad) (b.side ? side : withSession ? session : side)[b.at % n] = b.code
        const time = new Float64Array(n).map((_, i) => T0 + i * 1000)
        const cols: TradeColumns = {
          time,
          price: new Float64Array(n).fill(5000.25),
          volume: new Float64Array(n).fill(2),
          side,
          ...(withSession ? { session } : {}),
        }
        let want = -1
        for (let i = 0; i < n && want < 0; i++)
          if ((side[i] !== 1 && side[i] !== 2) || (withSession && (session[i] as number) > 2)) want = i
        let got: unknown
        let out: unknown
        try {
          out = candlesFromTrades(cols, { timeframe: '1h' })
        } catch (e) {
          got = e
        }
        if (want >= 0) expect((got as MarketDataError).index).toBe(want)
        else {
          const trades: Trade[] = Array.from({ length: n }, (_, i) => ({
            time: time[i] as number,
            price: 5000.25,
            volume: 2,
            side: side[i] === 1 ? 'buy' : 'sell',
            ...(withSession && session[i] !== 0 ? { session: SESSIONS[session[i] as number] as SessionType } : {}),
          }))
          expect(out).toEqual(referenceCandlesFromTrades(trades, { timeframe: '1h' }))
        }
      }),
      { numRuns: 400 },
    )
    // every bad code that a word test must see, at every position of views at every byte offset
    for (const [field, code] of [
      ['side', 0],
      ['side', 3],
      ['side', 255],
      ['session', 3],
      ['session', 4],
      ['session', 255],
      ['session', 129],
    ] as const) {
      for (let offset = 0; offset < 4; offset++) {
        for (let at = 0; at < 13; at++) {
          const n = 13
          const side = new Uint8Array(n + 4).subarray(offset, offset + n).fill(2)
          const session = new Uint8Array(n + 4).subarray(3 - offset, 3 - offset + n).fill(1)
          ;(field === 'side' ? side : session)[at] = code
          const cols: TradeColumns = {
            time: new Float64Array(n).map((_, i) => T0 + i),
            price: new Float64Array(n).fill(1.5),
            volume: new Float64Array(n).fill(1),
            side,
            session,
          }
          expect(() => candlesFromTrades(cols, { timeframe: '1m' })).toThrow(
            expect.objectContaining({ index: at, field }),
          )
        }
      }
    }
  })
})

describe('candle columns: session codes checked 4 bytes at a time', () => {
  it('a bad session code at any position of a view at any byte offset throws at its index; a filtered session still tests each', () => {
    const n = 13
    for (const code of [3, 4, 129, 255]) {
      for (let offset = 0; offset < 4; offset++) {
        for (let at = 0; at < n; at++) {
          const session = new Uint8Array(n + 4).subarray(offset, offset + n).fill(2)
          session[at] = code
          const f = (x: number) => new Float64Array(n).fill(x)
          const cols: CandleColumns = {
            time: new Float64Array(n).map((_, i) => T0 + i * 60_000),
            open: f(10),
            high: f(11),
            low: f(9),
            close: f(10),
            volume: f(1),
            value: f(10),
            trades: f(1),
            session,
          }
          for (const sessions of [undefined, ['POST_MARKET'] as SessionType[]]) {
            expect(() =>
              resampleCandles(cols, { sourceTimeframe: '1m', timeframe: '1h', ...(sessions ? { sessions } : {}) }),
            ).toThrow(expect.objectContaining({ index: at, field: 'session' }))
          }
        }
      }
    }
  })
})

describe('trade columns: blocks of 4 in one price run', () => {
  it('an odd record at any position of a long run (fractional, negative or huge volume, time back or fractional, another price) is taken exactly or refused at its index', () => {
    const n = 23
    const base = () => ({
      time: new Float64Array(n).map((_, i) => T0 + i * 7),
      price: new Float64Array(n).fill(5000.25),
      volume: new Float64Array(n).fill(3),
      side: new Uint8Array(n).fill(1),
      session: new Uint8Array(n),
    })
    const toTrades = (c: ReturnType<typeof base>): Trade[] =>
      Array.from({ length: n }, (_, i) => ({
        time: c.time[i] as number,
        price: c.price[i] as number,
        volume: c.volume[i] as number,
        side: 'buy',
      }))
    for (let at = 1; at < n; at++) {
      for (const kind of ['vFrac', 'vHuge', 'vZero', 'pOther', 'tEqual', 'vNeg', 'tBack', 'tFrac']) {
        const c = base()
        if (kind === 'vFrac') c.volume[at] = 1.5
        if (kind === 'vHuge') c.volume[at] = 2 ** 53
        if (kind === 'vZero') c.volume[at] = -0
        if (kind === 'pOther') c.price[at] = -5000.5
        if (kind === 'tEqual') c.time[at] = c.time[at - 1] as number
        if (kind === 'vNeg') c.volume[at] = -1
        if (kind === 'tBack') c.time[at] = (c.time[at - 1] as number) - 1
        if (kind === 'tFrac') c.time[at] = (c.time[at] as number) + 0.5
        for (const timeframe of ['1h', '5t'] as const) {
          if (kind === 'vNeg' || kind === 'tBack' || kind === 'tFrac')
            expect(() => candlesFromTrades(c, { timeframe })).toThrow(expect.objectContaining({ index: at }))
          else
            expect(candlesFromTrades(c, { timeframe })).toEqual(referenceCandlesFromTrades(toTrades(c), { timeframe }))
        }
      }
    }
  })
})

describe('trade columns: price changes inside the candle loop', () => {
  it('value and volume sums that pass 2^52 and 2^53 units only through many price changes (runs of 1..6) stay exact', () => {
    // odd units x odd volumes: sums past 2^53 would round if kept in a double
    const units = (s: string | undefined): bigint => {
      const [ip = '0', fp = ''] = (s ?? '0').split('.')
      return BigInt(ip + fp.padEnd(2, '0'))
    }
    // price runs of `run` trades: prices[1] every `every`-th run, prices[0] otherwise
    const cases = [
      { prices: [4503599627.25, 4503599627.75], every: 2, v: 999, n: 400, big: 'value' },
      { prices: [4503599627.25, 4503599627.75], every: 2, v: 2 ** 40 + 1, n: 400, big: 'value' },
      { prices: [0.25, 0.75], every: 2, v: 2 ** 44 + 1, n: 1200, big: 'volume' },
      // value grows slower than volume: volume alone passes 2^53
      { prices: [0, 0.01], every: 5, v: 2 ** 44 + 1, n: 1200, big: 'volume' },
    ] as const
    for (const run of [1, 2, 3, 4, 5, 6]) {
      for (const { prices, every, v, n, big } of cases) {
        const price = new Float64Array(n).map((_, i) => prices[Math.floor(i / run) % every === 0 ? 1 : 0] as number)
        const cols: TradeColumns = {
          time: new Float64Array(n).map((_, i) => T0 + i),
          price,
          volume: new Float64Array(n).fill(v),
          side: new Uint8Array(n).fill(1),
        }
        const trades: Trade[] = Array.from({ length: n }, (_, i) => ({
          time: T0 + i,
          price: price[i] as number,
          volume: v,
          side: 'buy',
        }))
        const want = referenceCandlesFromTrades(trades, { timeframe: '1d' })
        // the case is the one meant: the exact sum in units (value at 2 decimals, volume whole) passes 2^53
        expect(big === 'value' ? units(want[0]?.value) : BigInt(want[0]?.volume ?? '0')).toBeGreaterThan(2n ** 53n)
        expect(candlesFromTrades(cols, { timeframe: '1d' })).toEqual(want)
      }
    }
  })
})

describe('candle columns: pairs of whole-volume candles', () => {
  it('an odd candle at any position (volume, trades, time, value, OHLC) is taken exactly or refused at its index', () => {
    const n = 15
    const f = (x: number) => new Float64Array(n).fill(x)
    const base = (): Required<Omit<CandleColumns, 'session'>> & { session: Uint8Array } => ({
      time: new Float64Array(n).map((_, i) => T0 + i * 60_000),
      open: f(10),
      high: f(11),
      low: f(9),
      close: f(10.5),
      volume: f(3),
      value: f(31.5),
      trades: f(2),
      session: new Uint8Array(n),
    })
    const toObjs = (c: ReturnType<typeof base>): CandleInput[] =>
      Array.from({ length: n }, (_, i) => ({
        time: c.time[i] as number,
        open: c.open[i] as number,
        high: c.high[i] as number,
        low: c.low[i] as number,
        close: c.close[i] as number,
        volume: c.volume[i] as number,
        value: c.value[i] as number,
        trades: c.trades[i] as number,
      }))
    const bad = ['vNeg', 'tBack', 'tFrac', 'nFrac', 'nNeg', 'closeAbove', 'lowAbove', 'xNaN']
    for (let at = 1; at < n; at++) {
      for (const kind of [...bad, 'tEqual', 'vFrac', 'xHalf', 'xNegHalf', 'xBigPair', 'hiLo', 'nHuge']) {
        const c = base()
        if (kind === 'vNeg') c.volume[at] = -2
        if (kind === 'tBack') c.time[at] = (c.time[at - 1] as number) - 1
        if (kind === 'tFrac') c.time[at] = (c.time[at] as number) + 0.5
        if (kind === 'nFrac') c.trades[at] = 1.5
        if (kind === 'nNeg') c.trades[at] = -1
        if (kind === 'closeAbove') c.close[at] = 12
        if (kind === 'lowAbove') c.low[at] = 10.25
        if (kind === 'xNaN') c.value[at] = Number.NaN
        if (kind === 'tEqual') c.time[at] = c.time[at - 1] as number
        if (kind === 'vFrac') c.volume[at] = 0.5
        if (kind === 'xHalf') c.value[at] = 2 ** 51 / 10 + 0.5
        if (kind === 'xNegHalf') c.value[at] = -(2 ** 51) + 1
        if (kind === 'xBigPair') {
          // units past 2^52 that cancel: summed in doubles they would lose the small values' units
          c.value[at - 1] = -1e16
          c.value[at] = 1e16 + 2
        }
        if (kind === 'hiLo') {
          c.high[at] = 20
          c.low[at] = 1
        }
        if (kind === 'nHuge') c.trades[at] = 2 ** 52
        for (const timeframe of ['1h', '1d'] as const) {
          if (bad.includes(kind))
            expect(() => resampleCandles(c, { sourceTimeframe: '1m', timeframe })).toThrow(
              expect.objectContaining({ index: at }),
            )
          else
            expect(resampleCandles(c, { sourceTimeframe: '1m', timeframe })).toEqual(
              referenceResample(toObjs(c), { timeframe }),
            )
        }
      }
    }
  })
})
