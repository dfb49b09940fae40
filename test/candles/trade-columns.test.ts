// candleColumnsFromTrades: the candles of candlesFromTrades as numbers, exact or refused.
// (Its fast loops' bail-outs and long days are in fast-path.test.ts and stepping.test.ts.)
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  candleColumnsFromTrades,
  candlesFromTrades,
  resampleCandleColumns,
  type CandleOptions,
} from '../../src/candles/index.js'
import type { MarketDataError } from '../../src/errors.js'
import { timeZoneArb, timeframeArb, tradesArb } from '../../src/testing/index.js'
import { tradesToColumns, type SessionType, type Trade, type TradeColumns } from '../../src/trades/index.js'
import { ALL_COLUMNS as ALL, asColumns } from './helpers.js'
import { referenceCandlesFromTrades } from './reference.js'
import type { TimeframeId } from '../../src/time/index.js'

const T0 = Date.UTC(2026, 4, 29, 13)
const SESSIONS: SessionType[] = ['MAINSESSION', 'PRE_MARKET', 'POST_MARKET']

const optsArb: fc.Arbitrary<CandleOptions> = fc.record(
  {
    timeframe: fc.oneof(
      fc.constantFrom<CandleOptions['timeframe']>('1m', '15m', '1h', '1d', '1w', '1M', '7t', '100t'),
      timeframeArb(),
    ),
    timeZone: timeZoneArb(),
    sessions: fc.subarray(SESSIONS, { minLength: 1 }),
  },
  { requiredKeys: ['timeframe'] },
)

// DST in New York began 2026-03-08; start there so minute and hour frames cross the change.
const dstTrades = tradesArb({
  start: Date.UTC(2026, 2, 8, 4),
  maxGapMs: 40 * 60_000,
  offGrid: true,
  negativePrices: true,
})

const trade = (time: number, price: number, volume: number, side: 'buy' | 'sell' = 'buy'): Trade => ({
  time,
  price,
  volume,
  side,
})

describe('candleColumnsFromTrades = candlesFromTrades as numbers', () => {
  it('any valid trades (off the grid, negative prices, equal times), any time or tick frame, zone and session filter, across DST', () => {
    fc.assert(
      fc.property(dstTrades, optsArb, (trades, opts) => {
        const want = asColumns(referenceCandlesFromTrades(trades, opts), ALL)
        const cols = tradesToColumns(trades)
        if (want.inexact)
          expect(() => candleColumnsFromTrades(cols, opts)).toThrow(expect.objectContaining({ code: 'inexact' }))
        else expect(candleColumnsFromTrades(cols, opts)).toEqual(want.cols)
      }),
      { numRuns: 200 },
    )
  })

  it('batches (an array or a generator of TradeColumns, split anywhere, empty ones included) = one TradeColumns = the reference', () => {
    fc.assert(
      fc.property(
        dstTrades,
        optsArb,
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.boolean(),
        (trades, opts, cuts, lazy) => {
          const at = cuts.map((c) => c % (trades.length + 1)).sort((a, b) => a - b)
          const parts = [...at, trades.length].map((b, k) => tradesToColumns(trades.slice(k === 0 ? 0 : at[k - 1], b)))
          const batches = lazy
            ? (function* () {
                yield* parts
              })()
            : parts
          const want = asColumns(referenceCandlesFromTrades(trades, opts), ALL)
          if (want.inexact)
            expect(() => candleColumnsFromTrades(batches, opts)).toThrow(expect.objectContaining({ code: 'inexact' }))
          else expect(candleColumnsFromTrades(batches, opts)).toEqual(want.cols)
        },
      ),
      { numRuns: 150 },
    )
  })

  it('a bad trade in a batch throws what candlesFromTrades throws on the same batches (index counted across batches, field)', () => {
    fc.assert(
      fc.property(
        dstTrades.filter((t) => t.length >= 2),
        fc.nat(),
        fc.nat(),
        fc.constantFrom('back', 'side', 'volume'),
        (trades, cut, at, what) => {
          const c = 1 + (cut % (trades.length - 1))
          const parts = [tradesToColumns(trades.slice(0, c)), tradesToColumns(trades.slice(c))]
          const b = parts[at % 2]!
          const i = at % b.time.length
          // (the very first trade moved back is still in order: it gets a bad side instead)
          const back = what === 'back' && !(b === parts[0] && i === 0)
          if (back) b.time[i] = (b.time[i] as number) - 86_400_000 * 400
          if (what === 'side' || (what === 'back' && !back)) b.side[i] = 7
          if (what === 'volume') b.volume[i] = -1
          const caught = (f: () => unknown): Record<string, unknown> => {
            try {
              f()
            } catch (e) {
              const m = e as MarketDataError
              return { code: m.code, index: m.index, field: m.field, message: m.message }
            }
            return {}
          }
          const want = caught(() => candlesFromTrades(parts, { timeframe: '1h' }))
          // the corrupted record is refused
          expect(want.code).toBeDefined()
          // its index counts records across all batches
          expect(want.index).toBe((b === parts[0] ? 0 : parts[0]!.time.length) + i)
          expect(caught(() => candleColumnsFromTrades(parts, { timeframe: '1h' }))).toEqual(want)
        },
      ),
      { numRuns: 100 },
    )
  })

  it('nests: resampleCandleColumns(candleColumnsFromTrades(t, 1m), 15m / 1h / 1d) = candleColumnsFromTrades(t, 15m / 1h / 1d), in zones with DST', () => {
    fc.assert(
      fc.property(
        dstTrades,
        fc.constantFrom('15m', '1h', '1d'),
        fc.constantFrom('UTC', 'America/New_York', 'Asia/Kolkata'),
        (trades, timeframe, timeZone) => {
          const cols = tradesToColumns(trades)
          const m1 = candleColumnsFromTrades(cols, { timeframe: '1m', timeZone })
          expect(resampleCandleColumns(m1, { sourceTimeframe: '1m', timeframe, timeZone })).toEqual(
            candleColumnsFromTrades(cols, { timeframe, timeZone }),
          )
        },
      ),
      { numRuns: 60 },
    )
  })

  it('builds OHLCV, value, trades and session as numbers', () => {
    const cols = tradesToColumns([
      trade(T0 + 1_000, 5000.25, 2),
      trade(T0 + 9_000, 5000.5, 1, 'sell'),
      { ...trade(T0 + 61_000, 4999.75, 4), session: 'POST_MARKET' },
    ])
    expect(candleColumnsFromTrades(cols, { timeframe: '1m' })).toEqual({
      time: new Float64Array([T0, T0 + 60_000]),
      open: new Float64Array([5000.25, 4999.75]),
      high: new Float64Array([5000.5, 4999.75]),
      low: new Float64Array([5000.25, 4999.75]),
      close: new Float64Array([5000.5, 4999.75]),
      volume: new Float64Array([3, 4]),
      value: new Float64Array([15001, 19999]),
      trades: new Float64Array([2, 1]),
      session: new Uint8Array([0, 2]),
    })
  })

  it('a -0 price comes out as 0 (its decimal form), in closed-candle records and the last candle', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.constantFrom('1m', '1h', '5t'), (n, timeframe) => {
        // a trade every 20 s: the minute frame steps from candle to candle inside one call
        const cols: TradeColumns = {
          time: new Float64Array(n).map((_, i) => T0 + i * 20_000),
          price: new Float64Array(n).fill(-0),
          volume: new Float64Array(n).fill(3),
          side: new Uint8Array(n).fill(1),
        }
        const out = candleColumnsFromTrades(cols, { timeframe })
        expect(out.time.length).toBeGreaterThan(0)
        for (const k of ['open', 'high', 'low', 'close', 'value'] as const) {
          for (const x of out[k] as Float64Array) expect(Object.is(x, 0), `${k} ${x}`).toBe(true)
        }
      }),
      { numRuns: 40 },
    )
  })

  it('does not touch its input', () => {
    const cols = tradesToColumns(
      Array.from({ length: 500 }, (_, i) =>
        trade(T0 + i * 7_000, 4000 + (i % 13) * 0.25, 1 + (i % 4), i % 2 ? 'buy' : 'sell'),
      ),
    )
    const copy = Object.fromEntries(Object.entries(cols).map(([k, v]) => [k, (v as Float64Array).slice()]))
    candleColumnsFromTrades(cols, { timeframe: '1m' })
    expect(cols).toEqual(copy)
  })
})

describe('candleColumnsFromTrades refuses what numbers cannot say', () => {
  it('a volume or value sum with more significant digits than a double carries throws inexact naming the field and candlesFromTrades', () => {
    // volumes: 8 decimals and 1e9 sum to 18 significant digits
    const vol = [trade(T0, 2, 12345678.12345678), trade(T0 + 60_000, 2, 1_000_000_000)]
    expect(candlesFromTrades(vol, { timeframe: '1h' })[0]?.volume).toBe('1012345678.12345678')
    expect(() => candleColumnsFromTrades(tradesToColumns(vol), { timeframe: '1h' })).toThrow(
      expect.objectContaining({
        code: 'inexact',
        field: 'volume',
        message: expect.stringContaining('candlesFromTrades'),
      }),
    )
    // the same trades in smaller candles are exact
    expect(Array.from(candleColumnsFromTrades(tradesToColumns(vol), { timeframe: '1m' }).volume)).toEqual([
      12345678.12345678, 1000000000,
    ])
    // value: a whole volume times an 8-decimal price, 18 significant digits
    const val = [trade(T0, 1.00000001, 1_000_000_001)]
    expect(candlesFromTrades(val, { timeframe: '1m' })[0]?.value).toBe('1000000011.00000001')
    expect(() => candleColumnsFromTrades(tradesToColumns(val), { timeframe: '1m' })).toThrow(
      expect.objectContaining({ code: 'inexact', field: 'value' }),
    )
  })

  it('a bad record after an inexact sum is reported first (input errors before output limits)', () => {
    const cols = tradesToColumns([
      trade(T0, 2, 12345678.12345678),
      trade(T0 + 60_000, 2, 1_000_000_000),
      trade(T0 + 120_000, 2, 1),
    ])
    cols.time[2] = T0 - 1
    expect(() => candleColumnsFromTrades(cols, { timeframe: '1h' })).toThrow(
      expect.objectContaining({ code: 'out_of_order', index: 2 }),
    )
  })

  it('tickSize, options that are not an object and malformed columns are refused with the field', () => {
    const cols = tradesToColumns([trade(T0, 1, 1)])
    expect(() => candleColumnsFromTrades(cols, { timeframe: '1h', tickSize: '0.25' } as CandleOptions)).toThrow(
      expect.objectContaining({ field: 'tickSize', message: expect.stringContaining('candlesFromTrades') }),
    )
    expect(() => candleColumnsFromTrades(cols, null as unknown as CandleOptions)).toThrow(
      expect.objectContaining({ field: 'options' }),
    )
    expect(() => candleColumnsFromTrades(cols, { timeframe: '7x' as TimeframeId })).toThrow(
      expect.objectContaining({ field: 'timeframe' }),
    )
    expect(() => candleColumnsFromTrades({ ...cols, volume: new Float64Array(2) }, { timeframe: '1h' })).toThrow(
      expect.objectContaining({ field: 'volume' }),
    )
    // trade objects (an iterable whose items are not columns) and things that are not iterable
    expect(() =>
      candleColumnsFromTrades([cols, trade(T0, 1, 1)] as unknown as TradeColumns[], { timeframe: '1h' }),
    ).toThrow(
      expect.objectContaining({ code: 'invalid_option', field: 'trades', message: expect.stringContaining('batch 1') }),
    )
    expect(() => candleColumnsFromTrades(42 as unknown as TradeColumns, { timeframe: '1h' })).toThrow(
      expect.objectContaining({ code: 'invalid_option', field: 'trades' }),
    )
    expect(() =>
      candleColumnsFromTrades({ price: new Float64Array(1) } as unknown as TradeColumns, { timeframe: '1h' }),
    ).toThrow(expect.objectContaining({ code: 'invalid_option', field: 'trades' }))
  })

  it('empty columns give empty columns with value, trades and session', () => {
    const e = () => new Float64Array(0)
    const out = candleColumnsFromTrades(
      { time: e(), price: e(), volume: e(), side: new Uint8Array(0) },
      { timeframe: '1d' },
    )
    expect(out).toEqual({
      time: e(),
      open: e(),
      high: e(),
      low: e(),
      close: e(),
      volume: e(),
      value: e(),
      trades: e(),
      session: new Uint8Array(0),
    })
  })
})
