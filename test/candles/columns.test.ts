// resampleCandleColumns: the candles of resampleCandles as numbers, exact or refused.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  resampleCandleColumns,
  resampleCandles,
  type CandleColumns,
  type CandleOptions,
} from '../../src/candles/index.js'
import { MarketDataError } from '../../src/errors.js'
import type { TimeframeId } from '../../src/time/index.js'
import { buildCandles, candleArb, SESSIONS, T0 } from './arbitraries.js'
import { asColumns } from './helpers.js'
import { referenceResample } from './reference.js'

const optsArb: fc.Arbitrary<CandleOptions> = fc.record(
  {
    timeframe: fc.oneof(
      fc.constantFrom<CandleOptions['timeframe']>('5m', '15m', '1h', '4h', '1d', '1w', '1M'),
      fc.record({
        unit: fc.constantFrom('MINUTE' as const, 'HOUR' as const, 'DAY' as const),
        count: fc.integer({ min: 1, max: 200 }),
      }),
    ),
    timeZone: fc.constantFrom('UTC', 'America/New_York', 'Europe/London', 'Asia/Kolkata'),
    sessions: fc.subarray(SESSIONS, { minLength: 1 }),
  },
  { requiredKeys: ['timeframe'] },
)
const hasArb = fc.record({ value: fc.boolean(), trades: fc.boolean(), session: fc.boolean() })

describe('resampleCandleColumns = resampleCandles as numbers', () => {
  it('any valid columns (sums near 2^52 / 2^53, many decimals, negative prices, equal times, optional columns), any frame, zone and session filter, across DST changes', () => {
    // an ordinary time, a few hours before the DST changes of New York and London, or 90 minutes before
    // the end of their 23- and 25-hour local days (where a frame that does not divide the day restarts)
    const t0Arb = fc.constantFrom(
      T0,
      Date.UTC(2026, 2, 8, 2),
      Date.UTC(2026, 10, 1, 1),
      Date.UTC(2026, 2, 29, 0),
      Date.UTC(2026, 9, 25, 0),
      Date.UTC(2026, 2, 9, 2, 30),
      Date.UTC(2026, 10, 2, 3, 30),
      Date.UTC(2026, 2, 29, 21, 30),
      Date.UTC(2026, 9, 25, 22, 30),
    )
    fc.assert(
      fc.property(fc.array(candleArb, { maxLength: 60 }), hasArb, optsArb, t0Arb, (recs, has, opts, t0) => {
        const { cols, objs } = buildCandles(recs, has, t0)
        const reference = referenceResample(objs, opts)
        if (reference.some((c) => (c.trades ?? 0) > Number.MAX_SAFE_INTEGER)) {
          // a trade count past 2^53 - 1 has no exact number: both refuse it
          const refused = expect.objectContaining({ code: 'inexact', field: 'trades' })
          expect(() => resampleCandles(cols, { ...opts, sourceTimeframe: '1m' })).toThrow(refused)
          expect(() => resampleCandleColumns(cols, { ...opts, sourceTimeframe: '1m' })).toThrow(refused)
          return
        }
        const objects = resampleCandles(cols, { ...opts, sourceTimeframe: '1m' })
        // the object path itself is the big.js reference's
        expect(objects).toEqual(reference)
        const want = asColumns(objects, cols)
        if (want.inexact)
          expect(() => resampleCandleColumns(cols, { ...opts, sourceTimeframe: '1m' })).toThrow(
            expect.objectContaining({ code: 'inexact' }),
          )
        else expect(resampleCandleColumns(cols, { ...opts, sourceTimeframe: '1m' })).toEqual(want.cols)
      }),
      { numRuns: 300 },
    )
  })

  it('a bad candle throws the error resampleCandles throws (same code, index and field)', () => {
    const badArb = fc.record({
      field: fc.constantFrom('back', 'frac', 'negVol', 'nanValue', 'fracTrades', 'session', 'lowOpen'),
      at: fc.nat(),
    })
    fc.assert(
      fc.property(fc.array(candleArb, { minLength: 2, maxLength: 40 }), badArb, optsArb, (recs, bad, opts) => {
        const { cols, objs } = buildCandles(recs, { value: true, trades: true, session: true })
        // no trade count past 2^53 - 1 (refused on its own) before the bad candle
        fc.pre(referenceResample(objs, opts).every((c) => (c.trades ?? 0) <= Number.MAX_SAFE_INTEGER))
        const i = 1 + (bad.at % (cols.time.length - 1))
        if (bad.field === 'back') cols.time[i] = (cols.time[i - 1] as number) - 1
        if (bad.field === 'frac') cols.time[i] = (cols.time[i] as number) + 0.5
        if (bad.field === 'negVol') cols.volume[i] = -1
        if (bad.field === 'nanValue') (cols.value as Float64Array)[i] = Number.NaN
        if (bad.field === 'fracTrades') (cols.trades as Float64Array)[i] = 2.5
        if (bad.field === 'session') (cols.session as Uint8Array)[i] = 3
        if (bad.field === 'lowOpen')
          cols.low[i] = (cols.open[i] as number) + Math.max(1, Math.abs(cols.open[i] as number) * 1e-9)
        const caught = (f: () => unknown): MarketDataError => {
          try {
            f()
          } catch (e) {
            return e as MarketDataError
          }
          throw new Error('no error')
        }
        const a = caught(() => resampleCandles(cols, { ...opts, sourceTimeframe: '1m' }))
        const b = caught(() => resampleCandleColumns(cols, { ...opts, sourceTimeframe: '1m' }))
        expect(b).toBeInstanceOf(MarketDataError)
        expect([b.code, b.index, b.field, b.message]).toEqual([a.code, a.index, a.field, a.message])
      }),
      { numRuns: 150 },
    )
  })

  it('nests: 1m -> 5m -> 15m -> 1h -> 1d equals 1m -> 1d, in a zone with DST', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            step: fc.integer({ min: 0, max: 3 * 3_600_000 }),
            price: fc.integer({ min: 1, max: 40_000 }),
            volume: fc.integer({ min: 0, max: 900 }),
          }),
          { maxLength: 120 },
        ),
        (rows) => {
          // 1m candles across the 2026-03-08 New York DST change
          let t = Date.UTC(2026, 2, 7, 12)
          const n = rows.length
          const cols: CandleColumns = {
            time: new Float64Array(n),
            open: new Float64Array(n),
            high: new Float64Array(n),
            low: new Float64Array(n),
            close: new Float64Array(n),
            volume: new Float64Array(n),
            value: new Float64Array(n),
          }
          rows.forEach((r, i) => {
            t += r.step - (r.step % 60_000)
            const p = r.price / 4
            cols.time[i] = t
            cols.open[i] = p
            cols.high[i] = p + 0.5
            cols.low[i] = p - 0.25
            cols.close[i] = p
            cols.volume[i] = r.volume
            ;(cols.value as Float64Array)[i] = p * r.volume
          })
          const timeZone = 'America/New_York'
          let x = cols
          // each step names its input's frame: sparse candles would otherwise be taken for longer ones
          let source: TimeframeId = '1m'
          for (const timeframe of ['5m', '15m', '1h', '1d'] as const) {
            x = resampleCandleColumns(x, { timeframe, sourceTimeframe: source, timeZone })
            source = timeframe
          }
          expect(x).toEqual(resampleCandleColumns(cols, { timeframe: '1d', sourceTimeframe: '1m', timeZone }))
        },
      ),
      { numRuns: 100 },
    )
  })

  it('bucket stepping ends at the end of 23- and 25-hour local days (frames that do not divide the day restart there)', () => {
    const ends = [
      { timeZone: 'America/New_York', t0: Date.UTC(2026, 2, 9, 2, 30) },
      { timeZone: 'America/New_York', t0: Date.UTC(2026, 10, 2, 3, 30) },
      { timeZone: 'Europe/London', t0: Date.UTC(2026, 2, 29, 21, 30) },
      { timeZone: 'Europe/London', t0: Date.UTC(2026, 9, 25, 22, 30) },
    ]
    for (const { timeZone, t0 } of ends) {
      // a candle a minute on average for 3 hours across the day's end
      const { cols, objs } = buildCandles(
        [{ step: 0, base: 5000, up: 0.25, down: 0, volume: 3, value: 5000.25, trades: 2, session: 0, repeat: 360 }],
        { value: true, trades: true, session: false },
        t0,
      )
      for (const timeframe of ['7m', '15m', { unit: 'MINUTE' as const, count: 90 }, '5h'] as const) {
        const want = referenceResample(objs, { timeframe, timeZone })
        expect(resampleCandles(cols, { sourceTimeframe: '1m', timeframe, timeZone })).toEqual(want)
        expect(resampleCandleColumns(cols, { sourceTimeframe: '1m', timeframe, timeZone })).toEqual(
          asColumns(want, cols).cols,
        )
      }
    }
  })

  it('a -0 price, volume or value comes out as 0 (its decimal form), in closed-bucket records and the last bucket', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.constantFrom('2m', '5m', '15m', '1h', '1d'),
        fc.boolean(),
        (n, timeframe, withSession) => {
          const f = (x: number) => new Float64Array(n).fill(x)
          // every minute: the minute frames step from bucket to bucket inside one call
          const time = new Float64Array(n).map((_, i) => T0 + i * 60_000)
          const cols: CandleColumns = {
            time,
            open: f(-0),
            high: f(-0),
            low: f(-0),
            close: f(-0),
            volume: f(-0),
            value: f(-0),
            trades: f(1),
          }
          // a session column takes candleRun's one-at-a-time loop, none its pairs
          if (withSession) cols.session = new Uint8Array(n)
          const out = resampleCandleColumns(cols, { sourceTimeframe: '1m', timeframe })
          expect(out.time.length).toBeGreaterThan(0)
          for (const k of ['open', 'high', 'low', 'close', 'volume', 'value'] as const) {
            for (const x of out[k] as Float64Array) expect(Object.is(x, 0), `${k} ${x}`).toBe(true)
          }
        },
      ),
      { numRuns: 60 },
    )
  })

  it('does not touch its input', () => {
    const { cols } = buildCandles(
      [{ step: 0, base: 5000, up: 0.25, down: 0, volume: 3, value: 5000.25, trades: 2, session: 1, repeat: 20 }],
      { value: true, trades: true, session: true },
    )
    const copy = Object.fromEntries(Object.entries(cols).map(([k, v]) => [k, (v as Float64Array).slice()]))
    resampleCandleColumns(cols, { sourceTimeframe: '1m', timeframe: '15m' })
    expect(cols).toEqual(copy)
  })
})

describe('resampleCandleColumns refuses what numbers cannot say', () => {
  it('a sum with more significant digits than a double carries throws inexact naming the field', () => {
    // 8-decimal volumes whose exact sum has 18 significant digits
    const n = 2
    const cols: CandleColumns = {
      time: new Float64Array([T0, T0 + 60_000]),
      open: new Float64Array(n).fill(1),
      high: new Float64Array(n).fill(1),
      low: new Float64Array(n).fill(1),
      close: new Float64Array(n).fill(1),
      volume: new Float64Array([12345678.12345678, 1000000000]),
    }
    expect(resampleCandles(cols, { sourceTimeframe: '1m', timeframe: '1h' })[0]?.volume).toBe('1012345678.12345678')
    expect(() => resampleCandleColumns(cols, { sourceTimeframe: '1m', timeframe: '1h' })).toThrow(
      expect.objectContaining({ code: 'inexact', field: 'volume' }),
    )
    // the same volumes in smaller buckets are exact
    expect(Array.from(resampleCandleColumns(cols, { sourceTimeframe: '1m', timeframe: '1m' }).volume)).toEqual([
      12345678.12345678, 1000000000,
    ])
  })

  it('a bad record after an inexact sum is reported first (input errors before output limits)', () => {
    const n = 3
    const cols: CandleColumns = {
      time: new Float64Array([T0, T0 + 60_000, T0 - 1]),
      open: new Float64Array(n).fill(1),
      high: new Float64Array(n).fill(1),
      low: new Float64Array(n).fill(1),
      close: new Float64Array(n).fill(1),
      volume: new Float64Array([12345678.12345678, 1000000000, 1]),
    }
    expect(() => resampleCandleColumns(cols, { sourceTimeframe: '1m', timeframe: '1m' })).toThrow(
      expect.objectContaining({ code: 'out_of_order', index: 2 }),
    )
    expect(() => resampleCandleColumns(cols, { sourceTimeframe: '1m', timeframe: '1h' })).toThrow(
      expect.objectContaining({ code: 'out_of_order', index: 2 }),
    )
  })

  it('tick frames, tickSize and malformed columns are refused with the field', () => {
    const cols: CandleColumns = {
      time: new Float64Array([T0]),
      open: new Float64Array([1]),
      high: new Float64Array([1]),
      low: new Float64Array([1]),
      close: new Float64Array([1]),
      volume: new Float64Array([1]),
    }
    expect(() => resampleCandleColumns(cols, { sourceTimeframe: '1m', timeframe: '100t' })).toThrow(
      expect.objectContaining({ field: 'timeframe' }),
    )
    expect(() =>
      resampleCandleColumns(cols, { sourceTimeframe: '1m', timeframe: '1h', tickSize: '0.25' } as CandleOptions),
    ).toThrow(expect.objectContaining({ field: 'tickSize' }))
    expect(() =>
      resampleCandleColumns({ ...cols, volume: new Float64Array(2) }, { sourceTimeframe: '1m', timeframe: '1h' }),
    ).toThrow(expect.objectContaining({ field: 'volume' }))
    expect(() => resampleCandleColumns(cols, null as unknown as CandleOptions)).toThrow(
      expect.objectContaining({ field: 'options' }),
    )
  })

  it('empty columns give empty columns of the same shape', () => {
    const e = () => new Float64Array(0)
    const out = resampleCandleColumns(
      { time: e(), open: e(), high: e(), low: e(), close: e(), volume: e(), trades: e() },
      { sourceTimeframe: '1m', timeframe: '1d' },
    )
    expect(out).toEqual({ time: e(), open: e(), high: e(), low: e(), close: e(), volume: e(), trades: e() })
  })
})
