// The three streaming aggregators behind one harness: the same hostile sequences run through each.
import fc from 'fast-check'
import type { Aggregator, AggregatorKind } from '../../src/aggregator.js'
import { candlesFromTrades, createCandleAggregator } from '../../src/candles/index.js'
import { createFootprintAggregator, footprintProfiles } from '../../src/footprint/index.js'
import { createTpoAggregator, tpoProfiles } from '../../src/tpo/index.js'
import type { Trade, TradeColumns } from '../../src/trades/index.js'

export const T0 = Date.UTC(2026, 4, 29, 13)

/** What the laws drive: the contract itself (outputs compared as JSON). */
export type Driven = Aggregator<Trade, unknown>

/** An aggregator under the contract: its factory (options fixed, `extra` added) and its batch function. */
export interface Subject {
  name: string
  kind: AggregatorKind
  make(extra?: Record<string, unknown>): Driven
  batch(trades: Trade[]): unknown[]
}

const CANDLE = { timeframe: '5m' } as const
const FOOTPRINT = { timeframe: '5m', tickSize: '0.25' } as const
const TPO = { timeframe: '1d', tickSize: '0.25', blockSize: '30m' } as const

export const SUBJECTS: Subject[] = [
  {
    name: 'candles',
    kind: 'candles',
    make: (extra = {}) => createCandleAggregator({ ...CANDLE, ...extra }),
    batch: (t) => candlesFromTrades(t, CANDLE),
  },
  {
    name: 'footprint',
    kind: 'footprint',
    make: (extra = {}) => createFootprintAggregator({ ...FOOTPRINT, ...extra }),
    batch: (t) => footprintProfiles(t, FOOTPRINT),
  },
  {
    name: 'tpo',
    kind: 'tpo',
    make: (extra = {}) => createTpoAggregator({ ...TPO, ...extra }),
    batch: (t) => tpoProfiles(t, TPO),
  },
]

const priceArb = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(5000, 5000.25, 4999.75, 5001.5, 4998) },
  { weight: 1, arbitrary: fc.constantFrom(5000.1, 4999.125, 5000.00001) },
)
const volumeArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(1, 2, 5) },
  { weight: 1, arbitrary: fc.constantFrom(0, 0.5, 0.125) },
)
const stepArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(0, 1_000, 20_000) },
  { weight: 2, arbitrary: fc.constantFrom(300_000, 1_800_000) },
  { weight: 1, arbitrary: fc.constantFrom(86_400_000, 3 * 86_400_000) },
)

/** Valid trades in time order (numbers, as columns can hold them; some as strings). */
export const tradesArb = fc
  .array(
    fc.record({
      step: stepArb,
      price: priceArb,
      volume: volumeArb,
      sell: fc.boolean(),
      pre: fc.integer({ min: 0, max: 9 }),
      str: fc.boolean(),
    }),
    { minLength: 0, maxLength: 40 },
  )
  .map((rs) => {
    let t = T0
    return rs.map((r): Trade => {
      t += r.step
      const tr: Trade = {
        time: t,
        price: r.str ? String(r.price) : r.price,
        volume: r.str ? String(r.volume) : r.volume,
        side: r.sell ? 'sell' : 'buy',
      }
      if (r.pre === 0) tr.session = 'PRE_MARKET'
      return tr
    })
  })

/** The same trades as columns. */
export function toColumns(trades: readonly Trade[]): TradeColumns {
  const codes = { MAINSESSION: 0, PRE_MARKET: 1, POST_MARKET: 2 }
  return {
    time: Float64Array.from(trades, (t) => t.time),
    price: Float64Array.from(trades, (t) => Number(t.price)),
    volume: Float64Array.from(trades, (t) => Number(t.volume)),
    side: Uint8Array.from(trades, (t) => (t.side === 'buy' ? 1 : 2)),
    session: Uint8Array.from(trades, (t) => codes[t.session ?? 'MAINSESSION']),
  }
}

/** A bad value for one field of a trade object (each one refused by every aggregator). */
export const badObjectField = fc.oneof(
  fc.record({
    field: fc.constant('time' as const),
    value: fc.constantFrom<unknown>(Number.NaN, 1.5, Number.POSITIVE_INFINITY, 'x', null, 9e15),
  }),
  fc.record({
    field: fc.constant('price' as const),
    value: fc.constantFrom<unknown>('abc', Number.NaN, Number.POSITIVE_INFINITY, '', null, '1.2.3', {}),
  }),
  fc.record({
    field: fc.constant('volume' as const),
    value: fc.constantFrom<unknown>(-1, '-0.5', 'abc', Number.NaN, null, Number.POSITIVE_INFINITY),
  }),
  fc.record({ field: fc.constant('side' as const), value: fc.constantFrom<unknown>('x', undefined, 1, 'BUY') }),
  fc.record({ field: fc.constant('session' as const), value: fc.constantFrom<unknown>('LUNCH', 0, null) }),
)

/** A bad value for one column of a trade (each one refused by every aggregator). */
export const badColumnField = fc.oneof(
  fc.record({
    field: fc.constant('time' as const),
    value: fc.constantFrom(Number.NaN, 1.5, Number.POSITIVE_INFINITY, 9e15),
  }),
  fc.record({
    field: fc.constant('price' as const),
    value: fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
  }),
  fc.record({
    field: fc.constant('volume' as const),
    value: fc.constantFrom(-1, -0.5, Number.NaN, Number.POSITIVE_INFINITY),
  }),
  fc.record({ field: fc.constant('side' as const), value: fc.constantFrom(0, 3, 255) }),
  fc.record({ field: fc.constant('session' as const), value: fc.constantFrom(3, 200) }),
)

/** A trade at `time` with one field made bad. */
export function badTrade(time: number, bad: { field: string; value: unknown }): Trade {
  const t: Record<string, unknown> = { time, price: 5000, volume: 1, side: 'buy' }
  t[bad.field] = bad.value
  return t as unknown as Trade
}

/** Columns of one trade at `time` with one column made bad. */
export function badColumns(time: number, bad: { field: string; value: number }): TradeColumns {
  const c = toColumns([{ time, price: 5000, volume: 1, side: 'buy' }])
  ;(c[bad.field as 'time'] as Float64Array)[0] = bad.value
  return c
}

/** Runs `f`, returning the error it throws (undefined when it returns). */
export function thrown(f: () => unknown): unknown {
  try {
    f()
    return undefined
  } catch (e) {
    return e
  }
}

/** A JSON copy (outputs compared as data). */
export const json = (x: unknown): unknown => JSON.parse(JSON.stringify(x))
