// Edges of the fast loops that the broad fast-path properties reach only by chance: blocks of trades
// ending exactly at a bucket's end, fractional volumes inside a run of one price, negative value sums
// past -2^53 units, extremes at exactly 2^52 units spelled again by a later record, times below the Date
// range, tick candles closed by their last trade, candle columns after candle objects (spellings, extremes
// past 2^52 units), bucket stepping over more than 64 buckets and its opener's checks, and
// resampleCandleColumns' -0 prices and first inexact sum.
import Big from 'big.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  candlesFromTrades,
  createCandleAggregator,
  resampleCandleColumns,
  resampleCandles,
  type Candle,
  type CandleColumns,
  type CandleInput,
  type CandleOptions,
} from '../../src/candles/index.js'
import { MarketDataError } from '../../src/errors.js'
import type { SessionType, Trade, TradeColumns } from '../../src/trades/index.js'
import { buildCandles, candleArb, SESSIONS, T0 } from './arbitraries.js'
import { referenceCandlesFromTrades, referenceResample } from './reference.js'

/** Columns and the same trades as objects (session column only when asked). */
function columnsOf(
  rows: { t: number; p: number; v: number; s: number }[],
  withSession: boolean,
): { cols: TradeColumns; trades: Trade[] } {
  const n = rows.length
  const cols: TradeColumns = {
    time: new Float64Array(rows.map((r) => r.t)),
    price: new Float64Array(rows.map((r) => r.p)),
    volume: new Float64Array(rows.map((r) => r.v)),
    side: new Uint8Array(n).fill(1),
    ...(withSession ? { session: new Uint8Array(rows.map((r) => r.s)) } : {}),
  }
  const trades: Trade[] = rows.map((r) => ({
    time: r.t,
    price: r.p,
    volume: r.v,
    side: 'buy',
    ...(withSession && r.s !== 0 ? { session: SESSIONS[r.s] as SessionType } : {}),
  }))
  return { cols, trades }
}

const sessionsArb = fc.option(fc.subarray(SESSIONS, { minLength: 1 }), { nil: undefined })

describe('trade columns: blocks of one price that end at a bucket end', () => {
  it('trades on a time grid that divides the frame (many land on a bucket end) = big.js reference', () => {
    // steps dividing a minute from a bucket start: runs of 4 same-price trades often end exactly at the
    // next bucket's start, which belongs to the next candle
    const recArb = fc.record({
      step: fc.constantFrom(0, 5_000, 10_000, 15_000, 20_000, 30_000, 60_000),
      price: fc.constantFrom(5000, 5001, 4999, -3),
      volume: fc.constantFrom(0, 1, 2, 7),
      session: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constantFrom(1, 2) }),
      repeat: fc.integer({ min: 1, max: 24 }),
    })
    fc.assert(
      fc.property(
        fc.array(recArb, { maxLength: 30 }),
        fc.boolean(),
        fc.constantFrom('1m', '2m', '1h', '4t'),
        sessionsArb,
        (recs, withSession, timeframe, sessions) => {
          const rows: { t: number; p: number; v: number; s: number }[] = []
          let t = T0
          for (const r of recs) {
            for (let k = 0; k < r.repeat; k++) {
              t += r.step
              rows.push({ t, p: r.price, v: r.volume, s: r.session })
            }
          }
          const { cols, trades } = columnsOf(rows, withSession)
          const opts: CandleOptions = { timeframe, ...(sessions !== undefined ? { sessions } : {}) }
          expect(candlesFromTrades(cols, opts)).toEqual(referenceCandlesFromTrades(trades, opts))
        },
      ),
      { numRuns: 120 },
    )
  })
})

describe('trade columns: fractional volumes inside a run of one price', () => {
  it('whole and fractional volumes mixed in price runs (sums a double would round), sessions filtered or not = big.js reference', () => {
    // 0.1 + 0.2 is not 0.3 in doubles: each volume must be exact at the current volume scale or go the exact way
    const recArb = fc.record({
      price: fc.constantFrom(5000, 5000.5, 17),
      volumes: fc.array(fc.constantFrom(0, 1, 3, 0.1, 0.2, 0.7, 0.5, 0.25, 0.125, 1e-8, 2.35), {
        minLength: 1,
        maxLength: 12,
      }),
      session: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constantFrom(1, 2) }),
    })
    fc.assert(
      fc.property(
        fc.array(recArb, { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        fc.constantFrom('1h', '5t'),
        sessionsArb,
        (recs, withSession, timeframe, sessions) => {
          const rows: { t: number; p: number; v: number; s: number }[] = []
          let t = T0
          for (const r of recs) for (const v of r.volumes) rows.push({ t: (t += 1000), p: r.price, v, s: r.session })
          const { cols, trades } = columnsOf(rows, withSession)
          const opts: CandleOptions = { timeframe, ...(sessions !== undefined ? { sessions } : {}) }
          const want = referenceCandlesFromTrades(trades, opts)
          expect(candlesFromTrades(cols, opts)).toEqual(want)
          expect(candlesFromTrades(trades, opts)).toEqual(want)
        },
      ),
      { numRuns: 120 },
    )
  })
})

describe('prices at exactly ±2^52 units', () => {
  it('an extreme taken from columns keeps its spelling when a later object spells the same price differently', () => {
    // the same decimal spelled "x", "x.0", "x.00" (all scale 0): the first max / min keeps its spelling
    const P = 2 ** 52
    const valueArb = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(P, -P) },
      { weight: 2, arbitrary: fc.constantFrom(P - 1, -(P - 1), P + 2, -(P + 2), 5000) },
    )
    const recArb = fc.record({ value: valueArb, zeros: fc.integer({ min: 0, max: 2 }), asObject: fc.boolean() })
    fc.assert(
      fc.property(fc.array(recArb, { minLength: 1, maxLength: 10 }), fc.constantFrom('1h', '4t'), (recs, timeframe) => {
        const trades: Trade[] = recs.map((r, i) => ({
          time: T0 + i,
          price: r.asObject ? String(r.value) + (r.zeros > 0 ? `.${'0'.repeat(r.zeros)}` : '') : r.value,
          volume: 1,
          side: 'buy',
        }))
        const agg = createCandleAggregator({ timeframe, sourceTimeframe: '1m' })
        const got: Candle[] = []
        // consecutive column records go in as one batch, objects one by one
        for (let i = 0; i < recs.length; ) {
          let j = i
          while (
            j < recs.length &&
            (recs[j] as { asObject: boolean }).asObject === (recs[i] as { asObject: boolean }).asObject
          )
            j++
          const part = trades.slice(i, j)
          if ((recs[i] as { asObject: boolean }).asObject) for (const tr of part) agg.add(tr)
          else
            agg.addColumns({
              time: new Float64Array(part.map((x) => x.time)),
              price: new Float64Array(part.map((x) => x.price as number)),
              volume: new Float64Array(part.length).fill(1),
              side: new Uint8Array(part.length).fill(1),
            })
          got.push(...agg.take())
          i = j
        }
        got.push(...agg.finish())
        expect(got).toEqual(referenceCandlesFromTrades(trades, { timeframe }))
      }),
      { numRuns: 200 },
    )
  })
})

describe('trade columns: negative value sums past -2^52 and -2^53 units', () => {
  it('negative prices whose value sum passes -2^53 units only through price changes stay exact, sessions filtered or not', () => {
    // odd units x odd volumes: a sum past -2^53 would round if kept in a double
    for (const run of [1, 2, 5]) {
      for (const prices of [
        [-4503599627.25, -4503599627.75],
        [-4503599627.25, 12.5],
      ]) {
        for (const v of [999, 2 ** 40 + 1]) {
          const n = 400
          const price = new Float64Array(n).map((_, i) => prices[Math.floor(i / run) % 2] as number)
          const trades: Trade[] = Array.from({ length: n }, (_, i) => ({
            time: T0 + i,
            price: price[i] as number,
            volume: v,
            side: 'buy',
          }))
          for (const sessions of [undefined, ['MAINSESSION'] as SessionType[]]) {
            const opts: CandleOptions = { timeframe: '1d', ...(sessions !== undefined ? { sessions } : {}) }
            const cols: TradeColumns = {
              time: new Float64Array(n).map((_, i) => T0 + i),
              price,
              volume: new Float64Array(n).fill(v),
              side: new Uint8Array(n).fill(1),
              ...(sessions !== undefined ? { session: new Uint8Array(n) } : {}),
            }
            const want = referenceCandlesFromTrades(trades, opts)
            // the case is the one meant: the exact value sum (2 decimals) is below -2^53 units
            expect(new Big(want[0]?.value ?? '0').times(100).lt(-(2 ** 53))).toBe(true)
            expect(candlesFromTrades(cols, opts)).toEqual(want)
            expect(candlesFromTrades(trades, opts)).toEqual(want)
          }
        }
      }
    }
  })
})

describe('times outside the Date range on either side', () => {
  it('a time below -8.64e15 or above 8.64e15 anywhere is refused at its index (columns and objects, any session filter)', () => {
    const MAX_TIME = 8.64e15
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.nat(),
        fc.constantFrom(-1, 1),
        fc.integer({ min: 1, max: 3_600_000 }),
        sessionsArb,
        fc.constantFrom('1m', '1d', '2t'),
        (n, at, sign, past, sessions, timeframe) => {
          const i = at % n
          // the bad time comes first when negative (a later one would be out of order anyway)
          const bad = i === 0 || sign > 0 ? i : 0
          const time = new Float64Array(n).map((_, k) => T0 + k * 1000)
          time[bad] = sign * (MAX_TIME + past)
          const rows = Array.from(time, (t) => ({ t, p: 5000, v: 1, s: 0 }))
          const { cols, trades } = columnsOf(rows, false)
          const opts: CandleOptions = { timeframe, ...(sessions !== undefined ? { sessions } : {}) }
          const refused = expect.objectContaining({ code: 'invalid_time', index: bad, field: 'time' })
          expect(() => candlesFromTrades(cols, opts)).toThrow(refused)
          expect(() => candlesFromTrades(trades, opts)).toThrow(refused)
        },
      ),
      { numRuns: 100 },
    )
  })
})

describe('tick frames: a candle closes with its last trade', () => {
  it('after any batch (columns, array, one by one) the closed candles are the full ones of the reference and current() the partial one', () => {
    const recArb = fc.record({
      price: fc.constantFrom(5000, 5000.25, 4999),
      volume: fc.constantFrom(1, 2, 0.5),
      session: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constantFrom(1, 2) }),
    })
    fc.assert(
      fc.property(
        fc.array(recArb, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 8 }),
        sessionsArb,
        fc.constantFrom('columns', 'array', 'one'),
        (recs, per, sizes, sessions, how) => {
          const rows = recs.map((r, i) => ({ t: T0 + i * 1000, p: r.price, v: r.volume, s: r.session }))
          const { cols, trades } = columnsOf(rows, true)
          const opts: CandleOptions = { timeframe: `${per}t`, ...(sessions !== undefined ? { sessions } : {}) }
          const agg = createCandleAggregator({ ...opts, sourceTimeframe: '1m' })
          const taken: Candle[] = []
          let at = 0
          for (let k = 0; at < trades.length; k++) {
            const to = Math.min(trades.length, at + (sizes[k % sizes.length] as number))
            if (how === 'columns')
              agg.addColumns({
                time: cols.time.slice(at, to),
                price: cols.price.slice(at, to),
                volume: cols.volume.slice(at, to),
                side: cols.side.slice(at, to),
                session: (cols.session as Uint8Array).slice(at, to),
              })
            else if (how === 'array') agg.addTrades(trades, at, to)
            else for (let i = at; i < to; i++) agg.add(trades[i] as Trade)
            at = to
            taken.push(...agg.take())
            // the reference of the prefix: its full candles are closed, a partial last one is open
            const want = referenceCandlesFromTrades(trades.slice(0, to), opts)
            const full = want.filter((c) => c.trades === per)
            expect(taken).toEqual(full)
            expect(agg.current()).toEqual(want.length > full.length ? want[want.length - 1] : undefined)
          }
          // finish() closes the partial one, if any
          const all = referenceCandlesFromTrades(trades, opts)
          expect([...taken, ...agg.finish()]).toEqual(all)
        },
      ),
      { numRuns: 150 },
    )
  })
})

describe('candle columns after candle objects in one bucket: spellings and extremes past 2^52 units', () => {
  it('objects (trailing zeros, decimals a double cannot hold) then columns, crossing buckets = big.js reference', () => {
    // object levels may be spelled with trailing zeros or hold decimals no double carries; column levels are numbers
    const objLevels = ['9.750', '10.50', '10.0', '4503599627370497.5', '-4503599627370497.5', '4503599627370496.0']
    const numLevels = [9.75, 10, 11, 4503599627370498, -4503599627370498, 4503599627370496]
    const candleArb = (levels: readonly (string | number)[]) =>
      fc.record({
        picks: fc.array(fc.constantFrom(...levels), { minLength: 4, maxLength: 4 }),
        swap: fc.boolean(),
        step: fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom(0, 60_000) },
          { weight: 1, arbitrary: fc.constant(900_000) },
        ),
      })
    const segArb = fc.oneof(
      fc.record({
        objects: fc.constant(true),
        candles: fc.array(candleArb(objLevels), { minLength: 1, maxLength: 4 }),
      }),
      fc.record({
        objects: fc.constant(false),
        candles: fc.array(candleArb(numLevels), { minLength: 1, maxLength: 6 }),
      }),
    )
    fc.assert(
      fc.property(fc.array(segArb, { minLength: 1, maxLength: 5 }), fc.constantFrom('15m', '1h'), (segs, timeframe) => {
        const agg = createCandleAggregator({ timeframe, sourceTimeframe: '1m' })
        const all: CandleInput[] = []
        let t = T0
        for (const seg of segs) {
          const part: CandleInput[] = seg.candles.map((c) => {
            const v = [...c.picks].sort((a, b) => new Big(String(a)).cmp(new Big(String(b))))
            t += c.step
            return {
              time: t,
              low: v[0] as string | number,
              open: v[c.swap ? 2 : 1] as string | number,
              close: v[c.swap ? 1 : 2] as string | number,
              high: v[3] as string | number,
              volume: 1,
            }
          })
          all.push(...part)
          if (seg.objects) agg.addCandles(part)
          else {
            const f = (k: 'time' | 'open' | 'high' | 'low' | 'close' | 'volume') =>
              new Float64Array(part.map((c) => c[k] as number))
            const cols: CandleColumns = {
              time: f('time'),
              open: f('open'),
              high: f('high'),
              low: f('low'),
              close: f('close'),
              volume: f('volume'),
            }
            agg.addCandleColumns(cols)
          }
        }
        expect(agg.finish()).toEqual(referenceResample(all, { timeframe }))
      }),
      { numRuns: 300 },
    )
  })
})

describe('candle columns close a bucket opened by objects', () => {
  it('the extreme the columns did not pass keeps its object spelling (high passed only, low passed only, neither, both)', () => {
    const objs: CandleInput[] = [{ time: T0, open: '10.00', high: '10.50', low: '9.750', close: '10.00', volume: '2' }]
    for (const [hi, lo] of [
      [11, 10],
      [10.25, 9.5],
      [10.25, 10],
      [11, 9.5],
    ] as const) {
      // two candles in the objects' bucket, then one in the next bucket (the same columns call closes the first)
      const time = new Float64Array([T0 + 60_000, T0 + 120_000, T0 + 900_000])
      const n = time.length
      const cols: CandleColumns = {
        time,
        open: new Float64Array(n).fill(10),
        high: new Float64Array(n).fill(hi),
        low: new Float64Array(n).fill(lo),
        close: new Float64Array(n).fill(10),
        volume: new Float64Array(n).fill(1),
      }
      const agg = createCandleAggregator({ timeframe: '15m', sourceTimeframe: '1m' })
      agg.addCandles(objs)
      agg.addCandleColumns(cols)
      const all: CandleInput[] = [
        ...objs,
        ...Array.from(time, (t) => ({ time: t, open: 10, high: hi, low: lo, close: 10, volume: 1 })),
      ]
      expect(agg.finish()).toEqual(referenceResample(all, { timeframe: '15m' }))
    }
  })
})

describe('candle columns: bucket stepping over many buckets in one call', () => {
  it('hundreds of minute candles into 1m and 2m frames (more closed buckets than one loop call records) = big.js reference, objects and columns', () => {
    // long runs: records repeated 140..300 times, two candles a minute, all in one local day (more than 64 buckets)
    const recArb = candleArb.map((r) => ({ ...r, step: 0 }))
    fc.assert(
      fc.property(
        fc.array(recArb, { minLength: 1, maxLength: 2 }),
        fc.integer({ min: 140, max: 300 }),
        fc.constantFrom('1m', '2m'),
        fc.record({ value: fc.boolean(), trades: fc.boolean(), session: fc.boolean() }),
        (recs, repeat, timeframe, has) => {
          const { cols, objs } = buildCandles(
            recs.map((r) => ({ ...r, repeat })),
            has,
            Date.UTC(2026, 4, 29, 1),
          )
          const want = referenceResample(objs, { timeframe })
          fc.pre(want.every((c) => (c.trades ?? 0) <= Number.MAX_SAFE_INTEGER))
          expect(resampleCandles(cols, { sourceTimeframe: '1m', timeframe })).toEqual(want)
          // the same candles as numbers (a sum a double cannot carry is refused instead)
          let got: CandleColumns | undefined
          try {
            got = resampleCandleColumns(cols, { sourceTimeframe: '1m', timeframe })
          } catch (e) {
            expect(e).toMatchObject({ code: 'inexact' })
          }
          if (got !== undefined) {
            expect(Array.from(got.time)).toEqual(want.map((c) => c.time))
            expect(Array.from(got.volume)).toEqual(want.map((c) => Number(c.volume)))
            expect(Array.from(got.close)).toEqual(want.map((c) => Number(c.close)))
          }
        },
      ),
      { numRuns: 25 },
    )
  })
})

describe('candle columns: the candle that opens the next bucket inside the loop', () => {
  it('an odd candle at any position of a run of minute candles (filtered session, huge or fractional volume or value, bad trades, low or time) is taken exactly or refused at its index', () => {
    const kinds = [
      'pre',
      'post',
      'vHuge',
      'vFrac',
      'xHuge',
      'xNegHuge',
      'nFrac',
      'nNeg',
      'nHuge',
      'lowAbove',
      'lowInf',
      'tFrac',
      'backAfterFiltered',
    ] as const
    const bad = ['nFrac', 'nNeg', 'lowAbove', 'lowInf', 'tFrac', 'backAfterFiltered']
    const oddArb = fc.array(fc.record({ at: fc.nat(), kind: fc.constantFrom(...kinds) }), {
      minLength: 1,
      maxLength: 3,
    })
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 40 }),
        oddArb,
        fc.constantFrom('1m', '2m', '5m'),
        sessionsArb,
        (n, odds, timeframe, sessions) => {
          const f = (x: number) => new Float64Array(n).fill(x)
          // opens and closes differ from candle to candle: a wrong opener or close index shows
          const c: Required<CandleColumns> = {
            time: new Float64Array(n).map((_, i) => T0 + i * 60_000),
            open: new Float64Array(n).map((_, i) => 9.5 + (i % 4) * 0.25),
            high: f(11),
            low: f(9),
            close: new Float64Array(n).map((_, i) => 10 + (i % 3) * 0.25),
            volume: f(3),
            value: f(31.5),
            trades: f(2),
            session: new Uint8Array(n),
          }
          // one odd kind per position (the first drawn)
          const byIndex = new Map<number, (typeof kinds)[number]>()
          for (const { at, kind } of odds) if (!byIndex.has(at % n)) byIndex.set(at % n, kind)
          // a candle before a filtered one, later than it and past the open bucket's end, goes back in time
          if (byIndex.get(0) === 'backAfterFiltered') byIndex.delete(0)
          for (const [i, kind] of byIndex) if (kind === 'backAfterFiltered') byIndex.set(i - 1, 'pre')
          for (const [i, kind] of byIndex) {
            if (kind === 'backAfterFiltered') {
              c.time[i - 1] = (c.time[i] as number) + 20_000
              c.time[i] = (c.time[i - 1] as number) - 10_000
            }
            if (kind === 'pre') c.session[i] = 1
            if (kind === 'post') c.session[i] = 2
            // a whole number past 2^53 whose shortest form is not its binary value
            if (kind === 'vHuge') c.volume[i] = 2 ** 60
            if (kind === 'vFrac') c.volume[i] = 0.5
            if (kind === 'xHuge') c.value[i] = 2 ** 60
            if (kind === 'xNegHuge') c.value[i] = -(2 ** 60)
            if (kind === 'lowInf') c.low[i] = Number.NEGATIVE_INFINITY
            if (kind === 'nFrac') c.trades[i] = 1.5
            if (kind === 'nNeg') c.trades[i] = -1
            if (kind === 'nHuge') c.trades[i] = 2 ** 40
            if (kind === 'lowAbove') c.low[i] = 10.75
            if (kind === 'tFrac') c.time[i] = (c.time[i] as number) + 0.5
          }
          const want = [...byIndex]
            .filter(([, kind]) => bad.includes(kind))
            .map(([i]) => i)
            .sort((a, b) => a - b)[0]
          const opts: CandleOptions = { timeframe, ...(sessions !== undefined ? { sessions } : {}) }
          if (want !== undefined) {
            expect(() => resampleCandles(c, { ...opts, sourceTimeframe: '1m' })).toThrow(
              expect.objectContaining({ index: want }),
            )
            return
          }
          const objs: CandleInput[] = Array.from({ length: n }, (_, i) => ({
            time: c.time[i] as number,
            open: c.open[i] as number,
            high: c.high[i] as number,
            low: c.low[i] as number,
            close: c.close[i] as number,
            volume: c.volume[i] as number,
            value: c.value[i] as number,
            trades: c.trades[i] as number,
            ...(c.session[i] !== 0 ? { session: SESSIONS[c.session[i] as number] as SessionType } : {}),
          }))
          expect(resampleCandles(c, { ...opts, sourceTimeframe: '1m' })).toEqual(referenceResample(objs, opts))
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('resampleCandleColumns: -0 prices and the first inexact sum', () => {
  it('a -0 price comes out as 0 (its decimal form "0" reads back as 0) in every price column', () => {
    for (const field of ['open', 'high', 'low', 'close'] as const) {
      // one candle with the field at -0 (OHLC stays ordered: the others are 0)
      const cols: CandleColumns = {
        time: new Float64Array([T0]),
        open: new Float64Array([0]),
        high: new Float64Array([0]),
        low: new Float64Array([0]),
        close: new Float64Array([0]),
        volume: new Float64Array([1]),
      }
      cols[field][0] = -0
      const want = resampleCandles(cols, { sourceTimeframe: '1m', timeframe: '1h' })[0] as Candle
      expect(want[field]).toBe('0')
      const got = resampleCandleColumns(cols, { sourceTimeframe: '1m', timeframe: '1h' })
      for (const f of ['open', 'high', 'low', 'close'] as const) expect(Object.is(got[f][0], 0)).toBe(true)
    }
  })

  it('the error names the first sum a double cannot carry (candles in time order, volume before value)', () => {
    // 8-decimal amounts whose sums in one hour have 18 significant digits; 1000000000 alone is exact
    const inexact = 12345678.12345678
    const cases: { volume: number[]; value: number[]; field: string; at: number }[] = [
      { volume: [1, 1, inexact, 1000000000], value: [inexact, 1000000000, 1, 1], field: 'value', at: 0 },
      {
        volume: [inexact, 1000000000, inexact, 1000000000],
        value: [inexact, 1000000000, 1, 1],
        field: 'volume',
        at: 0,
      },
      { volume: [1, 1, inexact, 1000000000], value: [1, 1, inexact, 1000000000], field: 'volume', at: 1 },
      { volume: [1, 1, 1, 1], value: [1, 1, inexact, 1000000000], field: 'value', at: 1 },
    ]
    for (const { volume, value, field, at } of cases) {
      // two candles an hour apart, two 1m candles each
      const time = new Float64Array([T0, T0 + 60_000, T0 + 3_600_000, T0 + 3_660_000])
      const f = (x: number) => new Float64Array(4).fill(x)
      const cols: CandleColumns = {
        time,
        open: f(1),
        high: f(1),
        low: f(1),
        close: f(1),
        volume: new Float64Array(volume),
        value: new Float64Array(value),
      }
      // the exact sums (resampleCandles keeps them as decimal strings) say which is the first a double cannot carry
      const exact = resampleCandles(cols, { sourceTimeframe: '1m', timeframe: '1h' })
      const text = (exact[at] as Candle)[field as 'volume' | 'value'] as string
      expect(String(Number(text))).not.toBe(text)
      let got: unknown
      try {
        resampleCandleColumns(cols, { sourceTimeframe: '1m', timeframe: '1h' })
      } catch (e) {
        got = e
      }
      expect(got).toBeInstanceOf(MarketDataError)
      expect(got).toMatchObject({ code: 'inexact', field })
      expect((got as MarketDataError).message).toContain(text)
    }
  })
})

describe('trade objects of a filtered session are still validated', () => {
  it('a bad price on a trade of a session not kept is refused at its index, anywhere in a run', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.nat(),
        fc.constantFrom<unknown>('abc', '', '1e5.0', Number.NaN, Number.POSITIVE_INFINITY, null, '5000.25.1'),
        fc.constantFrom('1m', '3t'),
        (n, at, price, timeframe) => {
          const i = at % n
          const trades: Trade[] = Array.from({ length: n }, (_, k) => ({
            time: T0 + k * 1000,
            price: 5000.25,
            volume: 1,
            side: 'buy',
            session: 'PRE_MARKET' as SessionType,
          }))
          trades[i] = { ...(trades[i] as Trade), price: price as string }
          for (const sessions of [['MAINSESSION'], ['POST_MARKET'], undefined] as (SessionType[] | undefined)[]) {
            const opts: CandleOptions = { timeframe, ...(sessions !== undefined ? { sessions } : {}) }
            expect(() => candlesFromTrades(trades, opts)).toThrow(expect.objectContaining({ index: i, field: 'price' }))
          }
        },
      ),
      { numRuns: 100 },
    )
  })
})

describe('candle objects: a bad candle anywhere is refused at its index', () => {
  it('close below low, open above high, a time below the Date range (objects, any session filter)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.nat(),
        fc.constantFrom('closeBelow', 'openAbove', 'farBack'),
        sessionsArb,
        (n, at, kind, sessions) => {
          const i = kind === 'farBack' ? 0 : at % n
          const objs: CandleInput[] = Array.from({ length: n }, (_, k) => ({
            time: T0 + k * 60_000,
            open: '10',
            high: '11',
            low: '9',
            close: '10',
            volume: '2',
            value: '20',
            trades: 2,
          }))
          // whole prices: the fast loop takes these candles at scale 0 (no decimals to send a record the exact way)
          const c = objs[i] as CandleInput
          if (kind === 'closeBelow') c.close = '8'
          if (kind === 'openAbove') c.open = '12'
          if (kind === 'farBack') c.time = -8.64e15 - 60_000
          const opts: CandleOptions = { timeframe: '15m', ...(sessions !== undefined ? { sessions } : {}) }
          expect(() => resampleCandles(objs, { ...opts, sourceTimeframe: '1m' })).toThrow(
            expect.objectContaining({ index: i }),
          )
        },
      ),
      { numRuns: 100 },
    )
  })
})

describe('candle objects: equal extremes spelled differently', () => {
  it('the first candle holding the high (low) keeps its spelling = big.js reference', () => {
    const candle = fc.record({
      high: fc.constantFrom('11', '11.0', '11.00', '10.5'),
      low: fc.constantFrom('9', '9.0', '9.00', '9.5'),
      step: fc.constantFrom(0, 60_000, 900_000),
    })
    fc.assert(
      fc.property(fc.array(candle, { minLength: 1, maxLength: 8 }), (cs) => {
        let t = T0
        const objs: CandleInput[] = cs.map((c) => ({
          time: (t += c.step),
          open: '10',
          high: c.high,
          low: c.low,
          close: '10',
          volume: '1',
        }))
        expect(resampleCandles(objs, { sourceTimeframe: '1m', timeframe: '15m' })).toEqual(
          referenceResample(objs, { timeframe: '15m' }),
        )
      }),
      { numRuns: 100 },
    )
  })
})

describe('candle objects: value sums past -2^53 units', () => {
  it('negative values (and positive, for symmetry) summed over many candle objects stay exact', () => {
    for (const value of ['-1234567890123.45', '1234567890123.45', '-4503599627370.49']) {
      // 120 candles of one hour: the sum in units (2 decimals) passes 2^53 in magnitude
      const objs: CandleInput[] = Array.from({ length: 120 }, (_, k) => ({
        time: T0 + k * 1000,
        open: '10',
        high: '11',
        low: '9',
        close: '10',
        volume: '3',
        value,
        trades: 1,
      }))
      const want = referenceResample(objs, { timeframe: '1h' })
      expect(
        new Big(want[0]?.value ?? '0')
          .times(100)
          .abs()
          .gt(2 ** 53),
      ).toBe(true)
      expect(resampleCandles(objs, { sourceTimeframe: '1m', timeframe: '1h' })).toEqual(want)
    }
  })
})
