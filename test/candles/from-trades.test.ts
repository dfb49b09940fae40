import Big from 'big.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  candlesFromTrades,
  candlesFromTradesAsync,
  createCandleAggregator,
  mergeCandles,
  resampleCandles,
  type Candle,
  type CandleOptions,
} from '../../src/candles/index.js'
import { MarketDataError } from '../../src/errors.js'
import { aggregatorContract, tilingLaw, timeZoneArb, tradesArb } from '../../src/testing/index.js'
import { bucketStart, resolveTimeframe, type TimeframeId } from '../../src/time/index.js'
import { tradesToColumns, type SessionType, type Trade } from '../../src/trades/index.js'
import { streamCandles } from './helpers.js'
import { referenceCandlesFromTrades } from './reference.js'

const T0 = Date.UTC(2026, 4, 29)
const RUNS = { numRuns: 40 }
const frames = ['1m', '15m', '1h', '1d', '1w', '1M'] as const
const sessionsArb = fc.option(fc.subarray<SessionType>(['MAINSESSION', 'PRE_MARKET', 'POST_MARKET']), {
  nil: undefined,
})

const optsArb: fc.Arbitrary<CandleOptions> = fc.record(
  {
    timeframe: fc.oneof(
      fc.constantFrom<TimeframeId>(...frames),
      fc.constantFrom(
        { unit: 'MINUTE' as const, count: 90 },
        { unit: 'HOUR' as const, count: 5 },
        { unit: 'DAY' as const, count: 2 },
      ),
    ),
    timeZone: timeZoneArb(),
    sessions: sessionsArb,
  },
  { requiredKeys: ['timeframe', 'timeZone'] },
)

// DST in New York began 2026-03-08; start there so minute/hour frames cross the change.
const dstTrades = tradesArb({
  start: Date.UTC(2026, 2, 8, 4),
  maxGapMs: 40 * 60_000,
  offGrid: true,
  negativePrices: true,
})

describe('candlesFromTrades: the aggregator contract (objects, spellings kept)', () => {
  for (const opts of [
    { timeframe: '1m' as const },
    { timeframe: '15m' as const, timeZone: 'America/New_York' },
    {
      timeframe: { unit: 'MINUTE' as const, count: 90 },
      timeZone: 'Australia/Lord_Howe',
      sessions: ['MAINSESSION', 'POST_MARKET'] as SessionType[],
    },
    { timeframe: '1d' as const, timeZone: 'America/Sao_Paulo' },
  ] as CandleOptions[]) {
    const laws = aggregatorContract<Trade, Candle[]>({
      records: dstTrades,
      batch: (t) => candlesFromTrades(t, opts),
      stream: (parts) => streamCandles(parts, opts, false),
      merge: mergeCandles,
      reference: (t) => referenceCandlesFromTrades(t, opts),
    })
    for (const law of laws) it(`${JSON.stringify(opts)}: ${law.name}`, () => fc.assert(law.property, RUNS))
  }
})

describe('candlesFromTrades: columns, mixed feeding, tickSize', () => {
  it('columns = objects = reference with a tickSize, random frames, zones and sessions; streaming mixes columns and objects', () => {
    fc.assert(
      fc.property(dstTrades, optsArb, fc.array(fc.nat(), { maxLength: 3 }), (trades, o, cuts) => {
        const opts = { ...o, tickSize: '0.25' }
        const want = referenceCandlesFromTrades(trades, opts)
        expect(candlesFromTrades(trades, opts)).toEqual(want)
        expect(candlesFromTrades(tradesToColumns(trades), opts)).toEqual(want)
        const sorted = [...cuts].map((c) => c % (trades.length + 1)).sort((a, b) => a - b)
        const parts: Trade[][] = []
        let prev = 0
        for (const c of sorted) {
          parts.push(trades.slice(prev, c))
          prev = c
        }
        parts.push(trades.slice(prev))
        expect(streamCandles(parts, opts, true)).toEqual(want)
      }),
      RUNS,
    )
  })

  it('tiling: every candle time is a bucket start and every kept trade is in one', () => {
    fc.assert(
      fc.property(
        optsArb.chain((o) => fc.tuple(fc.constant(o), tradesArb())),
        ([o, trades]) => {
          const tf = resolveTimeframe(o.timeframe)
          const z = o.timeZone === undefined ? {} : { timeZone: o.timeZone }
          fc.assert(
            tilingLaw({
              records: fc.constant(
                trades.filter((t) => o.sessions === undefined || o.sessions.includes(t.session ?? 'MAINSESSION')),
              ),
              aggregate: (t) => candlesFromTrades(t, o),
              timeOf: (t) => t.time,
              bucketStart: (t) => bucketStart(t, tf, z),
            }),
            { numRuns: 1 },
          )
        },
      ),
      { numRuns: 25 },
    )
  })

  it('OHLC invariants; volume and value conserved; trades counted', () => {
    fc.assert(
      fc.property(dstTrades, optsArb, (trades, opts) => {
        const candles = candlesFromTrades(trades, opts)
        const kept = trades.filter(
          (t) => opts.sessions === undefined || opts.sessions.includes(t.session ?? 'MAINSESSION'),
        )
        let vol = new Big(0)
        let val = new Big(0)
        let n = 0
        for (const c of candles) {
          const [o, h, l, cl] = [c.open, c.high, c.low, c.close].map((x) => new Big(x)) as [Big, Big, Big, Big]
          expect(l.lte(o) && l.lte(cl) && o.lte(h) && cl.lte(h)).toBe(true)
          expect(c.trades).toBeGreaterThan(0)
          vol = vol.plus(c.volume)
          val = val.plus(c.value as string)
          n += c.trades as number
        }
        expect(n).toBe(kept.length)
        expect(vol.eq(kept.reduce((s, t) => s.plus(String(t.volume)), new Big(0)))).toBe(true)
        expect(
          val.eq(kept.reduce((s, t) => s.plus(new Big(String(t.price)).times(String(t.volume))), new Big(0))),
        ).toBe(true)
      }),
      RUNS,
    )
  })

  it('session filter before or after gives the same candles', () => {
    fc.assert(
      fc.property(
        tradesArb(),
        fc.subarray<SessionType>(['MAINSESSION', 'PRE_MARKET', 'POST_MARKET']),
        fc.constantFrom('1m', '15m', '1h', '5t'),
        (trades, sessions, timeframe) => {
          const before = candlesFromTrades(
            trades.filter((t) => sessions.includes(t.session ?? 'MAINSESSION')),
            { timeframe },
          )
          expect(candlesFromTrades(trades, { timeframe, sessions })).toEqual(before)
        },
      ),
      RUNS,
    )
  })

  it('resample(candlesFromTrades(t, 1m), 15m) = candlesFromTrades(t, 15m), also 1m -> 1h -> 1d in zones', () => {
    fc.assert(
      fc.property(dstTrades, timeZoneArb(), sessionsArb, (trades, timeZone, sessions) => {
        const m1 = candlesFromTrades(trades, { timeframe: '1m', timeZone, sessions })
        for (const tf of ['15m', '1h', '1d', '1w'] as const) {
          expect(resampleCandles(m1, { sourceTimeframe: '1m', timeframe: tf, timeZone })).toEqual(
            candlesFromTrades(trades, { timeframe: tf, timeZone, sessions }),
          )
        }
        // the session filter may also move to the resampling step: 1m candles hold the session of their first trade
        const all1m = candlesFromTrades(trades, { timeframe: '1m', timeZone })
        expect(
          resampleCandles(all1m, { sourceTimeframe: '1m', timeframe: '15m', timeZone }).length,
        ).toBeLessThanOrEqual(all1m.length)
      }),
      RUNS,
    )
  })

  it('tick frames: N consecutive kept trades a candle, timed at the first; the reference agrees; streaming = batch', () => {
    fc.assert(
      fc.property(
        tradesArb(),
        fc.integer({ min: 1, max: 7 }),
        sessionsArb,
        fc.array(fc.nat(), { maxLength: 3 }),
        (trades, n, sessions, cuts) => {
          const opts = { timeframe: `${n}t` as const, sessions }
          const got = candlesFromTrades(trades, opts)
          expect(got).toEqual(referenceCandlesFromTrades(trades, opts))
          const sorted = [...cuts].map((c) => c % (trades.length + 1)).sort((a, b) => a - b)
          const parts: Trade[][] = []
          let prev = 0
          for (const c of sorted) {
            parts.push(trades.slice(prev, c))
            prev = c
          }
          parts.push(trades.slice(prev))
          expect(streamCandles(parts, opts, false)).toEqual(got)
        },
      ),
      RUNS,
    )
  })

  it('async sources give the same candles', async () => {
    const trades = fc.sample(tradesArb({ minLength: 5 }), { numRuns: 1, seed: 7 })[0] as Trade[]
    async function* gen() {
      yield trades[0] as Trade
      yield tradesToColumns(trades.slice(1))
    }
    expect(await candlesFromTradesAsync(gen(), { timeframe: '5m', tickSize: '0.25' })).toEqual(
      candlesFromTrades(trades, { timeframe: '5m', tickSize: '0.25' }),
    )
  })
})

describe('candlesFromTrades: examples and errors', () => {
  it('builds OHLCV + value + trades, keeping spellings; tickSize prints grid decimals', () => {
    const trades: Trade[] = [
      { time: T0 + 1000, price: '5000.50', volume: '2', side: 'buy', session: 'PRE_MARKET' },
      { time: T0 + 1000, price: 5001, volume: 0, side: 'sell' },
      { time: T0 + 59_999, price: '4999.75', volume: '0.5', side: 'buy' },
      { time: T0 + 60_000, price: '5000', volume: '1', side: 'buy' },
    ]
    expect(candlesFromTrades(trades, { timeframe: '1m' })).toEqual([
      {
        time: T0,
        open: '5000.50',
        high: '5001',
        low: '4999.75',
        close: '4999.75',
        volume: '2.5',
        value: '12500.875',
        trades: 3,
        session: 'PRE_MARKET',
      },
      {
        time: T0 + 60_000,
        open: '5000',
        high: '5000',
        low: '5000',
        close: '5000',
        volume: '1',
        value: '5000',
        trades: 1,
        session: 'MAINSESSION',
      },
    ])
    expect(candlesFromTrades(trades, { timeframe: '1m', tickSize: '0.25' })[0]).toMatchObject({
      open: '5000.50',
      high: '5001.00',
      low: '4999.75',
    })
    expect(candlesFromTrades(trades, { timeframe: '2t' }).map((c) => [c.time, c.trades])).toEqual([
      [T0 + 1000, 2],
      [T0 + 59_999, 2],
    ])
    expect(candlesFromTrades([], { timeframe: '1m' })).toEqual([])
  })

  it('stays exact with huge prices and volumes (bigint spill)', () => {
    const trades: Trade[] = [
      { time: T0, price: '123456789012345678.9', volume: '98765432109876543.21', side: 'buy' },
      { time: T0 + 1, price: 0.1, volume: 3, side: 'sell' },
      { time: T0 + 2, price: '4503599627370495', volume: '4503599627370495', side: 'sell' },
    ]
    expect(candlesFromTrades(trades, { timeframe: '1h' })).toEqual(
      referenceCandlesFromTrades(trades, { timeframe: '1h' }),
    )
    const cols = tradesToColumns(
      Array.from({ length: 3000 }, (_, i) => ({
        time: T0 + i,
        price: 4503599627370.495,
        volume: 1e6 + i,
        side: 'buy' as const,
      })),
    )
    const c = candlesFromTrades(cols, { timeframe: '1d' })[0] as Candle
    const want = Array.from({ length: 3000 }, (_, i) => new Big('4503599627370.495').times(1e6 + i)).reduce(
      (a, b) => a.plus(b),
      new Big(0),
    )
    expect(c.value).toBe(want.toFixed())
  })

  it('a candle whose first trade needs more decimals, or another session between, keeps its true extremes', () => {
    const tr = (s: number, price: string, session?: SessionType): Trade => ({
      time: T0 + s * 1000,
      price,
      volume: '2',
      side: 'buy',
      ...(session ? { session } : {}),
    })
    const trades = [
      tr(0, '10'),
      tr(1, '9.5'),
      tr(61, '25.001'),
      tr(62, '25.001'),
      tr(63, '7', 'PRE_MARKET'),
      tr(64, '26'),
      tr(65, '25.001'),
    ]
    const opts = { timeframe: '1m' as const, sessions: ['MAINSESSION'] as SessionType[] }
    const want = referenceCandlesFromTrades(trades, opts)
    expect(want[1]).toMatchObject({ open: '25.001', high: '26', low: '25.001', close: '25.001', trades: 4 })
    expect(candlesFromTrades(tradesToColumns(trades), opts)).toEqual(want)
    expect(candlesFromTrades(trades, opts)).toEqual(want)
  })

  it('runs of one price with sums past 2^52 units stay exact (columns)', () => {
    const tr = (s: number, price: string, volume: string): Trade => ({
      time: T0 + s * 1000,
      price,
      volume,
      side: 'sell',
    })
    const trades = [
      tr(0, '5000.25', '3'),
      tr(1, '5000.25', '1000000000000'),
      tr(2, '5000.25', '3000000000000000'),
      tr(3, '5000.25', '3000000000000000'),
      tr(4, '-7.5', '1'),
      tr(5, '-7.5', '4000000000000000'),
      tr(6, '5000.25', '2'),
    ]
    const opts = { timeframe: '1m' as const }
    expect(candlesFromTrades(tradesToColumns(trades), opts)).toEqual(referenceCandlesFromTrades(trades, opts))
    expect(candlesFromTrades(tradesToColumns(trades), { timeframe: '3t' })).toEqual(
      referenceCandlesFromTrades(trades, { timeframe: '3t' }),
    )
  })

  it('long inputs (fast loops run in slices): columns = objects = uneven column batches, with a scale change mid-way', () => {
    let x = 12345
    const rnd = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648
    const trades: Trade[] = []
    let t = T0
    let p = 20000
    for (let i = 0; i < 40_000; i++) {
      t += Math.floor(rnd() * 400)
      p += Math.floor(rnd() * 5) - 2
      // a finer price past the middle makes the fast loop stop once and the scale grow
      const price = i === 25_000 ? `${p / 4}1` : String(p / 4)
      trades.push({
        time: t,
        price,
        volume: String(1 + Math.floor(rnd() * 9)),
        side: rnd() < 0.5 ? 'buy' : 'sell',
        ...(rnd() < 0.1 ? { session: 'POST_MARKET' as SessionType } : {}),
      })
    }
    const opts = { timeframe: '1m' as const, sessions: ['MAINSESSION'] as SessionType[] }
    const want = candlesFromTrades(trades, opts)
    const cols = tradesToColumns(trades)
    expect(candlesFromTrades(cols, opts)).toEqual(want)
    const agg = createCandleAggregator(opts)
    for (const [a, b] of [
      [0, 7],
      [7, 17_000],
      [17_000, 17_001],
      [17_001, 39_000],
      [39_000, 40_000],
    ] as const)
      agg.addColumns(tradesToColumns(trades.slice(a, b)))
    expect(agg.finish()).toEqual(want)
    expect(want.length).toBeGreaterThan(50)
  })

  it('names index and field of bad records; out-of-order and late records', () => {
    const ok: Trade = { time: T0, price: '1', volume: '1', side: 'buy' }
    const bad = (t: unknown[], opts: CandleOptions = { timeframe: '1m' }) => {
      try {
        candlesFromTrades(t as Trade[], opts)
      } catch (e) {
        expect(e).toBeInstanceOf(MarketDataError)
        return e as MarketDataError
      }
      throw new Error('did not throw')
    }
    expect(bad([ok, { ...ok, price: 'x' }])).toMatchObject({ index: 1, field: 'price', code: 'invalid_decimal' })
    expect(bad([ok, ok, { ...ok, volume: -1 }])).toMatchObject({ index: 2, field: 'volume' })
    expect(bad([ok, { ...ok, time: T0 - 1 }])).toMatchObject({ index: 1, field: 'time', code: 'out_of_order' })
    expect(bad([ok, { ...ok, side: 'b' }])).toMatchObject({ index: 1, field: 'side' })
    expect(bad([ok, { ...ok, session: 'x' }], { timeframe: '1m', sessions: ['PRE_MARKET'] })).toMatchObject({
      index: 1,
      field: 'session',
    })
    const cols = tradesToColumns([ok, ok, ok])
    cols.time[2] = T0 - 5
    expect(bad([cols])).toMatchObject({ index: 2, code: 'out_of_order' })
    expect(bad([ok, cols])).toMatchObject({ index: 3, code: 'out_of_order' })
    const agg = createCandleAggregator({ timeframe: '1m' })
    agg.add(ok)
    expect(agg.advance(T0 + 120_000)).toHaveLength(1)
    expect(agg.take()).toHaveLength(0)
    expect(() => agg.add({ ...ok, time: T0 + 60_000 })).toThrow(
      expect.objectContaining({ code: 'late_record', index: 1 }),
    )
    expect(() => candlesFromTrades([ok], { timeframe: '61m' as TimeframeId })).toThrow(/timeframe/)
    expect(() => candlesFromTrades([ok], { timeframe: '1m', timeZone: 'Mars/Base' })).toThrow(/timeZone/)
    expect(() => candlesFromTrades([ok], { timeframe: '1m', tickSize: '0' })).toThrow(/tickSize/)
  })

  it('closed candles are handed out as time passes them; current() shows the open one', () => {
    const seen: Candle[] = []
    const agg = createCandleAggregator({ timeframe: '1m', onCandle: (c) => seen.push(c) })
    agg.add({ time: T0 + 5, price: '10', volume: '1', side: 'buy' })
    expect(seen).toHaveLength(0)
    expect(agg.current()).toMatchObject({ time: T0, open: '10', trades: 1 })
    agg.add({ time: T0 + 60_000, price: '11', volume: '1', side: 'buy' })
    expect(seen).toMatchObject([{ time: T0, close: '10' }])
    agg.advance(T0 + 119_999)
    expect(seen).toHaveLength(1)
    agg.advance(T0 + 120_000)
    expect(seen).toHaveLength(2)
    expect(agg.current()).toBeUndefined()
    const tick = createCandleAggregator({ timeframe: '2t' })
    tick.add({ time: T0, price: '1', volume: '1', side: 'buy' })
    expect(tick.take()).toHaveLength(0)
    tick.add({ time: T0, price: '2', volume: '1', side: 'buy' })
    expect(tick.take()).toMatchObject([{ open: '1', close: '2', trades: 2 }])
  })
})
